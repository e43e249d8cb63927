import { z } from 'zod';
import { isoTimeSchema, moneySchema, pageQuerySchema, pagedSchema } from './common.js';
import { ALGORITHMS, POOL_COINS } from './tables.js';
import { asOfSchema } from './dashboard.js';
import { MESSAGES } from './messages.js';
import { NETWORKS } from './networks.js';

export const BLOCK_STATUSES = ['pending', 'confirmed', 'orphaned'] as const;
export const LOOKUP_STATUSES = ['active', 'inactive'] as const;
export const MINER_SOURCES = ['pool', 'hive'] as const;

export const poolAlgorithmStatsSchema = z.object({
  algorithm: z.enum(ALGORITHMS),
  coin: z.enum(POOL_COINS),
  /** The coin's network: which payout addresses the pool accepts (networks.ts addressStarts). */
  network: z.enum(NETWORKS),
  live: z.boolean(),
  port: z.number().int(),
  tls: z.boolean(),
  hashrate: z.number(),
  miners: z.number().int(),
  workers: z.number().int(),
  networkHeight: z.number().int().nullable(),
  /** In the pool's Stratum unit of the algorithm (networks.ts hashesPerDifficulty). */
  networkDifficulty: z.number().nullable(),
  /** Percent, e.g. 1 for 1.0 %. */
  fee: z.number(),
  /** Hours. */
  payoutInterval: z.number(),
  scheme: z.string(),
  blocksFound: z.number().int(),
});
export const poolStatsSchema = z.object({
  algorithms: z.array(poolAlgorithmStatsSchema),
  host: z.string(),
  asOf: asOfSchema,
});
export type PoolStats = z.infer<typeof poolStatsSchema>;

export const poolPortsSchema = z.object({
  host: z.string(),
  /** How every port sets and judges a miner's share difficulty (the same rule for each family). */
  shareDifficulty: z.object({
    /**
     * Vardiff, a password's `d=` and a miner's suggested difficulty never go above the network
     * difficulty of the work sent (per coin, per template), nor under the port's minimum.
     */
    capsAtNetworkDifficulty: z.literal(true),
    /**
     * A share whose hash meets the network target is submitted as a block first, whatever its
     * share target, and credited at the share difficulty.
     */
    blockFirst: z.literal(true),
  }),
  ports: z.array(
    z.object({
      algorithm: z.string(),
      name: z.string(),
      port: z.number().int(),
      live: z.boolean(),
      /** 'v2' on a Stratum V2 port (listed after the table's rows); absent means Stratum V1. */
      protocol: z.enum(['v1', 'v2']).optional(),
      /** A V2 port's authority public key (base58check), once the pool knows it. */
      authorityKey: z.string().optional(),
    }),
  ),
});
export type PoolPorts = z.infer<typeof poolPortsSchema>;

export const blockSchema = z.object({
  height: z.number().int(),
  hash: z.string(),
  coin: z.enum(POOL_COINS),
  status: z.enum(BLOCK_STATUSES),
  confirmations: z.number().int(),
  reward: moneySchema,
  /** Shortened finder's payout address (first 6 and last 4 characters); empty when it has none. Never a username. */
  finder: z.string(),
  foundAt: isoTimeSchema,
  effort: z.number().nullable(),
});
export type Block = z.infer<typeof blockSchema>;
export const blockQuerySchema = pageQuerySchema.extend({
  coin: z.enum(POOL_COINS, { error: MESSAGES.coinInvalid }).optional(),
});
export const blockPageSchema = pagedSchema(blockSchema);
export type BlockPage = z.infer<typeof blockPageSchema>;

export const gpuSchema = z.object({
  name: z.string(),
  hashrate: z.number(),
  temperature: z.number().nullable(),
});

export const lookupMinerSchema = z.object({
  /** Opaque and stable (never an internal sequential id). */
  id: z.string(),
  /** The worker name of the Stratum login; a signed-in owner searching their own workers sees their private name. */
  name: z.string(),
  algorithm: z.string(),
  status: z.enum(LOOKUP_STATUSES),
  hashrate: z.number(),
  /** `rejected` counts every rejected share, stale ones included (the worker page's Rejects); `stale` is the part of it that was stale. */
  shares: z.object({ accepted: z.number().int(), rejected: z.number().int(), stale: z.number().int() }),
  earnings: z.object({ daily: moneySchema, weekly: moneySchema, monthly: moneySchema }),
  coin: z.string().nullable(),
  lastSeen: isoTimeSchema.nullable(),
  source: z.enum(MINER_SOURCES),
  gpus: z.array(gpuSchema).optional(),
});
export type LookupMiner = z.infer<typeof lookupMinerSchema>;

export const lookupParamsSchema = z.object({
  address: z.string().trim().min(1, MESSAGES.searchRequired).max(120, MESSAGES.textTooLong),
});
export const minerLookupSchema = z.object({ address: z.string(), miners: z.array(lookupMinerSchema) });
export type MinerLookup = z.infer<typeof minerLookupSchema>;

export const searchQuerySchema = z.object({
  q: z
    .string({ error: MESSAGES.searchRequired })
    .trim()
    .min(1, MESSAGES.searchRequired)
    .max(120, MESSAGES.textTooLong),
});
export const searchResponseSchema = z.object({ results: z.array(minerLookupSchema) });
export type SearchResponse = z.infer<typeof searchResponseSchema>;

/**
 * How the pool hears of a coin's new blocks now, fastest first: the node's blocknotify datagrams,
 * monerod's ZMQ, a GBT longpoll the node holds, polling the best block, or only the periodic
 * template refresh (a node set up without any of them).
 */
export const NEW_TIP_SOURCES = ['blocknotify', 'zmq', 'longpoll', 'poll', 'refresh'] as const;
export type NewTipSource = (typeof NEW_TIP_SOURCES)[number];

export const healthSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  database: z.object({
    ok: z.boolean(),
    kind: z.string(),
    error: z.string().optional(),
    /** The embedded database's own memory (PGlite's thread heap and WebAssembly memory), bytes. */
    memory: z
      .object({ heapUsedBytes: z.number(), heapTotalBytes: z.number(), wasmBytes: z.number() })
      .optional(),
  }),
  chains: z.array(
    z.object({
      coin: z.string(),
      ok: z.boolean(),
      height: z.number().int().nullable(),
      error: z.string().optional(),
      /** Set while the coin's work is stopped: since when no node has answered past its limit. */
      downSince: z.string().optional(),
      newTipsBy: z.enum(NEW_TIP_SOURCES).optional(),
      /**
       * On a process that runs no node (an api run apart): when a Stratum process last moved to a
       * new tip of this coin, as recorded in the database (the height is that tip's).
       */
      tipAt: z.string().optional(),
    }),
  ),
  /** Open operator alerts: a payout run stuck, a wallet that cannot fund a run, accounting failing. */
  alerts: z.array(
    z.object({ kind: z.string(), coin: z.string().nullable(), message: z.string(), since: z.string() }),
  ),
  /**
   * This process's Stratum listeners, when it runs them (absent on an API process run apart):
   * open connections (V1 and V2), of them Stratum V2 connections and their mining channels, and
   * accepted shares not yet stored.
   */
  stratum: z
    .object({
      connections: z.number().int(),
      v2: z.object({ connections: z.number().int(), channels: z.number().int() }),
      sharesUnstored: z.number().int(),
    })
    .optional(),
});
export type Health = z.infer<typeof healthSchema>;
