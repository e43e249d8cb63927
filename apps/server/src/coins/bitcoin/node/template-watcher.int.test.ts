import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { freePort } from '../../../devchain/child.js';
import { type DevChain, type DevChainOptions } from '../devchain/index.js';
import { startBtcTestChain, startLtcTestChain } from '../../../../test/support/devchain/snapshot.js';
import { blocknotifyCommand } from './blocknotify-listener.js';
import { chainHealth } from '../chains.js';
import { ChainNode } from './node.js';
import { NodeSet } from './node-set.js';
import { TemplateWatcher, type TemplateWatcherOptions } from './template-watcher.js';
import { freeUdpPort, nextTemplate } from '../../../../test/support/coins/bitcoin/node/watch.js';

const logger = pino({ level: 'warn' });

const cases = [
  { coin: 'BTC', start: (o: DevChainOptions) => startBtcTestChain(o) },
  { coin: 'LTC', start: (o: DevChainOptions) => startLtcTestChain(o) },
] as const;

describe.each(cases)('the template watcher on $coin', ({ coin, start }) => {
  let chain: DevChain;
  let node: ChainNode;
  let notifyPort: number;
  let watcher: TemplateWatcher | undefined;

  const watch = async (options: Partial<TemplateWatcherOptions>): Promise<TemplateWatcher> => {
    watcher = new TemplateWatcher({ node, logger, longpoll: false, pollIntervalMs: 0, ...options });
    const first = nextTemplate(watcher, ({ info }) => info.reason === 'start');
    await watcher.start();
    await first;
    return watcher;
  };

  beforeAll(async () => {
    notifyPort = await freeUdpPort();
    chain = await start({ logger, blocknotifyCommand: blocknotifyCommand(notifyPort, coin) });
    node = new ChainNode({ coin, rpc: chain.rpc, walletRpc: chain.walletRpc });
  });
  afterEach(async () => {
    await watcher?.stop();
    watcher = undefined;
  });
  afterAll(async () => {
    node?.close();
    await chain?.stop();
  });

  it('starts with a template on the current tip', async () => {
    const w = new TemplateWatcher({ node, logger, longpoll: false, pollIntervalMs: 0 });
    watcher = w;
    const first = nextTemplate(w, () => true);
    await w.start();
    const { template, info } = await first;
    expect(info).toEqual({ newTip: true, reason: 'start' });
    expect(template.previousblockhash).toBe(await node.getBestBlockHash());
    expect(w.status()).toMatchObject({
      running: true,
      height: await node.getBlockCount(),
      consecutiveFailures: 0,
    });
  });

  it('hears of a new block through the blocknotify hook', async () => {
    const w = await watch({ blocknotifyPort: notifyPort });
    const seen = nextTemplate(w, ({ info }) => info.newTip);
    const [hash] = await chain.mine(1);
    const { template, info } = await seen;
    expect(info).toEqual({ newTip: true, reason: 'blocknotify' });
    expect(template.previousblockhash).toBe(hash);
    // What /api/health tells the operator about this coin.
    expect(await chainHealth(coin, new NodeSet([node], logger), w)).toMatchObject({
      ok: true,
      newTipsBy: 'blocknotify',
    });
  });

  it('hears of a new block through a getblocktemplate longpoll', async () => {
    const w = await watch({ longpoll: true });
    const seen = nextTemplate(w, ({ info }) => info.newTip);
    const [hash] = await chain.mine(1);
    const { template, info } = await seen;
    expect(info).toEqual({ newTip: true, reason: 'longpoll' });
    expect(template.previousblockhash).toBe(hash);
    // Held again once the answer is out.
    await vi.waitFor(async () =>
      expect(await chainHealth(coin, new NodeSet([node], logger), w)).toMatchObject({
        newTipsBy: 'longpoll',
      }),
    );
  });

  it('falls back to polling the best block hash when nothing else is set up', async () => {
    const w = await watch({ pollIntervalMs: 100 });
    const seen = nextTemplate(w, ({ info }) => info.newTip);
    const [hash] = await chain.mine(1);
    const { template, info } = await seen;
    expect(info).toEqual({ newTip: true, reason: 'poll' });
    expect(template.previousblockhash).toBe(hash);
    expect(await chainHealth(coin, new NodeSet([node], logger), w)).toMatchObject({ newTipsBy: 'poll' });
  });

  it('refreshes the template on the same tip when the refresh interval passes', async () => {
    const w = await watch({ refreshIntervalMs: 300 });
    const tip = await node.getBestBlockHash();
    const { template, info } = await nextTemplate(w, () => true, 5_000);
    expect(info).toEqual({ newTip: false, reason: 'refresh' });
    expect(template.previousblockhash).toBe(tip);
  });
});

describe('the template watcher without a node', () => {
  it('keeps trying, reports the error in its status and never throws', async () => {
    const node = new ChainNode({
      coin: 'LTC',
      rpc: { url: `http://127.0.0.1:${await freePort()}/`, user: 'u', password: 'p' },
    });
    const watcher = new TemplateWatcher({
      node,
      logger,
      pollIntervalMs: 50,
      refreshIntervalMs: 100,
      longpoll: true,
    });
    let templates = 0;
    watcher.onTemplate(() => templates++);
    await watcher.start();
    await vi.waitFor(() => expect(watcher.status().consecutiveFailures).toBeGreaterThan(2), {
      timeout: 5_000,
    });
    const status = watcher.status();
    await watcher.stop();
    expect(templates).toBe(0);
    expect(status.running).toBe(true);
    expect(status.height).toBeNull();
    expect(status.consecutiveFailures).toBeGreaterThan(1);
    expect(status.lastError?.message).toMatch(/ECONNREFUSED/);
  });
});
