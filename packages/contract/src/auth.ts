import { z } from 'zod';
import { isoTimeSchema, moneySchema } from './common.js';
import { ACCOUNT_COINS, DEFAULT_POOL_COIN, USERNAME_CHARS, USERNAME_MAX, USERNAME_MIN } from './tables.js';
import { algorithmHashrateSchema, asOfSchema } from './dashboard.js';
import { currentPasswordSchema, SIMPLE_EMAIL, textField, totpCodeSchema } from './fields.js';
import { MESSAGES } from './messages.js';

export const usernameSchema = textField(MESSAGES.usernameRequired, 1000)
  .min(USERNAME_MIN, MESSAGES.usernameMin)
  .max(USERNAME_MAX, MESSAGES.usernameMax)
  .regex(USERNAME_CHARS, MESSAGES.usernameChars);

export const emailSchema = textField(MESSAGES.emailRequired, 1000)
  .max(254, MESSAGES.textTooLong)
  .regex(SIMPLE_EMAIL, MESSAGES.emailInvalid);

export const newPasswordSchema = z
  .string({
    error: (issue) =>
      issue.input === undefined || issue.input === null ? MESSAGES.passwordRequired : MESSAGES.expectedText,
  })
  .min(1, MESSAGES.passwordRequired)
  .min(8, MESSAGES.passwordMin)
  .max(256, MESSAGES.passwordMax);

/**
 * Registration. The wallet address is checked for the chosen coin by the server (real address
 * decoding for BTC and LTC); `confirmPassword` is optional (the seed's form does not send it).
 */
export const registerRequestSchema = z
  .object({
    username: usernameSchema,
    email: emailSchema,
    password: newPasswordSchema,
    confirmPassword: z.string({ error: MESSAGES.expectedText }).optional(),
    walletAddress: z
      .string({ error: MESSAGES.expectedText })
      .trim()
      .max(120, MESSAGES.addressInvalid)
      .nullish()
      .transform((value) => (value ? value : null)),
    preferredCoin: z.enum(ACCOUNT_COINS, { error: MESSAGES.coinInvalid }).default(DEFAULT_POOL_COIN),
  })
  .refine((value) => value.confirmPassword === undefined || value.confirmPassword === value.password, {
    path: ['confirmPassword'],
    message: MESSAGES.passwordsMismatch,
    // Report a mismatch together with the other fields' errors, as the seed's form does.
    when: (payload) => {
      const value = payload.value as { password?: unknown; confirmPassword?: unknown };
      return typeof value.password === 'string' && typeof value.confirmPassword === 'string';
    },
  });
export type RegisterRequest = z.input<typeof registerRequestSchema>;

export const loginRequestSchema = z.object({
  email: textField(MESSAGES.emailRequired, 254),
  password: currentPasswordSchema,
  /** The 6-digit TOTP code, or one of the account's recovery codes (xxxx-xxxx-xxxx-xxxx) in its place. */
  totp: z.string({ error: MESSAGES.codeInvalid }).max(24, MESSAGES.codeInvalid).optional(),
});
export type LoginRequest = z.input<typeof loginRequestSchema>;

export const userSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  email: z.string(),
  walletAddress: z.string().nullable(),
  preferredCoin: z.enum(ACCOUNT_COINS),
  twoFactorEnabled: z.boolean(),
  /** May use the operator console (granted from the CLI); the web app shows its link only then. */
  operator: z.boolean(),
  createdAt: isoTimeSchema,
  activeWorkers: z.number().int(),
  /** Per algorithm the user mines (the same figures as the dashboard and workers page). */
  hashrates: z.array(algorithmHashrateSchema),
  /** Unpaid balance in base units of preferredCoin. */
  balance: moneySchema,
  /** Every coin with an unpaid balance (base units, above zero), preferredCoin first. Always sent. */
  balances: z.array(z.object({ coin: z.enum(ACCOUNT_COINS), amount: moneySchema })).optional(),
  asOf: asOfSchema,
});
export type User = z.infer<typeof userSchema>;

/**
 * What a registration answers, the same whether the email already has an account or not (no
 * enumeration): `confirm-email` when the pool sends email (the account is created from the
 * link mailed to the address; the owner of a taken address gets a notice instead), `sign-in` when
 * it does not (the account exists at once for a free address).
 */
export const REGISTRATION_NEXT_STEPS = ['confirm-email', 'sign-in'] as const;
export const registerResponseSchema = z.object({ next: z.enum(REGISTRATION_NEXT_STEPS) });

/** The token of a confirmation link (`/confirm-email#token=...`). */
export const confirmEmailRequestSchema = z.object({
  token: z
    .string({ error: MESSAGES.confirmationInvalid })
    .min(20, MESSAGES.confirmationInvalid)
    .max(200, MESSAGES.confirmationInvalid),
});
export type ConfirmEmailRequest = z.input<typeof confirmEmailRequestSchema>;

/** Asking for a password reset link by email (the same answer whether the email has an account or not). */
export const passwordResetRequestSchema = z.object({ email: emailSchema });
export type PasswordResetRequest = z.input<typeof passwordResetRequestSchema>;

/** Setting a new password with the token of a reset link (`/forgot-password#reset=...`). */
export const passwordResetConfirmSchema = z.object({
  token: z
    .string({ error: MESSAGES.resetLinkInvalid })
    .min(20, MESSAGES.resetLinkInvalid)
    .max(200, MESSAGES.resetLinkInvalid),
  newPassword: newPasswordSchema,
});
export type PasswordResetConfirm = z.input<typeof passwordResetConfirmSchema>;

/**
 * What the pool offers someone locked out or looking for help (public): whether it sends email
 * (password reset by email, email alerts) and the operator's contact (config `operator.contact`).
 */
export const accountHelpSchema = z.object({
  email: z.boolean(),
  contact: z.string().nullable(),
});
export type AccountHelp = z.infer<typeof accountHelpSchema>;
export type RegisterResponse = z.infer<typeof registerResponseSchema>;

export const loginResponseSchema = z.object({
  token: z.string(),
  user: userSchema,
  expiresAt: isoTimeSchema,
});
export type LoginResponse = z.infer<typeof loginResponseSchema>;

export const totpSetupResponseSchema = z.object({
  secret: z.string(),
  otpauthUrl: z.string(),
  qrDataUrl: z.string(),
});
export type TotpSetupResponse = z.infer<typeof totpSetupResponseSchema>;

/** Turning 2FA on (the code of the new secret) or off (the code in force): both need the password too. */
export const totpCodeRequestSchema = z.object({ password: currentPasswordSchema, code: totpCodeSchema });
export type TotpCodeRequest = z.input<typeof totpCodeRequestSchema>;

export const changePasswordRequestSchema = z.object({
  currentPassword: currentPasswordSchema,
  newPassword: newPasswordSchema,
  totp: z.string({ error: MESSAGES.codeInvalid }).max(12, MESSAGES.codeInvalid).optional(),
});
export type ChangePasswordRequest = z.input<typeof changePasswordRequestSchema>;

/** `totp` is required when 2FA is on (as for every sensitive change). */
export const changeEmailRequestSchema = z.object({
  password: currentPasswordSchema,
  newEmail: emailSchema,
  totp: z.string({ error: MESSAGES.codeInvalid }).max(12, MESSAGES.codeInvalid).optional(),
});
export type ChangeEmailRequest = z.input<typeof changeEmailRequestSchema>;

/**
 * What an email change asks of the user next: `confirm-email` (a link went to the new address,
 * the email changes when it is followed; the same answer when that address already has an
 * account) or `done` (changed at once: the pool sends no email).
 */
export const EMAIL_CHANGE_NEXT_STEPS = ['confirm-email', 'done'] as const;
export const changeEmailResponseSchema = z.object({ next: z.enum(EMAIL_CHANGE_NEXT_STEPS) });
export type ChangeEmailResponse = z.infer<typeof changeEmailResponseSchema>;
