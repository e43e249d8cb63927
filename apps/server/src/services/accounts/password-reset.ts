import type { Language } from '@manjam/contract';
import type { Config } from '../../config/index.js';
import type { Queryable } from '../../db/index.js';
import { PasswordResetsRepository } from '../../db/repositories/password-resets.js';
import { UsersRepository } from '../../db/repositories/users.js';
import type { AuthService } from '../auth/auth-service.js';
import { hashToken, newToken } from '../auth/tokens.js';
import { ServiceError } from '../errors.js';
import type { AccountMail } from './account-mail.js';

export interface PasswordResetDeps {
  db: Queryable;
  config: Config;
  auth: AuthService;
  /** Null when the pool sends no email (config.smtp unset): there is no reset by email then. */
  mail: AccountMail | null;
  now: () => number;
}

const unavailable = () => new ServiceError(409, 'email-not-configured', 'passwordResetUnavailable');

/**
 * Self-service password reset by email. Asking answers alike whether the email has an account or
 * not (the lookup, the link and the mail happen after the answer); an account's owner gets a link
 * (`/forgot-password#reset=...`) that works once, within config.auth.passwordResetMinutes. Using
 * it sets the new password, ends every session of the account and tells the address. Without
 * smtp both steps answer 409 email-not-configured (the web app shows the operator's contact).
 */
export class PasswordReset {
  private readonly users: UsersRepository;
  private readonly resets: PasswordResetsRepository;

  constructor(private readonly deps: PasswordResetDeps) {
    this.users = new UsersRepository(deps.db);
    this.resets = new PasswordResetsRepository(deps.db);
  }

  /** Answers at once; the lookup, the link and the mail follow the answer. */
  request(email: string, language: Language): Promise<void> {
    const { mail, config } = this.deps;
    if (!mail) return Promise.reject(unavailable());
    const now = this.deps.now();
    const minutes = config.auth.passwordResetMinutes;
    mail.later(async () => {
      const user = await this.users.findByEmail(email);
      if (!user) return;
      const { token, hash } = newToken();
      await this.resets.prune(new Date(now));
      await this.resets.insert(hash, user.id, new Date(now + minutes * 60_000));
      mail.send(user.email, language, 'password.reset', {
        username: user.username,
        minutes,
        link: mail.link(`/forgot-password#reset=${token}`),
      });
    });
    return Promise.resolve();
  }

  async confirm(token: string, newPassword: string, language: Language): Promise<void> {
    const mail = this.deps.mail;
    if (!mail) throw unavailable();
    const userId = await this.resets.take(hashToken(token), new Date(this.deps.now()));
    const user = userId === undefined ? undefined : await this.users.findById(userId);
    if (!user) throw new ServiceError(400, 'reset-link-invalid', 'resetLinkInvalid');
    await this.deps.auth.resetPassword(user.id, newPassword);
    mail.later(() => {
      mail.send(user.email, language, 'password.changed', { username: user.username });
      return Promise.resolve();
    });
  }
}
