import { MESSAGES, type Language, type RegisterRequest, type RegisterResponse } from '@manjam/contract';
import type { Config } from '../../config/index.js';
import type { Queryable } from '../../db/index.js';
import { PendingRegistrationsRepository } from '../../db/repositories/pending-registrations.js';
import { UsersRepository, type NewUser } from '../../db/repositories/users.js';
import { text } from '../../i18n/index.js';
import type { Mailer, OutgoingEmail } from '../alerts/mailer.js';
import { hashPassword } from '../auth/passwords.js';
import { hashToken, newToken } from '../auth/tokens.js';
import { ServiceError, validationError } from '../errors.js';
import { addressProblem } from './addresses.js';

export type RegisterInput = Required<Pick<RegisterRequest, 'username' | 'email' | 'password'>> & {
  walletAddress: string | null;
  preferredCoin: string;
  language: Language;
};

export interface RegistrationDeps {
  db: Queryable;
  config: Config;
  /** Null when the pool sends no email (config.smtp unset): accounts are then created at once. */
  mailer: Mailer | null;
  now: () => number;
  onError: (error: unknown) => void;
}

/** One registration mail of each kind per address in this window at most, so nobody can mail-bomb an address through the form. */
const MAIL_GAP_MS = 10 * 60_000;

/**
 * Registration that does not tell whether an email has an account (issue 25 item 5).
 *
 * Emails are private, so a known and an unknown email get the same answer (202 and the same body)
 * after the same work (the password is hashed and the email looked up either way; the pending row
 * and the mails are written after the answer):
 * - the pool sends email: a free address gets a confirmation link and the account is created when
 *   it is followed; an address with an account gets a "someone tried to register" notice instead.
 *   Signing in before confirming fails like a wrong password, so registering and then signing in
 *   does not tell the two apart either;
 * - the pool sends no email: a free address gets its account at once; a taken one gets nothing.
 *   Registering and then trying to sign in with the new password does tell the two apart here:
 *   the operator closes that by configuring smtp (README, Security).
 *
 * Usernames are public (they are the Stratum logins miners type, shown to anyone who mines to the
 * pool), so a taken username is still answered 409 username-taken; that answer is given before
 * the email is looked at, whatever the email, so it says nothing about the email.
 */
export class Registration {
  private readonly users: UsersRepository;
  private readonly pending: PendingRegistrationsRepository;
  private readonly mailed = new Map<string, number>();

  constructor(private readonly deps: RegistrationDeps) {
    this.users = new UsersRepository(deps.db);
    this.pending = new PendingRegistrationsRepository(deps.db);
  }

  async register(input: RegisterInput): Promise<RegisterResponse> {
    const { config, mailer } = this.deps;
    if (input.walletAddress) {
      const problem = addressProblem(input.walletAddress, input.preferredCoin, config);
      if (problem) throw validationError({ walletAddress: problem });
    }
    if (await this.users.usernameTaken(input.username)) throw usernameTaken();
    const account: NewUser = {
      username: input.username,
      email: input.email,
      passwordHash: await hashPassword(input.password),
      walletAddress: input.walletAddress,
      preferredCoin: input.preferredCoin,
    };
    const owner = await this.users.findByEmail(input.email);
    if (!mailer) {
      if (!owner) await this.create(account, input.language);
      return { next: 'sign-in' };
    }
    const now = this.deps.now();
    await this.pending.prune(new Date(now));
    if (owner) {
      const to = owner.email;
      this.later(() => {
        this.mail(mailer, to, input.language, 'account.taken', { login: `${this.baseUrl()}/login` });
        return Promise.resolve();
      });
      return { next: 'confirm-email' };
    }
    // Stored after the answer, with its mail: an awaited insert (a commit on PostgreSQL) would
    // make a free address answer measurably later than a taken one.
    const { token, hash } = newToken();
    const hours = config.auth.confirmEmailHours;
    const expiresAt = new Date(now + hours * 3_600_000);
    this.later(async () => {
      await this.pending.insert(hash, { ...account, language: input.language }, expiresAt);
      this.mail(mailer, account.email, input.language, 'account.confirm', {
        username: account.username,
        hours,
        link: `${this.baseUrl()}/confirm-email#token=${token}`,
      });
    });
    return { next: 'confirm-email' };
  }

  /** Creates the account of a confirmation link (once; the link expires after auth.confirmEmailHours). */
  async confirm(token: string): Promise<void> {
    const pending = await this.pending.take(hashToken(token), new Date(this.deps.now()));
    if (!pending) throw new ServiceError(400, 'confirmation-invalid', 'confirmationInvalid');
    const { language, ...account } = pending;
    const result = await this.users.insert(
      account,
      this.deps.config.accounting.defaultPayoutThreshold,
      language,
    );
    if (!('taken' in result)) return;
    // Only the owner of the mailbox gets here, so saying which one is taken tells nobody else anything.
    if (result.taken === 'username') throw usernameTaken();
    throw new ServiceError(409, 'email-taken', 'emailTaken');
  }

  /** A free address's account at once (no email to confirm it with); a lost race for the email answers alike. */
  private async create(account: NewUser, language: Language): Promise<void> {
    const result = await this.users.insert(
      account,
      this.deps.config.accounting.defaultPayoutThreshold,
      language,
    );
    if ('taken' in result && result.taken === 'username') throw usernameTaken();
  }

  /**
   * Runs `task` once the answer is on its way (setImmediate: after the current I/O phase, where
   * the reply is written), so neither kind of registration waits on its own extra work; a failure
   * is logged (the person registers again).
   */
  private later(task: () => Promise<void>): void {
    setImmediate(() => {
      task().catch(this.deps.onError);
    });
  }

  /** Sends in the background (the answer must not wait on SMTP), at most once per kind and address per MAIL_GAP_MS. */
  private mail(
    mailer: Mailer,
    to: string,
    language: Language,
    kind: 'account.confirm' | 'account.taken',
    values: Record<string, string | number>,
  ): void {
    const now = this.deps.now();
    const key = `${kind}:${to.toLowerCase()}`;
    const last = this.mailed.get(key);
    if (last !== undefined && now - last < MAIL_GAP_MS && now >= last) return;
    if (this.mailed.size > 10_000) this.mailed.clear();
    this.mailed.set(key, now);
    const email: OutgoingEmail = {
      to,
      subject: text(language, `${kind}.subject`),
      text: text(language, `${kind}.body`, values),
      language,
    };
    mailer.send(email).catch(this.deps.onError);
  }

  /** Where the links in the mails point: https on the public host, plain http with the port on a local one. */
  private baseUrl(): string {
    const { publicHost, http } = this.deps.config;
    return /^(localhost|127\.|\[?::1\]?$)/.test(publicHost)
      ? `http://${publicHost}:${http.port}`
      : `https://${publicHost}`;
  }
}

function usernameTaken(): ServiceError {
  return new ServiceError(409, 'username-taken', 'usernameTaken', {
    username: MESSAGES.usernameTaken,
  });
}
