// The Monero family's part of the configuration: the `chains.<COIN>` section, its
// MANJAM_<COIN>_* variables and its default Stratum port for the family's coin (XMR, the coin
// table's row of family 'monero'), gathered by config/families/index.ts.
import { coinsOf } from '@manjam/protocol';
import { RANDOMX_MODES } from '@manjam/randomx';
import { z } from 'zod';
import { NETWORK_IDS } from '../constants.js';
import {
  coinEnv,
  DEFAULT_NODE_SILENCE_SECONDS,
  defaultStratumPort,
  perCoin,
  type FamilyConfig,
} from '../section.js';

const MONERO_COINS = coinsOf('monero');

/**
 * Monero: monerod (templates, blocks) and monero-wallet-rpc (the pool wallet, payouts), each by
 * its RPC root URL without a login (run them with --restricted-rpc / --disable-rpc-login on a
 * private interface, or behind a proxy that adds one). Without `daemonUrl` on regtest, the
 * Monero dev chain (coins/monero/devchain.ts) is started for you.
 */
const moneroChain = z.object({
  enabled: z.boolean().default(true),
  network: z.enum(NETWORK_IDS).default('regtest'),
  /** monerod's RPC root, e.g. http://127.0.0.1:18081. */
  daemonUrl: z.url({ protocol: /^https?$/ }).optional(),
  /** monero-wallet-rpc's RPC root with the pool wallet open, e.g. http://127.0.0.1:18083. */
  walletRpcUrl: z.url({ protocol: /^https?$/ }).optional(),
  /** The pool wallet's primary (standard) address: monerod mines to no other kind. Required with a real node. */
  poolAddress: z.string().min(1).optional(),
  /** How often monerod's tip is polled (get_info) for a new template. */
  pollIntervalMs: z.number().int().min(50).max(60_000).default(1_000),
  /**
   * A template on the same tip is refreshed when monerod's transaction pool changed, at most this
   * often (0 = only on a new tip): the fees of new transactions reach the blocks the pool finds.
   */
  mempoolRefreshMs: z.number().int().min(0).max(600_000).default(10_000),
  /**
   * monerod's ZMQ publisher (its --zmq-pub), e.g. tcp://127.0.0.1:18083: new tips and pool
   * transactions are heard at once (polling stays as the fallback). The dev chain's is used on regtest.
   */
  zmqPubUrl: z
    .string()
    .regex(/^tcp:\/\/[^\s/]+:\d+$/, 'a tcp://host:port endpoint')
    .optional(),
  rpcTimeoutMs: z.number().int().min(100).max(600_000).default(10_000),
  /**
   * A region taking XMR jobs from the core (distributed.jobsFromCore): no word from the core's job
   * feed this long stops XMR's work there (the same key as the Bitcoin family's, where it is also
   * the node's own silence limit).
   */
  nodeSilenceSeconds: z.number().int().min(1).max(3_600).default(DEFAULT_NODE_SILENCE_SECONDS),
  /** RandomX hashing threads for share checks (default: one per core, at most 4). */
  randomxThreads: z.number().int().min(1).max(64).optional(),
  /**
   * 'light' (a 256 MiB cache per seed, ~30 hashes/s per thread) or 'full' (plus a 2 GiB dataset
   * per seed, built in about a minute at start and at each epoch; many times the share checks per core).
   */
  randomxMode: z.enum(RANDOMX_MODES).default('light'),
  /**
   * Light mode: the RandomX caches are built when an XMR miner logs in, and released (with their
   * threads) once no XMR miner has been logged in for this long, so an idle pool does not pay
   * ~256 MiB per seed. Full mode keeps its datasets (each takes a minute or two to build).
   */
  randomxIdleReleaseSeconds: z.number().int().min(1).max(604_800).default(600),
});

/** A Monero-family coin's `chains.<COIN>` section after parsing. */
export type MoneroChainConfig = z.output<typeof moneroChain>;

const section = moneroChain.prefault({});

export const moneroConfig = {
  chains: perCoin(MONERO_COINS, () => section),
  env: coinEnv(MONERO_COINS, {
    NETWORK: { path: ['network'], type: 'string' },
    DAEMON_URL: { path: ['daemonUrl'], type: 'string' },
    WALLET_RPC_URL: { path: ['walletRpcUrl'], type: 'string' },
    POOL_ADDRESS: { path: ['poolAddress'], type: 'string' },
    ZMQ_PUB_URL: { path: ['zmqPubUrl'], type: 'string' },
    ENABLED: { path: ['enabled'], type: 'boolean' },
    NODE_SILENCE_SECONDS: { path: ['nodeSilenceSeconds'], type: 'number' },
    RANDOMX_MODE: { path: ['randomxMode'], type: 'string' },
    RANDOMX_IDLE_RELEASE_SECONDS: { path: ['randomxIdleReleaseSeconds'], type: 'number' },
  }),
  // RandomX: difficulty in hashes per share (a CPU does a few hundred to a few thousand H/s).
  ports: MONERO_COINS.map((coin) => defaultStratumPort(coin, { start: 1_000, min: 100 })),
} satisfies FamilyConfig<'monero'>;
