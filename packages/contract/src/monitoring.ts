import { z } from 'zod';
import { isoTimeSchema, pagedSchema } from './common.js';
import { POOL_COINS } from './tables.js';
import { algorithmHashrateSchema, asOfSchema } from './dashboard.js';
import { currentPasswordSchema, textField } from './fields.js';
import { MESSAGES } from './messages.js';
import { payoutQuerySchema, payoutSchema, revenueSummarySchema } from './revenue.js';
import { workerSchema } from './workers.js';

// Monitoring: read-only API tokens and public watcher links of an account.

/** Every read-only API token starts with this (a leaked one is recognisable in a log or a scan). */
export const API_TOKEN_PREFIX = 'mj_ro_';
/** The pages a watcher link can show. */
export const WATCH_PAGES = ['dashboard', 'workers', 'payouts'] as const;
export type WatchPage = (typeof WATCH_PAGES)[number];
/** The longest expiry a token or a link may be given, in days (none: it lasts until revoked). */
export const MAX_EXPIRY_DAYS = 365;

const expiresInDays = z
  .number({ error: MESSAGES.expiryOutOfRange })
  .int(MESSAGES.expiryOutOfRange)
  .min(1, MESSAGES.expiryOutOfRange)
  .max(MAX_EXPIRY_DAYS, MESSAGES.expiryOutOfRange)
  .nullable()
  .default(null);

/** Creating a token or a link needs the password (and the TOTP code when 2FA is on). */
const confirmation = {
  password: currentPasswordSchema,
  totp: z.string({ error: MESSAGES.codeInvalid }).max(12, MESSAGES.codeInvalid).optional(),
};

export const apiTokenSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  /** The token's first characters (`mj_ro_` and a few more), to tell tokens apart. */
  prefix: z.string(),
  createdAt: isoTimeSchema,
  expiresAt: isoTimeSchema.nullable(),
  lastUsedAt: isoTimeSchema.nullable(),
  revokedAt: isoTimeSchema.nullable(),
});
export type ApiToken = z.infer<typeof apiTokenSchema>;
export const apiTokenListSchema = z.object({ tokens: z.array(apiTokenSchema) });
export type ApiTokenList = z.infer<typeof apiTokenListSchema>;

export const createApiTokenSchema = z.object({
  name: textField(MESSAGES.nameRequired, 60),
  expiresInDays,
  ...confirmation,
});
export type CreateApiToken = z.input<typeof createApiTokenSchema>;
/** The created token: `token` is shown this once and never again (only its hash is kept). */
export const createdApiTokenSchema = apiTokenSchema.extend({ token: z.string() });
export type CreatedApiToken = z.infer<typeof createdApiTokenSchema>;

const watchCoins = z
  .array(z.enum(POOL_COINS, { error: MESSAGES.coinInvalid }), { error: MESSAGES.watchCoinsRequired })
  .min(1, MESSAGES.watchCoinsRequired)
  .max(POOL_COINS.length, MESSAGES.watchCoinsRequired);
const watchPages = z
  .array(z.enum(WATCH_PAGES, { error: MESSAGES.invalidValue }), { error: MESSAGES.watchPagesRequired })
  .min(1, MESSAGES.watchPagesRequired)
  .max(WATCH_PAGES.length, MESSAGES.watchPagesRequired);

export const watchLinkSchema = z.object({
  id: z.number().int(),
  label: z.string(),
  /** The link's secret: the page is /watch/<token>. */
  token: z.string(),
  coins: z.array(z.enum(POOL_COINS)),
  pages: z.array(z.enum(WATCH_PAGES)),
  createdAt: isoTimeSchema,
  expiresAt: isoTimeSchema.nullable(),
  lastViewedAt: isoTimeSchema.nullable(),
  revokedAt: isoTimeSchema.nullable(),
});
export type WatchLink = z.infer<typeof watchLinkSchema>;
export const watchLinkListSchema = z.object({ links: z.array(watchLinkSchema) });
export type WatchLinkList = z.infer<typeof watchLinkListSchema>;

export const createWatchLinkSchema = z.object({
  label: textField(MESSAGES.nameRequired, 60),
  coins: watchCoins,
  pages: watchPages,
  expiresInDays,
  ...confirmation,
});
export type CreateWatchLink = z.input<typeof createWatchLinkSchema>;

/** A watcher link's token in a path (43 base64url characters; anything else names no link). */
export const watchParamsSchema = z.object({ token: z.string().max(100) });

/** GET /api/watch/:token: what the link shows (never the account's email, name or settings). */
export const watchViewSchema = z.object({
  label: z.string(),
  coins: z.array(z.enum(POOL_COINS)),
  pages: z.array(z.enum(WATCH_PAGES)),
  expiresAt: isoTimeSchema.nullable(),
});
export type WatchView = z.infer<typeof watchViewSchema>;

/** GET /api/watch/:token/dashboard: hashrates and balances of the link's coins only. */
export const watchDashboardSchema = z.object({
  hashrates: z.array(algorithmHashrateSchema),
  coins: revenueSummarySchema.shape.coins,
  asOf: asOfSchema,
});
export type WatchDashboard = z.infer<typeof watchDashboardSchema>;

/** A worker as a watcher sees it: no row id, no `username.worker` login (the account's name). */
export const watchWorkerSchema = workerSchema.omit({ id: true, fullName: true });
export type WatchWorker = z.infer<typeof watchWorkerSchema>;
export const watchWorkersSchema = z.object({ workers: z.array(watchWorkerSchema), asOf: asOfSchema });
export type WatchWorkers = z.infer<typeof watchWorkersSchema>;

/**
 * Payouts of the link's coins: `address` and `txId` are shortened (their first 6 and last 4
 * characters: a full txid leads to the full address on-chain), and no row id.
 */
export const watchPayoutQuerySchema = payoutQuerySchema.pick({ page: true, pageSize: true, coin: true });
export type WatchPayoutQuery = z.input<typeof watchPayoutQuerySchema>;
export const watchPayoutSchema = payoutSchema.omit({ id: true });
export type WatchPayout = z.infer<typeof watchPayoutSchema>;
export const watchPayoutPageSchema = pagedSchema(watchPayoutSchema);
export type WatchPayoutPage = z.infer<typeof watchPayoutPageSchema>;
