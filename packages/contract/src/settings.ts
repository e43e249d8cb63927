import { z } from 'zod';
import { isoTimeSchema, moneySchema } from './common.js';
import { LANGUAGES, POOL_COINS } from './tables.js';
import { booleanField, currentPasswordSchema, enumField } from './fields.js';
import { MESSAGES } from './messages.js';

export const THEMES = ['dark', 'light', 'system'] as const;

/**
 * One coin's payout settings: each coin the pool mines has its own address, its own
 * pending change (with the hold) and its own threshold. Amounts are base units of the coin.
 */
export const payoutSettingSchema = z.object({
  coin: z.enum(POOL_COINS),
  /** The address payouts of this coin go to now; null = none set (the balance is kept). */
  address: z.string().nullable(),
  /** A changed address waiting out the hold, and when it takes effect. */
  pendingAddress: z.string().nullable(),
  pendingEffectiveAt: isoTimeSchema.nullable(),
  /** Balance (base units) at which this coin is paid: the account's choice or the pool default. */
  threshold: moneySchema,
  /** The range an account may choose (config.accounting.payoutThresholds), base units. */
  minimumThreshold: moneySchema,
  maximumThreshold: moneySchema,
});
export type PayoutSetting = z.infer<typeof payoutSettingSchema>;

/** True for a time zone this runtime knows by its IANA name ("Asia/Riyadh", "UTC"). */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

const timeZoneField = z
  .string({ error: MESSAGES.timeZoneInvalid })
  .max(64, MESSAGES.timeZoneInvalid)
  .refine(isTimeZone, MESSAGES.timeZoneInvalid);

export const settingsSchema = z.object({
  darkMode: z.boolean(),
  showBalance: z.boolean(),
  showHashrate: z.boolean(),
  theme: z.enum(THEMES),
  language: z.enum(LANGUAGES),
  notifications: z.boolean(),
  emailAlerts: z.boolean(),
  /** Read-only: whether the pool sends email (SMTP set); email alerts can be turned on only then. */
  emailAlertsAvailable: z.boolean(),
  /** Read-only mirror of the account's 2FA state (change it with /api/auth/2fa/*). */
  twoFactorAuth: z.boolean(),
  autoLogout: z.boolean(),
  /** The IANA time zone every time is shown in; null: the browser's own (the default). */
  timeZone: z.string().nullable(),
  /** One entry per coin the pool mines, in coin-table order. */
  payouts: z.array(payoutSettingSchema),
  /** True when a rig-management API token is saved (the token itself is never returned). */
  rigTokenSet: z.boolean(),
});
export type Settings = z.infer<typeof settingsSchema>;

/** PUT /api/settings: any subset; read-only and payout fields are ignored (stripped). */
export const settingsUpdateSchema = z.object({
  darkMode: booleanField().optional(),
  showBalance: booleanField().optional(),
  showHashrate: booleanField().optional(),
  theme: enumField(THEMES).optional(),
  language: enumField(LANGUAGES).optional(),
  notifications: booleanField().optional(),
  emailAlerts: booleanField().optional(),
  autoLogout: booleanField().optional(),
  /** null: back to the browser's zone. */
  timeZone: timeZoneField.nullable().optional(),
  /** The browser's own zone, reported by the web app (for what the pool writes without a browser). */
  browserTimeZone: timeZoneField.optional(),
});
export type SettingsUpdate = z.input<typeof settingsUpdateSchema>;

export const payoutAddressRequestSchema = z.object({
  address: z
    .string({ error: MESSAGES.addressInvalid })
    .trim()
    .min(1, MESSAGES.addressInvalid)
    .max(120, MESSAGES.addressInvalid),
  /** The coin this address is paid in (only that coin's address and pending change move). */
  coin: z.enum(POOL_COINS, { error: MESSAGES.coinInvalid }),
  /** The account password (a stolen session alone cannot redirect payouts). */
  password: currentPasswordSchema,
  /** Required when 2FA is on. */
  totp: z.string({ error: MESSAGES.codeInvalid }).max(12, MESSAGES.codeInvalid).optional(),
});
export type PayoutAddressRequest = z.input<typeof payoutAddressRequestSchema>;

/** PUT /api/settings/payout-threshold: one coin's threshold in its base units (within its range). */
export const payoutThresholdRequestSchema = z.object({
  coin: z.enum(POOL_COINS, { error: MESSAGES.coinInvalid }),
  threshold: z
    .string({ error: MESSAGES.payoutThresholdOutOfRange })
    .regex(/^[1-9]\d{0,24}$/, MESSAGES.payoutThresholdOutOfRange),
});
export type PayoutThresholdRequest = z.input<typeof payoutThresholdRequestSchema>;

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
