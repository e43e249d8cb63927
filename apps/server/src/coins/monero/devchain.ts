// RandomX regtest dev chain: one monerod (--regtest --offline --fixed-difficulty 1) and one
// monero-wallet-rpc holding the pool wallet, each under node-supervisor.cjs (a generic "stop the
// node when we die" wrapper) and restarted by supervisor.ts when it dies. At start the chain
// mines XMR_INITIAL_BLOCKS to the pool wallet so it has unlocked coins (coinbase maturity 60).
// Debian's `monero` package provides both binaries (npm start / npm test install it).
import { access, constants, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { coinbaseMaturityOf } from '@manjam/protocol';
import type { Logger } from 'pino';
import { RpcError } from '../../rpc/json-rpc.js';
import { freePort, processTree, spawnManaged, type ManagedChild } from '../../devchain/child.js';
import { MoneroRpcClient } from './rpc.js';
import { startSupervised, type SupervisedChild } from '../../devchain/supervisor.js';
import { NODE_SUPERVISOR as SUPERVISOR } from '../../files/index.js';

export const MONEROD_PATH = '/usr/bin/monerod';
export const MONERO_WALLET_RPC_PATH = '/usr/bin/monero-wallet-rpc';
export const MONERO_INSTALL_HINT = 'sudo node scripts/install-system-deps.mjs monero';
/** Monero's coinbase maturity (CRYPTONOTE_MINED_MONEY_UNLOCK_WINDOW). */
export const XMR_COINBASE_MATURITY = coinbaseMaturityOf('XMR');
/**
 * 60 blocks of maturity + 40: forty unlocked coinbase outputs, enough decoys for the wallet's
 * ring size of 16 (at 71 blocks monero-wallet-rpc still answers "not enough outputs to use").
 */
export const XMR_INITIAL_BLOCKS = 100;
/**
 * How long monero-wallet-rpc may take to answer at start. It answers within 1-6 s here (2-core
 * machine), and once in a whole test run (2026-12-08) took longer than 30 s under the suite's load.
 * Past this the start fails and the family is retried 5 s later while the other coins run (see
 * coins/late-chain.ts), so a slow or hung wallet costs a retry, never the other coins' start.
 */
const WALLET_READY_MS = 30_000;
const POOL_WALLET = 'pool';

export interface MoneroDevChain {
  coin: 'XMR';
  /** monerod RPC root (JSON-RPC at /json_rpc): get_block_template, submit_block, calc_pow... */
  daemon: MoneroRpcClient;
  /** monero-wallet-rpc root with the pool wallet open: get_balance, transfer... */
  wallet: MoneroRpcClient;
  /** ZMQ publisher of monerod (new tips and mempool transactions), tcp://127.0.0.1:port. */
  zmqPubUrl: string;
  /** The pool wallet's primary (standard) address; blocks can be mined only to such addresses. */
  poolAddress: string;
  /** Mines `blocks` blocks to `address` (default: the pool address); resolves with their ids. */
  mine(blocks: number, address?: string): Promise<string[]>;
  /** OS process ids of the chain's processes right now (wrappers and nodes). */
  processIds(): number[];
  /** monerod and monero-wallet-rpc themselves. */
  nodeProcessIds(): number[];
  /** Stops both processes and removes temporary data; safe to call twice. */
  stop(): Promise<void>;
}

export interface MoneroDevChainOptions {
  /** Keep chain data and the pool wallet here. Default: a temp dir removed on stop. */
  dataDir?: string;
  logger: Logger;
  /** Blocks to have at start (default XMR_INITIAL_BLOCKS). */
  initialBlocks?: number;
  /** monerod's --fixed-difficulty (default 1: every hash is a block). */
  fixedDifficulty?: number;
}

async function requireExecutable(file: string): Promise<string> {
  try {
    await access(file, constants.X_OK);
    return file;
  } catch {
    throw new Error(
      `${path.basename(file)} is not installed (${file} is missing). Run: ${MONERO_INSTALL_HINT}`,
    );
  }
}

/** Polls `method` until the process answers it; rejects when the process dies or time runs out. */
async function waitForRpc(
  client: MoneroRpcClient,
  method: string,
  child: ManagedChild,
  timeoutMs: number,
): Promise<void> {
  const name = path.basename(child.proc.spawnargs[3] ?? 'monero');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.hasExited()) throw new Error(`${name} exited (${await child.exited}) during startup`);
    try {
      await client.call(method, {}, { timeoutMs: 5_000 });
      return;
    } catch (err) {
      const starting = err instanceof RpcError && (err.kind === 'transport' || err.kind === 'timeout');
      if (!starting) throw err;
      if (Date.now() > deadline)
        throw new Error(`${name} RPC not ready within ${timeoutMs} ms: ${err.message}`);
    }
    await delay(100);
  }
}

/** Opens the pool wallet, creating it on the first start. monero-wallet-rpc answers -1 for a missing file. */
async function openPoolWallet(wallet: MoneroRpcClient): Promise<void> {
  try {
    await wallet.call('open_wallet', { filename: POOL_WALLET, password: '' });
  } catch (err) {
    if (!(err instanceof RpcError && err.kind === 'rpc')) throw err;
    await wallet.call('create_wallet', { filename: POOL_WALLET, password: '', language: 'English' });
  }
}

export async function startMoneroDevChain(opts: MoneroDevChainOptions): Promise<MoneroDevChain> {
  const logger = opts.logger.child({ devchain: 'XMR' });
  const [monerod, walletRpc] = await Promise.all([
    requireExecutable(process.env.MANJAM_MONEROD ?? MONEROD_PATH),
    requireExecutable(process.env.MANJAM_MONERO_WALLET_RPC ?? MONERO_WALLET_RPC_PATH),
  ]);
  const temporary = opts.dataDir === undefined;
  const root = opts.dataDir ?? (await mkdtemp(path.join(tmpdir(), 'manjam-xmr-')));
  const daemonDir = path.join(root, 'monerod');
  const walletDir = path.join(root, 'wallet');
  await Promise.all([mkdir(daemonDir, { recursive: true }), mkdir(walletDir, { recursive: true })]);
  const [rpcPort, p2pPort, zmqRpcPort, zmqPubPort, walletPort] = await Promise.all(
    Array.from({ length: 5 }, () => freePort()),
  );
  const zmqPubUrl = `tcp://127.0.0.1:${zmqPubPort}`;
  const daemonArgs = [
    '--regtest',
    // Regtest wipes its database at start unless told to keep it: a restarted node must come
    // back on the same chain.
    '--keep-fakechain',
    '--offline',
    '--fixed-difficulty',
    String(opts.fixedDifficulty ?? 1),
    '--non-interactive',
    `--data-dir=${daemonDir}`,
    '--rpc-bind-ip=127.0.0.1',
    `--rpc-bind-port=${rpcPort}`,
    '--p2p-bind-ip=127.0.0.1',
    `--p2p-bind-port=${p2pPort}`,
    '--zmq-rpc-bind-ip=127.0.0.1',
    `--zmq-rpc-bind-port=${zmqRpcPort}`,
    `--zmq-pub=${zmqPubUrl}`,
    '--no-igd',
    '--disable-dns-checkpoints',
    // Plain HTTP on loopback: with SSL left on "autodetect" the node makes a 4096-bit RSA key at start.
    '--rpc-ssl=disabled',
    `--log-file=${path.join(daemonDir, 'monerod.log')}`,
    '--log-level=0',
  ];
  const walletArgs = [
    `--daemon-address=127.0.0.1:${rpcPort}`,
    '--trusted-daemon',
    // Plain HTTP on loopback both ways: with SSL on "autodetect" the wallet makes a 4096-bit RSA key
    // at start and again for each wallet it opens or creates (seconds each on a busy machine).
    '--daemon-ssl=disabled',
    '--rpc-ssl=disabled',
    `--wallet-dir=${walletDir}`,
    '--disable-rpc-login',
    '--rpc-bind-ip=127.0.0.1',
    `--rpc-bind-port=${walletPort}`,
    '--non-interactive',
    `--shared-ringdb-dir=${path.join(walletDir, 'ringdb')}`,
    `--log-file=${path.join(walletDir, 'wallet-rpc.log')}`,
    '--log-level=0',
  ];
  const daemon = new MoneroRpcClient(`http://127.0.0.1:${rpcPort}`, 120_000);
  const wallet = new MoneroRpcClient(`http://127.0.0.1:${walletPort}`, 120_000);
  /** Both start at once: monero-wallet-rpc serves (and creates the wallet) before monerod answers. */
  const children: { daemon?: SupervisedChild; wallet?: SupervisedChild } = {};
  const running = (): SupervisedChild[] =>
    [children.daemon, children.wallet].filter((c): c is SupervisedChild => c !== undefined);
  let stopped = false;
  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    // The wallet first: it saves the wallet file and talks to monerod while it does.
    await children.wallet?.stop(20_000);
    await children.daemon?.stop(20_000);
    if (temporary) await rm(root, { recursive: true, force: true });
    logger.info('monerod regtest node stopped');
  };

  const supervise = async (
    role: 'daemon' | 'wallet',
    name: string,
    binary: string,
    args: string[],
    ready: (started: ManagedChild) => Promise<void>,
  ): Promise<void> => {
    const childLogger = logger.child({ node: name });
    const { child } = await startSupervised({
      name: `XMR dev ${name}`,
      logger: childLogger,
      // The wrapper removes nothing: stop() removes the temporary root once both are gone.
      spawn: () => spawnManaged(process.execPath, [SUPERVISOR, '-', binary, ...args], childLogger),
      ready,
    });
    children[role] = child;
  };

  const startedAt = performance.now();
  const elapsedMs = (): number => Math.round(performance.now() - startedAt);
  try {
    const startedBoth = await Promise.allSettled([
      supervise('daemon', 'monerod', monerod, daemonArgs, (started) =>
        waitForRpc(daemon, 'get_info', started, 120_000),
      ),
      supervise('wallet', 'monero-wallet-rpc', walletRpc, walletArgs, async (started) => {
        await waitForRpc(wallet, 'get_version', started, WALLET_READY_MS);
        await openPoolWallet(wallet);
      }),
    ]);
    const failed = startedBoth.find((result) => result.status === 'rejected');
    if (failed) throw failed.reason;
    logger.debug({ ms: elapsedMs() }, 'monerod and monero-wallet-rpc answer, pool wallet open');
    const { address: poolAddress } = await wallet.call<{ address: string }>('get_address', {
      account_index: 0,
    });
    const mine = async (blocks: number, address = poolAddress): Promise<string[]> => {
      if (blocks <= 0) return [];
      const result = await daemon.call<{ blocks: string[] }>('generateblocks', {
        amount_of_blocks: blocks,
        wallet_address: address,
      });
      return result.blocks;
    };
    const { count } = await daemon.call<{ count: number }>('get_block_count');
    const initial = opts.initialBlocks ?? XMR_INITIAL_BLOCKS;
    if (count < initial) await mine(initial - count);
    logger.info(
      {
        daemon: daemon.url,
        wallet: wallet.url,
        poolAddress,
        height: Math.max(count, initial),
        ms: elapsedMs(),
      },
      'monerod regtest node ready',
    );
    const processIds = (): number[] => running().flatMap((c) => processTree(c.current()));
    const nodeProcessIds = (): number[] => running().flatMap((c) => processTree(c.current()).slice(1));
    return { coin: 'XMR', daemon, wallet, zmqPubUrl, poolAddress, mine, processIds, nodeProcessIds, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
