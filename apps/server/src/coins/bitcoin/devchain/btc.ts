// SHA-256d regtest dev chain: bcoin 1.0.2 in a child process (bcoin-runner.cjs), kept alive by
// the supervisor. Its chain and wallet live in a prefix directory (dataDir, or a temporary one
// removed on stop), so a restarted runner resumes them on the same ports.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { RpcClient } from '../../../rpc/json-rpc.js';
import {
  createNotifyGate,
  freePort,
  processTree,
  spawnManaged,
  waitForReadyLine,
} from '../../../devchain/child.js';
import { startSupervised, type SupervisedChild } from '../../../devchain/supervisor.js';
import type { DevChain, DevChainOptions } from '../../../devchain/types.js';

const RUNNER = fileURLToPath(new URL('./bcoin-runner.cjs', import.meta.url));
/**
 * bcoin's regtest activates segwit by BIP9 signalling (windows of 144 blocks): it is active from
 * height 432, as on mainnet. Mining that far also leaves ~330 mature coinbases in the pool wallet.
 */
export const BTC_INITIAL_BLOCKS = 432;

interface RunnerReady {
  ready: true;
  rpcPort: number;
  walletPort: number;
}

/** bcoin's wallet follows the chain asynchronously: wait until it has seen the node's tip. */
async function waitForWalletSync(node: RpcClient, wallet: RpcClient, timeoutMs = 30_000): Promise<void> {
  const target = await node.call<number>('getblockcount');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const height = await wallet.call<number>('manjam_walletheight');
    if (height >= target) return;
    if (Date.now() > deadline) throw new Error(`bcoin wallet stuck at height ${height}, chain at ${target}`);
    await delay(20);
  }
}

/** Starts of the runner on fresh ports before giving up (see the loop in startBtcDevChain). */
const START_ATTEMPTS = 3;

export async function startBtcDevChain(opts: DevChainOptions): Promise<DevChain> {
  const logger = opts.logger.child({ devchain: 'BTC' });
  const apiKey = randomBytes(18).toString('hex');
  const temporary = opts.dataDir === undefined;
  const prefix = opts.dataDir ?? (await mkdtemp(path.join(tmpdir(), 'manjam-btc-')));
  // Fixed ports and data: a restarted runner serves the same endpoints, chain and wallet.
  let rpcPort = 0;
  let walletPort = 0;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    MANJAM_BCOIN_API_KEY: apiKey,
    MANJAM_BCOIN_PREFIX: prefix,
    MANJAM_BCOIN_REMOVE_PREFIX: temporary ? '1' : '0',
  };
  const choosePorts = async (): Promise<void> => {
    [rpcPort, walletPort] = await Promise.all([freePort(), freePort()]);
    env.MANJAM_BCOIN_HTTP_PORT = String(rpcPort);
    env.MANJAM_BCOIN_WALLET_PORT = String(walletPort);
  };
  const gate = opts.blocknotifyCommand ? await createNotifyGate() : undefined;
  if (opts.blocknotifyCommand && gate) {
    env.MANJAM_BCOIN_BLOCKNOTIFY = opts.blocknotifyCommand;
    env.MANJAM_BCOIN_BLOCKNOTIFY_GATE = gate.file;
  }
  const clients: RpcClient[] = [];
  let runner: SupervisedChild | undefined;
  let stopped = false;
  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    for (const client of clients) client.close();
    await runner?.stop(10_000);
    await gate?.remove();
    if (temporary) await rm(prefix, { recursive: true, force: true });
    logger.info('bcoin regtest node stopped');
  };
  try {
    // A port found free can be taken before the runner binds it (another process's listen or
    // outgoing connection, many at once in the test suite): the runner then exits before it is
    // ready, and it is started again on other ports.
    for (let attempt = 1; ; attempt++) {
      await choosePorts();
      try {
        runner = (
          await startSupervised({
            name: 'BTC dev node',
            logger,
            spawn: () => spawnManaged(process.execPath, [RUNNER], logger, { env }),
            ready: (child) => waitForReadyLine<RunnerReady>(child, 60_000),
          })
        ).child;
        break;
      } catch (err) {
        if (attempt >= START_ATTEMPTS || !/before it was ready/.test((err as Error).message)) throw err;
        logger.warn(
          { err: (err as Error).message, rpcPort, walletPort },
          'bcoin runner did not start; other ports',
        );
      }
    }
    const rpc = { url: `http://127.0.0.1:${rpcPort}/`, user: 'manjam', password: apiKey };
    const walletRpc = { url: `http://127.0.0.1:${walletPort}/`, user: 'manjam', password: apiKey };
    const node = new RpcClient(rpc, 120_000);
    const wallet = new RpcClient(walletRpc, 120_000);
    clients.push(node, wallet);
    const poolAddress = await wallet.call<string>('getnewaddress', ['default']);
    const mine = async (blocks: number, address?: string): Promise<string[]> => {
      const hashes = await node.call<string[]>('generatetoaddress', [blocks, address ?? poolAddress]);
      await waitForWalletSync(node, wallet);
      return hashes;
    };
    const height = await node.call<number>('getblockcount');
    if (height < BTC_INITIAL_BLOCKS) await mine(BTC_INITIAL_BLOCKS - height);
    const { rules } = await node.call<{ rules?: string[] }>('getblocktemplate', [{ rules: ['segwit'] }]);
    if (!rules?.some((rule) => rule.replace('!', '') === 'segwit')) {
      throw new Error(`segwit is not active on the bcoin regtest chain after ${BTC_INITIAL_BLOCKS} blocks`);
    }
    await gate?.open();
    logger.info({ rpc: rpc.url, walletRpc: walletRpc.url, poolAddress, prefix }, 'bcoin regtest node ready');
    const supervised = runner;
    const processIds = (): number[] => processTree(supervised.current());
    const nodeProcessIds = (): number[] => processTree(supervised.current()).slice(0, 1);
    return { coin: 'BTC', rpc, walletRpc, poolAddress, mine, stop, processIds, nodeProcessIds };
  } catch (err) {
    await stop();
    throw err;
  }
}
