import { MESSAGES, type Settings, type SettingsUpdate } from '@manjam/contract';
import type { Coin } from '@manjam/protocol';
import type { Config } from '../../config/index.js';
import type { Queryable } from '../../db/index.js';
import { PayoutSettingsRepository } from '../../db/repositories/payout-settings.js';
import { SettingsRepository, type SettingsRow } from '../../db/repositories/settings.js';
import type { UserRow } from '../../db/repositories/users.js';
import { addressProblem } from '../accounts/addresses.js';
import type { AuthService } from '../auth/auth-service.js';
import type { SecretBox } from '../auth/secret-box.js';
import { ServiceError, validationError } from '../errors.js';
import { effectiveAtOf, thresholdInRange, toPayoutSettings } from './payout-settings.js';

/** `emailAvailable`: the pool sends email (config.smtp set); without it email alerts read off. */
export function toSettings(
  row: SettingsRow,
  user: UserRow,
  payouts: Settings['payouts'],
  emailAvailable: boolean,
): Settings {
  return {
    darkMode: row.darkMode,
    showBalance: row.showBalance,
    showHashrate: row.showHashrate,
    theme: row.theme as Settings['theme'],
    language: row.language as Settings['language'],
    notifications: row.notifications,
    emailAlerts: row.emailAlerts && emailAvailable,
    emailAlertsAvailable: emailAvailable,
    twoFactorAuth: user.totpEnabled,
    autoLogout: row.autoLogout,
    timeZone: row.timeZone,
    payouts,
    rigTokenSet: row.rigTokenEncrypted !== null,
  };
}

/** Every setting of the seed's Settings page, persisted; payout-address changes wait out a hold. */
export class SettingsService {
  private readonly repo: SettingsRepository;
  private readonly payouts: PayoutSettingsRepository;

  constructor(
    db: Queryable,
    private readonly config: Config,
    private readonly auth: AuthService,
    private readonly box: SecretBox,
    private readonly now: () => number,
  ) {
    this.repo = new SettingsRepository(db);
    this.payouts = new PayoutSettingsRepository(db);
  }

  async get(user: UserRow): Promise<Settings> {
    const payouts = await this.payouts.list(user.id, new Date(this.now()));
    const emailAvailable = this.config.smtp !== undefined;
    return toSettings(
      await this.repo.get(user.id),
      user,
      toPayoutSettings(payouts, this.config),
      emailAvailable,
    );
  }

  /** Refuses to turn email alerts on while the pool sends no email (409 email-not-configured). */
  async update(user: UserRow, patch: SettingsUpdate): Promise<Settings> {
    if (patch.emailAlerts === true && this.config.smtp === undefined)
      throw new ServiceError(409, 'email-not-configured', 'emailNotConfigured', {
        emailAlerts: MESSAGES.emailNotConfigured,
      });
    await this.repo.update(user.id, patch);
    return this.get(user);
  }

  /**
   * One coin's payout address: validated by the coin's family on its configured network; the
   * coin's first address takes effect at once, a change after config.accounting.payoutAddressHoldHours
   * (effectiveAtOf). Needs the password, and a TOTP code when 2FA is on. Other coins are untouched.
   */
  async setPayoutAddress(
    user: UserRow,
    address: string,
    coin: Coin,
    password: string,
    totp: string | undefined,
  ): Promise<Settings> {
    const problem = addressProblem(address, coin, this.config);
    if (problem) throw validationError({ address: problem });
    await this.auth.confirmSensitiveChange(user, password, totp);
    const now = this.now();
    const current = (await this.payouts.list(user.id, new Date(now))).find((r) => r.coin === coin);
    const effectiveAt = effectiveAtOf(current, address, this.config.accounting.payoutAddressHoldHours, now);
    await this.payouts.setAddress(user.id, coin, address, effectiveAt);
    return this.get(user);
  }

  /**
   * One coin's payout threshold in its base units, within the coin's configured range. It only
   * decides WHEN a balance is paid, never where, so it needs neither password nor hold.
   */
  async setPayoutThreshold(user: UserRow, coin: Coin, threshold: bigint): Promise<Settings> {
    if (!thresholdInRange(threshold, coin, this.config))
      throw validationError({ threshold: MESSAGES.payoutThresholdOutOfRange });
    await this.payouts.setThreshold(user.id, coin, threshold);
    return this.get(user);
  }

  async setRigToken(user: UserRow, token: string | null): Promise<Settings> {
    await this.repo.setRigToken(user.id, token === null ? null : this.box.encrypt(token));
    return this.get(user);
  }

  /** The user's rig-management token in clear, when saved. */
  async rigToken(userId: number): Promise<string | null> {
    const row = await this.repo.get(userId);
    return row.rigTokenEncrypted === null ? null : this.box.decrypt(row.rigTokenEncrypted);
  }
}
