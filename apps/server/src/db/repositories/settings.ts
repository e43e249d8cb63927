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
  timeZone: string | null;
  browserTimeZone: string | null;
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
  timeZone: 'time_zone',
  browserTimeZone: 'browser_time_zone',
} as const;
export type SettingsPatch = Partial<Record<keyof typeof SETTINGS_COLUMNS, boolean | string | null>>;

const SELECT = `SELECT dark_mode, show_balance, show_hashrate, theme, language, notifications, email_alerts, auto_logout,
  time_zone, browser_time_zone, rig_token_encrypted FROM user_settings WHERE user_id = $1`;

interface RawSettings {
  dark_mode: boolean;
  show_balance: boolean;
  show_hashrate: boolean;
  theme: string;
  language: string;
  notifications: boolean;
  email_alerts: boolean;
  auto_logout: boolean;
  time_zone: string | null;
  browser_time_zone: string | null;
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
  timeZone: r.time_zone,
  browserTimeZone: r.browser_time_zone,
  rigTokenEncrypted: r.rig_token_encrypted,
});

/**
 * A user's time zone in SQL over `user_settings s`, as services/shared/format.ts userTimeZone
 * says it: the chosen one, else the browser's as last reported, else UTC.
 */
export const USER_TIME_ZONE_SQL = `coalesce(s.time_zone, s.browser_time_zone, 'UTC')`;

/** Per-user settings (one row per user, created with the account). */
export class SettingsRepository {
  constructor(private readonly db: Queryable) {}

  /** The settings row (created with defaults when missing). */
  async get(userId: number): Promise<SettingsRow> {
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

  async setRigToken(userId: number, encrypted: string | null): Promise<void> {
    await this.db.query(
      'UPDATE user_settings SET rig_token_encrypted = $2, updated_at = now() WHERE user_id = $1',
      [userId, encrypted],
    );
  }
}
