// The core's memory of the blocks regions sent it: a block sent twice (its first answer lost, or a
// region asking again while the core is still on it) goes to the nodes once, and every request for
// it gets the same verdict; a region whose answer was lost asks for the status by hash instead of
// guessing that the core is unreachable.
import type { BlockSubmitResult } from '../stratum/source.js';
import type { StatusReply } from './messages.js';

/**
 * Blocks remembered (oldest forgotten first). A region asks about a block for BLOCK_RESEND_MS at
 * most; far fewer than this many blocks are found pool-wide in that time. A block forgotten (or
 * unknown to a new accounting leader) is simply submitted again: the nodes answer "duplicate".
 */
export const REGION_BLOCKS_KEPT = 256;

interface Entry {
  since: number;
  verdict: Promise<BlockSubmitResult>;
  result?: BlockSubmitResult;
}

export class RegionBlocks {
  private readonly entries = new Map<string, Entry>();

  /** The block's verdict: `submit` runs once per hash, later requests share its answer. */
  submit(
    hash: string,
    submit: () => Promise<BlockSubmitResult>,
  ): { verdict: Promise<BlockSubmitResult>; again: boolean } {
    const known = this.entries.get(hash);
    if (known) return { verdict: known.verdict, again: true };
    const entry: Entry = {
      since: Date.now(),
      verdict: submit().catch((error: unknown): BlockSubmitResult => ({
        status: 'unknown',
        nodeResult: `submit failed: ${(error as Error).message}`,
      })),
    };
    void entry.verdict.then((result) => {
      entry.result = result;
      // An unknown outcome is not kept as the answer: the next request for it tries the nodes again.
      if (result.status === 'unknown' && this.entries.get(hash) === entry) this.entries.delete(hash);
    });
    this.entries.set(hash, entry);
    for (const old of this.entries.keys()) {
      if (this.entries.size <= REGION_BLOCKS_KEPT) break;
      this.entries.delete(old);
    }
    return { verdict: entry.verdict, again: false };
  }

  status(hash: string): StatusReply {
    const entry = this.entries.get(hash);
    if (!entry) return { state: 'unknown' };
    if (!entry.result) return { state: 'submitting', since: entry.since };
    const { status, nodeResult, tipHash } = entry.result;
    return {
      state: 'done',
      result: tipHash === undefined ? { status, nodeResult } : { status, nodeResult, tipHash },
    };
  }
}
