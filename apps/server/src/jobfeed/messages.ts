// The job feed's names and messages, the same for every coin family: the core publishes
// each coin's work on JetStream so that a region needs no coin node of its own, and answers found
// blocks the regions send it. A family's work message is `coinIdentity` plus its own body (its
// codec: coins/<family>/jobfeed); the state, submit and status messages are these.
import { nanos, RetentionPolicy, DiscardPolicy, StorageType, type JetStreamManager } from 'nats';
import { z } from 'zod';
import type { CoinId } from '../config/index.js';
import { addStream, type DistributedConfig } from '../sharelog/stream.js';
import { BLOCK_SUBMIT_STATUSES } from '../stratum/source.js';

export type { DistributedConfig };

/** manjam.jobs.<coin>.work: the coin's current template (and the new tip it was overtaken by). */
export const workSubject = (coin: CoinId): string => `manjam.jobs.${coin}.work`;
/** manjam.jobs.<coin>.state: the core's heartbeat: is the coin up, and which work is current. */
export const stateSubject = (coin: CoinId): string => `manjam.jobs.${coin}.state`;
/**
 * manjam.submit.<coin>: found blocks, answered by the core after it submitted to every node. Kept
 * outside manjam.jobs.> so that no stream ever stores a block request.
 */
export const submitSubject = (coin: CoinId): string => `manjam.submit.${coin}`;
/**
 * manjam.submit.<coin>.status: "what became of block <hash>?", a few bytes asked instead of the
 * whole block when a submit's answer was lost or is slow (see core-blocks.ts for the answers).
 */
export const submitStatusSubject = (coin: CoinId): string => `manjam.submit.${coin}.status`;

/** The core publishes the coin's state this often: a region hears silence past the node silence limit. */
export const HEARTBEAT_MS = 1_000;

export const hex = z.string().regex(/^[0-9a-fA-F]*$/);

/** What a region needs to mine the coin without a node: who gets paid, and on which chain. */
export const coinIdentity = {
  coin: z.string(),
  network: z.string(),
  poolAddress: z.string().min(1),
  /** The publishing process and its counter: "which work is current" across a change of leader. */
  workId: z.string(),
  publishedAt: z.number(),
};
export type CoinIdentity = z.infer<z.ZodObject<typeof coinIdentity>>;

export const stateMessageSchema = z.object({
  ...coinIdentity,
  up: z.boolean(),
  since: z.number(),
  message: z.string(),
});
export type StateMessage = z.infer<typeof stateMessageSchema>;

export const submitRequestSchema = z.object({
  blockHex: hex,
  height: z.number().int().nonnegative(),
  hash: hex,
  region: z.string(),
});
export type SubmitRequest = z.infer<typeof submitRequestSchema>;

export const submitReplySchema = z.object({
  status: z.enum(BLOCK_SUBMIT_STATUSES),
  nodeResult: z.string().nullable(),
  tipHash: z.string().optional(),
});

export const statusRequestSchema = z.object({ hash: hex, region: z.string() });
export type StatusRequest = z.infer<typeof statusRequestSchema>;

/** unknown: never received (send it); submitting: on the core's nodes now (ask again); done: its verdict. */
export const statusReplySchema = z.discriminatedUnion('state', [
  z.object({ state: z.literal('unknown') }),
  z.object({ state: z.literal('submitting'), since: z.number() }),
  z.object({ state: z.literal('done'), result: submitReplySchema }),
]);
export type StatusReply = z.infer<typeof statusReplySchema>;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export const encode = (value: unknown): Uint8Array => encoder.encode(JSON.stringify(value));

/** Parses a message; undefined (the caller logs) when it is not what `schema` describes. */
export function decode<T>(schema: z.ZodType<T>, data: Uint8Array): T | undefined {
  try {
    const parsed = schema.safeParse(JSON.parse(decoder.decode(data)));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The job stream keeps the last message of each subject only: a region that connects (or comes
 * back) reads the current work and state at once, and nothing older is worth keeping. In memory:
 * after a restart of the cluster the core publishes fresh work within a heartbeat.
 */
export async function ensureJobStream(jsm: JetStreamManager, config: DistributedConfig): Promise<void> {
  const name = config.jobsStream;
  try {
    await jsm.streams.info(name);
    return;
  } catch (error) {
    if (!(error instanceof Error) || !/stream not found/i.test(error.message)) throw error;
  }
  await addStream(jsm, {
    name,
    subjects: ['manjam.jobs.*.work', 'manjam.jobs.*.state'],
    num_replicas: config.replicas,
    max_msgs_per_subject: 1,
    storage: StorageType.Memory,
    retention: RetentionPolicy.Limits,
    discard: DiscardPolicy.Old,
    duplicate_window: nanos(1_000),
  });
}
