// A real SMTP server on 127.0.0.1 (an ephemeral port) for tests of outgoing email: every message
// that arrives is parsed and kept in `inbox` with its first recipient.
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface SmtpInbox {
  /** smtp://127.0.0.1:<port>, for config.smtp.url. */
  url: string;
  inbox: { to: string; mail: ParsedMail }[];
  close(): Promise<void>;
}

export async function startSmtpInbox(): Promise<SmtpInbox> {
  const inbox: SmtpInbox['inbox'] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const to = session.envelope.rcptTo[0]?.address ?? '';
      simpleParser(stream).then(
        (mail) => {
          inbox.push({ to, mail });
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  return {
    url: `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`,
    inbox,
    close: () => new Promise<void>((resolve) => smtp.close(resolve)),
  };
}
