// The one place a user's hashrate figures are computed: the dashboard, the sidebar (/api/me), the
// workers page and the assistant all read `loadUserHashrate`; alerts use the same averaging rule.
import {
  portRowOfPoolCoin,
  POOL_COINS,
  type AlgorithmHashrate,
  type AveragedSeconds,
  type PoolCoin,
} from '@manjam/contract';
import { algorithmOf, isCoin } from '@manjam/protocol';
import type { Queryable } from '../../db/index.js';
import { ActivityQueries, type WorkerHashrateRow } from '../../db/repositories/queries-activity.js';
import {
  HASHRATE_WINDOWS,
  hashrateFromDifficulty as hashrateOfDifficulty,
  MIN_AVERAGING_SECONDS,
} from '../../shares/hashrate.js';
import { SHARE_SLOT_MS } from '../../shares/slots.js';

/**
 * Hashrate (H/s) of a coin's shares from a sum of their difficulties over `seconds` (the
 * algorithm's rule: shares/hashrate.ts). Zero for a coin the pool does not validate.
 */
export function hashrateFromDifficulty(coin: string, difficultySum: number, seconds: number): number {
  if (!isCoin(coin) || difficultySum <= 0) return 0;
  return hashrateOfDifficulty(difficultySum, seconds, algorithmOf(coin));
}

export const REALTIME_SECONDS = HASHRATE_WINDOWS['10m'];
export const HOUR_SECONDS = HASHRATE_WINDOWS['1h'];
const DAY_SECONDS = HASHRATE_WINDOWS['24h'];

export { MIN_AVERAGING_SECONDS };

/**
 * Seconds an average over a window covers: the whole window, or the time since the first accepted
 * share in it when that is shorter, at least a minute (a miner that started two minutes ago is shown
 * at the rate of those two minutes, not at a fifth of it). The one meaning of "10 min", "1 h" and
 * "24 h average" in Manjam.
 */
export function averagingSeconds(now: Date, firstShare: Date | null, windowSeconds = 86_400): number {
  if (!firstShare) return windowSeconds;
  const since = (now.getTime() - firstShare.getTime()) / 1000;
  return Math.max(MIN_AVERAGING_SECONDS, Math.min(windowSeconds, since));
}

/**
 * When a window's shares began: the start of the share slot (shares/slots.ts, 10 s) of the first
 * accepted share when it is known and lies in the window's first minute bucket, else the start of
 * that bucket. The slot, not the share's own millisecond: the share log's consumer stores a slot's
 * shares as one row at its last share's time, and both ways of storing shares must show the same
 * figures (a two-minute-old worker then reads at most a slot, 8 %, low).
 */
function windowStart(firstBucket: Date | null, firstShare: Date | null): Date | null {
  if (!firstBucket || !firstShare) return firstBucket;
  const slotStart = Math.floor(firstShare.getTime() / SHARE_SLOT_MS) * SHARE_SLOT_MS;
  const offset = slotStart - firstBucket.getTime();
  return offset >= 0 && offset < 60_000 ? new Date(slotStart) : firstBucket;
}

/** Seconds each of a row's averages covers (10 min, 1 h, 24 h). */
function rowSeconds(row: WorkerHashrateRow, now: Date): AveragedSeconds {
  return {
    realtime: averagingSeconds(now, windowStart(row.firstBucket10m, row.firstShare24h), REALTIME_SECONDS),
    hour: averagingSeconds(now, windowStart(row.firstBucket1h, row.firstShare24h), HOUR_SECONDS),
    day: averagingSeconds(now, windowStart(row.firstBucket24h, row.firstShare24h), DAY_SECONDS),
  };
}

/** One worker's figures: H/s over 10 min / 1 h / 24 h and its reject rate (percent, 24 h). */
export interface WorkerHashrate {
  coin: PoolCoin;
  realtime: number;
  hour: number;
  day: number;
  rejectRate: number;
  /** The newest accepted share counted into the figures (null before the first). */
  countedUpTo: Date | null;
  /** Seconds each average covers. */
  averagedSeconds: AveragedSeconds;
}

export interface UserHashrate {
  workers: ReadonlyMap<number, WorkerHashrate>;
  /** Per coin (one algorithm each) the user has a visible worker on, in PORT_TABLE order. */
  algorithms: AlgorithmHashrate[];
}

const latest = (a: Date | null, b: Date | null): Date | null => (!a ? b : !b ? a : a > b ? a : b);

/** Figures of every worker and per algorithm from the workers' share sums (pure: tested without a database). */
export function summarizeHashrate(rows: readonly WorkerHashrateRow[], now: Date): UserHashrate {
  const workers = new Map<number, WorkerHashrate>();
  const groups = new Map<PoolCoin, { figures: WorkerHashrate[]; active: number; upTo: Date | null }>();
  for (const row of rows) {
    const coin = POOL_COINS.find((c) => c === row.coin);
    if (!coin) continue;
    const seconds = rowSeconds(row, now);
    const submitted = row.accepted24h + row.rejected24h;
    const figures: WorkerHashrate = {
      coin,
      realtime: hashrateFromDifficulty(coin, row.difficulty10m, seconds.realtime),
      hour: hashrateFromDifficulty(coin, row.difficulty1h, seconds.hour),
      day: hashrateFromDifficulty(coin, row.difficulty24h, seconds.day),
      rejectRate: submitted > 0 ? (row.rejected24h / submitted) * 100 : 0,
      countedUpTo: row.lastShareAt,
      averagedSeconds: seconds,
    };
    workers.set(row.workerId, figures);
    const group = groups.get(coin) ?? { figures: [], active: 0, upTo: null };
    group.figures.push(figures);
    if (row.difficulty10m > 0) group.active += 1;
    group.upTo = latest(group.upTo, row.lastShareAt);
    groups.set(coin, group);
  }
  const algorithms: AlgorithmHashrate[] = [];
  for (const coin of POOL_COINS) {
    const group = groups.get(coin);
    if (!group) continue;
    // Each worker's rate over the time it mined, summed; the span said is the longest of those that
    // mined in the window (the whole window when none did).
    const sum = (pick: (f: WorkerHashrate) => number) => group.figures.reduce((t, f) => t + pick(f), 0);
    const longest = (key: keyof AveragedSeconds, whole: number) => {
      const spans = group.figures.filter((f) => f[key] > 0).map((f) => f.averagedSeconds[key]);
      return spans.length > 0 ? Math.max(...spans) : whole;
    };
    algorithms.push({
      algorithm: portRowOfPoolCoin(coin).account,
      coin,
      realtime: sum((f) => f.realtime),
      hour: sum((f) => f.hour),
      day: sum((f) => f.day),
      activeWorkers: group.active,
      countedUpTo: group.upTo?.toISOString() ?? null,
      averagedSeconds: {
        realtime: longest('realtime', REALTIME_SECONDS),
        hour: longest('hour', HOUR_SECONDS),
        day: longest('day', DAY_SECONDS),
      },
    });
  }
  return { workers, algorithms };
}

/** Window starts of the figures at `now`. */
export function hashrateWindows(now: Date): { m10: Date; h1: Date; h24: Date } {
  const at = now.getTime();
  return {
    m10: new Date(at - REALTIME_SECONDS * 1000),
    h1: new Date(at - HOUR_SECONDS * 1000),
    h24: new Date(at - DAY_SECONDS * 1000),
  };
}

/** A user's hashrate figures now: per visible worker and per algorithm (every window read fresh). */
export async function loadUserHashrate(db: Queryable, userId: number, now: Date): Promise<UserHashrate> {
  const rows = await new ActivityQueries(db).workerHashrates(userId, hashrateWindows(now));
  return summarizeHashrate(rows, now);
}
