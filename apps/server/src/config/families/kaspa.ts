// The Kaspa family's part of the configuration: the `chains.<COIN>` section, its variables and
// its default Stratum port for the family's coin (KAS, the coin table's row of family 'kaspa'),
// gathered by config/families/index.ts.
import { coinsOf } from '@manjam/protocol';
import { z } from 'zod';
import { NETWORK_IDS } from '../constants.js';
import {
  coinEnv,
  DEFAULT_NODE_SILENCE_SECONDS,
  defaultStratumPort,
  perCoin,
  type EnvKeys,
  type FamilyConfig,
} from '../section.js';

const KASPA_COINS = coinsOf('kaspa');

/** New jobs a second at most, by default (`maxJobsPerSecond`). */
export const KAS_MAX_JOBS_PER_SECOND = 4;
/** How long a replaced template's jobs still take shares by default (`jobValidSeconds`). */
export const KAS_JOB_VALID_MS = 10_000;

/**
 * Kaspa: a kaspad (Go v0.12 or rusty kaspad; the same protowire gRPC API) by its gRPC address,
 * and the pool wallet's address templates pay. Without `rpcAddress` on regtest, the simnet dev
 * chain (coins/kaspa/devchain.ts) is started from the kaspad, kaspawallet and kaspaminer binaries
 * in `binDir` (`npm start` and `npm test` build them with Go, scripts/kaspad.mjs); without them KAS
 * is off with a warning and the other coins run.
 */
const kaspaChain = z.object({
  enabled: z.boolean().default(true),
  network: z.enum(NETWORK_IDS).default('regtest'),
  /** kaspad's gRPC listener, host:port (mainnet 16110). */
  rpcAddress: z
    .string()
    .regex(/^[^\s/]+:\d+$/, 'a host:port gRPC address')
    .optional(),
  /**
   * More kaspad (or rusty kaspad) nodes of the same network, host:port each: templates fail over
   * to them in order while the one in use is silent, found blocks go to every node.
   */
  rpcBackupAddresses: z.array(z.string().regex(/^[^\s/]+:\d+$/, 'a host:port gRPC address')).default([]),
  /**
   * No node answered for this long (on a regional node without kaspad: no word from the core's
   * job feed): KAS work stops and its miners are sent away.
   */
  nodeSilenceSeconds: z.number().int().min(1).max(3_600).default(DEFAULT_NODE_SILENCE_SECONDS),
  /** The pool wallet's address (kaspa:...): every template pays it. Required with a node. */
  poolAddress: z.string().min(1).optional(),
  /**
   * The pool wallet's kaspawallet daemon (`kaspawallet start-daemon`), host:port, listening on a
   * private interface only: payouts are sent through it. Without it (and off the dev chain) KAS
   * shares are credited while found blocks and payouts wait.
   */
  walletDaemonAddress: z
    .string()
    .regex(/^[^\s/]+:\d+$/, 'a host:port gRPC address')
    .optional(),
  /** The pool wallet's password: the daemon signs each Send with it. */
  walletPassword: z.string().min(1).optional(),
  /** Where the dev chain's binaries are (relative to the working directory). */
  binDir: z.string().min(1).default('.tools/go/bin'),
  /**
   * New jobs a second at most: mainnet makes ten templates a second; each job re-sent to every
   * miner costs bandwidth, so new-parent templates are coalesced to this rate.
   */
  maxJobsPerSecond: z.number().min(0.1).max(20).default(KAS_MAX_JOBS_PER_SECOND),
  /** How long a replaced template's jobs still take shares (their block would still enter the DAG). */
  jobValidSeconds: z
    .number()
    .int()
    .min(1)
    .max(120)
    .default(KAS_JOB_VALID_MS / 1000),
});

/** A Kaspa-family coin's `chains.<COIN>` section after parsing. */
export type KaspaChainConfig = z.output<typeof kaspaChain>;

const section = kaspaChain.prefault({});

/**
 * MANJAM_<COIN>_* for each coin, and MANJAM_KASPA_BIN_DIR: the dev chain's binaries are the
 * family's, so the variable is named after it (scripts/kaspad.mjs reads the same one when it
 * builds or checks them). The family has one coin, whose section holds `binDir`.
 */
function kaspaEnv(): EnvKeys {
  const env = coinEnv(KASPA_COINS, {
    NETWORK: { path: ['network'], type: 'string' },
    RPC_ADDRESS: { path: ['rpcAddress'], type: 'string' },
    RPC_BACKUP_ADDRESSES: { path: ['rpcBackupAddresses'], type: 'json' },
    NODE_SILENCE_SECONDS: { path: ['nodeSilenceSeconds'], type: 'number' },
    POOL_ADDRESS: { path: ['poolAddress'], type: 'string' },
    WALLET_DAEMON_ADDRESS: { path: ['walletDaemonAddress'], type: 'string' },
    WALLET_PASSWORD: { path: ['walletPassword'], type: 'string' },
    ENABLED: { path: ['enabled'], type: 'boolean' },
  });
  for (const coin of KASPA_COINS)
    env.MANJAM_KASPA_BIN_DIR = { path: ['chains', coin, 'binDir'], type: 'string' };
  return env;
}

export const kaspaConfig = {
  chains: perCoin(KASPA_COINS, () => section),
  env: kaspaEnv(),
  // kHeavyHash: Stratum difficulty 1 is 2^32 hashes; a GPU does ~1 GH/s, an ASIC TH/s.
  ports: KASPA_COINS.map((coin) => defaultStratumPort(coin, { start: 1, min: 0.01 })),
} satisfies FamilyConfig<'kaspa'>;
