import { z } from 'zod';
import {
  ACCOUNT_COINS,
  isoTimeSchema,
  moneySchema,
  pageQuerySchema,
  pagedSchema,
  PAYOUT_SCHEMES,
  POOL_COINS,
} from './common.js';
import { MESSAGES } from './messages.js';

export const PAYOUT_STATUSES = ['completed', 'pending', 'failed'] as const;

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
});
export type Payout = z.infer<typeof payoutSchema>;
export const payoutPageSchema = pagedSchema(payoutSchema);
export type PayoutPage = z.infer<typeof payoutPageSchema>;

/**
 * Money not yet in a daily reward row: `accrued` = net credits (PPS, PPLNS, SOLO, reversals) since
 * `accruedSince`, the start of the settlement day the daily close has not settled yet (an
 * estimate: the close may still move late batches); `immature` = the user's share of blocks the
 * pool found that are not mature yet (`immatureBlocks` of them), not in the balance until they are.
 */
export const unsettledSchema = z.object({
  accrued: moneySchema,
  accruedSince: isoTimeSchema,
  immature: moneySchema,
  immatureBlocks: z.number().int(),
});
export type Unsettled = z.infer<typeof unsettledSchema>;

/** GET /api/revenue/summary: per pool coin, the unpaid balance beside today's accrued and immature credits. */
export const revenueSummarySchema = z.object({
  coins: z.array(unsettledSchema.extend({ coin: z.enum(POOL_COINS), balance: moneySchema })),
});
export type RevenueSummary = z.infer<typeof revenueSummarySchema>;
