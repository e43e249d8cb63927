// Helpers shared by the assistant and alerts (and any other service that reports hashrate).
import { algorithmOf, expectedHashesPerShare, isCoin } from '@manjam/protocol';

/**
 * Hashrate (H/s) from a sum of accepted share difficulties over `seconds`: d * 2^32 per share for
 * SHA-256d, d * 2^16 for Scrypt (protocol's expectedHashesPerShare). Zero for a coin the pool does not validate.
 */
export function hashrateFromDifficulty(coin: string, difficultySum: number, seconds: number): number {
  if (!isCoin(coin) || seconds <= 0 || difficultySum <= 0) return 0;
  return expectedHashesPerShare(difficultySum, algorithmOf(coin)) / seconds;
}

/** Seconds a 24 h average covers: the whole day, or since the worker's first share today (at least 10 minutes). */
export function averagingSeconds(now: Date, firstBucket: Date | null, windowSeconds = 86_400): number {
  if (!firstBucket) return windowSeconds;
  const since = (now.getTime() - firstBucket.getTime()) / 1000;
  return Math.max(600, Math.min(windowSeconds, since));
}
