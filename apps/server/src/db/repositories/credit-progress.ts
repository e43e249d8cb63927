import type { Queryable } from '../types.js';

/**
 * How far each coin's shares are credited (credit_progress): written by the accounting cycle after
 * its credits step, read by the money screens ("credited up to 14:05").
 */
export class CreditProgressRepository {
  constructor(private readonly db: Queryable) {}

  /** When the oldest share of a coin still waiting for its credit was accepted; null when none waits. */
  async oldestUncreditedAt(coin: string): Promise<Date | null> {
    const result = await this.db.query<{ created_at: Date }>(
      'SELECT created_at FROM shares WHERE coin = $1 AND NOT credited ORDER BY id LIMIT 1',
      [coin],
    );
    const at = result.rows[0]?.created_at;
    return at ? new Date(at) : null;
  }

  async record(coin: string, creditedThrough: Date): Promise<void> {
    await this.db.query(
      `INSERT INTO credit_progress (coin, credited_through, updated_at) VALUES ($1, $2, now())
       ON CONFLICT (coin) DO UPDATE SET credited_through = EXCLUDED.credited_through, updated_at = now()`,
      [coin, creditedThrough.toISOString()],
    );
  }

  /** The moment a coin's shares are credited up to; null before accounting first credited it. */
  async creditedThrough(coin: string): Promise<Date | null> {
    const result = await this.db.query<{ credited_through: Date }>(
      'SELECT credited_through FROM credit_progress WHERE coin = $1',
      [coin],
    );
    const at = result.rows[0]?.credited_through;
    return at ? new Date(at) : null;
  }
}
