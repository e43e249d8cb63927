import { z } from 'zod';
import { ALGORITHMS, isoTimeSchema, moneySchema, pageQuerySchema, pagedSchema, POOL_COINS } from './common.js';
import { MESSAGES } from './messages.js';

export const BLOCK_STATUSES = ['pending', 'confirmed', 'orphaned'] as const;
export const LOOKUP_STATUSES = ['active', 'inactive'] as const;
export const MINER_SOURCES = ['pool', 'hive'] as const;

/** The seed's port table (section 9): 19 algorithms. `live` ports are the ones Manjam validates. */
export const PORT_TABLE = [
  { algorithm: 'sha256', name: 'SHA-256', port: 3333 },
  { algorithm: 'scrypt', name: 'Scrypt', port: 4444 },
  { algorithm: 'scrypt-doge', name: 'Scrypt-DOGE', port: 5555 },
  { algorithm: 'blake2s', name: 'Blake2s', port: 6666 },
  { algorithm: 'kheavyhash', name: 'kHeavyHash', port: 7777 },
  { algorithm: 'etchash', name: 'Etchash', port: 8008 },
  { algorithm: 'equihash', name: 'Equihash', port: 3357 },
  { algorithm: 'octopus', name: 'Octopus', port: 6800 },
  { algorithm: 'filecoin', name: 'Filecoin', port: 7006 },
  { algorithm: 'eaglesong', name: 'Eaglesong', port: 1800 },
  { algorithm: 'progpow', name: 'ProgPow', port: 1185 },
  { algorithm: 'kawpow', name: 'KawPow', port: 1140 },
  { algorithm: 'randomx', name: 'RandomX', port: 1111 },
  { algorithm: 'blake3', name: 'Blake3', port: 1199 },
  { algorithm: 'autolykos2', name: 'Autolykos-v2', port: 8888 },
  { algorithm: 'equihash-125-4', name: 'Equihash-125,4', port: 9090 },
  { algorithm: 'dynexsolve', name: 'DynexSolve', port: 1120 },
  { algorithm: 'fishhash', name: 'FishHash', port: 1145 },
  { algorithm: 'cuckaroo30', name: 'Cuckaroo30', port: 10320 },
] as const;
export type PortAlgorithm = (typeof PORT_TABLE)[number]['algorithm'];

export const poolAlgorithmStatsSchema = z.object({
  algorithm: z.enum(ALGORITHMS),
  coin: z.enum(POOL_COINS),
  live: z.boolean(),
  port: z.number().int(),
  tls: z.boolean(),
  hashrate: z.number(),
  miners: z.number().int(),
  workers: z.number().int(),
  networkHeight: z.number().int().nullable(),
  networkDifficulty: z.number().nullable(),
  /** Percent, e.g. 1 for 1.0 %. */
  fee: z.number(),
  /** Hours. */
  payoutInterval: z.number(),
  scheme: z.string(),
  blocksFound: z.number().int(),
});
export const poolStatsSchema = z.object({ algorithms: z.array(poolAlgorithmStatsSchema), host: z.string() });
export type PoolStats = z.infer<typeof poolStatsSchema>;

export const poolPortsSchema = z.object({
  host: z.string(),
  ports: z.array(z.object({ algorithm: z.string(), name: z.string(), port: z.number().int(), live: z.boolean() })),
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
export const blockQuerySchema = pageQuerySchema.extend({ coin: z.enum(POOL_COINS, { error: MESSAGES.coinInvalid }).optional() });
export const blockPageSchema = pagedSchema(blockSchema);
export type BlockPage = z.infer<typeof blockPageSchema>;

export const gpuSchema = z.object({ name: z.string(), hashrate: z.number(), temperature: z.number().nullable() });

export const lookupMinerSchema = z.object({
  /** Opaque and stable (never an internal sequential id). */
  id: z.string(),
  /** The worker name of the Stratum login; a signed-in owner searching their own workers sees their private name. */
  name: z.string(),
  algorithm: z.string(),
  status: z.enum(LOOKUP_STATUSES),
  hashrate: z.number(),
  shares: z.object({ accepted: z.number().int(), rejected: z.number().int(), stale: z.number().int() }),
  earnings: z.object({ daily: moneySchema, weekly: moneySchema, monthly: moneySchema }),
  coin: z.string().nullable(),
  lastSeen: isoTimeSchema.nullable(),
  source: z.enum(MINER_SOURCES),
  gpus: z.array(gpuSchema).optional(),
});
export type LookupMiner = z.infer<typeof lookupMinerSchema>;

export const lookupParamsSchema = z.object({ address: z.string().trim().min(1, MESSAGES.searchRequired).max(120, MESSAGES.textTooLong) });
export const minerLookupSchema = z.object({ address: z.string(), miners: z.array(lookupMinerSchema) });
export type MinerLookup = z.infer<typeof minerLookupSchema>;

export const searchQuerySchema = z.object({
  q: z.string({ error: MESSAGES.searchRequired }).trim().min(1, MESSAGES.searchRequired).max(120, MESSAGES.textTooLong),
});
export const searchResponseSchema = z.object({ results: z.array(minerLookupSchema) });
export type SearchResponse = z.infer<typeof searchResponseSchema>;

export const healthSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  database: z.object({ ok: z.boolean(), kind: z.string(), error: z.string().optional() }),
  chains: z.array(
    z.object({
      coin: z.string(),
      ok: z.boolean(),
      height: z.number().int().nullable(),
      error: z.string().optional(),
      /** Set while the coin's work is stopped: since when no node has answered past its limit. */
      downSince: z.string().optional(),
    }),
  ),
  /** Open operator alerts: a payout run stuck, a wallet that cannot fund a run, accounting failing. */
  alerts: z.array(z.object({ kind: z.string(), coin: z.string().nullable(), message: z.string(), since: z.string() })),
});
export type Health = z.infer<typeof healthSchema>;
