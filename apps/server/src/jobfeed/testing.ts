// Test support for the job feed: a core (a three-server JetStream cluster of domain core, a bcoin
// regtest node with blocknotify, its watcher and the job feed over it) and regions on their own
// leaf server (domain riyadh, its link to the core cuttable) whose Stratum server mines on the feed.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { blocknotifyCommand, ChainNode, NodeSet, TemplateWatcher, type RpcEndpoint } from '../chain/index.js';
import { createChainSource, type ChainSource } from '../chain-source.js';
import { parseConfig } from '../config/index.js';
import type { TestDatabase } from '../db/testing.js';
import { startBtcDevChain, type DevChain } from '../devchain/index.js';
import { PoolEvents } from '../events.js';
import { connectShareLog } from '../sharelog/stream.js';
import { startStratum, type StratumService } from '../stratum/index.js';
import { StratumTestClient, type ClientJob } from '../stratum/testing/client.js';
import { freeUdpPort, testLogger } from '../stratum/testing/harness.js';
import { startNatsCluster, type NatsCluster } from '../testing/nats-cluster.js';
import { startNatsLeaf, type NatsLeaf } from '../testing/nats-leaf.js';
import type { CoreJobSource } from './core-source.js';
import { startCoreJobSources, type CoreJobSources } from './index.js';
import { JobFeedPublisher } from './publisher.js';

export const DIFFICULTY = 3e-10;

export interface CoreOnFeed {
  cluster: NatsCluster;
  leaf: NatsLeaf;
  chain: DevChain;
  nodes: NodeSet;
  feed: JobFeedPublisher;
  stop(): Promise<void>;
}

/** The core and the riyadh leaf server; `silenceMs` is the core's own limit for its node. */
export async function startCoreOnFeed(silenceMs: number): Promise<CoreOnFeed> {
  const cluster = await startNatsCluster({ domain: 'core' });
  const leaf = await startNatsLeaf('riyadh', cluster.nodes[0] as NatsCluster['nodes'][number]);
  const notifyPort = await freeUdpPort();
  const chain = await startBtcDevChain({
    logger: testLogger,
    blocknotifyCommand: blocknotifyCommand(notifyPort, 'BTC'),
  });
  const nodes = new NodeSet([new ChainNode({ coin: 'BTC', rpc: chain.rpc })], testLogger);
  const watcher = new TemplateWatcher({
    node: nodes,
    logger: testLogger,
    blocknotifyPort: notifyPort,
    pollIntervalMs: 500,
    silenceMs,
  });
  const source: ChainSource = createChainSource({
    coin: 'BTC',
    network: 'regtest',
    poolAddress: chain.poolAddress,
    node: nodes,
    watcher,
  });
  await watcher.start();
  const config = parseConfig({
    distributed: { natsUrl: cluster.servers.join(','), replicas: 3 },
  }).distributed;
  const feed = new JobFeedPublisher({
    nc: await connectShareLog(config, testLogger, 'core-jobs'),
    config,
    logger: testLogger,
    coins: [{ source, network: 'regtest' }],
  });
  await feed.start();
  return {
    cluster,
    leaf,
    chain,
    nodes,
    feed,
    async stop() {
      await feed.stop();
      source.close();
      await watcher.stop();
      nodes.close();
      await chain.stop();
      await leaf.stop();
      await cluster.stop();
    },
  };
}

export interface RegionOnFeed {
  events: PoolEvents;
  stratum: StratumService;
  sources: CoreJobSources;
  source: CoreJobSource;
  port: number;
  login: string;
  connectMiner(): Promise<{ client: StratumTestClient; job: ClientJob }>;
  stop(): Promise<void>;
}

/** A Stratum server in riyadh on the core's jobs; `rpc`: a node of its own for found blocks. */
export async function startRegionOnFeed(
  core: CoreOnFeed,
  options: { database: TestDatabase; silenceS: number; instanceId: number; rpc?: RpcEndpoint },
): Promise<RegionOnFeed> {
  const dataDir = await mkdtemp(join(tmpdir(), 'manjam-jobfeed-'));
  const vardiff = { start: DIFFICULTY, min: DIFFICULTY, max: 1e12 };
  const btc = { network: 'regtest', nodeSilenceSeconds: options.silenceS };
  const config = parseConfig({
    dataDir,
    chains: { BTC: options.rpc ? { ...btc, rpc: options.rpc } : btc, LTC: { enabled: false } },
    stratum: {
      host: '127.0.0.1',
      instanceId: options.instanceId,
      ports: [{ port: 0, coin: 'BTC', vardiff }],
    },
    distributed: { natsUrl: core.leaf.url, domain: 'riyadh', region: 'riyadh', jobsFromCore: true },
  });
  const sources = await startCoreJobSources(config, testLogger);
  const events = new PoolEvents();
  const stratum = await startStratum({
    config,
    db: options.database.db,
    logger: testLogger,
    events,
    sources: sources.sources,
  });
  const port = stratum.ports()[0]?.port as number;
  const login = `${core.chain.poolAddress}.riyadh${options.instanceId}`;
  return {
    events,
    stratum,
    sources,
    source: sources.sources[0] as CoreJobSource,
    port,
    login,
    async connectMiner() {
      const client = await StratumTestClient.connect(port);
      await client.subscribe();
      const authorized = await client.authorize(login);
      if (authorized.result !== true)
        throw new Error(`authorize refused: ${JSON.stringify(authorized.error)}`);
      return { client, job: await client.waitForJob() };
    },
    async stop() {
      await stratum.stop();
      await sources.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** A share on the miner's latest job: a block, or a share that is not one. */
export function shareOn(client: StratumTestClient, block: boolean) {
  return client.findShare(client.job as ClientJob, 'sha256d', {
    accept: (b, j) => b.hashValue <= j.template.networkTarget === block,
  });
}

/** Resolves with the next block found at the region. */
export function nextBlock(region: RegionOnFeed): Promise<{ hash: string; status: string }> {
  return new Promise((resolve) => {
    const off = region.events.on('block.found', (e) => {
      off();
      resolve(e);
    });
  });
}

/** Resolves with Date.now() at the region source's next change to `up`. */
export function nextAvailability(region: RegionOnFeed, up: boolean): Promise<number> {
  return new Promise((resolve) => {
    const off = region.source.onAvailability((a) => {
      if (a.up !== up) return;
      off();
      resolve(Date.now());
    });
  });
}
