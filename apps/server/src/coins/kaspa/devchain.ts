// The KAS dev chain: one kaspad on simnet (alone, UTXO index on, blocks accepted while "not
// synced"), the pool's kaspawallet daemon, and kaspaminer to mine. Same shape as the other
// dev chains (coins/monero/devchain.ts): the nodes run under the shared supervisor and restart on
// the same data when they die; stop() ends them (SIGTERM, SIGKILL after a deadline) and removes
// a temporary data dir. At start the pool wallet is funded: kaspaminer mines to its address
// until the wallet daemon counts coinbase coins as available. The daemon (v0.12.22) counts a
// coinbase output as spendable only 1000 DAA score after it (its post-Crescendo rule, stricter
// than simnet's own 100), so the chain mines about 1100 blocks on first start (~30 s here).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import type { Logger } from 'pino';
import { processTree, type ManagedChild } from '../../devchain/child.js';
import type { SupervisedChild } from '../../devchain/supervisor.js';
import {
  KAS_DEV_NETWORK,
  requireBinaries,
  runMiner,
  startKaspad,
  startWalletDaemon,
  type KaspaBinaries,
  type KaspaProcessContext,
  type RunningKaspad,
  type RunningWallet,
} from './dev-processes.js';
import type { KaspadClient } from './kaspad-client.js';
import type { KaspaWalletClient } from './kaspawallet-client.js';

export { KAS_DEV_NETWORK, KASPAMINER_BLOCKS_PER_SECOND, type KaspaBinaries } from './dev-processes.js';

/** The kaspawallet daemon's coinbase maturity in DAA score (cmd/kaspawallet/daemon/server). */
export const KASPAWALLET_COINBASE_MATURITY = 1000;
/** DAA score to reach at first start: the wallet's maturity plus 100 spendable coinbases. */
export const KAS_INITIAL_DAA_SCORE = KASPAWALLET_COINBASE_MATURITY + 100;
/** The dev wallets' password (simnet coins are worth nothing; the daemons listen on 127.0.0.1). */
export const KAS_DEV_WALLET_PASSWORD = 'manjam-dev-wallet';
/**
 * The fee rate (sompi per gram, the daemon's minimum) for Send on the dev chain. Without an
 * exact rate the daemon asks the node for GetFeeEstimate, which Go kaspad v0.12.22 does not
 * answer (rusty-kaspa does): the daemon then waits out its 30 s RPC timeout and fails.
 */
export const KAS_DEV_FEE_RATE = 1;
const FUNDING_TIMEOUT_MS = 300_000;

export interface KaspaDevChain {
  coin: 'KAS';
  network: typeof KAS_DEV_NETWORK;
  /** host:port of kaspad's gRPC (plaintext). */
  rpcAddress: string;
  /** A client of kaspad, owned by the chain (closed by stop()). */
  node: KaspadClient;
  /** The pool wallet's daemon: host:port, client, password (for Send). */
  walletAddress: string;
  wallet: KaspaWalletClient;
  walletPassword: string;
  /** The pool wallet's address (kaspasim:...), funded with mature coinbase coins. */
  poolAddress: string;
  /** Milliseconds the first funding took (0 when the wallet already held coins). */
  fundingMs: number;
  /** kaspaminer mines `blocks` blocks to `address` (default: the pool address). */
  mine(blocks: number, address?: string): Promise<void>;
  /** Another kaspawallet daemon on this chain (an outside payee), stopped with the chain. */
  startWallet(name: string): Promise<RunningWallet>;
  /** Another kaspad following this chain over P2P (a backup node), stopped with the chain. */
  startPeer(name: string): Promise<RunningKaspad>;
  /** The chain's virtual DAA score now. */
  daaScore(): Promise<bigint>;
  processIds(): number[];
  /** kaspad and the wallet daemons themselves (not their supervisors). */
  nodeProcessIds(): number[];
  stop(): Promise<void>;
}

export interface KaspaDevChainOptions {
  /** kaspad, kaspawallet, kaspaminer (scripts/kaspad.mjs installs them and says where). */
  binaries: KaspaBinaries;
  /** Keep chain data and the wallets here. Default: a temp dir removed on stop. */
  dataDir?: string;
  logger: Logger;
  /** Skip funding the pool wallet at start (default false). */
  unfunded?: boolean;
}

/** Mines until the wallet daemon counts some coins as available; resolves with the time taken. */
async function fundPoolWallet(chain: KaspaDevChain): Promise<number> {
  const started = performance.now();
  const deadline = Date.now() + FUNDING_TIMEOUT_MS;
  for (;;) {
    const { available } = await chain.wallet.getBalance();
    if (available > 0n) return Math.round(performance.now() - started);
    if (Date.now() > deadline) throw new Error(`pool wallet not funded within ${FUNDING_TIMEOUT_MS} ms`);
    const missing = BigInt(KAS_INITIAL_DAA_SCORE) - (await chain.daaScore());
    // Mined but not yet seen by the daemon (it syncs every second): wait, else mine more.
    if (missing > 0n) await chain.mine(Number(missing));
    else if (missing > -20n) await delay(1_000);
    else await chain.mine(20);
  }
}

export async function startKaspaDevChain(opts: KaspaDevChainOptions): Promise<KaspaDevChain> {
  const logger = opts.logger.child({ devchain: 'KAS' });
  await requireBinaries(opts.binaries);
  const temporary = opts.dataDir === undefined;
  const root = opts.dataDir ?? (await mkdtemp(path.join(tmpdir(), 'manjam-kas-')));
  const ctx: KaspaProcessContext = { binaries: opts.binaries, root, logger };
  const miners = new Set<ManagedChild>();
  const wallets: RunningWallet[] = [];
  const peers: RunningKaspad[] = [];
  let node: RunningKaspad | undefined;
  let stopped = false;
  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    await Promise.all([...miners].map((miner) => miner.stop(5_000)));
    // The wallets first: they talk to kaspad while they stop.
    await Promise.all(wallets.map(async (w) => (w.client.close(), w.child.stop(20_000))));
    await Promise.all(peers.map(async (p) => (p.client.close(), p.child.stop(20_000))));
    node?.client.close();
    await node?.child.stop(20_000);
    if (temporary) await rm(root, { recursive: true, force: true });
    logger.info('kaspad dev chain stopped');
  };
  const startedAt = performance.now();
  try {
    node = await startKaspad(ctx);
    const { client, rpcAddress } = node;
    const startWallet = async (name: string): Promise<RunningWallet> => {
      const wallet = await startWalletDaemon(ctx, name, rpcAddress, KAS_DEV_WALLET_PASSWORD);
      wallets.push(wallet);
      return wallet;
    };
    const startPeer = async (name: string): Promise<RunningKaspad> => {
      const peer = await startKaspad(ctx, { name, peer: node!.p2pAddress });
      peers.push(peer);
      return peer;
    };
    const pool = await startWallet('pool');
    const supervised = (): SupervisedChild[] => [
      node!.child,
      ...peers.map((p) => p.child),
      ...wallets.map((w) => w.child),
    ];
    const chain: KaspaDevChain = {
      coin: 'KAS',
      network: KAS_DEV_NETWORK,
      rpcAddress,
      node: client,
      walletAddress: pool.daemonAddress,
      wallet: pool.client,
      walletPassword: pool.password,
      poolAddress: pool.address,
      fundingMs: 0,
      mine: (blocks, address = pool.address) =>
        blocks > 0 ? runMiner(ctx, rpcAddress, address, blocks, miners) : Promise.resolve(),
      startWallet,
      startPeer,
      daaScore: async () => BigInt((await client.getBlockDagInfo()).virtualDaaScore),
      processIds: () => supervised().flatMap((c) => processTree(c.current())),
      nodeProcessIds: () => supervised().flatMap((c) => processTree(c.current()).slice(1)),
      stop,
    };
    if (!opts.unfunded) chain.fundingMs = await fundPoolWallet(chain);
    logger.info(
      {
        rpcAddress,
        wallet: pool.daemonAddress,
        poolAddress: pool.address,
        ms: Math.round(performance.now() - startedAt),
      },
      'kaspad dev chain ready',
    );
    return chain;
  } catch (err) {
    await stop();
    throw err;
  }
}
