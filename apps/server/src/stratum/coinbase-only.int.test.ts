// A new tip reaches miners before its template: the pool hears of the block (a 50 ms poll here),
// reads its header and sends a coinbase-only job on it while getblocktemplate is still held (a
// fault injected on the test side). A block found on that job must be one the node accepts.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { algorithmOf, blockHashHex } from '@manjam/protocol';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ChainNode, TemplateWatcher, type WatcherNode } from '../chain/index.js';
import { createChainSource, type ChainSource } from '../chain-source.js';
import { parseConfig } from '../config/index.js';
import type { BitcoinFamilyCoin } from '@manjam/protocol';
import { openTestDatabase, type TestDatabase } from '../db/testing.js';
import { startBtcDevChain, startLtcDevChain, type DevChain } from '../devchain/index.js';
import { PoolEvents } from '../events.js';
import { startStratum, type StratumService } from './index.js';
import { StratumTestClient } from './testing/client.js';
import { testLogger } from './testing/harness.js';

const cases: { coin: BitcoinFamilyCoin; difficulty: number; start: () => Promise<DevChain> }[] = [
  { coin: 'BTC', difficulty: 3e-10, start: () => startBtcDevChain({ logger: testLogger }) },
  { coin: 'LTC', difficulty: 2e-5, start: () => startLtcDevChain({ logger: testLogger, mweb: 'off' }) },
];

describe.each(cases)('a coinbase-only job on a new $coin tip', ({ coin, difficulty, start }) => {
  let chain: DevChain;
  let node: ChainNode;
  let watcher: TemplateWatcher;
  let source: ChainSource;
  let stratum: StratumService;
  let database: TestDatabase;
  let dataDir: string;
  const clients: StratumTestClient[] = [];
  /** While set, getblocktemplate answers wait here (the node is slow to build its template). */
  let held: (() => void)[] | undefined;
  const release = () => {
    const waiting = held ?? [];
    held = undefined;
    for (const go of waiting) go();
  };

  beforeAll(async () => {
    chain = await start();
    node = new ChainNode({ coin, rpc: chain.rpc });
    const slowTemplates: WatcherNode = {
      coin,
      getBestBlockHash: (options) => node.getBestBlockHash(options),
      getBlockHeader: (hash) => node.getBlockHeader(hash),
      getBlockTemplate: async (longpollid, options) => {
        const queue = held;
        if (queue) await new Promise<void>((resolve) => queue.push(resolve));
        return node.getBlockTemplate(longpollid, options);
      },
    };
    watcher = new TemplateWatcher({
      node: slowTemplates,
      logger: testLogger,
      longpoll: false,
      pollIntervalMs: 50,
    });
    source = createChainSource({ coin, network: 'regtest', poolAddress: chain.poolAddress, node, watcher });
    await watcher.start();
    dataDir = await mkdtemp(join(tmpdir(), 'manjam-coinbase-only-'));
    database = await openTestDatabase('pglite');
    const config = parseConfig({
      dataDir,
      chains: { [coin]: { network: 'regtest', poolAddress: chain.poolAddress } },
      stratum: {
        host: '127.0.0.1',
        ports: [{ port: 0, coin, vardiff: { start: difficulty, min: difficulty, max: 1e12 } }],
      },
    });
    stratum = await startStratum({
      config,
      db: database.db,
      logger: testLogger,
      events: new PoolEvents(),
      sources: [source],
    });
  });
  afterAll(async () => {
    release();
    await Promise.all(clients.map((c) => c.close()));
    await stratum?.stop();
    source?.close();
    await watcher?.stop();
    node?.close();
    await database?.drop();
    await chain?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('reaches the miner before the template, stays valid after it, and a block found on it is accepted by the node', async () => {
    const login = `${chain.poolAddress}.early`;
    const client = await StratumTestClient.connect(stratum.ports()[0]?.port as number);
    clients.push(client);
    expect((await client.subscribe()).error).toBeNull();
    expect((await client.authorize(login)).result).toBe(true);
    await client.waitForJob();
    const seen = client.jobs.length;
    held = [];
    const [tip] = await node.rpc.call<string[]>('generatetoaddress', [1, chain.poolAddress]);
    const height = await node.getBlockCount();
    const job = await client.waitForJob((j) => client.jobs.indexOf(j) >= seen && j.clean);
    // The node's template is still being waited for: this job came from the tip's header alone.
    expect(held?.length).toBeGreaterThan(0);
    expect(job.template).toMatchObject({ prevHashRpc: tip, merkleBranch: [], segwit: false });

    // The full template follows as more work on the same tip: the coinbase-only job stays valid.
    release();
    const full = await client.waitForJob((j) => client.jobs.indexOf(j) > client.jobs.indexOf(job));
    expect(full).toMatchObject({ clean: false, template: { prevHashRpc: tip } });

    const share = client.findShare(job, algorithmOf(coin), {
      accept: (built, j) => built.hashValue <= j.template.networkTarget,
    });
    const hash = blockHashHex(share.built.header);
    expect(await client.submit(login, share)).toMatchObject({ result: true, error: null });
    await vi.waitFor(async () => expect(await node.getBestBlockHash()).toBe(hash), { timeout: 10_000 });
    expect((await node.getBlockHeader(hash)).height).toBe(height + 1);
  });
});
