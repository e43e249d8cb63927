// The Bitcoin family's part of the configuration: one `chains.<COIN>` section, its
// MANJAM_<COIN>_* variables and its default Stratum port for each of the family's coins (BTC, LTC:
// the coin table's rows of family 'bitcoin'), gathered by config/families/index.ts.
import { BITCOIN_FAMILY_COINS, type BitcoinFamilyCoin } from '@manjam/protocol';
import { z } from 'zod';
import { NETWORK_IDS } from '../constants.js';
import {
  coinEnv,
  DEFAULT_NODE_SILENCE_SECONDS,
  defaultStratumPort,
  perCoin,
  type FamilyConfig,
} from '../section.js';

const rpcEndpoint = z.object({
  url: z.url({ protocol: /^https?$/ }),
  user: z.string().min(1),
  password: z.string().min(1),
});

const bitcoinChain = z.object({
  enabled: z.boolean().default(true),
  network: z.enum(NETWORK_IDS).default('regtest'),
  /** RPC of a real node. When absent on regtest, a dev chain is started for you. */
  rpc: rpcEndpoint.optional(),
  /** More nodes of the same coin: templates fail over to them in order, found blocks go to all. */
  rpcBackups: z.array(rpcEndpoint).default([]),
  /** No node of the coin answered for this long: its work stops and its miners are sent away. */
  nodeSilenceSeconds: z.number().int().min(1).max(3_600).default(DEFAULT_NODE_SILENCE_SECONDS),
  /** Wallet RPC (bcoin keeps its wallet on its own port). Defaults to `rpc`. */
  walletRpc: rpcEndpoint.optional(),
  /** Address the coinbase pays (the pool wallet). Required with a real node. */
  poolAddress: z.string().min(1).optional(),
  /** How often to poll the tip when no blocknotify or longpoll arrives. */
  pollIntervalMs: z.number().int().min(50).max(60_000).default(500),
  /** A fresh job (new transactions, new ntime) at least this often. */
  refreshIntervalMs: z.number().int().min(1_000).max(120_000).default(30_000),
  /** Port of the local blocknotify listener (0 = any free port). */
  blocknotifyPort: z.number().int().min(0).max(65_535).default(0),
  rpcTimeoutMs: z.number().int().min(100).max(600_000).default(10_000),
});

/** A Bitcoin-family coin's `chains.<COIN>` section after parsing. */
export type BitcoinChainConfig = z.output<typeof bitcoinChain>;

/** Each coin's starting and lowest Stratum difficulty on its default port (the algorithm's scale differs). */
const DEFAULT_VARDIFF: Record<BitcoinFamilyCoin, { start: number; min: number }> = {
  BTC: { start: 0.001, min: 0.0001 },
  LTC: { start: 0.01, min: 0.001 },
};

const section = bitcoinChain.prefault({});

export const bitcoinConfig = {
  chains: perCoin(BITCOIN_FAMILY_COINS, () => section),
  env: coinEnv(BITCOIN_FAMILY_COINS, {
    NETWORK: { path: ['network'], type: 'string' },
    RPC_URL: { path: ['rpc', 'url'], type: 'string' },
    RPC_USER: { path: ['rpc', 'user'], type: 'string' },
    RPC_PASSWORD: { path: ['rpc', 'password'], type: 'string' },
    RPC_BACKUPS: { path: ['rpcBackups'], type: 'json' },
    NODE_SILENCE_SECONDS: { path: ['nodeSilenceSeconds'], type: 'number' },
    POOL_ADDRESS: { path: ['poolAddress'], type: 'string' },
    ENABLED: { path: ['enabled'], type: 'boolean' },
    WALLET_RPC_URL: { path: ['walletRpc', 'url'], type: 'string' },
    WALLET_RPC_USER: { path: ['walletRpc', 'user'], type: 'string' },
    WALLET_RPC_PASSWORD: { path: ['walletRpc', 'password'], type: 'string' },
    BLOCKNOTIFY_PORT: { path: ['blocknotifyPort'], type: 'number' },
  }),
  ports: BITCOIN_FAMILY_COINS.map((coin) => defaultStratumPort(coin, DEFAULT_VARDIFF[coin])),
} satisfies FamilyConfig<'bitcoin'>;
