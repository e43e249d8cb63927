// The operator's alert channel: plain-text email to config.operator.email over config.smtp.
// Absent (no SMTP or no operator address): accounting's operator alerts are logged and shown on
// /api/health and /metrics only.
import type { Config } from '../../config/index.js';
import { createMailer } from './mailer.js';

export interface OperatorChannel {
  notify(message: { subject: string; text: string }): Promise<void>;
  close(): void;
}

export function operatorChannel(config: Pick<Config, 'smtp' | 'operator'>): OperatorChannel | undefined {
  const to = config.operator.email;
  if (!config.smtp || !to) return undefined;
  const mailer = createMailer(config.smtp);
  return {
    notify: ({ subject, text }) => mailer.send({ to, subject, text, language: 'en' }),
    close: () => mailer.close(),
  };
}
