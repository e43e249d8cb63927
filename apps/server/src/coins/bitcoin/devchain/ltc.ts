// Scrypt regtest dev chain: a pair of Litecoin Core nodes (GBT needs a connected peer), each
// under node-supervisor.cjs so no litecoind outlives the pool. Node 1 holds the pool wallet.
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import type { Logger } from 'pino';
import { RpcClient, RpcError, type RpcEndpoint } from '../../../rpc/json-rpc.js';
import {
  createNotifyGate,
  freePort,
  gatedCommand,
  processTree,
  spawnManaged,
  type ManagedChild,
  type NotifyGate,
} from '../../../devchain/child.js';
import { ensureLitecoind } from './litecoind.js';
import { startSupervised, type SupervisedChild } from '../../../devchain/supervisor.js';
import type { DevChain, DevChainOptions, MwebMode } from '../../../devchain/types.js';
import { NODE_SUPERVISOR as SUPERVISOR } from '../../../files/index.js';

/** 100 blocks of coinbase maturity + 20: twenty mature coinbases in the pool wallet. */
export const LTC_INITIAL_BLOCKS = 120;
/** Litecoin regtest: MWEB activates with block 432, which must carry a peg-in. */
export const LTC_MWEB_ACTIVATION_HEIGHT = 432;
const POOL_WALLET = 'pool';

interface NodeSpec {
  name: string;
  dir: string;
  rpcPort: number;
  p2pPort: number;
  peerPort: number;
  wallet: boolean;
}

function nodeArgs(
  spec: NodeSpec,
  creds: { user: string; password: string },
  opts: DevChainOptions,
  gate: NotifyGate | undefined,
): string[] {
  const args = [
    '-regtest',
    `-datadir=${spec.dir}`,
    '-server=1',
    '-daemon=0',
    '-printtoconsole=0',
    '-rpcbind=127.0.0.1',
    '-rpcallowip=127.0.0.1',
    `-rpcport=${spec.rpcPort}`,
    `-rpcuser=${creds.user}`,
    `-rpcpassword=${creds.password}`,
    '-rpcthreads=8',
    '-rpcworkqueue=64',
    // Idle keep-alive connections hold up litecoind's shutdown: close them after 5 s. Calls in
    // progress (GBT longpoll) are not affected.
    '-rpcservertimeout=5',
    '-fallbackfee=0.0001',
    '-dnsseed=0',
    '-listen=1',
    '-bind=127.0.0.1',
    `-port=${spec.p2pPort}`,
    `-addnode=127.0.0.1:${spec.peerPort}`,
    '-listenonion=0',
    '-discover=0',
    '-upnp=0',
  ];
  if ((opts.mweb ?? 'on') === 'off') args.push('-vbparams=mweb:-2:0');
  // The pool wallet is created at the first start (ensurePoolWallet); later starts load it.
  args.push(spec.wallet ? `-wallet=${POOL_WALLET}` : '-disablewallet');
  if (spec.wallet && opts.blocknotifyCommand && gate)
    args.push(`-blocknotify=${gatedCommand(gate, opts.blocknotifyCommand)}`);
  return args;
}

/** Polls until the node answers RPC (it answers -28 while warming up). */
async function waitForRpc(client: RpcClient, child: ManagedChild, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.hasExited()) throw new Error(`litecoind exited (${await child.exited}) during startup`);
    try {
      await client.call('getblockcount', [], { timeoutMs: 5_000 });
      return;
    } catch (err) {
      const warmingUp = err instanceof RpcError && (err.kind === 'transport' || err.code === -28);
      if (!warmingUp) throw err;
      if (Date.now() > deadline)
        throw new Error(`litecoind RPC not ready within ${timeoutMs} ms: ${err.message}`);
    }
    await delay(100);
  }
}

async function ensurePoolWallet(node: RpcClient): Promise<void> {
  const loaded = await node.call<string[]>('listwallets');
  if (loaded.includes(POOL_WALLET)) return;
  try {
    await node.call('loadwallet', [POOL_WALLET]);
  } catch (err) {
    if (!(err instanceof RpcError && err.code === -18)) throw err;
    await node.call('createwallet', [POOL_WALLET]);
  }
}

async function waitForPeer(node: RpcClient, peerPort: number, timeoutMs: number): Promise<void> {
  await node.call('addnode', [`127.0.0.1:${peerPort}`, 'onetry']);
  const deadline = Date.now() + timeoutMs;
  while ((await node.call<number>('getconnectioncount')) < 1) {
    if (Date.now() > deadline) throw new Error('the two litecoind nodes did not connect to each other');
    await delay(50);
  }
}

/** Puts a peg-in (1 LTC to an MWEB address of the pool wallet) into the mempool. */
async function pegIn(wallet: RpcClient): Promise<void> {
  const mwebAddress = await wallet.call<string>('getnewaddress', ['', 'mweb']);
  await wallet.call('sendtoaddress', [mwebAddress, 1]);
}

/**
 * generatetoaddress that survives MWEB activation: block 432 must carry a peg-in (without one
 * litecoind cannot even build it: "bad-txns-vin-empty"), so when the run crosses height 431 it
 * stops there, puts a peg-in into the mempool and goes on.
 */
function mwebAwareMiner(
  node: RpcClient,
  wallet: RpcClient,
  poolAddress: string,
  mweb: MwebMode,
): DevChain['mine'] {
  const generate = (blocks: number, address: string): Promise<string[]> =>
    blocks > 0 ? node.call<string[]>('generatetoaddress', [blocks, address]) : Promise.resolve([]);
  return async (blocks, address = poolAddress) => {
    const height = await node.call<number>('getblockcount');
    const activation = LTC_MWEB_ACTIVATION_HEIGHT;
    if (mweb === 'off' || height >= activation || height + blocks < activation)
      return generate(blocks, address);
    const before = await generate(activation - 1 - height, address);
    await pegIn(wallet);
    return [...before, ...(await generate(blocks - before.length, address))];
  };
}

/** One litecoind under node-supervisor.cjs, restarted on the same data and ports when it dies. */
async function startNode(
  binary: string,
  spec: NodeSpec,
  args: string[],
  removeDir: string,
  client: RpcClient,
  logger: Logger,
) {
  await mkdir(spec.dir, { recursive: true });
  const nodeLogger = logger.child({ node: spec.name });
  const { child } = await startSupervised({
    name: `LTC dev node ${spec.name}`,
    logger: nodeLogger,
    spawn: () => spawnManaged(process.execPath, [SUPERVISOR, removeDir, binary, ...args], nodeLogger),
    ready: (started) => waitForRpc(client, started, 60_000),
  });
  return child;
}

export async function startLtcDevChain(opts: DevChainOptions): Promise<DevChain> {
  const logger = opts.logger.child({ devchain: 'LTC' });
  const binary = await ensureLitecoind(logger);
  const temporary = opts.dataDir === undefined;
  const root = opts.dataDir ?? (await mkdtemp(path.join(tmpdir(), 'manjam-ltc-')));
  const creds = { user: 'manjam', password: randomBytes(18).toString('hex') };
  const [rpc1, p2p1, rpc2, p2p2] = await Promise.all([freePort(), freePort(), freePort(), freePort()]);
  const specs: NodeSpec[] = [
    {
      name: 'ltc-1',
      dir: path.join(root, 'ltc-1'),
      rpcPort: rpc1,
      p2pPort: p2p1,
      peerPort: p2p2,
      wallet: true,
    },
    {
      name: 'ltc-2',
      dir: path.join(root, 'ltc-2'),
      rpcPort: rpc2,
      p2pPort: p2p2,
      peerPort: p2p1,
      wallet: false,
    },
  ];
  await mkdir(root, { recursive: true });
  const gate = opts.blocknotifyCommand ? await createNotifyGate(root) : undefined;
  const children: SupervisedChild[] = [];
  const clients: RpcClient[] = [];
  let stopped = false;
  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    for (const client of clients) client.close();
    await Promise.all(children.map((c) => c.stop(15_000)));
    await gate?.remove();
    if (temporary) await rm(root, { recursive: true, force: true });
    logger.info('litecoind regtest pair stopped');
  };
  const rpc: RpcEndpoint = { url: `http://127.0.0.1:${rpc1}/`, ...creds };
  const walletRpc: RpcEndpoint = { url: `http://127.0.0.1:${rpc1}/wallet/${POOL_WALLET}`, ...creds };
  const node = new RpcClient(rpc, 120_000);
  const wallet = new RpcClient(walletRpc, 120_000);
  const peer = new RpcClient({ url: `http://127.0.0.1:${rpc2}/`, ...creds }, 10_000);
  clients.push(node, wallet, peer);
  try {
    const started = await Promise.allSettled(
      specs.map((spec, i) =>
        startNode(
          binary,
          spec,
          nodeArgs(spec, creds, opts, gate),
          temporary ? spec.dir : '-',
          i === 0 ? node : peer,
          logger,
        ),
      ),
    );
    for (const result of started) if (result.status === 'fulfilled') children.push(result.value);
    const failed = started.find((result) => result.status === 'rejected');
    if (failed) throw failed.reason;
    await ensurePoolWallet(node);
    await waitForPeer(node, p2p2, 30_000);
    const poolAddress = await wallet.call<string>('getnewaddress', ['pool', 'bech32']);
    const mweb = opts.mweb ?? 'activate';
    const mine = durable(node, mwebAwareMiner(node, wallet, poolAddress, mweb));
    await prepareChain(node, mine, mweb);
    await gate?.open();
    logger.info(
      { rpc: rpc.url, poolAddress, height: await node.call<number>('getblockcount') },
      'litecoind regtest pair ready',
    );
    const processIds = (): number[] => children.flatMap((c) => processTree(c.current()));
    const nodeProcessIds = (): number[] => children.flatMap((c) => processTree(c.current()).slice(1));
    return { coin: 'LTC', rpc, walletRpc, poolAddress, mine, stop, processIds, nodeProcessIds };
  } catch (err) {
    await stop();
    throw err;
  }
}

/**
 * litecoind writes its block index and chainstate to disk only now and then (hourly), so after a
 * kill -9 it comes back at its last flush and must fetch the rest from its peer. Blocks mined by
 * mine() are flushed at once (gettxoutsetinfo flushes the chainstate first).
 */
function durable(node: RpcClient, mine: DevChain['mine']): DevChain['mine'] {
  return async (blocks, address) => {
    const hashes = await mine(blocks, address);
    await node.call('gettxoutsetinfo');
    return hashes;
  };
}

async function prepareChain(node: RpcClient, mine: DevChain['mine'], mweb: MwebMode): Promise<void> {
  const height = await node.call<number>('getblockcount');
  const target = mweb === 'activate' ? LTC_MWEB_ACTIVATION_HEIGHT : LTC_INITIAL_BLOCKS;
  if (height < target) await mine(target - height);
  // A kept data dir whose tip is more than a day old puts the node back in "initial block
  // download" and GBT answers -10 until a new block arrives.
  try {
    await node.call('getblocktemplate', [{ rules: ['mweb', 'segwit'] }]);
  } catch (err) {
    if (!(err instanceof RpcError && err.code === -10)) throw err;
    await mine(1);
  }
}
