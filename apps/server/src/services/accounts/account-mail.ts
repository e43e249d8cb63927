import type { Language } from '@manjam/contract';
import type { Config } from '../../config/index.js';
import { text } from '../../i18n/index.js';
import type { Mailer } from '../alerts/mailer.js';

/** One mail of each kind per address in this window at most, so nobody can mail-bomb an address through a form. */
const MAIL_GAP_MS = 10 * 60_000;

/** The account mails (their subject and body keys in the i18n catalogs: `<kind>.subject`, `<kind>.body`). */
export type AccountMailKind =
  | 'account.confirm'
  | 'account.taken'
  | 'email.confirm'
  | 'email.taken'
  | 'email.changed'
  | 'password.reset'
  | 'password.changed';

/**
 * The mails of account flows (registration, email change): sent after the answer is on its way,
 * at most one of a kind per address per MAIL_GAP_MS, links to the pool's public address.
 */
export class AccountMail {
  private readonly mailed = new Map<string, number>();

  constructor(
    private readonly mailer: Mailer,
    private readonly config: Config,
    private readonly now: () => number,
    private readonly onError: (error: unknown) => void,
  ) {}

  /**
   * Runs `task` once the answer is on its way (setImmediate: after the current I/O phase, where
   * the reply is written), so no answer waits on its own extra work; a failure is logged (the
   * person asks again).
   */
  later(task: () => Promise<void>): void {
    setImmediate(() => {
      task().catch(this.onError);
    });
  }

  /** Sends in the background (the answer must not wait on SMTP), at most once per kind and address per MAIL_GAP_MS. */
  send(to: string, language: Language, kind: AccountMailKind, values: Record<string, string | number>): void {
    const now = this.now();
    const key = `${kind}:${to.toLowerCase()}`;
    const last = this.mailed.get(key);
    if (last !== undefined && now - last < MAIL_GAP_MS && now >= last) return;
    if (this.mailed.size > 10_000) this.mailed.clear();
    this.mailed.set(key, now);
    this.mailer
      .send({
        to,
        subject: text(language, `${kind}.subject`),
        text: text(language, `${kind}.body`, values),
        language,
      })
      .catch(this.onError);
  }

  /** A link to a page of the web app: https on the public host, plain http with the port on a local one. */
  link(pathAndFragment: string): string {
    const { publicHost, http } = this.config;
    const base = /^(localhost|127\.|\[?::1\]?$)/.test(publicHost)
      ? `http://${publicHost}:${http.port}`
      : `https://${publicHost}`;
    return `${base}${pathAndFragment}`;
  }
}
