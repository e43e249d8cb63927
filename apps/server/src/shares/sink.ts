import type { HeldSocket } from './journal.js';
import type { AcceptedShare, FoundBlockRecord, MinerRef, RejectReason } from './types.js';

/**
 * Where a Stratum process puts what its miners submit: the local journal + database writer
 * (ShareWriter, one machine) or the JetStream share log (sharelog/publisher.ts, regional nodes).
 * The promise to the miner is the same: `addAccepted` holds the miner's socket corked until the
 * share is durable (on disk, or stored by JetStream) and destroys it if that fails, so a `true`
 * written after it never leaves before its share is safe.
 */
export interface ShareSink {
  start(): Promise<void>;
  /** Call BEFORE writing the `true` reply (see above). */
  addAccepted(share: AcceptedShare, socket?: HeldSocket): void;
  addRejected(miner: MinerRef, reason: RejectReason, atMs: number): void;
  /** Resolves once the found block is durable. */
  addBlock(block: FoundBlockRecord): Promise<void>;
  /** Why a share cannot be taken right now (the Stratum error's text), or undefined. */
  refusal(): string | undefined;
  /**
   * Accepted shares (answered `true`) not yet where accounting reads them: the database, or the
   * core's share stream (manjam_shares_unstored on /metrics).
   */
  backlog(): number;
  /** Makes what it holds durable (or leaves it in its journal) and stops. */
  stop(): Promise<void>;
}

/**
 * The sink as one dialect sees it, its miners' coin narrowed to `C` (a coin not yet in CoinId
 * passes `string`): the share, rejection and block methods of ShareSink, nothing else.
 */
export interface DialectShareSink<C extends string> {
  /** Call BEFORE writing the success reply: the sink holds the socket corked until the share is durable. */
  addAccepted(share: Omit<AcceptedShare, 'miner'> & { miner: MinerRef<C> }, socket?: HeldSocket): void;
  addRejected(miner: MinerRef<C>, reason: RejectReason, atMs: number): void;
  addBlock(block: Omit<FoundBlockRecord, 'miner'> & { miner: MinerRef<C> }): Promise<void>;
  refusal(): string | undefined;
}
