// Test support for the job feed: a core (a three-server JetStream cluster of domain core, a bcoin
// regtest node with blocknotify, its watcher and the job feed over it) and regions on their own
// leaf server (domain riyadh, its link to the core cuttable) whose Stratum server mines on the feed.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  blocknotifyCommand,
  ChainNode,
  NodeSet,
  TemplateWatcher,
  type RpcEndpoint,
} from '../../../../src/coins/bitcoin/node/index.js';
import { createChainSource, type ChainSource } from '../../../../src/coins/bitcoin/chain-source.js';
import type { NatsConnection } from 'nats';
import { pino } from 'pino';
import { parseConfig } from '../../../../src/config/index.js';
import type { Logger } from '../../../../src/logger.js';
import type { TestDatabase } from '../../db.js';
import { startBtcDevChain, type DevChain } from '../../../../src/coins/bitcoin/devchain/index.js';
import { PoolEvents } from '../../../../src/events.js';
import { connectShareLog } from '../../../../src/sharelog/stream.js';
import { startStratum, type StratumService } from '../../../../src/stratum/index.js';
import { StratumTestClient, type ClientJob } from './stratum/client.js';
import { freeUdpPort, testLogger } from './stratum/harness.js';
import { startNatsCluster, type NatsCluster } from '../../nats-cluster.js';
import { startNatsLeaf, type NatsLeaf } from '../../nats-leaf.js';
import { sleep } from '../../processes.js';
import type { CoreJobSource } from '../../../../src/coins/bitcoin/jobfeed/core-source.js';
import { startCoreJobSources, type CoreJobSources } from '../../../../src/coins/bitcoin/jobfeed/index.js';
import { JobFeedPublisher } from '../../../../src/coins/bitcoin/jobfeed/publisher.js';
import { chainOfSources } from '../../../../src/coins/bitcoin/family.js';

export const DIFFICULTY = 3e-10;

export interface CoreOnFeed {
  cluster: NatsCluster;
  leaf: NatsLeaf;
  chain: DevChain;
  nodes: NodeSet;
  feed: JobFeedPublisher;
  /** The job feed publisher's connection (which core server it is on: getServer()). */
  feedConnection: NatsConnection;
  stop(): Promise<void>;
}

/**
 * The core and the riyadh leaf server; `silenceMs` is the core's own limit for its node.
 * `feedServers`: the cluster nodes (indexes) the publisher may connect to (default: all).
 */
export async function startCoreOnFeed(
  silenceMs: number,
  options: { feedServers?: number[] } = {},
): Promise<CoreOnFeed> {
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
  const feedServers = (options.feedServers ?? cluster.nodes.map((_, i) => i)).map(
    (i) => cluster.servers[i] as string,
  );
  const config = parseConfig({
    distributed: { natsUrl: feedServers.join(','), replicas: 3 },
  }).distributed;
  const feedConnection = await connectShareLog(config, testLogger, 'core-jobs');
  const feed = new JobFeedPublisher({
    nc: feedConnection,
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
    feedConnection,
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
  options: {
    database: Pick<TestDatabase, 'db'>;
    silenceS: number;
    instanceId: number;
    rpc?: RpcEndpoint;
    /** Default: the silent test logger. */
    logger?: Logger;
  },
): Promise<RegionOnFeed> {
  const logger = options.logger ?? testLogger;
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
  const sources = await startCoreJobSources(config, logger);
  const events = new PoolEvents();
  const stratum = await startStratum({
    config,
    db: options.database.db,
    logger,
    events,
    chains: [chainOfSources(sources.sources)],
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

export interface LogLine {
  level: number;
  msg: string;
  [key: string]: unknown;
}

/** A logger that keeps every line (info and up) for a test to read. */
export function capturingLogger(): { logger: Logger; lines: LogLine[] } {
  const lines: LogLine[] = [];
  const logger = pino(
    { level: 'info' },
    { write: (line: string) => void lines.push(JSON.parse(line) as LogLine) },
  );
  return { logger, lines };
}

/** pino's error level: what an operator is paged for. */
export const ERROR_LEVEL = 50;

export interface LeafRestartCycle {
  /** The miner's block submit to the block on the core's node. */
  foundToDeliveredMs: number;
  /** The restarted leaf server ready with its link to the core, to the block on the core's node. */
  leafBackToDeliveredMs: number;
  /** The leaf server's restart command to the block on the core's node. */
  restartToDeliveredMs: number;
  /** The found block's status as the region recorded it. */
  recorded: string;
}

/**
 * One drill/test cycle: the region's leaf server killed (kill -9), a block found at the region
 * while it is dead, the leaf started again after `deadMs`; times until the block is on the core's node.
 */
export async function leafRestartCycle(
  core: CoreOnFeed,
  region: RegionOnFeed,
  client: StratumTestClient,
  deadMs: number,
): Promise<LeafRestartCycle> {
  const block = shareOn(client, true);
  const found = nextBlock(region);
  await core.leaf.kill();
  const submittedAt = Date.now();
  const answer = await client.submit(region.login, block);
  if (answer.result !== true) throw new Error(`block share refused: ${JSON.stringify(answer.error)}`);
  const { hash, status } = await found;
  await sleep(Math.max(0, deadMs - (Date.now() - submittedAt)));
  const restartAt = Date.now();
  await core.leaf.restart();
  const backAt = Date.now();
  const deadline = backAt + 60_000;
  while ((await core.nodes.current.getBestBlockHash()) !== hash) {
    if (Date.now() > deadline)
      throw new Error(`block ${hash} not on the core's node 60 s after the leaf returned`);
    await sleep(10);
  }
  const deliveredAt = Date.now();
  await client.waitForJob((j) => j.clean && j.template.prevHashRpc === hash, 30_000);
  return {
    foundToDeliveredMs: deliveredAt - submittedAt,
    leafBackToDeliveredMs: deliveredAt - backAt,
    restartToDeliveredMs: deliveredAt - restartAt,
    recorded: status,
  };
}
