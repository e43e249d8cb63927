import { expectedHashesPerShare, type Algorithm } from '@manjam/protocol';

/** The windows the pool reports hashrate over, in seconds. */
export const HASHRATE_WINDOWS = { '10m': 600, '1h': 3_600, '24h': 86_400 } as const;
export type HashrateWindow = keyof typeof HASHRATE_WINDOWS;

/**
 * Hashrate (H/s) behind a sum of accepted share difficulties over `seconds`:
 * sha256d sum(d) * 2^32 / s, scrypt sum(d) * 2^16 / s (protocol's expectedHashesPerShare).
 */
export function hashrateFromDifficulty(difficultySum: number, seconds: number, algorithm: Algorithm): number {
  if (seconds <= 0) return 0;
  return expectedHashesPerShare(difficultySum, algorithm) / seconds;
}

/** A ring of fixed-width time buckets holding sums (of difficulty, or of counts). */
export class Ring {
  private readonly sums: Float64Array;
  private readonly slots: Float64Array;

  constructor(
    private readonly count: number,
    private readonly widthMs: number,
  ) {
    this.sums = new Float64Array(count);
    this.slots = new Float64Array(count).fill(-1);
  }

  add(value: number, nowMs: number): void {
    const slot = Math.floor(nowMs / this.widthMs);
    const i = slot % this.count;
    if (this.slots[i] !== slot) {
      this.slots[i] = slot;
      this.sums[i] = 0;
    }
    this.sums[i]! += value;
  }

  /** The span `sum` covers now: the whole buckets before the current one and the current one so far. */
  spanMs(nowMs: number): number {
    return (this.count - 1) * this.widthMs + (nowMs % this.widthMs);
  }

  /** Sum over the buckets of the last `count` widths (the current, partial one included). */
  sum(nowMs: number): number {
    const current = Math.floor(nowMs / this.widthMs);
    let total = 0;
    for (let i = 0; i < this.count; i++) {
      const slot = this.slots[i]!;
      if (slot > current - this.count && slot <= current) total += this.sums[i]!;
    }
    return total;
  }
}

/**
 * The shortest span an average covers: a worker's first share alone is not read as a whole rate.
 * The same rule for the live figures here and the recorded ones (services/shared/hashrate.ts).
 */
export const MIN_AVERAGING_SECONDS = 60;

/** Each window's buckets: 10 x 1 min, 12 x 5 min, 24 x 1 h. */
const BUCKETS: Record<HashrateWindow, { count: number; widthMs: number }> = {
  '10m': { count: 10, widthMs: 60_000 },
  '1h': { count: 12, widthMs: 300_000 },
  '24h': { count: 24, widthMs: 3_600_000 },
};
const ALL_WINDOWS = Object.keys(HASHRATE_WINDOWS) as HashrateWindow[];

/**
 * Difficulty sums of one worker, payee, pool or port over the windows it is read at (all three
 * unless told), and when each window's shares began (the first share after a gap longer than it).
 */
export class RollingDifficulty {
  private readonly rings: Partial<Record<HashrateWindow, Ring>> = {};
  private readonly startMs: Record<HashrateWindow, number> = { '10m': 0, '1h': 0, '24h': 0 };
  best = 0;
  lastShareMs = 0;

  constructor(private readonly windows: readonly HashrateWindow[] = ALL_WINDOWS) {
    for (const window of windows)
      this.rings[window] = new Ring(BUCKETS[window].count, BUCKETS[window].widthMs);
  }

  add(difficulty: number, actualDifficulty: number, nowMs: number): void {
    for (const window of this.windows) {
      if (this.lastShareMs === 0 || nowMs - this.lastShareMs > HASHRATE_WINDOWS[window] * 1000)
        this.startMs[window] = nowMs;
      this.rings[window]?.add(difficulty, nowMs);
    }
    if (actualDifficulty > this.best) this.best = actualDifficulty;
    this.lastShareMs = nowMs;
  }

  /** 0 for a window it does not keep. */
  sum(window: HashrateWindow, nowMs: number): number {
    return this.rings[window]?.sum(nowMs) ?? 0;
  }

  /** Seconds the window's average covers: the window, or the time since its shares began when shorter (at least a minute). */
  seconds(window: HashrateWindow, nowMs: number): number {
    const since = (nowMs - this.startMs[window]) / 1000;
    return Math.max(MIN_AVERAGING_SECONDS, Math.min(HASHRATE_WINDOWS[window], since));
  }
}

export interface LiveHashrate {
  '10m': number;
  '1h': number;
  '24h': number;
  bestDifficulty: number;
  lastShareAt: Date | null;
}

/** In-memory live hashrate per key (worker, payee, pool); keys idle for 24 h are dropped. */
export class HashrateTracker {
  private readonly entries = new Map<string, RollingDifficulty>();

  constructor(private readonly algorithm: Algorithm) {}

  add(key: string, difficulty: number, actualDifficulty: number, nowMs: number): void {
    let entry = this.entries.get(key);
    if (!entry) {
      entry = new RollingDifficulty();
      this.entries.set(key, entry);
    }
    entry.add(difficulty, actualDifficulty, nowMs);
  }

  hashrate(key: string, window: HashrateWindow, nowMs: number): number {
    const entry = this.entries.get(key);
    return entry
      ? hashrateFromDifficulty(entry.sum(window, nowMs), entry.seconds(window, nowMs), this.algorithm)
      : 0;
  }

  live(key: string, nowMs: number): LiveHashrate {
    const entry = this.entries.get(key);
    return {
      '10m': this.hashrate(key, '10m', nowMs),
      '1h': this.hashrate(key, '1h', nowMs),
      '24h': this.hashrate(key, '24h', nowMs),
      bestDifficulty: entry?.best ?? 0,
      lastShareAt: entry && entry.lastShareMs > 0 ? new Date(entry.lastShareMs) : null,
    };
  }

  prune(nowMs: number): void {
    for (const [key, entry] of this.entries) {
      if (nowMs - entry.lastShareMs > HASHRATE_WINDOWS['24h'] * 1000) this.entries.delete(key);
    }
  }
}
