// The one rule every Stratum family and dialect applies to a hashed share (V1 SHA-256d and Scrypt,
// Stratum V2 channels, XMRig's RandomX, the Kaspa dialects): a hash that meets the NETWORK target
// is a block, submitted to the node FIRST, whatever the share target; only then is it judged as a
// share. A block whose hash lies between the network target and a (harder) share target is
// accepted and credited at the share target's difficulty, as any accepted share: it did the work
// the pool asked for and more. Refusals that come before any hash (unknown or stale job, duplicate,
// malformed) still come first: a stale job's block would be an orphan, a duplicate was submitted
// already. The share difficulty itself is kept at or under the network difficulty (vardiff.ts
// clamps vardiff, `d=` and hints per template), so a miner never discards a block of its own.

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
