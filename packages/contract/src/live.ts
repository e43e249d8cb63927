import { z } from 'zod';
import { isoTimeSchema, moneySchema } from './common.js';
import { POOL_COINS } from './tables.js';

export const LIVE_EVENT_TYPES = ['hello', 'hashrate', 'worker', 'share', 'block', 'payout'] as const;

const coin = z.enum(POOL_COINS);
export const liveMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('hello'), userId: z.number().int(), at: isoTimeSchema }),
  z.object({ type: z.literal('hashrate'), coin, hashrate: z.number(), at: isoTimeSchema }),
  z.object({
    type: z.literal('worker'),
    coin,
    workerId: z.number().int().nullable(),
    name: z.string(),
    status: z.enum(['online', 'offline']),
    at: isoTimeSchema,
  }),
  z.object({
    type: z.literal('share'),
    coin,
    count: z.number().int(),
    workerIds: z.array(z.number().int()),
    at: isoTimeSchema,
  }),
  z.object({
    type: z.literal('block'),
    coin,
    height: z.number().int(),
    hash: z.string(),
    status: z.string(),
    at: isoTimeSchema,
  }),
  z.object({ type: z.literal('payout'), coin, amount: moneySchema, txId: z.string(), at: isoTimeSchema }),
]);
export type LiveMessage = z.infer<typeof liveMessageSchema>;
