import { hashesSql, type HashFactors } from './queries-activity.js';
import type { Queryable } from '../types.js';

/** One worker of any account among the fastest: its share sums over the last 10 minutes and hour. */
export interface TopWorkerRow {
  workerId: number;
  coin: string;
  name: string;
  algorithm: string;
  /** The account's username (an account payee, or the account that registered the wallet); null otherwise. */
  username: string | null;
  /** The wallet address of a wallet payee's worker; null for an account payee. */
  address: string | null;
  lastShareAt: Date | null;
  difficulty10m: number;
  difficulty1h: number;
  /** Start of the first minute with an accepted share in the last hour. */
  firstBucket1h: Date | null;
}

/** How the ranking averages: the same rule as services/shared/hashrate.ts averagingSeconds. */
export interface TopWorkersWindow {
  /** Rank by the last 10 minutes ('10m') or the hour average ('1h'). */
  rankBy: '10m' | '1h';
  now: Date;
  /** Length of the realtime and hour windows (seconds). */
  realtimeSeconds: number;
  hourSeconds: number;
  /** The least an average is divided by (seconds): a first share alone is not a whole rate. */
  minSeconds: number;
}

/** The fastest workers across all accounts (the operator console's "Top workers"). */
export class TopWorkersQueries {
  constructor(private readonly db: Queryable) {}

  /**
   * At most `limit` workers with accepted shares in the last hour, fastest first in hashes per
   * second (the coins' hash factors make SHA-256d, Scrypt, RandomX and kHeavyHash comparable).
   * Each window's ranking divides by the time since the worker's first share in the hour, within
   * [`minSeconds`, the window], as the figures shown do, so the order is the order of the figures.
   */
  async topWorkers(window: TopWorkersWindow, limit: number, factors: HashFactors): Promise<TopWorkerRow[]> {
    const { now, realtimeSeconds, hourSeconds } = window;
    const result = await this.db.query<{
      id: number;
      coin: string;
      name: string;
      algorithm: string;
      last_share_at: Date | null;
      username: string | null;
      address: string | null;
      d10m: number | null;
      d1h: number | null;
      first1h: Date | null;
    }>(
      `WITH sums AS (
         SELECT s.worker_id,
                SUM(s.accepted_difficulty) FILTER (WHERE s.bucket >= $2)::float8 AS d10m,
                SUM(s.accepted_difficulty)::float8 AS d1h,
                COALESCE(SUM(${hashesSql(factors)}) FILTER (WHERE s.bucket >= $2), 0)::float8 AS hashes10m,
                SUM(${hashesSql(factors)})::float8 AS hashes1h,
                MIN(s.bucket) FILTER (WHERE s.accepted > 0) AS first1h
           FROM share_stats s JOIN workers w ON w.id = s.worker_id
          WHERE s.bucket >= $1
          GROUP BY s.worker_id
         HAVING SUM(s.accepted_difficulty) > 0),
       ranked AS (
         SELECT sums.*,
                CASE WHEN $7::text = '10m'
                     THEN hashes10m / GREATEST($8::float8, LEAST($3::float8, extract(epoch FROM ($5::timestamptz - first1h))))
                     ELSE hashes1h / GREATEST($8::float8, LEAST($4::float8, extract(epoch FROM ($5::timestamptz - first1h))))
                END AS rate
           FROM sums ORDER BY rate DESC, worker_id LIMIT $6)
       SELECT w.id, w.coin, w.name, w.algorithm, w.last_share_at, r.d10m, r.d1h, r.first1h,
              CASE WHEN p.kind = 'wallet' THEN p.address END AS address,
              COALESCE(u.username,
                (SELECT wu.username FROM users wu WHERE p.kind = 'wallet' AND wu.wallet_address = p.address
                  ORDER BY wu.id LIMIT 1)) AS username
         FROM ranked r JOIN workers w ON w.id = r.worker_id JOIN payees p ON p.id = w.payee_id
         LEFT JOIN users u ON u.id = p.user_id AND p.kind = 'user'
        ORDER BY r.rate DESC, w.id`,
      [
        new Date(now.getTime() - hourSeconds * 1000),
        new Date(now.getTime() - realtimeSeconds * 1000),
        realtimeSeconds,
        hourSeconds,
        now,
        limit,
        window.rankBy,
        window.minSeconds,
      ],
    );
    return result.rows.map((r) => ({
      workerId: Number(r.id),
      coin: r.coin,
      name: r.name,
      algorithm: r.algorithm,
      username: r.username,
      address: r.address,
      lastShareAt: r.last_share_at === null ? null : new Date(r.last_share_at),
      difficulty10m: Number(r.d10m ?? 0),
      difficulty1h: Number(r.d1h ?? 0),
      firstBucket1h: r.first1h === null ? null : new Date(r.first1h),
    }));
  }
}
