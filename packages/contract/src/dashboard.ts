import { z } from 'zod';
import { ACCOUNT_COINS, changeSchema, isoTimeSchema } from './common.js';
import { MESSAGES } from './messages.js';
import { unsettledSchema } from './revenue.js';

export const statSchema = z.object({ value: z.union([z.number(), z.string()]), change: changeSchema });
export type Stat = z.infer<typeof statSchema>;

/** hashrate (H/s, number), activeMiners (number), unpaidBalance and dailyEarnings (base-unit strings of `coin`). */
export const dashboardSchema = z.object({
  hashrate: statSchema,
  activeMiners: statSchema,
  unpaidBalance: statSchema,
  dailyEarnings: statSchema,
  coin: z.enum(ACCOUNT_COINS),
  /** Today's accrued and immature block credits of `coin`, beside the unpaid balance. */
  unsettled: unsettledSchema,
});
export type Dashboard = z.infer<typeof dashboardSchema>;

export const HASHRATE_WINDOWS = ['24h', '7d'] as const;
export const HASHRATE_STEPS = ['10m', '1h'] as const;

export const hashrateQuerySchema = z.object({
  window: z.enum(HASHRATE_WINDOWS, { error: MESSAGES.invalidValue }).default('24h'),
  step: z.enum(HASHRATE_STEPS, { error: MESSAGES.invalidValue }).default('1h'),
});
export type HashrateQuery = z.input<typeof hashrateQuerySchema>;

export const hashratePointSchema = z.object({ time: isoTimeSchema, value: z.number() });
export const hashrateSeriesSchema = z.object({
  points: z.array(hashratePointSchema),
  unit: z.literal('H/s'),
});
export type HashrateSeries = z.infer<typeof hashrateSeriesSchema>;
