// The Bitcoin family's codec on the job feed: its work message is the coin's current
// getblocktemplate answer (and the new tip it was overtaken by). The feed's names, state, submit
// and status messages are the family-neutral ones of ../../../jobfeed/messages.ts.
import { z } from 'zod';
import { coinIdentity, hex } from '../../../jobfeed/messages.js';

export * from '../../../jobfeed/messages.js';

const templateSchema = z.object({
  version: z.number().int(),
  previousblockhash: hex,
  transactions: z.array(
    z.object({
      data: hex,
      txid: hex.optional(),
      hash: hex,
      fee: z.number().optional(),
      weight: z.number().optional(),
    }),
  ),
  coinbasevalue: z.number().int().nonnegative(),
  bits: hex,
  height: z.number().int().nonnegative(),
  curtime: z.number().int(),
  mintime: z.number().int().optional(),
  target: hex.optional(),
  default_witness_commitment: hex.optional(),
  mweb: hex.optional(),
  rules: z.array(z.string()).optional(),
});

const tipSchema = z.object({
  hash: hex,
  height: z.number().int().nonnegative(),
  bits: hex,
  mediantime: z.number().int(),
});

export const workMessageSchema = z.object({
  ...coinIdentity,
  template: templateSchema,
  info: z.object({
    newTip: z.boolean(),
    reason: z.enum(['start', 'blocknotify', 'longpoll', 'poll', 'refresh']),
  }),
  /** Set when a new tip was heard of before its template: `template` is then still the previous one. */
  tip: tipSchema.optional(),
});
export type WorkMessage = z.infer<typeof workMessageSchema>;
