import { z } from 'zod';
import {
  ACCOUNT_COINS,
  isoTimeSchema,
  moneySchema,
  pageQuerySchema,
  pagedSchema,
  PAYOUT_SCHEMES,
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
