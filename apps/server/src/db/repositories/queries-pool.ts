import type { Queryable } from '../types.js';
import { hashesSql, type HashFactors } from './queries-activity.js';

export interface CoinActivity {
  coin: string;
  hashes: number;
  payees: number;
  workers: number;
}

export interface ChainTipRow {
  coin: string;
  height: number;
  networkDifficulty: number;
}

export interface BlockRow {
  coin: string;
  height: number;
  hash: string;
  status: string;
  confirmations: number;
  reward: bigint;
  finder: string | null;
  foundAt: Date;
  effort: number | null;
}

export interface LookupWorkerRow {
  workerId: number;
  payeeId: number;
  coin: string;
  name: string;
  displayName: string | null;
  algorithm: string;
  lastShareAt: Date | null;
  accepted: number;
  rejected: number;
  stale: number;
  /** Expected hashes: last 10 minutes; accepted difficulty: last day, week, month. */
  recentHashes: number;
  diffDay: number;
  diffWeek: number;
  diffMonth: number;
}

export interface PayeeEarningsRow {
  payeeId: number;
  day: bigint;
  week: bigint;
  month: bigint;
  diffDay: number;
  diffWeek: number;
  diffMonth: number;
}

const BLOCK_STATUS_SHOWN = `CASE b.status WHEN 'submitted' THEN 'pending' ELSE b.status END`;

/** Public read-side queries: pool totals, blocks, miner lookup. */
export class PoolQueries {
  constructor(private readonly db: Queryable) {}

  async coinActivity(from: Date, to: Date, factors: HashFactors): Promise<CoinActivity[]> {
    const result = await this.db.query<{
      coin: string;
      hashes: number | null;
      payees: bigint;
      workers: bigint;
    }>(
      `SELECT w.coin, SUM(${hashesSql(factors)}) AS hashes,
              COUNT(DISTINCT w.payee_id) AS payees, COUNT(DISTINCT w.id) AS workers
         FROM share_stats s JOIN workers w ON w.id = s.worker_id
        WHERE s.bucket >= $1 AND s.bucket < $2 AND s.accepted > 0 GROUP BY w.coin`,
      [from, to],
    );
    return result.rows.map((r) => ({
      coin: r.coin,
      hashes: Number(r.hashes ?? 0),
      payees: Number(r.payees),
      workers: Number(r.workers),
    }));
  }

  async chainTips(): Promise<ChainTipRow[]> {
    const result = await this.db.query<{ coin: string; height: number; network_difficulty: number }>(
      'SELECT coin, height, network_difficulty FROM chain_tips',
    );
    return result.rows.map((r) => ({
      coin: r.coin,
      height: Number(r.height),
      networkDifficulty: Number(r.network_difficulty),
    }));
  }

  async blockCounts(): Promise<Map<string, number>> {
    const result = await this.db.query<{ coin: string; n: bigint }>(
      `SELECT coin, COUNT(*) AS n FROM blocks WHERE status IN ('pending', 'confirmed') GROUP BY coin`,
    );
    return new Map(result.rows.map((r) => [r.coin, Number(r.n)]));
  }

  async blocks(
    coin: string | null,
    limit: number,
    offset: number,
  ): Promise<{ rows: BlockRow[]; total: number }> {
    const where = `b.status IN ('submitted', 'pending', 'confirmed', 'orphaned') AND ($1::text IS NULL OR b.coin = $1)`;
    const [rows, count] = await Promise.all([
      this.db.query<{
        coin: string;
        height: number;
        hash: string;
        status: string;
        confirmations: number;
        reward: bigint;
        finder: string | null;
        found_at: Date;
        effort: number | null;
      }>(
        // Confirmations from the coin's last known tip (the stored figure is only as fresh as the
        // last accounting cycle); the finder is an address of the block's own coin, or nothing.
        `SELECT b.coin, b.height, b.hash, ${BLOCK_STATUS_SHOWN} AS status, b.reward,
                CASE WHEN b.status = 'orphaned' THEN 0
                     ELSE GREATEST(b.confirmations, COALESCE(t.height - b.height + 1, 0)) END AS confirmations,
                COALESCE(p.address, upa.address) AS finder, b.found_at, b.effort
           FROM blocks b
           LEFT JOIN chain_tips t ON t.coin = b.coin
           LEFT JOIN payees p ON p.id = b.finder_payee_id
           LEFT JOIN user_payout_addresses upa ON upa.user_id = p.user_id AND upa.coin = b.coin
          WHERE ${where} ORDER BY b.found_at DESC, b.id DESC LIMIT $2 OFFSET $3`,
        [coin, limit, offset],
      ),
      this.db.query<{ total: bigint }>(`SELECT COUNT(*) AS total FROM blocks b WHERE ${where}`, [coin]),
    ]);
    return {
      total: Number(count.rows[0]?.total ?? 0),
      rows: rows.rows.map((r) => ({
        coin: r.coin,
        height: Number(r.height),
        hash: r.hash,
        status: r.status,
        confirmations: Number(r.confirmations),
        reward: BigInt(r.reward),
        finder: r.finder,
        foundAt: new Date(r.found_at),
        effort: r.effort === null ? null : Number(r.effort),
      })),
    };
  }

  /**
   * Payees mining to the payout address `address`: wallet payees with that address and, of each
   * account whose payout address in force for a coin it is, that coin's payee (public lookup is by
   * payout address only; an account's other coins have addresses of their own).
   */
  async payeesByAddress(address: string): Promise<number[]> {
    const result = await this.db.query<{ id: number }>(
      `SELECT p.id FROM payees p WHERE p.kind = 'wallet' AND p.address = $1
       UNION ALL
       SELECT p.id FROM user_payout_settings s
         JOIN payees p ON p.kind = 'user' AND p.user_id = s.user_id AND p.coin = s.coin
        WHERE (s.address = $1 OR s.pending_address = $1)
          AND CASE WHEN s.pending_address IS NOT NULL AND s.pending_effective_at <= now()
                   THEN s.pending_address ELSE s.address END = $1`,
      [address],
    );
    return result.rows.map((r) => Number(r.id));
  }

  /** A signed-in user's own workers whose worker name or private name is `name` (case-insensitive). */
  async ownWorkersByName(userId: number, name: string): Promise<{ workerId: number; payeeId: number }[]> {
    const result = await this.db.query<{ id: number; payee_id: number }>(
      // The worker's name, its private name, or the Stratum login the guide teaches (`username.worker`).
      `SELECT w.id, w.payee_id FROM workers w JOIN payees p ON p.id = w.payee_id JOIN users u ON u.id = p.user_id
        WHERE p.kind = 'user' AND p.user_id = $1
          AND (lower(w.name) = lower($2) OR lower(w.display_name) = lower($2) OR lower(u.username || '.' || w.name) = lower($2))
        ORDER BY w.id LIMIT 500`,
      [userId, name],
    );
    return result.rows.map((r) => ({ workerId: Number(r.id), payeeId: Number(r.payee_id) }));
  }

  /**
   * Workers of `payeeIds` with an accepted share (a name anyone can log in with is never shown), only
   * `workerIds` when given, only those named `name` (case-insensitive) when given.
   */
  async lookupWorkers(
    payeeIds: number[],
    only: { workerIds: number[] | null; name: string | null },
    now: Date,
    factors: HashFactors,
  ): Promise<LookupWorkerRow[]> {
    const day = 86_400_000;
    const result = await this.db.query<{
      id: number;
      payee_id: number;
      coin: string;
      name: string;
      display_name: string | null;
      algorithm: string;
      last_share_at: Date | null;
      accepted_shares: bigint;
      rejected_shares: bigint;
      stale_shares: bigint;
      recent: number | null;
      d1: number | null;
      d7: number | null;
      d30: number | null;
    }>(
      `SELECT w.id, w.payee_id, w.coin, w.name, w.display_name, w.algorithm,
              w.last_share_at, w.accepted_shares, w.rejected_shares, w.stale_shares,
              SUM(${hashesSql(factors)}) FILTER (WHERE s.bucket >= $3) AS recent,
              SUM(s.accepted_difficulty) FILTER (WHERE s.bucket >= $4) AS d1,
              SUM(s.accepted_difficulty) FILTER (WHERE s.bucket >= $5) AS d7,
              SUM(s.accepted_difficulty) AS d30
         FROM workers w LEFT JOIN share_stats s ON s.worker_id = w.id AND s.bucket >= $6
        WHERE w.payee_id = ANY($1::int[]) AND w.accepted_shares > 0
          AND ($2::int[] IS NULL OR w.id = ANY($2::int[])) AND ($7::text IS NULL OR lower(w.name) = lower($7))
        GROUP BY w.id ORDER BY w.id LIMIT 500`,
      [
        payeeIds,
        only.workerIds,
        new Date(now.getTime() - 600_000),
        new Date(now.getTime() - day),
        new Date(now.getTime() - 7 * day),
        new Date(now.getTime() - 30 * day),
        only.name,
      ],
    );
    return result.rows.map((r) => ({
      workerId: Number(r.id),
      payeeId: Number(r.payee_id),
      coin: r.coin,
      name: r.name,
      displayName: r.display_name,
      algorithm: r.algorithm,
      lastShareAt: r.last_share_at === null ? null : new Date(r.last_share_at),
      accepted: Number(r.accepted_shares),
      rejected: Number(r.rejected_shares),
      stale: Number(r.stale_shares),
      recentHashes: Number(r.recent ?? 0) / 600,
      diffDay: Number(r.d1 ?? 0),
      diffWeek: Number(r.d7 ?? 0),
      diffMonth: Number(r.d30 ?? 0),
    }));
  }

  /** Each payee's credits (everything but payouts) and accepted difficulty over the last day/week/month. */
  async payeeEarnings(payeeIds: number[], now: Date): Promise<PayeeEarningsRow[]> {
    const day = 86_400_000;
    const params = [
      payeeIds,
      new Date(now.getTime() - day),
      new Date(now.getTime() - 7 * day),
      new Date(now.getTime() - 30 * day),
    ];
    const [ledger, diff] = await Promise.all([
      this.db.query<{ payee_id: number; d1: string | null; d7: string | null; d30: string | null }>(
        `SELECT payee_id, SUM(amount) FILTER (WHERE created_at >= $2) AS d1, SUM(amount) FILTER (WHERE created_at >= $3) AS d7,
                SUM(amount) AS d30
           FROM ledger_entries WHERE payee_id = ANY($1::int[]) AND reason <> 'payout' AND created_at >= $4 GROUP BY payee_id`,
        params,
      ),
      this.db.query<{ payee_id: number; d1: number | null; d7: number | null; d30: number | null }>(
        `SELECT w.payee_id, SUM(s.accepted_difficulty) FILTER (WHERE s.bucket >= $2) AS d1,
                SUM(s.accepted_difficulty) FILTER (WHERE s.bucket >= $3) AS d7, SUM(s.accepted_difficulty) AS d30
           FROM share_stats s JOIN workers w ON w.id = s.worker_id
          WHERE w.payee_id = ANY($1::int[]) AND s.bucket >= $4 GROUP BY w.payee_id`,
        params,
      ),
    ]);
    const diffs = new Map(diff.rows.map((r) => [Number(r.payee_id), r]));
    return payeeIds.map((payeeId) => {
      const l = ledger.rows.find((r) => Number(r.payee_id) === payeeId);
      const d = diffs.get(payeeId);
      return {
        payeeId,
        day: BigInt(l?.d1 ?? 0),
        week: BigInt(l?.d7 ?? 0),
        month: BigInt(l?.d30 ?? 0),
        diffDay: Number(d?.d1 ?? 0),
        diffWeek: Number(d?.d7 ?? 0),
        diffMonth: Number(d?.d30 ?? 0),
      };
    });
  }

  /** Counts for /metrics: blocks and payouts by coin and status, share results over the last hour. */
  async metricsCounts(since: Date): Promise<{
    blocks: { coin: string; status: string; n: number }[];
    payouts: { coin: string; status: string; n: number; amount: string }[];
    /** Payout runs by coin and state (intent, sent, recorded, failed). */
    payoutRuns: { coin: string; status: string; n: number }[];
    /** How far each coin's shares are credited (credit_progress). */
    credited: { coin: string; through: Date }[];
    shares: {
      coin: string;
      accepted: number;
      stale: number;
      duplicate: number;
      lowDifficulty: number;
      invalid: number;
    }[];
  }> {
    const [blocks, payouts, shares, runs, credited] = await Promise.all([
      this.db.query<{ coin: string; status: string; n: bigint }>(
        'SELECT coin, status, COUNT(*) AS n FROM blocks GROUP BY coin, status',
      ),
      this.db.query<{ coin: string; status: string; n: bigint; amount: string | null }>(
        'SELECT coin, status, COUNT(*) AS n, SUM(amount) AS amount FROM payouts GROUP BY coin, status',
      ),
      this.db.query<{
        coin: string;
        a: bigint | null;
        s: bigint | null;
        d: bigint | null;
        l: bigint | null;
        i: bigint | null;
      }>(
        `SELECT w.coin, SUM(s.accepted) AS a, SUM(s.stale) AS s, SUM(s.duplicate) AS d, SUM(s.low_difficulty) AS l, SUM(s.invalid) AS i
           FROM share_stats s JOIN workers w ON w.id = s.worker_id WHERE s.bucket >= $1 GROUP BY w.coin`,
        [since],
      ),
      this.db.query<{ coin: string; status: string; n: bigint }>(
        'SELECT coin, status, COUNT(*) AS n FROM payout_runs GROUP BY coin, status',
      ),
      this.db.query<{ coin: string; credited_through: Date | string }>(
        'SELECT coin, credited_through FROM credit_progress',
      ),
    ]);
    return {
      payoutRuns: runs.rows.map((r) => ({ coin: r.coin, status: r.status, n: Number(r.n) })),
      credited: credited.rows.map((r) => ({ coin: r.coin, through: new Date(r.credited_through) })),
      blocks: blocks.rows.map((r) => ({ coin: r.coin, status: r.status, n: Number(r.n) })),
      payouts: payouts.rows.map((r) => ({
        coin: r.coin,
        status: r.status,
        n: Number(r.n),
        amount: String(r.amount ?? '0'),
      })),
      shares: shares.rows.map((r) => ({
        coin: r.coin,
        accepted: Number(r.a ?? 0),
        stale: Number(r.s ?? 0),
        duplicate: Number(r.d ?? 0),
        lowDifficulty: Number(r.l ?? 0),
        invalid: Number(r.i ?? 0),
      })),
    };
  }
}
