// The Kaspa family's codec on the job feed: its work message is kaspad's block template
// as GetBlockTemplate answered it (the RpcBlock, u64 fields as decimal strings): the region rebuilds
// from it what the KAS port mines on (pre-PoW hash, timestamp, bits, DAA score, the subsidy from the
// coinbase payload: template-book.ts), exactly as the core did. A found block goes back as the
// feed's submit request: `blockHex` is the hex of the RpcBlock's JSON with the nonce set (what the
// core hands to kaspad's SubmitBlock), `height` its DAA score.
import { z } from 'zod';
import { coinIdentity, decode } from '../../../jobfeed/messages.js';
import type { RpcBlock } from '../kaspad-wire.js';

/** A block as kaspad's gRPC answers it: checked to carry a header and transactions, kept as sent. */
const rpcBlockSchema = z.custom<RpcBlock>(
  (value) =>
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { header?: unknown }).header === 'object' &&
    (value as { header?: unknown }).header !== null &&
    Array.isArray((value as { transactions?: unknown }).transactions),
);

export const kaspaWorkMessageSchema = z.object({ ...coinIdentity, block: rpcBlockSchema });
export type KaspaWorkMessage = z.infer<typeof kaspaWorkMessageSchema>;

export const decodeKaspaWork = (data: Uint8Array): KaspaWorkMessage | undefined =>
  decode(kaspaWorkMessageSchema, data);

/** A found block (nonce set) as the submit request's `blockHex`. */
export const kaspaBlockHex = (block: RpcBlock): string =>
  Buffer.from(JSON.stringify(block), 'utf8').toString('hex');

/** The core's side: the block a region sent, or undefined when it is not one. */
export function kaspaBlockOf(blockHex: string): RpcBlock | undefined {
  try {
    const parsed = rpcBlockSchema.safeParse(JSON.parse(Buffer.from(blockHex, 'hex').toString('utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
