import type { FoundBlockStatus } from '../db/repositories/blocks.js';

// What every coin family's work source answers the shared Stratum kit: a found block's fate at the
// node, and whether a node backs the coin's work (a dialect turns miners away while it does not).

export interface BlockSubmitResult {
  status: 'accepted' | 'rejected' | 'unknown';
  nodeResult: string | null;
  tipHash?: string;
}

/** Whether a node backs the coin's work (each family decides, e.g. coins/bitcoin/node/node-health.ts). */
export interface SourceAvailability {
  up: boolean;
  /** When the current state began. */
  since: Date;
  /** One line for operators. */
  message: string;
}

/** A node's answer to a submitted block -> the found block's status. */
export const FOUND_BLOCK_STATUS: Record<BlockSubmitResult['status'], FoundBlockStatus> = {
  accepted: 'pending',
  rejected: 'rejected',
  unknown: 'submitted',
};
