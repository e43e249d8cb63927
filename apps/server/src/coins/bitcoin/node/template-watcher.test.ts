import dgram from 'node:dgram';
import pino from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { NodeTemplate } from './node.js';
import {
  BLOCKNOTIFY_LATE_MS,
  TemplateWatcher,
  UNHELD_LONGPOLL_PAUSE_MS,
  type WatcherNode,
} from './template-watcher.js';

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

async function sendBlocknotify(port: number, text: string): Promise<void> {
  const socket = dgram.createSocket('udp4');
  await new Promise<void>((resolve, reject) =>
    socket.send(text, port, '127.0.0.1', (err) => (err ? reject(err) : resolve())),
  );
  socket.close();
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
      // The node answers with the tip it had when asked.
      const answer = template(tip, height + 1);
      return new Promise((resolve) =>
        waiting.push(() => {
          answered++;
          resolve(answer);
        }),
      );
    },
    getBestBlockHash: () => Promise.resolve(tip),
    getBlockHeader: (hash) =>
      Promise.resolve({
        hash,
        confirmations: 1,
        height,
        version: 0x20000000,
        merkleroot: '00'.repeat(32),
        time: 1_700_000_100,
        mediantime: 1_700_000_000,
        bits: 0x207fffff,
        difficulty: 1,
      }),
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

  it('announces a new tip from its header before the template arrives, then emits the template', async () => {
    const fake = gatedNode();
    watcher = new TemplateWatcher({ node: fake.node, logger, longpoll: false, pollIntervalMs: 20 });
    const seen: string[] = [];
    watcher.onTip((tip, info) =>
      seen.push(`tip ${info.reason}:${tip.hash.slice(0, 2)}@${tip.height} ${tip.bits}`),
    );
    watcher.onTemplate((tpl, info) => seen.push(`${info.reason}:${tpl.previousblockhash.slice(0, 2)}`));
    const started = watcher.start();
    fake.releaseAll();
    await started;
    fake.newTip('bb'.repeat(32));
    await vi.waitFor(() => expect(seen).toEqual(['start:aa', 'tip poll:bb@101 207fffff']));
    fake.releaseAll();
    await vi.waitFor(() => expect(seen).toEqual(['start:aa', 'tip poll:bb@101 207fffff', 'poll:bb']));
  });

  it('asks for a new tip’s header before its template, and for the template once the header is answered', async () => {
    const calls: string[] = [];
    let answerHeader: (() => void) | undefined;
    const tip = 'aa'.repeat(32);
    const node: WatcherNode = {
      coin: 'BTC',
      getBlockTemplate: () => {
        calls.push('template');
        return Promise.resolve(template(calls.includes('header') ? 'bb'.repeat(32) : tip, 101));
      },
      getBestBlockHash: () => Promise.resolve(tip),
      getBlockHeader: (hash) => {
        calls.push('header');
        return new Promise((resolve) => {
          answerHeader = () =>
            resolve({
              hash,
              confirmations: 1,
              height: 101,
              version: 0x20000000,
              merkleroot: '00'.repeat(32),
              time: 1_700_000_100,
              mediantime: 1_700_000_000,
              bits: '207fffff',
              difficulty: 1,
            });
        });
      },
    };
    watcher = new TemplateWatcher({ node, logger, longpoll: false, pollIntervalMs: 0, blocknotifyPort: 0 });
    const seen: string[] = [];
    watcher.onTip((t) => seen.push(`tip:${t.hash.slice(0, 2)}`));
    watcher.onTemplate((tpl, info) => seen.push(`${info.reason}:${tpl.previousblockhash.slice(0, 2)}`));
    await watcher.start();
    await sendBlocknotify(watcher.status().blocknotifyPort ?? 0, `BTC ${'bb'.repeat(32)}`);
    await vi.waitFor(() => expect(calls).toEqual(['template', 'header']));
    answerHeader?.();
    await vi.waitFor(() => expect(seen).toEqual(['start:aa', 'tip:bb', 'blocknotify:bb']));
    expect(calls).toEqual(['template', 'header', 'template']);
  });

  it('drops a template asked for before a new tip was announced, and emits the one on the new tip', async () => {
    const fake = gatedNode();
    watcher = new TemplateWatcher({
      node: fake.node,
      logger,
      longpoll: false,
      pollIntervalMs: 0,
      blocknotifyPort: 0,
    });
    const seen: string[] = [];
    watcher.onTip((tip) => seen.push(`tip:${tip.hash.slice(0, 2)}`));
    watcher.onTemplate((tpl, info) => seen.push(`${info.reason}:${tpl.previousblockhash.slice(0, 2)}`));
    const started = watcher.start();
    await vi.waitFor(() => expect(fake.calls()).toBe(1));
    fake.releaseAll();
    await started;
    // A refresh is in flight on the old tip when the node hears of a new one.
    const refresh = watcher.trigger('refresh');
    fake.newTip('bb'.repeat(32));
    await sendBlocknotify(watcher.status().blocknotifyPort ?? 0, `BTC ${'bb'.repeat(32)}`);
    await vi.waitFor(() => expect(seen).toEqual(['start:aa', 'tip:bb']));
    fake.releaseAll();
    await refresh;
    await vi.waitFor(() => expect(fake.calls()).toBe(3));
    fake.releaseAll();
    await vi.waitFor(() => expect(fake.answered()).toBe(3));
    expect(seen).toEqual(['start:aa', 'tip:bb', 'blocknotify:bb']);
  });

  it('sends a longpoll answer at once, not behind a fetch in flight, and drops that older fetch', async () => {
    const fake = gatedNode();
    watcher = new TemplateWatcher({ node: fake.node, logger, longpoll: false, pollIntervalMs: 0 });
    const seen: string[] = [];
    watcher.onTemplate((tpl, info) => seen.push(`${info.reason}:${tpl.previousblockhash.slice(0, 2)}`));
    const started = watcher.start();
    fake.releaseAll();
    await started;
    const refresh = watcher.trigger('refresh');
    void watcher.trigger('longpoll', template('bb'.repeat(32), 102));
    expect(seen).toEqual(['start:aa', 'longpoll:bb']);
    fake.newTip('bb'.repeat(32));
    fake.releaseAll();
    await refresh;
    await vi.waitFor(() => expect(fake.calls()).toBe(3));
    fake.releaseAll();
    await vi.waitFor(() => expect(fake.answered()).toBe(3));
    // The refresh asked on the old tip never goes out; the one asked again after it does.
    expect(seen).toEqual(['start:aa', 'longpoll:bb', 'refresh:bb']);
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

describe('the template watcher’s longpoll beside blocknotify', () => {
  let watcher: TemplateWatcher | undefined;
  afterEach(async () => {
    await watcher?.stop();
  });

  it('holds no longpoll while the node’s blocknotify datagrams arrive, and holds one again when a new tip’s datagram does not come', async () => {
    // Like Bitcoin Core: a held longpoll answers when the tip moves; other calls answer at once.
    let tip = 'aa'.repeat(32);
    let height = 100;
    let longpolls = 0;
    let held: (() => void)[] = [];
    const node: WatcherNode = {
      coin: 'BTC',
      getBlockTemplate: (longpollid) => {
        if (longpollid === undefined) return Promise.resolve(template(tip, height + 1));
        longpolls++;
        if (longpollid !== `${tip}1`) return Promise.resolve(template(tip, height + 1));
        return new Promise((resolve) => held.push(() => resolve(template(tip, height + 1))));
      },
      getBestBlockHash: () => Promise.resolve(tip),
      getBlockHeader: (hash) =>
        Promise.resolve({
          hash,
          confirmations: 1,
          height,
          version: 0x20000000,
          merkleroot: '00'.repeat(32),
          time: 1_700_000_100,
          mediantime: 1_700_000_000,
          bits: '207fffff',
          difficulty: 1,
        }),
    };
    const mine = (hash: string) => {
      tip = hash;
      height++;
      const answers = held;
      held = [];
      return answers;
    };
    watcher = new TemplateWatcher({ node, logger, longpoll: true, pollIntervalMs: 50, blocknotifyPort: 0 });
    const tips: string[] = [];
    const templates: string[] = [];
    watcher.onTip((t, info) => tips.push(`${info.reason}:${t.hash.slice(0, 2)}`));
    watcher.onTemplate((tpl, info) => templates.push(`${info.reason}:${tpl.previousblockhash.slice(0, 2)}`));
    await watcher.start();
    await vi.waitFor(() => expect(held).toHaveLength(1));
    const port = watcher.status().blocknotifyPort ?? 0;
    // What /api/health tells the operator: how new blocks are heard now.
    expect(watcher.status().newTipsBy).toBe('longpoll');

    // A datagram comes (here before the held longpoll's answer): from then on no longpoll is held.
    const answers = mine('bb'.repeat(32));
    await sendBlocknotify(port, `BTC ${'bb'.repeat(32)}`);
    await vi.waitFor(() => expect(tips).toEqual(['blocknotify:bb']));
    answers.forEach((answer) => answer());
    await vi.waitFor(() => expect(templates.at(-1)).toMatch(/:bb$/));
    mine('cc'.repeat(32));
    await sendBlocknotify(port, `BTC ${'cc'.repeat(32)}`);
    await vi.waitFor(() => expect(templates.at(-1)).toBe('blocknotify:cc'));
    expect(longpolls).toBe(1);
    expect(held).toHaveLength(0);
    expect(watcher.status().newTipsBy).toBe('blocknotify');

    // A datagram after the template (the poll was first) still counts: no longpoll.
    mine('dd'.repeat(32));
    await vi.waitFor(() => expect(templates.at(-1)).toBe('poll:dd'));
    await sendBlocknotify(port, `BTC ${'dd'.repeat(32)}`);
    await new Promise((resolve) => setTimeout(resolve, BLOCKNOTIFY_LATE_MS + 200));
    expect(longpolls).toBe(1);

    // A new tip whose datagram never comes: a longpoll is held again.
    const lost = Date.now();
    mine('ee'.repeat(32));
    await vi.waitFor(() => expect(templates.at(-1)).toBe('poll:ee'));
    await vi.waitFor(() => expect(held).toHaveLength(1), { timeout: BLOCKNOTIFY_LATE_MS * 3 });
    expect(Date.now() - lost).toBeGreaterThanOrEqual(BLOCKNOTIFY_LATE_MS);
    expect(longpolls).toBe(2);
    expect(watcher.status().newTipsBy).toBe('longpoll');
  });
});

describe('the template watcher when its node goes silent', () => {
  let watcher: TemplateWatcher | undefined;
  afterEach(async () => {
    await watcher?.stop();
  });

  it('does not ask again at once when the node answers a longpoll without holding it (the pool stays idle)', async () => {
    // Litecoin Core after a restart, until its next block: every longpoll is answered at once
    // with the same template and longpollid.
    const tip = 'aa'.repeat(32);
    let longpolls = 0;
    const node: WatcherNode = {
      coin: 'BTC',
      getBlockTemplate: (longpollid) => {
        if (longpollid !== undefined) longpolls++;
        // Answered over the network, as a node does (a turn of the event loop later).
        return new Promise((resolve) => setImmediate(() => resolve(template(tip, 101))));
      },
      getBestBlockHash: () => Promise.resolve(tip),
      getBlockHeader: () => Promise.reject(new Error('not asked')),
    };
    watcher = new TemplateWatcher({ node, logger, longpoll: true, pollIntervalMs: 0 });
    const seen: string[] = [];
    watcher.onTemplate((_tpl, info) => seen.push(info.reason));
    await watcher.start();
    await new Promise((resolve) => setTimeout(resolve, UNHELD_LONGPOLL_PAUSE_MS / 2));
    expect(longpolls).toBe(1);
    // No longpoll held and no poll: the operator is told the pool only refreshes its template.
    expect(watcher.status().newTipsBy).toBe('refresh');
    await vi.waitFor(() => expect(longpolls).toBe(2), { timeout: UNHELD_LONGPOLL_PAUSE_MS * 2 });
    expect(seen).toEqual(['start']);
  });

  it('reports the coin down past the silence limit and sends a fresh template soon after the node answers again', async () => {
    let dead = false;
    const tip = 'aa'.repeat(32);
    const refuse = () => Promise.reject(new Error('cannot reach node (ECONNREFUSED)'));
    const node: WatcherNode = {
      coin: 'BTC',
      getBlockTemplate: () => (dead ? refuse() : Promise.resolve(template(tip, 101))),
      getBestBlockHash: () => (dead ? refuse() : Promise.resolve(tip)),
      getBlockHeader: () => refuse(),
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
