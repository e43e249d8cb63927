// Jobs from the core: a real three-server JetStream cluster (domain core) with a real bcoin regtest
// node behind the core's job feed, and a region (its own leaf server, domain riyadh, reached
// through a link the test cuts) whose Stratum server has no coin node at all.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { blocknotifyCommand, ChainNode, NodeSet, TemplateWatcher } from '../chain/index.js';
import { createChainSource, type ChainSource } from '../chain-source.js';
import { parseConfig } from '../config/index.js';
import { openTestDatabase, type TestDatabase } from '../db/testing.js';
import { startBtcDevChain, type DevChain } from '../devchain/index.js';
import { PoolEvents } from '../events.js';
import { connectShareLog } from '../sharelog/stream.js';
import { WORK_PAUSED_MESSAGE } from '../stratum/coin-availability.js';
import { startStratum, type StratumService } from '../stratum/index.js';
import { StratumTestClient, type ClientJob } from '../stratum/testing/client.js';
import { freeUdpPort, testLogger } from '../stratum/testing/harness.js';
import { startNatsCluster, type NatsCluster } from '../testing/nats-cluster.js';
import { startNatsLeaf, type NatsLeaf } from '../testing/nats-leaf.js';
import { sleep, waitUntil } from '../testing/processes.js';
import type { CoreJobSource } from './core-source.js';
import { startCoreJobSources, type CoreJobSources } from './index.js';
import { JobFeedPublisher } from './publisher.js';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 180_000 });

/** The region's silence limit (the coin's nodeSilenceSeconds). */
const SILENCE_S = 5;
/** The core's own silence limit for its node. */
const CORE_SILENCE_MS = 3_000;
const DIFFICULTY = 3e-10;
const TIPS = 30;
const say = (line: string): boolean => process.stdout.write(`${line}\n`);
const percentile = (sorted: number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;

describe('a region without coin nodes mining on the core job feed', () => {
  let cluster: NatsCluster;
  let leaf: NatsLeaf;
  let chain: DevChain;
  let nodes: NodeSet;
  let watcher: TemplateWatcher;
  let coreSource: ChainSource;
  let feed: JobFeedPublisher;
  let database: TestDatabase;
  let dataDir: string;
  let region: CoreJobSources;
  let stratum: StratumService;
  const events = new PoolEvents();
  let port: number;
  let login: string;

  const source = (): CoreJobSource => region.sources[0] as CoreJobSource;
  const connectMiner = async (): Promise<{ client: StratumTestClient; job: ClientJob }> => {
    const client = await StratumTestClient.connect(port);
    await client.subscribe();
    const authorized = await client.authorize(login);
    if (authorized.result !== true) throw new Error(`authorize refused: ${JSON.stringify(authorized.error)}`);
    return { client, job: await client.waitForJob() };
  };
  const share = (client: StratumTestClient, block: boolean) =>
    client.findShare(client.job as ClientJob, 'sha256d', {
      accept: (b, j) => b.hashValue <= j.template.networkTarget === block,
    });
  const nextAvailability = (up: boolean): Promise<number> =>
    new Promise((resolve) => {
      const off = source().onAvailability((a) => {
        if (a.up !== up) return;
        off();
        resolve(Date.now());
      });
    });

  beforeAll(async () => {
    cluster = await startNatsCluster({ domain: 'core' });
    leaf = await startNatsLeaf('riyadh', cluster.nodes[0] as NatsCluster['nodes'][number]);
    const notifyPort = await freeUdpPort();
    chain = await startBtcDevChain({
      logger: testLogger,
      blocknotifyCommand: blocknotifyCommand(notifyPort, 'BTC'),
    });
    // The core: the node, its watcher and the job feed over it.
    nodes = new NodeSet([new ChainNode({ coin: 'BTC', rpc: chain.rpc })], testLogger);
    watcher = new TemplateWatcher({
      node: nodes,
      logger: testLogger,
      blocknotifyPort: notifyPort,
      pollIntervalMs: 500,
      silenceMs: CORE_SILENCE_MS,
    });
    coreSource = createChainSource({
      coin: 'BTC',
      network: 'regtest',
      poolAddress: chain.poolAddress,
      node: nodes,
      watcher,
    });
    await watcher.start();
    const core = parseConfig({
      distributed: { natsUrl: cluster.servers.join(','), replicas: 3 },
    }).distributed;
    feed = new JobFeedPublisher({
      nc: await connectShareLog(core, testLogger, 'core-jobs'),
      config: core,
      logger: testLogger,
      coins: [{ source: coreSource, network: 'regtest' }],
    });
    await feed.start();
    // The region: no node, no pool address; jobs from the core through its own leaf server.
    dataDir = await mkdtemp(join(tmpdir(), 'manjam-jobfeed-'));
    database = await openTestDatabase('postgres');
    const config = parseConfig({
      dataDir,
      chains: { BTC: { network: 'regtest', nodeSilenceSeconds: SILENCE_S }, LTC: { enabled: false } },
      stratum: {
        host: '127.0.0.1',
        ports: [{ port: 0, coin: 'BTC', vardiff: { start: DIFFICULTY, min: DIFFICULTY, max: 1e12 } }],
      },
      distributed: { natsUrl: leaf.url, domain: 'riyadh', region: 'riyadh', jobsFromCore: true },
    });
    region = await startCoreJobSources(config, testLogger);
    stratum = await startStratum({
      config,
      db: database.db,
      logger: testLogger,
      events,
      sources: region.sources,
    });
    port = stratum.ports()[0]?.port as number;
    login = `${chain.poolAddress}.riyadh`;
  });

  afterAll(async () => {
    await stratum?.stop();
    await region?.stop();
    await feed?.stop();
    coreSource?.close();
    await watcher?.stop();
    nodes?.close();
    await chain?.stop();
    await database?.drop();
    await leaf?.stop();
    await cluster?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it("gives the region's miner the core node's work, and its shares are accepted", async () => {
    const tip = await nodes.current.getBestBlockHash();
    const { client, job } = await connectMiner();
    expect(job.template.prevHashRpc).toBe(tip);
    expect(source().poolAddress).toBe(chain.poolAddress);
    for (let i = 0; i < 5; i++) expect((await client.submit(login, share(client, false))).result).toBe(true);
    await client.close();
  });

  it("submits a block found at the region through the core, and it becomes the node's tip", async () => {
    const { client } = await connectMiner();
    const found = new Promise<{ hash: string; status: string }>((resolve) => {
      const off = events.on('block.found', (e) => {
        off();
        resolve(e);
      });
    });
    expect((await client.submit(login, share(client, true))).result).toBe(true);
    const block = await found;
    expect(block.status).toBe('pending');
    expect(await nodes.current.getBestBlockHash()).toBe(block.hash);
    // The core's next template builds on it, and reaches the miner as clean work.
    await client.waitForJob((j) => j.clean && j.template.prevHashRpc === block.hash);
    await client.close();
  });

  it("brings a new tip on the core's node to the region's miner as clean_jobs work", async () => {
    const { client } = await connectMiner();
    const latencies: number[] = [];
    for (let i = 0; i < TIPS; i++) {
      const before = Date.now();
      const [hash] = await chain.mine(1);
      const job = await client.waitForJob((j) => j.clean && j.template.prevHashRpc === hash);
      latencies.push(job.receivedMs - before);
      expect((await client.submit(login, share(client, false))).result).toBe(true);
    }
    await client.close();
    const sorted = [...latencies].sort((a, b) => a - b);
    say(
      `job feed: node tip (generatetoaddress sent) -> region miner clean notify over ${TIPS} tips: ` +
        `p50 ${percentile(sorted, 50)} ms, p99 ${percentile(sorted, 99)} ms, max ${sorted.at(-1)} ms`,
    );
    expect(percentile(sorted, 50)).toBeLessThan(2_000);
  });

  it('re-sends a block found while the link to the core is cut, and the node takes it once the link returns', async () => {
    const { client } = await connectMiner();
    const block = share(client, true);
    const found = new Promise<{ hash: string; status: string }>((resolve) => {
      const off = events.on('block.found', (e) => {
        off();
        resolve(e);
      });
    });
    await leaf.link.cut();
    expect((await client.submit(login, block)).result).toBe(true);
    const { hash, status } = await found;
    expect(status).toBe('submitted');
    expect(source().blocksResending).toBe(1);
    expect(await nodes.current.getBestBlockHash()).not.toBe(hash);
    await sleep(1_500);
    const restoredAt = Date.now();
    await leaf.link.restore();
    await waitUntil(
      async () => (await nodes.current.getBestBlockHash()) === hash,
      30_000,
      'the block on the node',
    );
    say(
      `job feed: block found during a cut reached the node ${Date.now() - restoredAt} ms after the link returned`,
    );
    await waitUntil(() => source().blocksResending === 0, 5_000, 'the re-send finished');
    await client.close();
    await waitUntil(() => source().availability().up, 30_000, 'the coin up again');
  });

  it('stops the coin when the region is cut from the core past the silence limit, and resumes when the link returns', async () => {
    const { client } = await connectMiner();
    const answers: { at: number; result: unknown; error: string | undefined }[] = [];
    const mining = (async () => {
      while (!client.closed) {
        const reply = await client.submit(login, share(client, false)).catch(() => null);
        if (reply) answers.push({ at: Date.now(), result: reply.result, error: reply.error?.[1] });
        await sleep(50);
      }
    })();
    const down = nextAvailability(false);
    const cutAt = Date.now();
    await leaf.link.cut();
    const downAt = await down;
    await mining;
    expect(downAt - cutAt).toBeGreaterThanOrEqual(SILENCE_S * 1000 - 1_200);
    expect(answers.filter((a) => a.at > downAt && a.result === true)).toEqual([]);
    expect(client.received.join('')).toContain(WORK_PAUSED_MESSAGE);
    const refused = await StratumTestClient.connect(port);
    await refused.closedPromise;
    expect(refused.received.join('')).toContain(WORK_PAUSED_MESSAGE);
    const acceptedDuringCut = answers.filter((a) => a.at > cutAt && a.result === true).length;
    const pausedAnswers = answers.filter((a) => a.error === WORK_PAUSED_MESSAGE).length;

    await sleep(3_000);
    const up = nextAvailability(true);
    const restoredAt = Date.now();
    await leaf.link.restore();
    const upAt = await up;
    const again = await connectMiner();
    expect(again.job.clean).toBe(true);
    expect((await again.client.submit(login, share(again.client, false))).result).toBe(true);
    const resumedAt = Date.now();
    await again.client.close();
    say(
      `job feed cut: work stopped ${downAt - cutAt} ms after the cut (silence limit ${SILENCE_S} s; ` +
        `${acceptedDuringCut} shares accepted before, ${pausedAnswers} answered "${WORK_PAUSED_MESSAGE}"); ` +
        `coin up ${upAt - restoredAt} ms after the link returned, a new miner's share accepted ${resumedAt - restoredAt} ms after`,
    );
  });

  it("stops the coin at the region when the core's node is silent, with the core's reason, and resumes with it", async () => {
    const { client } = await connectMiner();
    const [pid] = chain.nodeProcessIds();
    if (pid === undefined) throw new Error('no bcoin process');
    const down = nextAvailability(false);
    const stoppedAt = Date.now();
    process.kill(pid, 'SIGSTOP');
    try {
      const downAt = await down;
      expect(source().availability().message).toMatch(/^BTC: no node has answered for 3 s/);
      await client.closedPromise;
      expect(client.received.join('')).toContain(WORK_PAUSED_MESSAGE);
      const up = nextAvailability(true);
      const contAt = Date.now();
      process.kill(pid, 'SIGCONT');
      const upAt = await up;
      const again = await connectMiner();
      expect(again.job.clean).toBe(true);
      expect((await again.client.submit(login, share(again.client, false))).result).toBe(true);
      await again.client.close();
      say(
        `job feed: core node SIGSTOPped -> region stopped ${downAt - stoppedAt} ms later (core limit ${CORE_SILENCE_MS} ms); ` +
          `SIGCONT -> region up ${upAt - contAt} ms later`,
      );
    } finally {
      process.kill(pid, 'SIGCONT');
    }
  });
});
