import nodemailer from 'nodemailer';

export interface OutgoingEmail {
  to: string;
  subject: string;
  text: string;
  /** Absent: a plain-text message (operator alerts). */
  html?: string;
  language: 'en' | 'ar';
}

/** Sends alert emails. `send` rejects when the SMTP server does not accept the message. */
export interface Mailer {
  send(email: OutgoingEmail): Promise<void>;
  close(): void;
}

/** An SMTP mailer from config.smtp: `url` like smtp://user:pass@host:587 (smtps:// for TLS on connect). */
export function createMailer(smtp: { url: string; from: string }): Mailer {
  const transport = nodemailer.createTransport(smtp.url);
  return {
    async send(email) {
      await transport.sendMail({
        from: smtp.from,
        to: email.to,
        subject: email.subject,
        text: email.text,
        ...(email.html === undefined ? {} : { html: email.html }),
        headers: { 'Content-Language': email.language },
      });
    },
    close() {
      transport.close();
    },
  };
}
