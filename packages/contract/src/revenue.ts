import { z } from 'zod';
import { isoTimeSchema, moneySchema, pageQuerySchema, pagedSchema } from './common.js';
import { ACCOUNT_COINS, PAYOUT_SCHEMES, POOL_COINS } from './tables.js';
import { MESSAGES } from './messages.js';

export const PAYOUT_STATUSES = ['completed', 'pending', 'failed'] as const;

/**
 * Why a failed payout sent nothing (its amount is back in the balance and paid by a later run):
 * `wallet-short` the pool wallet could not fund the run; `wallet-refused` the wallet refused the
 * transaction for another reason; `not-sent` the run was interrupted before it reached the
 * wallet; `cancelled` the operator settled a held run as unsent.
 */
export const PAYOUT_FAILURES = ['wallet-short', 'wallet-refused', 'not-sent', 'cancelled'] as const;
export type PayoutFailure = (typeof PAYOUT_FAILURES)[number];

const searchField = z
  .string({ error: MESSAGES.expectedText })
  .trim()
  .max(100, MESSAGES.textTooLong)
  .optional();
const coinFilter = z.enum(ACCOUNT_COINS, { error: MESSAGES.coinInvalid }).optional();

export const rewardQuerySchema = pageQuerySchema.extend({ search: searchField, coin: coinFilter });
export type RewardQuery = z.input<typeof rewardQuerySchema>;

export const payoutQuerySchema = pageQuerySchema.extend({
  search: searchField,
  coin: coinFilter,
  status: z.enum(PAYOUT_STATUSES, { error: MESSAGES.invalidValue }).optional(),
});
export type PayoutQuery = z.input<typeof payoutQuerySchema>;

export const rewardSchema = z.object({
  id: z.number().int(),
  /** The settled day, YYYY-MM-DD. */
  date: z.string(),
  settledAt: isoTimeSchema,
  avgHashrate: z.number(),
  amount: moneySchema,
  coin: z.enum(ACCOUNT_COINS),
  difficulty: z.number(),
  description: z.enum(PAYOUT_SCHEMES),
});
export type Reward = z.infer<typeof rewardSchema>;
export const rewardPageSchema = pagedSchema(rewardSchema);
export type RewardPage = z.infer<typeof rewardPageSchema>;

export const payoutSchema = z.object({
  id: z.number().int(),
  date: isoTimeSchema,
  amount: moneySchema,
  coin: z.enum(ACCOUNT_COINS),
  txId: z.string().nullable(),
  status: z.enum(PAYOUT_STATUSES),
  address: z.string(),
  confirmations: z.number().int(),
  /** Why a failed payout sent nothing; null unless `status` is failed (and for old rows without a reason). */
  failure: z.enum(PAYOUT_FAILURES).nullable(),
});
export type Payout = z.infer<typeof payoutSchema>;
export const payoutPageSchema = pagedSchema(payoutSchema);
export type PayoutPage = z.infer<typeof payoutPageSchema>;

/**
 * Money not yet in a daily reward row: `accrued` = net earnings (PPS, PPLNS, SOLO, reversals of
 * orphaned credits; never payouts or their refunds) since `accruedSince`, the start of the
 * settlement day the daily close has not settled yet (an estimate: the close may still move late
 * batches); `immature` = the user's share of blocks the pool found that are not mature yet
 * (`immatureBlocks` of them), not in the balance until they are. `creditedUpTo`: the pool's
 * shares of this coin are credited up to this moment (null before accounting first ran for it);
 * `creditsBehind`: that moment is more than a few accounting cycles old, so the figures lag.
 */
export const unsettledSchema = z.object({
  accrued: moneySchema,
  accruedSince: isoTimeSchema,
  immature: moneySchema,
  immatureBlocks: z.number().int(),
  creditedUpTo: isoTimeSchema.nullable(),
  creditsBehind: z.boolean(),
});
export type Unsettled = z.infer<typeof unsettledSchema>;

/** GET /api/revenue/summary: per pool coin, the unpaid balance beside today's accrued and immature credits. */
export const revenueSummarySchema = z.object({
  coins: z.array(unsettledSchema.extend({ coin: z.enum(POOL_COINS), balance: moneySchema })),
});
export type RevenueSummary = z.infer<typeof revenueSummarySchema>;
