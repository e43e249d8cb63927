import { z } from 'zod';
import { ACCOUNT_COINS, isoTimeSchema, moneySchema } from './common.js';
import { SIMPLE_EMAIL, textField, totpCodeSchema } from './fields.js';
import { MESSAGES } from './messages.js';

const usernameSchema = textField(MESSAGES.usernameRequired, 1000)
  .min(3, MESSAGES.usernameMin)
  .max(32, MESSAGES.usernameMax)
  .regex(/^[\p{L}\p{N}._-]+$/u, MESSAGES.usernameChars);

export const emailSchema = textField(MESSAGES.emailRequired, 1000).max(254, MESSAGES.textTooLong).regex(SIMPLE_EMAIL, MESSAGES.emailInvalid);

export const newPasswordSchema = z
  .string({ error: (issue) => (issue.input === undefined || issue.input === null ? MESSAGES.passwordRequired : MESSAGES.expectedText) })
  .min(1, MESSAGES.passwordRequired)
  .min(8, MESSAGES.passwordMin)
  .max(256, MESSAGES.passwordMax);

const passwordSchema = z
  .string({ error: (issue) => (issue.input === undefined || issue.input === null ? MESSAGES.passwordRequired : MESSAGES.expectedText) })
  .min(1, MESSAGES.passwordRequired)
  .max(1024, MESSAGES.passwordMax);

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
    preferredCoin: z.enum(ACCOUNT_COINS, { error: MESSAGES.coinInvalid }).default('BTC'),
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
  password: passwordSchema,
  totp: z.string({ error: MESSAGES.codeInvalid }).max(12, MESSAGES.codeInvalid).optional(),
});
export type LoginRequest = z.input<typeof loginRequestSchema>;

export const userSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  email: z.string(),
  walletAddress: z.string().nullable(),
  preferredCoin: z.enum(ACCOUNT_COINS),
  twoFactorEnabled: z.boolean(),
  createdAt: isoTimeSchema,
  activeWorkers: z.number().int(),
  hashrate: z.number(),
  /** Unpaid balance in base units of preferredCoin. */
  balance: moneySchema,
});
export type User = z.infer<typeof userSchema>;

export const registerResponseSchema = z.object({ user: userSchema });
export type RegisterResponse = z.infer<typeof registerResponseSchema>;

export const loginResponseSchema = z.object({ token: z.string(), user: userSchema, expiresAt: isoTimeSchema });
export type LoginResponse = z.infer<typeof loginResponseSchema>;

export const totpSetupResponseSchema = z.object({ secret: z.string(), otpauthUrl: z.string(), qrDataUrl: z.string() });
export type TotpSetupResponse = z.infer<typeof totpSetupResponseSchema>;

export const totpCodeRequestSchema = z.object({ code: totpCodeSchema });
export type TotpCodeRequest = z.input<typeof totpCodeRequestSchema>;

export const changePasswordRequestSchema = z.object({
  currentPassword: passwordSchema,
  newPassword: newPasswordSchema,
  totp: z.string().max(12).optional(),
});
export type ChangePasswordRequest = z.input<typeof changePasswordRequestSchema>;

export const changeEmailRequestSchema = z.object({ password: passwordSchema, newEmail: emailSchema });
export type ChangeEmailRequest = z.input<typeof changeEmailRequestSchema>;
