import type { Queryable } from '../types.js';
import { EARNING_REASONS } from './ledger.js';

export interface SettlementFigures {
  payeeId: number;
  /** Sum of accepted share difficulty over the day (Stratum unit). */
  difficultySum: number;
  /** Net earnings of the day in base units (EARNING_REASONS: never payouts or their refunds). */
  amount: bigint;
  /** Average network difficulty of the day's shares (Stratum unit); 0 when none. */
  networkDifficulty: number;
  scheme: string;
}

export interface SettlementRow {
  payeeId: number;
  coin: string;
  /** YYYY-MM-DD */
  day: string;
  avgHashrate: number;
  amount: bigint;
  networkDifficulty: number;
  scheme: string;
}

const dayText = (value: Date | string): string =>
  typeof value === 'string' ? value.slice(0, 10) : value.toISOString().slice(0, 10);

/** Daily settlement rows (the Revenue screen's Rewards tab) and the figures behind them. */
export class SettlementsRepository {
  constructor(private readonly db: Queryable) {}

  /** The last day settled for a coin (YYYY-MM-DD), if any. */
  async lastSettledDay(coin: string): Promise<string | null> {
    const result = await this.db.query<{ day: Date | string | null }>(
      'SELECT MAX(day)::text AS day FROM settlements WHERE coin = $1',
      [coin],
    );
    const day = result.rows[0]?.day;
    return day ? dayText(day) : null;
  }

  /** The first moment anything happened on a coin (a share bucket or a ledger entry). */
  async firstActivity(coin: string): Promise<Date | null> {
    const result = await this.db.query<{ at: Date | null }>(
      `SELECT LEAST(
         (SELECT MIN(s.bucket) FROM share_stats s JOIN workers w ON w.id = s.worker_id WHERE w.coin = $1),
         (SELECT MIN(created_at) FROM ledger_entries WHERE coin = $1)) AS at`,
      [coin],
    );
    const at = result.rows[0]?.at;
    return at ? new Date(at) : null;
  }

  /** Per payee (users and wallets), the figures of one period [from, to). */
  async figures(coin: string, from: Date, to: Date): Promise<SettlementFigures[]> {
    const result = await this.db.query<{
      payee_id: number;
      diff: number;
      amount: bigint;
      nd: number;
      scheme: string;
    }>(
      `WITH hr AS (
         SELECT w.payee_id, SUM(s.accepted_difficulty) AS diff
         FROM share_stats s JOIN workers w ON w.id = s.worker_id
         WHERE w.coin = $1 AND s.bucket >= $2 AND s.bucket < $3 GROUP BY w.payee_id),
       cr AS (
         SELECT payee_id, SUM(amount)::bigint AS amount,
                MODE() WITHIN GROUP (ORDER BY CASE reason WHEN 'pps' THEN 'pps-plus' ELSE reason END)
                  FILTER (WHERE reason <> 'reversal') AS scheme
         FROM ledger_entries
         WHERE coin = $1 AND created_at >= $2 AND created_at < $3 AND reason = ANY($4::text[])
         GROUP BY payee_id),
       day_shares AS (
         SELECT payee_id, scheme, SUM(share_count) AS n, SUM(network_difficulty * share_count) AS nd_sum
         FROM shares WHERE coin = $1 AND created_at >= $2 AND created_at < $3 GROUP BY payee_id, scheme),
       -- A payee's scheme of the day: the one most of its shares (not rows: a slot row holds many) used.
       sh AS (
         SELECT DISTINCT ON (payee_id) payee_id, scheme,
                SUM(nd_sum) OVER (PARTITION BY payee_id) / SUM(n) OVER (PARTITION BY payee_id) AS nd
         FROM day_shares ORDER BY payee_id, n DESC, scheme),
       pool AS (SELECT SUM(network_difficulty * share_count) / SUM(share_count) AS nd
                FROM shares WHERE coin = $1 AND created_at >= $2 AND created_at < $3)
       SELECT p.id AS payee_id, COALESCE(hr.diff, 0) AS diff, COALESCE(cr.amount, 0)::bigint AS amount,
              COALESCE(sh.nd, (SELECT nd FROM pool), 0) AS nd, COALESCE(sh.scheme, cr.scheme, 'pps-plus') AS scheme
       FROM payees p
       LEFT JOIN hr ON hr.payee_id = p.id
       LEFT JOIN cr ON cr.payee_id = p.id
       LEFT JOIN sh ON sh.payee_id = p.id
       WHERE p.coin = $1 AND p.kind <> 'pool'
         AND (hr.payee_id IS NOT NULL OR cr.payee_id IS NOT NULL OR sh.payee_id IS NOT NULL)
       ORDER BY p.id`,
      [coin, from.toISOString(), to.toISOString(), [...EARNING_REASONS]],
    );
    return result.rows.map((r) => ({
      payeeId: r.payee_id,
      difficultySum: Number(r.diff),
      amount: r.amount,
      networkDifficulty: Number(r.nd),
      scheme: r.scheme,
    }));
  }

  /** Inserts or refreshes a day's row (idempotent). */
  async upsert(row: SettlementRow): Promise<void> {
    await this.db.query(
      `INSERT INTO settlements (payee_id, coin, day, avg_hashrate, amount, network_difficulty, scheme)
       VALUES ($1, $2, $3::date, $4, $5, $6, $7)
       ON CONFLICT (payee_id, coin, day) DO UPDATE SET avg_hashrate = EXCLUDED.avg_hashrate, amount = EXCLUDED.amount,
         network_difficulty = EXCLUDED.network_difficulty, scheme = EXCLUDED.scheme`,
      [row.payeeId, row.coin, row.day, row.avgHashrate, row.amount, row.networkDifficulty, row.scheme],
    );
  }

  /** Moments whose settled day must be settled again (settlement_redo), per payee, oldest first. */
  async queuedRedo(coin: string): Promise<{ payeeId: number; at: Date }[]> {
    const result = await this.db.query<{ payee_id: number; at: Date }>(
      'SELECT payee_id, at FROM settlement_redo WHERE coin = $1 ORDER BY at, payee_id',
      [coin],
    );
    return result.rows.map((r) => ({ payeeId: r.payee_id, at: new Date(r.at) }));
  }

  /**
   * Recomputes the amount of these payees' rows of one settled day [from, to) from the ledger's
   * earnings, leaves hashrate and difficulty as settled, and drops a row left with no earnings and no
   * hashrate (a row only a payout refund had made). Then forgets the queued moments of that day.
   */
  async redoAmounts(
    coin: string,
    day: string,
    payeeIds: readonly number[],
    from: Date,
    to: Date,
  ): Promise<number> {
    const params = [coin, day, [...payeeIds], from.toISOString(), to.toISOString(), [...EARNING_REASONS]];
    const updated = await this.db.query(
      `UPDATE settlements s SET amount = COALESCE((
         SELECT SUM(l.amount) FROM ledger_entries l
          WHERE l.payee_id = s.payee_id AND l.coin = s.coin AND l.created_at >= $4 AND l.created_at < $5
            AND l.reason = ANY($6::text[])), 0)
        WHERE s.coin = $1 AND s.day = $2::date AND s.payee_id = ANY($3::int[])`,
      params,
    );
    await this.db.query(
      `DELETE FROM settlements s
        WHERE s.coin = $1 AND s.day = $2::date AND s.payee_id = ANY($3::int[]) AND s.avg_hashrate = 0
          AND NOT EXISTS (SELECT 1 FROM ledger_entries l
                           WHERE l.payee_id = s.payee_id AND l.coin = s.coin AND l.created_at >= $4
                             AND l.created_at < $5 AND l.reason = ANY($6::text[]))`,
      params,
    );
    await this.db.query(
      `DELETE FROM settlement_redo WHERE coin = $1 AND payee_id = ANY($2::int[]) AND at >= $3 AND at < $4`,
      [coin, [...payeeIds], from.toISOString(), to.toISOString()],
    );
    return updated.rowCount;
  }

  async listForPayee(payeeId: number, coin: string): Promise<SettlementRow[]> {
    const result = await this.db.query<{
      payee_id: number;
      coin: string;
      day: Date | string;
      avg_hashrate: number;
      amount: bigint;
      network_difficulty: number;
      scheme: string;
    }>(
      `SELECT payee_id, coin, day::text AS day, avg_hashrate, amount, network_difficulty, scheme FROM settlements
       WHERE payee_id = $1 AND coin = $2 ORDER BY day`,
      [payeeId, coin],
    );
    return result.rows.map((r) => ({
      payeeId: r.payee_id,
      coin: r.coin,
      day: dayText(r.day),
      avgHashrate: Number(r.avg_hashrate),
      amount: r.amount,
      networkDifficulty: Number(r.network_difficulty),
      scheme: r.scheme,
    }));
  }
}
