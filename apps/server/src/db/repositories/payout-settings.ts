import type { Queryable } from '../types.js';

/** One account's payout settings for one coin (user_payout_settings). */
export interface PayoutSettingRow {
  coin: string;
  address: string | null;
  pendingAddress: string | null;
  pendingEffectiveAt: Date | null;
  /** Base units of the coin; null = the pool's default for the coin. */
  threshold: bigint | null;
}

interface RawPayoutSetting {
  coin: string;
  address: string | null;
  pending_address: string | null;
  pending_effective_at: Date | null;
  threshold: bigint | string | null;
}

const toRow = (r: RawPayoutSetting): PayoutSettingRow => ({
  coin: r.coin,
  address: r.address,
  pendingAddress: r.pending_address,
  pendingEffectiveAt: r.pending_effective_at === null ? null : new Date(r.pending_effective_at),
  threshold: r.threshold === null ? null : BigInt(r.threshold),
});

/** Payout address (with its pending change) and threshold per (account, coin). */
export class PayoutSettingsRepository {
  constructor(private readonly db: Queryable) {}

  /** The account's rows, after promoting each pending address whose hold has passed. */
  async list(userId: number, now: Date): Promise<PayoutSettingRow[]> {
    await this.db.query(
      `UPDATE user_payout_settings SET address = pending_address, pending_address = NULL,
              pending_effective_at = NULL, updated_at = $2
        WHERE user_id = $1 AND pending_address IS NOT NULL AND pending_effective_at <= $2`,
      [userId, now],
    );
    const result = await this.db.query<RawPayoutSetting>(
      `SELECT coin, address, pending_address, pending_effective_at, threshold
         FROM user_payout_settings WHERE user_id = $1 ORDER BY coin`,
      [userId],
    );
    return result.rows.map(toRow);
  }

  /**
   * Sets a coin's address at once (`effectiveAt` null: clears any pending change) or as that
   * coin's pending change until `effectiveAt`. Other coins' rows are untouched.
   */
  async setAddress(userId: number, coin: string, address: string, effectiveAt: Date | null): Promise<void> {
    if (effectiveAt === null) {
      await this.db.query(
        `INSERT INTO user_payout_settings (user_id, coin, address) VALUES ($1, $2, $3)
         ON CONFLICT (user_id, coin) DO UPDATE SET address = EXCLUDED.address, pending_address = NULL,
                pending_effective_at = NULL, updated_at = now()`,
        [userId, coin, address],
      );
      return;
    }
    await this.db.query(
      `INSERT INTO user_payout_settings (user_id, coin, pending_address, pending_effective_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (user_id, coin) DO UPDATE SET pending_address = EXCLUDED.pending_address,
              pending_effective_at = EXCLUDED.pending_effective_at, updated_at = now()`,
      [userId, coin, address, effectiveAt],
    );
  }

  /** A coin's threshold in its base units (the caller checks the coin's bounds). */
  async setThreshold(userId: number, coin: string, threshold: bigint): Promise<void> {
    await this.db.query(
      `INSERT INTO user_payout_settings (user_id, coin, threshold) VALUES ($1, $2, $3)
       ON CONFLICT (user_id, coin) DO UPDATE SET threshold = EXCLUDED.threshold, updated_at = now()`,
      [userId, coin, threshold],
    );
  }
}
