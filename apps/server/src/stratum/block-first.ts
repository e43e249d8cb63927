// The one rule every Stratum family and dialect applies to a hashed share (V1 SHA-256d and Scrypt,
// Stratum V2 channels, XMRig's RandomX, the Kaspa dialects): a hash that meets the NETWORK target
// is a block, submitted to the node FIRST, whatever the share target; only then is it judged as a
// share. A block whose hash lies between the network target and a (harder) share target is
// accepted and credited at the share target's difficulty, as any accepted share: it did the work
// the pool asked for and more. Refusals that come before any hash (unknown or stale job, duplicate,
// malformed) still come first: a stale job's block would be an orphan, a duplicate was submitted
// already. The share difficulty itself is kept at or under the network difficulty (vardiff.ts
// clamps vardiff, `d=` and hints per template), so a miner never discards a block of its own.
//
// OWN-BLOCK RULE (single-chain families: Bitcoin family, Monero; not Kaspa, whose DAG keeps two
// blocks at one DAA score as equally legitimate): once the pool has submitted a block of its own on
// a parent, every share on work built on that same parent is stale, answered with the dialect's
// usual stale refusal and never submitted — a second block there could only compete with the
// pool's own block for the same height (the node keeps it as a side branch and it is orphaned).
// This is what the next template would say a moment later; the rule only closes the gap before
// it arrives. The claim stands while the pool's block may hold the height: it is withdrawn when
// the node answers anything but "on the main chain" (refused, lost, or left on a side branch by
// someone else's block), so the work on that parent is live again. A block found by someone else
// is not the pool's: until the next template makes the job stale, a share on it that meets the
// network target is still submitted (it may win the race).

/** What a hashed share is: a block (submit it, then credit it), a share, or too weak. */
export type WorkVerdict = 'block' | 'share' | 'low_difficulty';

/** The verdict on a hash, given whether it meets the network target and the share target. */
export function judgeWork(meetsNetwork: boolean, meetsShare: boolean): WorkVerdict {
  if (meetsNetwork) return 'block';
  return meetsShare ? 'share' : 'low_difficulty';
}

/**
 * The difficulty an accepted share is credited at: the share target's, for a share and for a block
 * alike (a block under the share target is not credited less, nor more for being a block).
 */
export function creditedDifficulty(shareDifficulty: number): number {
  return shareDifficulty;
}

/**
 * The parents the pool has extended with a block of its own (the OWN-BLOCK RULE above), one set per
 * coin. A parent is whatever names it in the family (the previous block's hash; Monero: the tip
 * object its templates share); the newest `keep` claims are remembered, older parents are long
 * stale through their templates anyway.
 */
export class OwnBlocks<Parent = string> {
  private readonly parents = new Map<Parent, string>();

  constructor(private readonly keep = 64) {}

  /** The pool submitted `block` on `parent`: work on `parent` is stale from now. */
  claim(parent: Parent, block: string): void {
    this.parents.delete(parent);
    this.parents.set(parent, block);
    for (const oldest of this.parents.keys()) {
      if (this.parents.size <= this.keep) break;
      this.parents.delete(oldest);
    }
  }

  /** The node did not put `block` on its main chain: work on `parent` is live again. */
  withdraw(parent: Parent, block: string): void {
    if (this.parents.get(parent) === block) this.parents.delete(parent);
  }

  /**
   * The node builds on `parent` again after it had moved past it (the pool's block left its main
   * chain, e.g. invalidated): work on `parent` is live again, whichever block claimed it.
   */
  release(parent: Parent): void {
    this.parents.delete(parent);
  }

  /** Whether a share on work built on `parent` is stale because the pool's own block extends it. */
  extends(parent: Parent): boolean {
    return this.parents.has(parent);
  }
}
