import { MESSAGES, type ChangeEmailResponse, type Language } from '@manjam/contract';
import type { Config } from '../../config/index.js';
import type { Queryable } from '../../db/index.js';
import { PendingEmailChangesRepository } from '../../db/repositories/pending-email-changes.js';
import { UsersRepository, type UserRow } from '../../db/repositories/users.js';
import type { AuthService } from '../auth/auth-service.js';
import { hashToken, newToken } from '../auth/tokens.js';
import { ServiceError } from '../errors.js';
import type { AccountMail } from './account-mail.js';

export interface EmailChangeDeps {
  db: Queryable;
  config: Config;
  auth: AuthService;
  /** Null when the pool sends no email (config.smtp unset): the change is then made at once. */
  mail: AccountMail | null;
  now: () => number;
}

export interface EmailChangeRequest {
  password: string;
  newEmail: string;
  totp: string | undefined;
  language: Language;
}

const emailTaken = () =>
  new ServiceError(409, 'email-taken', 'emailTaken', { newEmail: MESSAGES.emailTaken });

/**
 * Changing the sign-in email without telling a signed-in account whether another account has the
 * new address, and only to an address its owner controls.
 *
 * With email configured, every request that passes the password (and TOTP) check answers alike:
 * 202 `{ next: 'confirm-email' }`. A free address is mailed a link (`/confirm-email#change=...`)
 * and the email changes when it is followed; an address with an account is mailed a notice
 * instead; the old address is told once the change is made. Without email (config.smtp unset)
 * nothing can be confirmed: the change is made at once and a taken address answers 409
 * email-taken, the same trade-off as registration without smtp (docs/OPERATIONS.md, Security).
 */
export class EmailChange {
  private readonly users: UsersRepository;
  private readonly pending: PendingEmailChangesRepository;

  constructor(private readonly deps: EmailChangeDeps) {
    this.users = new UsersRepository(deps.db);
    this.pending = new PendingEmailChangesRepository(deps.db);
  }

  async request(user: UserRow, input: EmailChangeRequest): Promise<ChangeEmailResponse> {
    const { auth, mail, config } = this.deps;
    await auth.confirmSensitiveChange(user, input.password, input.totp);
    if (input.newEmail.toLowerCase() === user.email.toLowerCase()) return { next: 'done' };
    const taken = await this.users.emailInUse(input.newEmail, user.id);
    if (!mail) {
      if (taken || !(await auth.setEmail(user.id, input.newEmail))) throw emailTaken();
      return { next: 'done' };
    }
    const now = this.deps.now();
    if (taken) {
      mail.later(() => {
        mail.send(input.newEmail, input.language, 'email.taken', {});
        return Promise.resolve();
      });
      return { next: 'confirm-email' };
    }
    // Stored after the answer, with its mail, so a free address answers no later than a taken one.
    const { token, hash } = newToken();
    const hours = config.auth.confirmEmailHours;
    mail.later(async () => {
      await this.pending.prune(new Date(now));
      await this.pending.insert(
        hash,
        { userId: user.id, newEmail: input.newEmail },
        new Date(now + hours * 3_600_000),
      );
      mail.send(input.newEmail, input.language, 'email.confirm', {
        username: user.username,
        hours,
        link: mail.link(`/confirm-email#change=${token}`),
      });
    });
    return { next: 'confirm-email' };
  }

  /** Makes the change of a confirmation link (once, before it expires) and tells the old address. */
  async confirm(token: string, language: Language): Promise<void> {
    const change = await this.pending.take(hashToken(token), new Date(this.deps.now()));
    const user = change && (await this.users.findById(change.userId));
    if (!change || !user) throw new ServiceError(400, 'confirmation-invalid', 'confirmationInvalid');
    // Only the owner of the new mailbox gets here: saying it is taken (someone took it since the
    // request) tells nobody else anything.
    if (!(await this.deps.auth.setEmail(user.id, change.newEmail))) throw emailTaken();
    const mail = this.deps.mail;
    mail?.later(() => {
      mail.send(user.email, language, 'email.changed', { username: user.username, email: change.newEmail });
      return Promise.resolve();
    });
  }
}
