import { z } from 'zod';
import { MESSAGES } from './messages.js';

/** A string field whose absence reads `required`, and whose wrong type reads 'Must be text'. */
export function textField(required: string = MESSAGES.invalidValue, max = 200) {
  return z
    .string({
      error: (issue) =>
        issue.input === undefined || issue.input === null ? required : MESSAGES.expectedText,
    })
    .trim()
    .min(1, required)
    .max(max, MESSAGES.textTooLong);
}

export function booleanField() {
  return z.boolean({ error: MESSAGES.expectedBoolean });
}

export function enumField<const T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(values, { error: MESSAGES.invalidValue });
}

/** A 6-digit TOTP code (spaces allowed, removed). */
export const totpCodeSchema = z
  .string({ error: MESSAGES.codeInvalid })
  .transform((value) => value.replace(/\s+/g, ''))
  .pipe(z.string().regex(/^\d{6}$/, MESSAGES.codeInvalid));

export const SIMPLE_EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The current password, asked again for sensitive changes (email, password, payout address, 2FA on/off). */
export const currentPasswordSchema = z
  .string({
    error: (issue) =>
      issue.input === undefined || issue.input === null ? MESSAGES.passwordRequired : MESSAGES.expectedText,
  })
  .min(1, MESSAGES.passwordRequired)
  .max(1024, MESSAGES.passwordMax);
