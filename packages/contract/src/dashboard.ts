import { z } from 'zod';
import { changeSchema, isoTimeSchema } from './common.js';
import { ACCOUNT_COINS, ALGORITHMS, DEFAULT_POOL_COIN, POOL_COINS } from './tables.js';
import { MESSAGES } from './messages.js';
import { unsettledSchema } from './revenue.js';

/**
 * When the figures of an answer were read: every figure in it comes from that one read, and no
 * answer is older than the cache age of its endpoint. Always sent; optional for older clients.
 */
export const asOfSchema = isoTimeSchema.optional();

/**
 * Seconds each hashrate average covers: its window (600, 3,600, 86,400), or the time since the first
 * accepted share in it when that is shorter (at least a minute) — "over the last N min". Always sent.
 */
export const averagedSecondsSchema = z.object({ realtime: z.number(), hour: z.number(), day: z.number() });
export type AveragedSeconds = z.infer<typeof averagedSecondsSchema>;

/**
 * A user's hashrate on one algorithm (never summed across algorithms), H/s. Each average covers its
 * window, or the time since the first accepted share in it when that is shorter (`averagedSeconds`).
 */
export const algorithmHashrateSchema = z.object({
  algorithm: z.enum(ALGORITHMS),
  coin: z.enum(POOL_COINS),
  /** Real-time: the last 10 minutes. */
  realtime: z.number(),
  hour: z.number(),
  day: z.number(),
  /** Workers with an accepted share in the last 10 minutes. */
  activeWorkers: z.number().int(),
  /**
   * The newest accepted share of the algorithm's workers: the figures count every share up to this
   * moment (read in the query that sums them). Null before the first share. When no worker is active
   * (`activeWorkers` 0), no share has arrived since.
   */
  countedUpTo: isoTimeSchema.nullable(),
  averagedSeconds: averagedSecondsSchema.optional(),
});
export type AlgorithmHashrate = z.infer<typeof algorithmHashrateSchema>;

export const statSchema = z.object({ value: z.union([z.number(), z.string()]), change: changeSchema });
export type Stat = z.infer<typeof statSchema>;

/** hashrates (per algorithm the user mines), activeMiners (number), unpaidBalance and dailyEarnings (base-unit strings of `coin`). */
export const dashboardSchema = z.object({
  hashrates: z.array(algorithmHashrateSchema),
  activeMiners: statSchema,
  unpaidBalance: statSchema,
  dailyEarnings: statSchema,
  coin: z.enum(ACCOUNT_COINS),
  /** Today's accrued and immature block credits of `coin`, beside the unpaid balance. */
  unsettled: unsettledSchema,
  asOf: asOfSchema,
});
export type Dashboard = z.infer<typeof dashboardSchema>;

export const HASHRATE_WINDOWS = ['24h', '7d'] as const;
export const HASHRATE_STEPS = ['10m', '1h'] as const;

export const hashrateQuerySchema = z.object({
  window: z.enum(HASHRATE_WINDOWS, { error: MESSAGES.invalidValue }).default('24h'),
  step: z.enum(HASHRATE_STEPS, { error: MESSAGES.invalidValue }).default('1h'),
  /** The coin (and so the algorithm) of the series: one algorithm per series. */
  coin: z.enum(POOL_COINS, { error: MESSAGES.invalidValue }).default(DEFAULT_POOL_COIN),
});
export type HashrateQuery = z.input<typeof hashrateQuerySchema>;

export const hashratePointSchema = z.object({ time: isoTimeSchema, value: z.number() });
export const hashrateSeriesSchema = z.object({
  points: z.array(hashratePointSchema),
  unit: z.literal('H/s'),
});
export type HashrateSeries = z.infer<typeof hashrateSeriesSchema>;
