// Test support for XMR on the job feed: a core (a three-server JetStream cluster of domain core,
// the Monero regtest dev chain with its template source, the XMR job feed over it) and a region on
// its own leaf server (domain riyadh, its link to the core cuttable) whose XMR port mines on the
// feed through the Monero family's 'core-jobs' chain, with no monerod of its own.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RandomXPool } from '@manjam/randomx';
import { parseConfig, type Config } from '../../../../src/config/index.js';
import type { FamilyChain } from '../../../../src/coins/family.js';
import { isMoneroRegionChain, moneroFamily } from '../../../../src/coins/monero/family.js';
import { startMoneroChain, type MoneroChainRuntime } from '../../../../src/coins/monero/chain.js';
import { startMoneroFeedPublisher } from '../../../../src/coins/monero/jobfeed/index.js';
import type { CoreMoneroSource } from '../../../../src/coins/monero/jobfeed/core-source.js';
import type { FeedPublisher } from '../../../../src/jobfeed/publisher.js';
import { PoolEvents } from '../../../../src/events.js';
import type { Logger } from '../../../../src/logger.js';
import { startStratum, type StratumService } from '../../../../src/stratum/index.js';
import type { TestDatabase } from '../../db.js';
import { chainsOffBut } from '../../chains.js';
import { startNatsCluster, type NatsCluster } from '../../nats-cluster.js';
import { startNatsLeaf, type NatsLeaf } from '../../nats-leaf.js';
import { sleep } from '../../processes.js';
import { testLogger } from '../bitcoin/stratum/harness.js';
import { moneroChainDataDir } from './chain-snapshot.js';
import { MoneroTestMiner } from './stratum/miner.js';

/** Every coin off but XMR (a test starts only the chain it needs). */
const ONLY_XMR = chainsOffBut('XMR');

export interface MoneroCoreOnFeed {
  cluster: NatsCluster;
  leaf: NatsLeaf;
  chain: MoneroChainRuntime;
  feed: FeedPublisher;
  stop(): Promise<void>;
}

/** The core: NATS cluster, the riyadh leaf server, monerod's dev chain and XMR's job feed. */
export async function startMoneroCoreOnFeed(): Promise<MoneroCoreOnFeed> {
  const dataDir = await mkdtemp(join(tmpdir(), 'manjam-xmr-core-'));
  moneroChainDataDir(join(dataDir, 'devchain', 'xmr'));
  const cluster = await startNatsCluster({ domain: 'core' });
  const leaf = await startNatsLeaf('riyadh', cluster.nodes[0] as NatsCluster['nodes'][number]);
  const config = parseConfig({
    dataDir,
    chains: { ...ONLY_XMR, XMR: { network: 'regtest', pollIntervalMs: 250 } },
    distributed: { natsUrl: cluster.servers.join(','), replicas: 3 },
  });
  const chain = await startMoneroChain(config, testLogger);
  if (!chain) throw new Error('XMR is not enabled');
  const feed = await startMoneroFeedPublisher(config, chain, testLogger);
  return {
    cluster,
    leaf,
    chain,
    feed,
    async stop() {
      await feed.stop();
      await chain.stop();
      await leaf.stop();
      await cluster.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export interface MoneroRegionOnFeed {
  config: Config;
  events: PoolEvents;
  chain: FamilyChain;
  source: CoreMoneroSource;
  stratum: StratumService;
  port: number;
  /** A miner's login: the core's pool address with a worker name. */
  login: string;
  /** The test miners' RandomX (a miner is another machine). */
  randomx: RandomXPool;
  connectMiner(): Promise<MoneroTestMiner>;
  stop(): Promise<void>;
}

/** An XMR Stratum server in riyadh on the core's jobs, difficulty 1 (every hash a share). */
export async function startMoneroRegionOnFeed(
  core: MoneroCoreOnFeed,
  options: { database: Pick<TestDatabase, 'db'>; silenceS: number; instanceId: number; logger?: Logger },
): Promise<MoneroRegionOnFeed> {
  const logger = options.logger ?? testLogger;
  const dataDir = await mkdtemp(join(tmpdir(), 'manjam-xmr-region-'));
  const config = parseConfig({
    dataDir,
    chains: {
      ...ONLY_XMR,
      XMR: { network: 'regtest', nodeSilenceSeconds: options.silenceS, randomxThreads: 1 },
    },
    stratum: {
      host: '127.0.0.1',
      instanceId: options.instanceId,
      ports: [{ port: 0, coin: 'XMR', vardiff: { start: 1, min: 1, max: 1 } }],
    },
    distributed: { natsUrl: core.leaf.url, domain: 'riyadh', region: 'riyadh', jobsFromCore: true },
  });
  const chain = await moneroFamily.startChain(config, logger, 'core-jobs');
  if (!chain || !isMoneroRegionChain(chain))
    throw new Error('the Monero family started no XMR chain on the job feed');
  const events = new PoolEvents();
  const stratum = await startStratum({ config, db: options.database.db, logger, events, chains: [chain] });
  const port = stratum.ports()[0]?.port as number;
  const randomx = new RandomXPool({ threads: 1 });
  const miners: MoneroTestMiner[] = [];
  return {
    config,
    events,
    chain,
    source: chain.feed,
    stratum,
    port,
    login: `${core.chain.poolAddress}.riyadh${options.instanceId}`,
    randomx,
    async connectMiner() {
      const miner = await MoneroTestMiner.connect(port, randomx);
      miners.push(miner);
      return miner;
    },
    async stop() {
      for (const miner of miners) miner.close();
      await stratum.stop();
      await chain.stop();
      await randomx.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** monerod's tip at the core. */
export async function moneroTip(core: MoneroCoreOnFeed): Promise<{ hash: string; height: number }> {
  const answer = await core.chain.daemon.call<{ block_header: { hash: string; height: number } }>(
    'get_last_block_header',
  );
  return answer.block_header;
}

/** Resolves with the next block found at the region, as it was recorded. */
export function nextMoneroBlock(region: MoneroRegionOnFeed): Promise<{ hash: string; status: string }> {
  return new Promise((resolve) => {
    const off = region.events.on('block.found', (e) => {
      off();
      resolve(e);
    });
  });
}

/** Waits until `miner` holds a job on the template over monerod's tip (a block's next template may be on its way). */
export async function onMoneroTip(core: MoneroCoreOnFeed, miner: MoneroTestMiner): Promise<void> {
  const { height } = await moneroTip(core);
  if (miner.job?.height !== height + 1) await miner.nextJob((j) => j.height === height + 1);
}

export interface MoneroLeafRestartCycle {
  /** The miner's block submit to the block on monerod. */
  foundToDeliveredMs: number;
  /** The restarted leaf server ready with its link to the core, to the block on monerod. */
  leafBackToDeliveredMs: number;
  /** The leaf server's restart command to the block on monerod. */
  restartToDeliveredMs: number;
  /** The found block's status as the region recorded it. */
  recorded: string;
}

/**
 * One drill cycle: the region's leaf server killed (kill -9), an XMR block found at the region while
 * it is dead, the leaf started again after `deadMs`; times until the block is monerod's tip.
 */
export async function moneroLeafRestartCycle(
  core: MoneroCoreOnFeed,
  region: MoneroRegionOnFeed,
  miner: MoneroTestMiner,
  deadMs: number,
): Promise<MoneroLeafRestartCycle> {
  await onMoneroTip(core, miner);
  const share = await miner.mine(() => true);
  const found = nextMoneroBlock(region);
  await core.leaf.kill();
  const submittedAt = Date.now();
  const answer = await miner.submit(share);
  if (answer.error) throw new Error(`block share refused: ${answer.error.message}`);
  const { hash, status } = await found;
  await sleep(Math.max(0, deadMs - (Date.now() - submittedAt)));
  const restartAt = Date.now();
  await core.leaf.restart();
  const backAt = Date.now();
  const deadline = backAt + 60_000;
  while ((await moneroTip(core)).hash !== hash) {
    if (Date.now() > deadline) throw new Error(`block ${hash} not on monerod 60 s after the leaf returned`);
    await sleep(10);
  }
  const deliveredAt = Date.now();
  return {
    foundToDeliveredMs: deliveredAt - submittedAt,
    leafBackToDeliveredMs: deliveredAt - backAt,
    restartToDeliveredMs: deliveredAt - restartAt,
    recorded: status,
  };
}
