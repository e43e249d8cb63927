import type { Settings, SettingsUpdate } from '@manjam/contract';
import type { Config } from '../../config/index.js';
import type { Queryable } from '../../db/index.js';
import { SettingsRepository, type SettingsRow } from '../../db/repositories/settings.js';
import type { UserRow } from '../../db/repositories/users.js';
import { addressProblem } from '../accounts/addresses.js';
import type { AuthService } from '../auth/auth-service.js';
import type { SecretBox } from '../auth/secret-box.js';
import { validationError } from '../errors.js';

export function toSettings(row: SettingsRow, user: UserRow): Settings {
  return {
    darkMode: row.darkMode,
    showBalance: row.showBalance,
    showHashrate: row.showHashrate,
    theme: row.theme as Settings['theme'],
    language: row.language as Settings['language'],
    notifications: row.notifications,
    emailAlerts: row.emailAlerts,
    twoFactorAuth: user.totpEnabled,
    autoLogout: row.autoLogout,
    payoutThreshold: row.payoutThreshold as Settings['payoutThreshold'],
    payoutAddress: row.payoutAddress,
    pendingPayoutAddress: row.pendingPayoutAddress,
    pendingPayoutAddressEffectiveAt: row.pendingPayoutEffectiveAt?.toISOString() ?? null,
    rigTokenSet: row.rigTokenEncrypted !== null,
  };
}

/** Every setting of the seed's Settings page, persisted; payout-address changes wait out a hold. */
export class SettingsService {
  private readonly repo: SettingsRepository;

  constructor(
    db: Queryable,
    private readonly config: Config,
    private readonly auth: AuthService,
    private readonly box: SecretBox,
    private readonly now: () => number,
  ) {
    this.repo = new SettingsRepository(db);
  }

  async get(user: UserRow): Promise<Settings> {
    return toSettings(await this.repo.get(user.id, new Date(this.now())), user);
  }

  async update(user: UserRow, patch: SettingsUpdate): Promise<Settings> {
    await this.repo.update(user.id, patch);
    return this.get(user);
  }

  /**
   * The first address takes effect at once; a change takes effect after
   * config.accounting.payoutAddressHoldHours (a stolen session cannot redirect payouts at once).
   * Needs the password, and a TOTP code when 2FA is on.
   */
  async setPayoutAddress(
    user: UserRow,
    address: string,
    coin: string,
    password: string,
    totp: string | undefined,
  ): Promise<Settings> {
    const problem = addressProblem(address, coin, this.config);
    if (problem) throw validationError({ address: problem });
    await this.auth.confirmSensitiveChange(user, password, totp);
    const current = await this.repo.get(user.id, new Date(this.now()));
    const holdMs = this.config.accounting.payoutAddressHoldHours * 3_600_000;
    const immediate =
      current.payoutAddress === null ||
      holdMs === 0 ||
      (current.payoutAddress === address && current.payoutCoin === coin);
    await this.repo.setPayoutAddress(
      user.id,
      address,
      coin,
      immediate ? null : new Date(this.now() + holdMs),
    );
    return this.get(user);
  }

  async setRigToken(user: UserRow, token: string | null): Promise<Settings> {
    await this.repo.setRigToken(user.id, token === null ? null : this.box.encrypt(token));
    return this.get(user);
  }

  /** The user's rig-management token in clear, when saved. */
  async rigToken(userId: number): Promise<string | null> {
    const row = await this.repo.get(userId, new Date(this.now()));
    return row.rigTokenEncrypted === null ? null : this.box.decrypt(row.rigTokenEncrypted);
  }
}
