import type { Queryable } from '../types.js';

export interface SettingsRow {
  darkMode: boolean;
  showBalance: boolean;
  showHashrate: boolean;
  theme: string;
  language: string;
  notifications: boolean;
  emailAlerts: boolean;
  autoLogout: boolean;
  payoutThreshold: string;
  payoutAddress: string | null;
  payoutCoin: string | null;
  pendingPayoutAddress: string | null;
  pendingPayoutCoin: string | null;
  pendingPayoutEffectiveAt: Date | null;
  rigTokenEncrypted: string | null;
}

/** Columns a user may change through PUT /api/settings, by their API name. */
export const SETTINGS_COLUMNS = {
  darkMode: 'dark_mode',
  showBalance: 'show_balance',
  showHashrate: 'show_hashrate',
  theme: 'theme',
  language: 'language',
  notifications: 'notifications',
  emailAlerts: 'email_alerts',
  autoLogout: 'auto_logout',
  payoutThreshold: 'payout_threshold',
} as const;
export type SettingsPatch = Partial<Record<keyof typeof SETTINGS_COLUMNS, boolean | string>>;

const SELECT = `SELECT dark_mode, show_balance, show_hashrate, theme, language, notifications, email_alerts, auto_logout,
  payout_threshold, payout_address, payout_coin, pending_payout_address, pending_payout_coin, pending_payout_effective_at,
  rig_token_encrypted FROM user_settings WHERE user_id = $1`;

interface RawSettings {
  dark_mode: boolean;
  show_balance: boolean;
  show_hashrate: boolean;
  theme: string;
  language: string;
  notifications: boolean;
  email_alerts: boolean;
  auto_logout: boolean;
  payout_threshold: string;
  payout_address: string | null;
  payout_coin: string | null;
  pending_payout_address: string | null;
  pending_payout_coin: string | null;
  pending_payout_effective_at: Date | null;
  rig_token_encrypted: string | null;
}

const toSettings = (r: RawSettings): SettingsRow => ({
  darkMode: r.dark_mode,
  showBalance: r.show_balance,
  showHashrate: r.show_hashrate,
  theme: r.theme,
  language: r.language,
  notifications: r.notifications,
  emailAlerts: r.email_alerts,
  autoLogout: r.auto_logout,
  payoutThreshold: r.payout_threshold,
  payoutAddress: r.payout_address,
  payoutCoin: r.payout_coin,
  pendingPayoutAddress: r.pending_payout_address,
  pendingPayoutCoin: r.pending_payout_coin,
  pendingPayoutEffectiveAt:
    r.pending_payout_effective_at === null ? null : new Date(r.pending_payout_effective_at),
  rigTokenEncrypted: r.rig_token_encrypted,
});

/** Per-user settings (one row per user, created with the account). */
export class SettingsRepository {
  constructor(private readonly db: Queryable) {}

  /** The settings row, after promoting a pending payout address whose hold has passed. */
  async get(userId: number, now: Date): Promise<SettingsRow> {
    await this.db.query(
      `UPDATE user_settings SET payout_address = pending_payout_address, payout_coin = pending_payout_coin,
              pending_payout_address = NULL, pending_payout_coin = NULL, pending_payout_effective_at = NULL, updated_at = $2
        WHERE user_id = $1 AND pending_payout_address IS NOT NULL AND pending_payout_effective_at <= $2`,
      [userId, now],
    );
    let result = await this.db.query<RawSettings>(SELECT, [userId]);
    if (!result.rows[0]) {
      await this.db.query(
        'INSERT INTO user_settings (user_id) VALUES ($1) ON CONFLICT (user_id) DO NOTHING',
        [userId],
      );
      result = await this.db.query<RawSettings>(SELECT, [userId]);
    }
    const row = result.rows[0];
    if (!row) throw new Error(`no settings row for user ${userId}`);
    return toSettings(row);
  }

  async update(userId: number, patch: SettingsPatch): Promise<void> {
    const entries = Object.entries(patch).filter(
      ([key, value]) => value !== undefined && key in SETTINGS_COLUMNS,
    );
    if (entries.length === 0) return;
    // Column names come from the fixed SETTINGS_COLUMNS map, never from input; values are parameters.
    const sets = entries.map(
      ([key], i) => `${SETTINGS_COLUMNS[key as keyof typeof SETTINGS_COLUMNS]} = $${i + 2}`,
    );
    await this.db.query(
      `UPDATE user_settings SET ${sets.join(', ')}, updated_at = now() WHERE user_id = $1`,
      [userId, ...entries.map(([, value]) => value)],
    );
  }

  /** Sets the address immediately (no address yet) or as pending until `effectiveAt`. */
  async setPayoutAddress(
    userId: number,
    address: string,
    coin: string,
    effectiveAt: Date | null,
  ): Promise<void> {
    if (effectiveAt === null) {
      await this.db.query(
        `UPDATE user_settings SET payout_address = $2, payout_coin = $3, pending_payout_address = NULL, pending_payout_coin = NULL,
                pending_payout_effective_at = NULL, updated_at = now() WHERE user_id = $1`,
        [userId, address, coin],
      );
      return;
    }
    await this.db.query(
      `UPDATE user_settings SET pending_payout_address = $2, pending_payout_coin = $3, pending_payout_effective_at = $4,
              updated_at = now() WHERE user_id = $1`,
      [userId, address, coin, effectiveAt],
    );
  }

  async setRigToken(userId: number, encrypted: string | null): Promise<void> {
    await this.db.query(
      'UPDATE user_settings SET rig_token_encrypted = $2, updated_at = now() WHERE user_id = $1',
      [userId, encrypted],
    );
  }
}
