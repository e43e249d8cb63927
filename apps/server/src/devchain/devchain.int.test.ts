import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { RpcClient } from '../rpc/json-rpc.js';
import { forwardLines } from './child.js';
import {
  LTC_MWEB_ACTIVATION_HEIGHT,
  startBtcDevChain,
  startLtcDevChain,
  type DevChain,
} from '../coins/bitcoin/devchain/index.js';

const logger = pino({ level: 'warn' });
const ORPHAN_HOST = fileURLToPath(new URL('../../test/support/devchain/orphan-host.ts', import.meta.url));

const alive = (pid: number): boolean => existsSync(`/proc/${pid}`);

/** The -datadirs on the command lines of `pids` (supervisor and litecoind share one; bcoin has none). */
function dataDirsOf(pids: number[]): string[] {
  const dirs = pids.flatMap((pid) =>
    readFileSync(`/proc/${pid}/cmdline`, 'utf8')
      .split('\0')
      .filter((arg) => arg.startsWith('-datadir='))
      .map((arg) => arg.slice('-datadir='.length)),
  );
  return [...new Set(dirs)];
}

/** performance.now() when `node` first answers getblockcount (it may be restarting). */
async function answersAgain(node: RpcClient, timeoutMs: number): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await node.call('getblockcount', [], { timeoutMs: 1_000 });
      return performance.now();
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await delay(100);
    }
  }
}

async function waitUntilGone(pids: number[], timeoutMs: number): Promise<number[]> {
  const deadline = Date.now() + timeoutMs;
  let left = pids.filter(alive);
  while (left.length > 0 && Date.now() < deadline) {
    await delay(100);
    left = left.filter(alive);
  }
  return left;
}

const cases = [
  { coin: 'BTC', start: startBtcDevChain, rules: ['segwit'], processes: 1 },
  { coin: 'LTC', start: startLtcDevChain, rules: ['mweb', 'segwit'], processes: 4 },
] as const;

describe.each(cases)('the $coin regtest dev chain', ({ coin, start, rules, processes }) => {
  let chain: DevChain;
  let node: RpcClient;
  let wallet: RpcClient;

  beforeAll(async () => {
    chain = await start({ logger });
    node = new RpcClient(chain.rpc);
    wallet = new RpcClient(chain.walletRpc);
  });
  afterAll(async () => {
    node?.close();
    wallet?.close();
    await chain?.stop();
  });

  it('comes up from nothing with a working getblocktemplate', async () => {
    expect(chain.coin).toBe(coin);
    const template = await node.call<{ height: number; previousblockhash: string; coinbasevalue: number }>(
      'getblocktemplate',
      [{ rules }],
    );
    const tip = await node.call<string>('getbestblockhash');
    expect(template.previousblockhash).toBe(tip);
    expect(template.height).toBeGreaterThan(120);
    expect(template.coinbasevalue).toBeGreaterThan(0);
  });

  it('gives the pool wallet coins it can spend', async () => {
    const address = await wallet.call<string>('getnewaddress', ['']);
    const txid = await wallet.call<string>('sendtoaddress', [address, 1.5]);
    expect(txid).toMatch(/^[0-9a-f]{64}$/);
    expect(Number(await wallet.call<number>('getbalance', []))).toBeGreaterThan(100);
  });

  it('moves the tip when it mines a block', async () => {
    const before = await node.call<number>('getblockcount');
    const [hash] = await chain.mine(2);
    expect(await node.call<number>('getblockcount')).toBe(before + 2);
    expect(await node.call<string>('getblockhash', [before + 1])).toBe(hash);
  });

  it('restarts its node after kill -9 on the same RPC port, with the same chain and pool wallet', async () => {
    const [pid] = chain.nodeProcessIds();
    const height = await node.call<number>('getblockcount');
    const killedAt = performance.now();
    process.kill(pid as number, 'SIGKILL');
    const seconds = ((await answersAgain(node, 60_000)) - killedAt) / 1000;
    // litecoind may come back at its last flush and fetch the rest from its peer.
    await vi.waitFor(async () => expect(await node.call<number>('getblockcount')).toBe(height), {
      timeout: 20_000,
      interval: 200,
    });
    const caughtUp = (performance.now() - killedAt) / 1000;
    process.stdout.write(
      `${coin} dev node answered again ${seconds.toFixed(1)} s after kill -9, at its tip after ${caughtUp.toFixed(1)} s\n`,
    );
    expect(seconds).toBeLessThan(15);
    expect(chain.nodeProcessIds()[0]).not.toBe(pid);
    expect(Number(await wallet.call<number>('getbalance', []))).toBeGreaterThan(100);
    await chain.mine(1);
    expect(await node.call<number>('getblockcount')).toBe(height + 1);
  });

  it('stops and leaves no process behind', async () => {
    const pids = chain.processIds();
    expect(pids).toHaveLength(processes);
    const dirs = dataDirsOf(pids);
    expect(dirs).toHaveLength(coin === 'LTC' ? 2 : 0);
    node.close();
    wallet.close();
    await chain.stop();
    expect(pids.filter(alive)).toEqual([]);
    expect(dirs.filter((dir) => existsSync(dir))).toEqual([]);
    await expect(node.call('getblockcount', [], { timeoutMs: 2_000 })).rejects.toMatchObject({
      kind: 'transport',
    });
  });

  it('goes down by itself when the process that started it is killed', async () => {
    const host = spawn(process.execPath, ['--import', 'tsx', ORPHAN_HOST, coin], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const ready = await new Promise<{ pids: number[] }>((resolve, reject) => {
      forwardLines(host.stdout, (line) => resolve(JSON.parse(line) as { pids: number[] }));
      host.on('exit', (code) => reject(new Error(`host exited early (${code})`)));
    });
    expect(ready.pids).toHaveLength(processes);
    const dirs = dataDirsOf(ready.pids);
    host.kill('SIGKILL');
    expect(await waitUntilGone(ready.pids, 20_000)).toEqual([]);
    expect(dirs.filter((dir) => existsSync(dir))).toEqual([]);
  });
});

describe('a BTC dev chain on a kept data dir', () => {
  it('comes back with its chain and its pool wallet after a restart', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'manjam-btc-kept-'));
    try {
      const first = await startBtcDevChain({ logger, dataDir });
      const [tip] = await first.mine(1);
      await first.stop();
      const second = await startBtcDevChain({ logger, dataDir });
      const node = new RpcClient(second.rpc);
      const wallet = new RpcClient(second.walletRpc);
      try {
        expect(await node.call<string>('getbestblockhash')).toBe(tip);
        expect(Number(await wallet.call<number>('getbalance', []))).toBeGreaterThan(100);
      } finally {
        node.close();
        wallet.close();
        await second.stop();
      }
      expect(existsSync(dataDir)).toBe(true);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe('an LTC dev chain on a kept data dir', () => {
  it('comes back with its chain and its pool wallet after a restart', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'manjam-ltc-kept-'));
    try {
      const first = await startLtcDevChain({ logger, dataDir, mweb: 'off' });
      const [tip] = await first.mine(1);
      await first.stop();
      expect(existsSync(path.join(dataDir, 'ltc-1'))).toBe(true);
      const second = await startLtcDevChain({ logger, dataDir, mweb: 'off' });
      const node = new RpcClient(second.rpc);
      const wallet = new RpcClient(second.walletRpc);
      try {
        expect(await node.call<string>('getblockhash', [121])).toBe(tip);
        expect(Number(await wallet.call<number>('getbalance', []))).toBeGreaterThan(0);
        await expect(node.call('getblocktemplate', [{ rules: ['mweb', 'segwit'] }])).resolves.toBeTruthy();
      } finally {
        node.close();
        wallet.close();
        await second.stop();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe('MWEB on the LTC dev chain', () => {
  const gbt = (node: RpcClient) =>
    node.call<{ rules: string[]; mweb?: string }>('getblocktemplate', [{ rules: ['mweb', 'segwit'] }]);

  it.each([
    { mweb: 'off', active: false },
    { mweb: 'on', active: true },
  ] as const)(
    'with mweb set to $mweb, mining past height 432 leaves MWEB active: $active',
    async ({ mweb, active }) => {
      const chain = await startLtcDevChain({ logger, mweb });
      const node = new RpcClient(chain.rpc);
      try {
        expect((await gbt(node)).rules).not.toContain('mweb');
        const height = await node.call<number>('getblockcount');
        const hashes = await chain.mine(LTC_MWEB_ACTIVATION_HEIGHT + 2 - height);
        expect(hashes).toHaveLength(LTC_MWEB_ACTIVATION_HEIGHT + 2 - height);
        const template = await gbt(node);
        expect(template.rules.includes('mweb')).toBe(active);
        expect(typeof template.mweb === 'string').toBe(active);
      } finally {
        node.close();
        await chain.stop();
      }
    },
  );
});
