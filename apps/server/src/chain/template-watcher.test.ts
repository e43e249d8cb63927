import pino from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { NodeTemplate } from './node.js';
import { TemplateWatcher, type WatcherNode } from './template-watcher.js';

const logger = pino({ level: 'silent' });

function template(prev: string, height: number): NodeTemplate {
  return {
    version: 0x20000000,
    previousblockhash: prev,
    transactions: [],
    coinbasevalue: 5_000_000_000,
    bits: '207fffff',
    height,
    curtime: 1_700_000_000,
    longpollid: `${prev}1`,
  };
}

/** A node whose getblocktemplate answers only when the test releases it. */
function gatedNode() {
  let tip = 'aa'.repeat(32);
  let height = 100;
  const waiting: (() => void)[] = [];
  let calls = 0;
  let answered = 0;
  const node: WatcherNode = {
    coin: 'BTC',
    getBlockTemplate: () => {
      calls++;
      return new Promise((resolve) =>
        waiting.push(() => {
          answered++;
          resolve(template(tip, height + 1));
        }),
      );
    },
    getBestBlockHash: () => Promise.resolve(tip),
  };
  return {
    node,
    calls: () => calls,
    answered: () => answered,
    newTip: (hash: string) => {
      tip = hash;
      height++;
    },
    releaseAll: () => waiting.splice(0).forEach((release) => release()),
  };
}

describe('the template watcher’s fetching', () => {
  let watcher: TemplateWatcher | undefined;
  afterEach(async () => {
    await watcher?.stop();
  });

  it('collapses a burst of new-tip signals into one follow-up fetch', async () => {
    const fake = gatedNode();
    watcher = new TemplateWatcher({ node: fake.node, logger, longpoll: false, pollIntervalMs: 0 });
    const seen: string[] = [];
    watcher.onTemplate((tpl, info) => seen.push(`${info.reason}:${tpl.previousblockhash.slice(0, 2)}`));
    const started = watcher.start();
    fake.releaseAll();
    await started;
    fake.newTip('bb'.repeat(32));
    const first = watcher.trigger('blocknotify');
    for (let i = 0; i < 5; i++) void watcher.trigger('poll');
    fake.releaseAll();
    await first;
    // The five polls became one fetch, which finds the tip it already has and emits nothing.
    await vi.waitFor(() => expect(fake.calls()).toBe(3));
    fake.releaseAll();
    await vi.waitFor(() => expect(fake.answered()).toBe(3));
    expect(fake.calls()).toBe(3);
    expect(seen).toEqual(['start:aa', 'blocknotify:bb']);
  });

  it('keeps serving other listeners when one of them throws', async () => {
    const fake = gatedNode();
    watcher = new TemplateWatcher({ node: fake.node, logger, longpoll: false, pollIntervalMs: 0 });
    let delivered = 0;
    watcher.onTemplate(() => {
      throw new Error('listener bug');
    });
    watcher.onTemplate(() => delivered++);
    const started = watcher.start();
    fake.releaseAll();
    await started;
    expect(delivered).toBe(1);
    expect(watcher.status()).toMatchObject({ templatesEmitted: 1, height: 100, consecutiveFailures: 0 });
  });
});

describe('the template watcher when its node goes silent', () => {
  let watcher: TemplateWatcher | undefined;
  afterEach(async () => {
    await watcher?.stop();
  });

  it('reports the coin down past the silence limit and sends a fresh template soon after the node answers again', async () => {
    let dead = false;
    const tip = 'aa'.repeat(32);
    const refuse = () => Promise.reject(new Error('cannot reach node (ECONNREFUSED)'));
    const node: WatcherNode = {
      coin: 'BTC',
      getBlockTemplate: () => (dead ? refuse() : Promise.resolve(template(tip, 101))),
      getBestBlockHash: () => (dead ? refuse() : Promise.resolve(tip)),
    };
    // A 30 s back-off cap would keep probing a returning node rarely; down, it is 200 ms here.
    watcher = new TemplateWatcher({
      node,
      logger,
      longpoll: false,
      pollIntervalMs: 50,
      silenceMs: 300,
      downBackoffMs: 200,
    });
    const seen: string[] = [];
    watcher.onTemplate((_tpl, info) => seen.push(info.reason));
    await watcher.start();
    dead = true;
    await vi.waitFor(
      () => expect(watcher?.status()).toMatchObject({ up: false, downSince: expect.any(Date) as Date }),
      { timeout: 3_000 },
    );
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    dead = false;
    const back = Date.now();
    await vi.waitFor(() => expect(seen).toEqual(['start', 'refresh']), { timeout: 2_000 });
    expect(Date.now() - back).toBeLessThan(1_000);
    expect(watcher.status()).toMatchObject({ up: true, downSince: null, consecutiveFailures: 0 });
  });
});
