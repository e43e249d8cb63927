import { z } from 'zod';
import { ACCOUNT_COINS, isoTimeSchema, LANGUAGES } from './common.js';
import { booleanField, currentPasswordSchema, enumField } from './fields.js';
import { MESSAGES } from './messages.js';

export const THEMES = ['dark', 'light', 'system'] as const;
export const PAYOUT_THRESHOLDS = ['0.001', '0.01', '0.1'] as const;

export const settingsSchema = z.object({
  darkMode: z.boolean(),
  showBalance: z.boolean(),
  showHashrate: z.boolean(),
  theme: z.enum(THEMES),
  language: z.enum(LANGUAGES),
  notifications: z.boolean(),
  emailAlerts: z.boolean(),
  /** Read-only mirror of the account's 2FA state (change it with /api/auth/2fa/*). */
  twoFactorAuth: z.boolean(),
  autoLogout: z.boolean(),
  payoutThreshold: z.enum(PAYOUT_THRESHOLDS),
  payoutAddress: z.string().nullable(),
  pendingPayoutAddress: z.string().nullable(),
  pendingPayoutAddressEffectiveAt: isoTimeSchema.nullable(),
  /** True when a rig-management API token is saved (the token itself is never returned). */
  rigTokenSet: z.boolean(),
});
export type Settings = z.infer<typeof settingsSchema>;

/** PUT /api/settings: any subset; read-only and address fields are ignored (stripped). */
export const settingsUpdateSchema = z.object({
  darkMode: booleanField().optional(),
  showBalance: booleanField().optional(),
  showHashrate: booleanField().optional(),
  theme: enumField(THEMES).optional(),
  language: enumField(LANGUAGES).optional(),
  notifications: booleanField().optional(),
  emailAlerts: booleanField().optional(),
  autoLogout: booleanField().optional(),
  payoutThreshold: enumField(PAYOUT_THRESHOLDS).optional(),
});
export type SettingsUpdate = z.input<typeof settingsUpdateSchema>;

export const payoutAddressRequestSchema = z.object({
  address: z
    .string({ error: MESSAGES.addressInvalid })
    .trim()
    .min(1, MESSAGES.addressInvalid)
    .max(120, MESSAGES.addressInvalid),
  coin: z.enum(ACCOUNT_COINS, { error: MESSAGES.coinInvalid }),
  /** The account password (a stolen session alone cannot redirect payouts). */
  password: currentPasswordSchema,
  /** Required when 2FA is on. */
  totp: z.string({ error: MESSAGES.codeInvalid }).max(12, MESSAGES.codeInvalid).optional(),
});
export type PayoutAddressRequest = z.input<typeof payoutAddressRequestSchema>;

/** PUT /api/settings/rig-token {token}: saves (encrypted) or, with token null, removes it. */
export const rigTokenRequestSchema = z.object({
  token: z
    .string({ error: MESSAGES.tokenRequired })
    .trim()
    .min(1, MESSAGES.tokenRequired)
    .max(4096, MESSAGES.textTooLong)
    .nullable(),
});
export type RigTokenRequest = z.input<typeof rigTokenRequestSchema>;
