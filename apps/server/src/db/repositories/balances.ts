import type { Queryable } from '../types.js';

export interface BalanceRow {
  payeeId: number;
  coin: string;
  amount: bigint;
}

export interface BalanceMismatch {
  payeeId: number;
  coin: string;
  cached: bigint;
  ledger: bigint;
}

/**
 * Cached balances. The cache only moves with a ledger entry (LedgerRepository.append);
 * `mismatches` proves it equals the ledger sum.
 */
export class BalancesRepository {
  constructor(private readonly db: Queryable) {}

  async get(payeeId: number, coin: string): Promise<bigint> {
    const result = await this.db.query<{ amount: bigint }>(
      'SELECT amount FROM balances WHERE payee_id = $1 AND coin = $2',
      [payeeId, coin],
    );
    return result.rows[0]?.amount ?? 0n;
  }

  async listForCoin(coin: string): Promise<BalanceRow[]> {
    const result = await this.db.query<{ payee_id: number; coin: string; amount: bigint }>(
      'SELECT payee_id, coin, amount FROM balances WHERE coin = $1 ORDER BY payee_id',
      [coin],
    );
    return result.rows.map((r) => ({ payeeId: r.payee_id, coin: r.coin, amount: r.amount }));
  }

  /** Every (payee, coin) whose cached balance differs from the ledger sum; empty when sound. */
  async mismatches(): Promise<BalanceMismatch[]> {
    const result = await this.db.query<{ payee_id: number; coin: string; cached: bigint; ledger: bigint }>(
      `WITH sums AS (SELECT payee_id, coin, SUM(amount)::bigint AS ledger FROM ledger_entries GROUP BY payee_id, coin)
       SELECT COALESCE(b.payee_id, s.payee_id) AS payee_id, COALESCE(b.coin, s.coin) AS coin,
              COALESCE(b.amount, 0)::bigint AS cached, COALESCE(s.ledger, 0)::bigint AS ledger
       FROM balances b FULL OUTER JOIN sums s ON s.payee_id = b.payee_id AND s.coin = b.coin
       WHERE COALESCE(b.amount, 0) <> COALESCE(s.ledger, 0)
       ORDER BY 1, 2`,
    );
    return result.rows.map((r) => ({
      payeeId: r.payee_id,
      coin: r.coin,
      cached: r.cached,
      ledger: r.ledger,
    }));
  }
}
