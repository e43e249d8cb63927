import { COINS, type Coin } from '@manjam/protocol';
import { PAYEE_KEY_SQL } from './worker-agents.js';
import type { Queryable } from '../types.js';

/** Expected hashes per unit of share difficulty, per coin (from @manjam/protocol). */
/** Expected hashes per unit of share difficulty of each pool coin (services/stats/figures.ts). */
export type HashFactors = Record<Coin, number>;

/**
 * `s.accepted_difficulty` in hashes, by the worker's coin. The factors are the code's own
 * constants (numbers, never input), so they are written into the SQL as literals.
 */
export function hashesSql(factors: HashFactors): string {
  const cases = COINS.map((coin) => `WHEN '${coin}' THEN ${Number(factors[coin])}::float8`).join(' ');
  return `s.accepted_difficulty * CASE w.coin ${cases} ELSE 0 END`;
}

export interface UserWorkerRow {
  id: number;
  payeeId: number;
  /** The wallet address the worker logs in with, or null when it logs in with the account name. */
  walletAddress: string | null;
  coin: string;
  name: string;
  displayName: string | null;
  type: string;
  algorithm: string;
  lastShareAt: Date | null;
  acceptedShares: number;
  rejectedShares: number;
  staleShares: number;
}

interface RawUserWorker {
  id: number;
  payee_id: number;
  address: string | null;
  coin: string;
  name: string;
  display_name: string | null;
  type: string;
  algorithm: string;
  last_share_at: Date | null;
  accepted_shares: bigint;
  rejected_shares: bigint;
  stale_shares: bigint;
}

const toUserWorker = (r: RawUserWorker): UserWorkerRow => ({
  id: Number(r.id),
  payeeId: Number(r.payee_id),
  walletAddress: r.address,
  coin: r.coin,
  name: r.name,
  displayName: r.display_name,
  type: r.type,
  algorithm: r.algorithm,
  lastShareAt: r.last_share_at === null ? null : new Date(r.last_share_at),
  acceptedShares: Number(r.accepted_shares),
  rejectedShares: Number(r.rejected_shares),
  staleShares: Number(r.stale_shares),
});

/**
 * A worker's device type: the owner's choice (Edit Worker), else what its mining software said at
 * login (worker_agents, stratum/worker-agents.ts), else its algorithm's usual hardware.
 */
const WORKER_SELECT = `SELECT w.id, w.payee_id, up.address, w.coin, w.name, w.display_name,
  CASE WHEN w.type_chosen THEN w.type ELSE COALESCE(a.device_type, w.type) END AS type,
  w.algorithm, w.last_share_at, w.accepted_shares, w.rejected_shares, w.stale_shares
  FROM workers w JOIN user_payees up ON up.payee_id = w.payee_id
  JOIN payees p ON p.id = w.payee_id
  LEFT JOIN worker_agents a ON a.payee_key = ${PAYEE_KEY_SQL} AND a.worker = w.name`;

/** One worker's share sums over the last 10 minutes, hour and 24 hours (difficulty in its coin's Stratum unit). */
export interface WorkerHashrateRow {
  workerId: number;
  coin: string;
  difficulty10m: number;
  difficulty1h: number;
  difficulty24h: number;
  /** Start of the first minute with an accepted share in the last 10 minutes / hour / 24 hours. */
  firstBucket10m: Date | null;
  firstBucket1h: Date | null;
  firstBucket24h: Date | null;
  /** The first accepted share of the 24 hours, to the millisecond (null when its row is gone or not yet written). */
  firstShare24h: Date | null;
  accepted24h: number;
  /** Stale, duplicate, low-difficulty and invalid submits in the last 24 hours. */
  rejected24h: number;
  /**
   * The worker's newest accepted share (null before its first): the sums count every share up to it,
   * since the share writer updates it and share_stats in one transaction and one query reads both.
   */
  lastShareAt: Date | null;
}

const dateOrNull = (d: Date | null): Date | null => (d === null ? null : new Date(d));

/** Read-side queries over a user's workers and share_stats (hashrate windows, charts); a user's workers are those of
 * their payees in the `user_payees` view (account payees and their registered wallet's payee). */
export class ActivityQueries {
  constructor(private readonly db: Queryable) {}

  /** Every visible worker of the user's payees (the `user_payees` view), all coins. */
  async userWorkers(userId: number): Promise<UserWorkerRow[]> {
    const result = await this.db.query<RawUserWorker>(
      `${WORKER_SELECT} WHERE up.user_id = $1 AND w.hidden_at IS NULL ORDER BY w.id`,
      [userId],
    );
    return result.rows.map(toUserWorker);
  }

  async userWorker(userId: number, workerId: number): Promise<UserWorkerRow | undefined> {
    const result = await this.db.query<RawUserWorker>(
      `${WORKER_SELECT} WHERE up.user_id = $1 AND w.hidden_at IS NULL AND w.id = $2`,
      [userId, workerId],
    );
    return result.rows[0] && toUserWorker(result.rows[0]);
  }

  /** Share sums of every visible worker of the user in the windows starting at `since` (10 min, 1 h, 24 h). */
  async workerHashrates(
    userId: number,
    since: { m10: Date; h1: Date; h24: Date },
  ): Promise<WorkerHashrateRow[]> {
    const result = await this.db.query<{
      id: number;
      coin: string;
      d10m: number | null;
      d1h: number | null;
      d24h: number | null;
      first10m: Date | null;
      first1h: Date | null;
      first24h: Date | null;
      first_share: Date | null;
      accepted: number | null;
      rejected: number | null;
      last_share_at: Date | null;
    }>(
      `WITH sums AS (
         SELECT w.id, w.coin, w.last_share_at,
                SUM(s.accepted_difficulty) FILTER (WHERE s.bucket >= $2)::float8 AS d10m,
                SUM(s.accepted_difficulty) FILTER (WHERE s.bucket >= $3)::float8 AS d1h,
                SUM(s.accepted_difficulty)::float8 AS d24h,
                MIN(s.bucket) FILTER (WHERE s.bucket >= $2 AND s.accepted > 0) AS first10m,
                MIN(s.bucket) FILTER (WHERE s.bucket >= $3 AND s.accepted > 0) AS first1h,
                MIN(s.bucket) FILTER (WHERE s.accepted > 0) AS first24h,
                SUM(s.accepted)::float8 AS accepted,
                SUM(s.stale + s.duplicate + s.low_difficulty + s.invalid)::float8 AS rejected
           FROM workers w JOIN user_payees up ON up.payee_id = w.payee_id
           LEFT JOIN share_stats s ON s.worker_id = w.id AND s.bucket >= $4
          WHERE up.user_id = $1 AND w.hidden_at IS NULL
          GROUP BY w.id, w.coin, w.last_share_at)
       SELECT sums.*,
              (SELECT MIN(sh.created_at) FROM shares sh
                WHERE sh.worker_id = sums.id AND sums.first24h IS NOT NULL
                  AND sh.created_at >= sums.first24h AND sh.created_at < sums.first24h + interval '1 minute') AS first_share
         FROM sums`,
      [userId, since.m10, since.h1, since.h24],
    );
    return result.rows.map((r) => ({
      workerId: Number(r.id),
      coin: r.coin,
      difficulty10m: Number(r.d10m ?? 0),
      difficulty1h: Number(r.d1h ?? 0),
      difficulty24h: Number(r.d24h ?? 0),
      firstBucket10m: dateOrNull(r.first10m),
      firstBucket1h: dateOrNull(r.first1h),
      firstBucket24h: dateOrNull(r.first24h),
      firstShare24h: dateOrNull(r.first_share),
      accepted24h: Number(r.accepted ?? 0),
      rejected24h: Number(r.rejected ?? 0),
      lastShareAt: dateOrNull(r.last_share_at),
    }));
  }

  /** Accepted difficulty of the given workers of the user per `stepSeconds` slot of [from, to) (slot 0 starts at `from`). */
  async workerSeries(
    userId: number,
    workerIds: readonly number[],
    from: Date,
    to: Date,
    stepSeconds: number,
  ): Promise<{ workerId: number; slot: number; difficulty: number }[]> {
    if (workerIds.length === 0) return [];
    const result = await this.db.query<{ worker_id: number; slot: number | string; d: number | null }>(
      `SELECT s.worker_id, floor((extract(epoch FROM s.bucket) - $5::float8) / $6::float8)::int AS slot,
              SUM(s.accepted_difficulty)::float8 AS d
         FROM share_stats s JOIN workers w ON w.id = s.worker_id JOIN user_payees up ON up.payee_id = w.payee_id
        WHERE up.user_id = $1 AND s.worker_id = ANY($2::int[]) AND s.bucket >= $3 AND s.bucket < $4
        GROUP BY 1, 2`,
      [userId, workerIds, from, to, from.getTime() / 1000, stepSeconds],
    );
    return result.rows.map((r) => ({
      workerId: Number(r.worker_id),
      slot: Number(r.slot),
      difficulty: Number(r.d ?? 0),
    }));
  }

  /** Expected hashes and distinct active workers of a user in [from, mid) and [mid, to). */
  async userTotals(
    userId: number,
    from: Date,
    mid: Date,
    to: Date,
    factors: HashFactors,
  ): Promise<{
    currentHashes: number;
    previousHashes: number;
    currentWorkers: number;
    previousWorkers: number;
  }> {
    const hashes = hashesSql(factors);
    const result = await this.db.query<{ ch: number | null; ph: number | null; cw: bigint; pw: bigint }>(
      `SELECT SUM(CASE WHEN s.bucket >= $3 THEN ${hashes} ELSE 0 END) AS ch,
              SUM(CASE WHEN s.bucket < $3 THEN ${hashes} ELSE 0 END) AS ph,
              COUNT(DISTINCT CASE WHEN s.bucket >= $3 AND s.accepted > 0 THEN s.worker_id END) AS cw,
              COUNT(DISTINCT CASE WHEN s.bucket < $3 AND s.accepted > 0 THEN s.worker_id END) AS pw
         FROM share_stats s JOIN workers w ON w.id = s.worker_id JOIN user_payees up ON up.payee_id = w.payee_id
        WHERE up.user_id = $1 AND s.bucket >= $2 AND s.bucket < $4`,
      [userId, from, mid, to],
    );
    const row = result.rows[0];
    return {
      currentHashes: Number(row?.ch ?? 0),
      previousHashes: Number(row?.ph ?? 0),
      currentWorkers: Number(row?.cw ?? 0),
      previousWorkers: Number(row?.pw ?? 0),
    };
  }

  /** Expected hashes of a user's workers mining `coin` per `stepSeconds` bucket in [from, to); missing buckets absent. */
  async userSeries(
    userId: number,
    coin: string,
    from: Date,
    to: Date,
    stepSeconds: number,
    factors: HashFactors,
  ): Promise<Map<number, number>> {
    const result = await this.db.query<{ slot: number | string; hashes: number | null }>(
      `SELECT floor((extract(epoch FROM s.bucket) - $4::float8) / $5::float8)::int AS slot, SUM(${hashesSql(factors)}) AS hashes
         FROM share_stats s JOIN workers w ON w.id = s.worker_id JOIN user_payees up ON up.payee_id = w.payee_id
        WHERE up.user_id = $1 AND s.bucket >= $2 AND s.bucket < $3 AND w.coin = $6
        GROUP BY 1`,
      [userId, from, to, from.getTime() / 1000, stepSeconds, coin],
    );
    return new Map(result.rows.map((r) => [Number(r.slot), Number(r.hashes ?? 0)]));
  }

  /**
   * The user's worker named `name` (the part after the dot, any case, any coin): its last accepted
   * share and accepted shares, from the worker rows the share writer updates with every flush (one
   * indexed lookup, no scan of the shares table, so it answers quickly under a heavy share load).
   */
  async connection(
    userId: number,
    name: string,
  ): Promise<{ lastShareAt: Date | null; accepted: number; exists: boolean }> {
    const result = await this.db.query<{ last_share_at: Date | null; accepted_shares: bigint | number }>(
      `SELECT w.last_share_at, w.accepted_shares
         FROM workers w JOIN user_payees up ON up.payee_id = w.payee_id
        WHERE up.user_id = $1 AND lower(w.name) = lower($2)`,
      [userId, name],
    );
    if (result.rows.length === 0) return { lastShareAt: null, accepted: 0, exists: false };
    let last: Date | null = null;
    let accepted = 0;
    for (const row of result.rows) {
      accepted += Number(row.accepted_shares);
      const at = row.last_share_at === null ? null : new Date(row.last_share_at);
      if (at && (!last || at > last)) last = at;
    }
    return { lastShareAt: last, accepted, exists: true };
  }

  /** Renames / retypes a worker of the user; answers false when it is not theirs. */
  async updateWorker(
    userId: number,
    workerId: number,
    patch: { displayName?: string; type?: string },
  ): Promise<boolean> {
    const result = await this.db.query(
      `UPDATE workers w SET display_name = COALESCE($3, w.display_name), type = COALESCE($4, w.type),
         type_chosen = w.type_chosen OR $4::text IS NOT NULL
         FROM user_payees up WHERE up.payee_id = w.payee_id AND up.user_id = $1 AND w.id = $2 AND w.hidden_at IS NULL`,
      [userId, workerId, patch.displayName ?? null, patch.type ?? null],
    );
    return result.rowCount > 0;
  }

  /** Hides a worker from the web app (it reappears on its next share). */
  async hideWorker(userId: number, workerId: number, now: Date): Promise<boolean> {
    const result = await this.db.query(
      `UPDATE workers w SET hidden_at = $3 FROM user_payees up
        WHERE up.payee_id = w.payee_id AND up.user_id = $1 AND w.id = $2 AND w.hidden_at IS NULL`,
      [userId, workerId, now],
    );
    return result.rowCount > 0;
  }
}
