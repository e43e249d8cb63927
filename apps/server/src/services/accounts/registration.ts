import { MESSAGES, type Language, type RegisterRequest, type RegisterResponse } from '@manjam/contract';
import type { Config } from '../../config/index.js';
import type { Queryable } from '../../db/index.js';
import { PendingRegistrationsRepository } from '../../db/repositories/pending-registrations.js';
import { UsersRepository, type NewUser } from '../../db/repositories/users.js';
import { hashPassword } from '../auth/passwords.js';
import { hashToken, newToken } from '../auth/tokens.js';
import { ServiceError, validationError } from '../errors.js';
import type { AccountMail } from './account-mail.js';
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
  mail: AccountMail | null;
  now: () => number;
}

/**
 * Registration that does not tell whether an email has an account.
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
 *   the operator closes that by configuring smtp (docs/OPERATIONS.md, Security).
 *
 * Usernames are public (they are the Stratum logins miners type, shown to anyone who mines to the
 * pool), so a taken username is still answered 409 username-taken; that answer is given before
 * the email is looked at, whatever the email, so it says nothing about the email.
 */
export class Registration {
  private readonly users: UsersRepository;
  private readonly pending: PendingRegistrationsRepository;
  private readonly mail: AccountMail | null;

  constructor(private readonly deps: RegistrationDeps) {
    this.users = new UsersRepository(deps.db);
    this.pending = new PendingRegistrationsRepository(deps.db);
    this.mail = deps.mail;
  }

  async register(input: RegisterInput): Promise<RegisterResponse> {
    const { config } = this.deps;
    const mail = this.mail;
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
    if (!mail) {
      if (!owner) await this.create(account, input.language);
      return { next: 'sign-in' };
    }
    const now = this.deps.now();
    await this.pending.prune(new Date(now));
    if (owner) {
      const to = owner.email;
      mail.later(() => {
        mail.send(to, input.language, 'account.taken', { login: mail.link('/login') });
        return Promise.resolve();
      });
      return { next: 'confirm-email' };
    }
    // Stored after the answer, with its mail: an awaited insert (a commit on PostgreSQL) would
    // make a free address answer measurably later than a taken one.
    const { token, hash } = newToken();
    const hours = config.auth.confirmEmailHours;
    const expiresAt = new Date(now + hours * 3_600_000);
    mail.later(async () => {
      await this.pending.insert(hash, { ...account, language: input.language }, expiresAt);
      mail.send(account.email, input.language, 'account.confirm', {
        username: account.username,
        hours,
        link: mail.link(`/confirm-email#token=${token}`),
      });
    });
    return { next: 'confirm-email' };
  }

  /** Creates the account of a confirmation link (once; the link expires after auth.confirmEmailHours). */
  async confirm(token: string): Promise<void> {
    const pending = await this.pending.take(hashToken(token), new Date(this.deps.now()));
    if (!pending) throw new ServiceError(400, 'confirmation-invalid', 'confirmationInvalid');
    const { language, ...account } = pending;
    const result = await this.users.insert(account, language);
    if (!('taken' in result)) return;
    // Only the owner of the mailbox gets here, so saying which one is taken tells nobody else anything.
    if (result.taken === 'username') throw usernameTaken();
    throw new ServiceError(409, 'email-taken', 'emailTaken');
  }

  /** A free address's account at once (no email to confirm it with); a lost race for the email answers alike. */
  private async create(account: NewUser, language: Language): Promise<void> {
    const result = await this.users.insert(account, language);
    if ('taken' in result && result.taken === 'username') throw usernameTaken();
  }
}

function usernameTaken(): ServiceError {
  return new ServiceError(409, 'username-taken', 'usernameTaken', {
    username: MESSAGES.usernameTaken,
  });
}
