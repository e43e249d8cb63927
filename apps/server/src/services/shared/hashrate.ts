// The one place a user's hashrate figures are computed: the dashboard, the sidebar (/api/me), the
// workers page and the assistant all read `loadUserHashrate`; alerts use the same averaging rule.
import { portRowOfPoolCoin, POOL_COINS, type AlgorithmHashrate, type PoolCoin } from '@manjam/contract';
import { algorithmOf, expectedHashesPerShare, isCoin } from '@manjam/protocol';
import type { Queryable } from '../../db/index.js';
import {
  ActivityQueries,
  type RecentShares,
  type WorkerHashrateRow,
} from '../../db/repositories/queries-activity.js';

/**
 * Hashrate (H/s) from a sum of accepted share difficulties over `seconds`: d * 2^32 per share for
 * SHA-256d, d * 2^16 for Scrypt (protocol's expectedHashesPerShare). Zero for a coin the pool does not validate.
 */
export function hashrateFromDifficulty(coin: string, difficultySum: number, seconds: number): number {
  if (!isCoin(coin) || seconds <= 0 || difficultySum <= 0) return 0;
  return expectedHashesPerShare(difficultySum, algorithmOf(coin)) / seconds;
}

/**
 * Seconds an average over a window covers: the whole window, or the time since the first accepted
 * share in it when that is shorter, at least 10 minutes (a miner that started an hour ago is not
 * shown at 1/24 of its speed). The one meaning of "24 h average" (and "1 h") in Manjam.
 */
export function averagingSeconds(now: Date, firstBucket: Date | null, windowSeconds = 86_400): number {
  if (!firstBucket) return windowSeconds;
  const since = (now.getTime() - firstBucket.getTime()) / 1000;
  return Math.max(600, Math.min(windowSeconds, since));
}

export const REALTIME_SECONDS = 600;
export const HOUR_SECONDS = 3_600;
const DAY_SECONDS = 86_400;

/** One worker's figures: H/s over 10 min / 1 h / 24 h and its reject rate (percent, 24 h). */
export interface WorkerHashrate {
  coin: PoolCoin;
  realtime: number;
  hour: number;
  day: number;
  rejectRate: number;
  /** The newest accepted share counted into the figures (null before the first). */
  countedUpTo: Date | null;
}

export interface UserHashrate {
  workers: ReadonlyMap<number, WorkerHashrate>;
  /** Per coin (one algorithm each) the user has a visible worker on, in PORT_TABLE order. */
  algorithms: AlgorithmHashrate[];
}

const earliest = (a: Date | null, b: Date | null): Date | null => (!a ? b : !b ? a : a < b ? a : b);
const latest = (a: Date | null, b: Date | null): Date | null => (!a ? b : !b ? a : a > b ? a : b);

/** Figures of every worker and per algorithm from the workers' share sums (pure: tested without a database). */
export function summarizeHashrate(rows: readonly WorkerHashrateRow[], now: Date): UserHashrate {
  const workers = new Map<number, WorkerHashrate>();
  const groups = new Map<PoolCoin, { rows: WorkerHashrateRow[]; realtime: number; active: number }>();
  for (const row of rows) {
    const coin = POOL_COINS.find((c) => c === row.coin);
    if (!coin) continue;
    const realtime = hashrateFromDifficulty(coin, row.difficulty10m, REALTIME_SECONDS);
    const submitted = row.accepted24h + row.rejected24h;
    workers.set(row.workerId, {
      coin,
      realtime,
      hour: hashrateFromDifficulty(
        coin,
        row.difficulty1h,
        averagingSeconds(now, row.firstBucket1h, HOUR_SECONDS),
      ),
      day: hashrateFromDifficulty(
        coin,
        row.difficulty24h,
        averagingSeconds(now, row.firstBucket24h, DAY_SECONDS),
      ),
      rejectRate: submitted > 0 ? (row.rejected24h / submitted) * 100 : 0,
      countedUpTo: row.lastShareAt,
    });
    const group = groups.get(coin) ?? { rows: [], realtime: 0, active: 0 };
    group.rows.push(row);
    group.realtime += realtime;
    if (row.difficulty10m > 0) group.active += 1;
    groups.set(coin, group);
  }
  const algorithms: AlgorithmHashrate[] = [];
  for (const coin of POOL_COINS) {
    const group = groups.get(coin);
    if (!group) continue;
    let d1h = 0;
    let d24h = 0;
    let first1h: Date | null = null;
    let first24h: Date | null = null;
    let countedUpTo: Date | null = null;
    for (const row of group.rows) {
      d1h += row.difficulty1h;
      d24h += row.difficulty24h;
      first1h = earliest(first1h, row.firstBucket1h);
      first24h = earliest(first24h, row.firstBucket24h);
      countedUpTo = latest(countedUpTo, row.lastShareAt);
    }
    algorithms.push({
      algorithm: portRowOfPoolCoin(coin).account,
      coin,
      realtime: group.realtime,
      hour: hashrateFromDifficulty(coin, d1h, averagingSeconds(now, first1h, HOUR_SECONDS)),
      day: hashrateFromDifficulty(coin, d24h, averagingSeconds(now, first24h, DAY_SECONDS)),
      activeWorkers: group.active,
      countedUpTo: countedUpTo?.toISOString() ?? null,
    });
  }
  return { workers, algorithms };
}

/**
 * The workers' 1 h / 24 h sums (read less often: they move slowly and cost a day of rows) with fresh
 * 10-minute sums, and the newest share as of the fresher read (a share newer than the 1 h / 24 h read
 * is in the 10-minute window, so a worker absent from `recent` had none since).
 */
export function withRecent(
  rows: readonly WorkerHashrateRow[],
  recent: ReadonlyMap<number, RecentShares>,
): WorkerHashrateRow[] {
  return rows.map((row) => {
    const fresh = recent.get(row.workerId);
    return {
      ...row,
      difficulty10m: fresh?.difficulty ?? 0,
      lastShareAt: latest(row.lastShareAt, fresh?.lastShareAt ?? null),
    };
  });
}

/** Whether a worker has recent shares but no 1 h / 24 h sums yet: new, so those must be read again. */
export function hasNewWorker(
  rows: readonly WorkerHashrateRow[],
  recent: ReadonlyMap<number, RecentShares>,
): boolean {
  const known = new Map(rows.map((row) => [row.workerId, row.difficulty24h]));
  for (const [workerId, { difficulty }] of recent)
    if (difficulty > 0 && !(known.get(workerId) ?? 0)) return true;
  return false;
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
