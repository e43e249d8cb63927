import type { FoundBlockStatus } from '../db/repositories/blocks.js';

// What every coin family's work source answers the shared Stratum kit: a found block's fate at the
// node, and whether a node backs the coin's work (a dialect turns miners away while it does not).

/**
 * A submitted block's fate at the node: on its main chain (accepted), refused (rejected), held by
 * the node on a side branch — another block at its height is on the main chain — (side_branch),
 * or not known (unknown: no clear answer, the node may not have it).
 */
export const BLOCK_SUBMIT_STATUSES = ['accepted', 'rejected', 'side_branch', 'unknown'] as const;

export interface BlockSubmitResult {
  status: (typeof BLOCK_SUBMIT_STATUSES)[number];
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

/**
 * A node's answer to a submitted block -> the found block's status. A block on a side branch is
 * what pools call orphaned (it lost the race for its height); the accounting pass makes it pending
 * again if a reorg puts it on the main chain (accounting/blocks.ts).
 */
export const FOUND_BLOCK_STATUS: Record<BlockSubmitResult['status'], FoundBlockStatus> = {
  accepted: 'pending',
  rejected: 'rejected',
  side_branch: 'orphaned',
  unknown: 'submitted',
};
