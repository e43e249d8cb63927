import { describe, expect, it, vi } from 'vitest';
import { pino } from 'pino';
import type { AccountingChain } from '../accounting/chain.js';
import { ConfigError, loadConfig } from '../config/index.js';
import type { StratumKit } from '../stratum/kit.js';
import type { CoinFamily, FamilyChain, FamilyPorts, ServedPort } from './family.js';
import { LateChain, startChains } from './late-chain.js';

const config = loadConfig({ env: {}, cwd: '/' });
const logger = pino({ level: 'silent' });
const kit = {} as StratumKit;
const RETRY = { first: 10, max: 40 };

/** A family whose chain starts after `failures` failed attempts, recording what the pool asked of it. */
function family(id: 'bitcoin' | 'monero', failures: number) {
  const calls = { starts: 0, portsOpened: 0, portsStarted: 0, portsClosed: 0, stopped: 0, sends: 0 };
  const served: ServedPort = { coin: 'XMR', port: 1111, tls: false, scheme: 'pps-plus', protocol: 'v1' };
  const wallet = {
    getBlockCount: () => Promise.resolve(42),
    sendMany: () => {
      calls.sends += 1;
      return Promise.resolve('txid');
    },
  } as unknown as AccountingChain;
  const ports: FamilyPorts = {
    ports: () => [served],
    stats: () => ({ connections: 3, accepted: 7, rejected: {} }),
    start: () => void (calls.portsStarted += 1),
    close: () => Promise.resolve(void (calls.portsClosed += 1)),
    release: () => Promise.resolve(),
  };
  const chain: FamilyChain = {
    family: id,
    coins: ['XMR'],
    health: () => Promise.resolve([{ coin: 'XMR', ok: true, height: 42 }]),
    up: () => [{ coin: 'XMR', up: true }],
    accounting: () => ({ chains: [['XMR', wallet]], creditOnly: [] }),
    openPorts: () => {
      calls.portsOpened += 1;
      return Promise.resolve(ports);
    },
    stop: () => Promise.resolve(void (calls.stopped += 1)),
  };
  const source: CoinFamily = {
    id,
    startChain: () => {
      calls.starts += 1;
      return calls.starts <= failures
        ? Promise.reject(new Error('open_wallet: no answer within 120000 ms'))
        : Promise.resolve(chain);
    },
  };
  return { source, calls };
}

async function until(check: () => boolean): Promise<void> {
  await vi.waitFor(() => expect(check()).toBe(true), { timeout: 2_000, interval: 5 });
}

describe('chains that start apart', () => {
  it('starts the pool with the families that came up and keeps retrying the one that did not', async () => {
    const monero = family('monero', 2);
    const chains = await startChains([monero.source], config, logger, 'nodes', RETRY);
    expect(chains).toHaveLength(1);
    const late = chains[0] as LateChain;
    expect(late).toBeInstanceOf(LateChain);
    expect(late.up()).toEqual([{ coin: 'XMR', up: false }]);
    expect(await late.health()).toEqual([
      {
        coin: 'XMR',
        ok: false,
        height: null,
        error: 'not started: open_wallet: no answer within 120000 ms; retrying',
      },
    ]);
    const ports = await late.openPorts(kit);
    ports.start();
    expect(ports.ports()).toEqual([]);
    expect(ports.stats()).toEqual({ connections: 0, accepted: 0, rejected: {} });
    const [[, wallet]] = late.accounting(logger).chains as [[string, AccountingChain]];
    await expect(wallet.getBlockCount()).rejects.toThrow('XMR: chain not started yet');

    await until(() => late.started !== undefined);
    expect(monero.calls.starts).toBe(3);
    await until(() => monero.calls.portsStarted === 1);
    expect(ports.ports().map((p) => p.port)).toEqual([1111]);
    expect(late.up()).toEqual([{ coin: 'XMR', up: true }]);
    expect(await late.health()).toEqual([{ coin: 'XMR', ok: true, height: 42 }]);
    expect(await wallet.getBlockCount()).toBe(42);
    await ports.close();
    await late.stop();
    expect(monero.calls).toMatchObject({ portsClosed: 1, stopped: 1 });
  });

  it('returns a family that started as it is, without a wrapper', async () => {
    const bitcoin = family('bitcoin', 0);
    const [chain] = await startChains([bitcoin.source], config, logger, 'nodes', RETRY);
    expect(chain).not.toBeInstanceOf(LateChain);
    expect(chain?.up()).toEqual([{ coin: 'XMR', up: true }]);
  });

  it('stops the start on a configuration mistake instead of retrying it, stopping the chains that started', async () => {
    const bitcoin = family('bitcoin', 0);
    const wrong: CoinFamily = {
      id: 'monero',
      startChain: () =>
        Promise.reject(new ConfigError('config: chains.XMR.poolAddress: required with a configured node')),
    };
    await expect(startChains([bitcoin.source, wrong], config, logger, 'nodes', RETRY)).rejects.toThrow(
      'config: chains.XMR.poolAddress: required',
    );
    expect(bitcoin.calls.stopped).toBe(1);
  });

  it('stops retrying once the pool stops, and starts nothing after', async () => {
    const monero = family('monero', 1_000);
    const [late] = await startChains([monero.source], config, logger, 'nodes', RETRY);
    await until(() => monero.calls.starts >= 2);
    await late!.stop();
    const starts = monero.calls.starts;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(monero.calls.starts).toBe(starts);
  });
});
