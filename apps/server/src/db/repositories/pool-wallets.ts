import type { Queryable } from '../types.js';

export interface PoolWalletReading {
  coin: string;
  /** Spendable balance in base units. */
  balance: bigint;
  readAt: Date;
}

/** Each coin's pool wallet balance as accounting last read it, and what the pool owes on each coin. */
export class PoolWalletsRepository {
  constructor(private readonly db: Queryable) {}

  /** Records a reading of a coin's wallet; it replaces the coin's previous one. */
  async record(coin: string, balance: bigint, readAt: Date): Promise<void> {
    await this.db.query(
      `INSERT INTO pool_wallet_balances (coin, balance, read_at) VALUES ($1, $2, $3)
       ON CONFLICT (coin) DO UPDATE SET balance = EXCLUDED.balance, read_at = EXCLUDED.read_at`,
      [coin, balance, readAt],
    );
  }

  /** The last reading of every coin's wallet. */
  async readings(): Promise<PoolWalletReading[]> {
    const result = await this.db.query<{ coin: string; balance: bigint; read_at: Date | string }>(
      'SELECT coin, balance, read_at FROM pool_wallet_balances ORDER BY coin',
    );
    return result.rows.map((r) => ({
      coin: r.coin,
      balance: BigInt(r.balance),
      readAt: new Date(r.read_at),
    }));
  }

  /** Per coin, what the pool owes its miners: the sum of their positive balances (the pool's fee payee left out). */
  async owedByCoin(): Promise<Map<string, bigint>> {
    const result = await this.db.query<{ coin: string; owed: bigint | string }>(
      `SELECT b.coin, SUM(b.amount)::bigint AS owed
       FROM balances b JOIN payees p ON p.id = b.payee_id
       WHERE p.kind IN ('user', 'wallet') AND b.amount > 0
       GROUP BY b.coin`,
    );
    return new Map(result.rows.map((r) => [r.coin, BigInt(r.owed)]));
  }
}
