// Test support for KAS on the job feed: a core (a three-server JetStream cluster of domain core,
// the kaspad simnet dev chain with its template source, the KAS job feed over it) and a region on
// its own leaf server (domain riyadh, its link to the core cuttable) whose KAS port mines on the
// feed through the Kaspa family's 'core-jobs' chain, with no kaspad of its own.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureKaspad } from '../../../../../../scripts/kaspad.mjs';
import { parseConfig, type Config } from '../../../../src/config/index.js';
import { startKaspaDevChain, type KaspaDevChain } from '../../../../src/coins/kaspa/devchain.js';
import {
  isKaspaRegionChain,
  kaspaFamily,
  type KaspaRegionChain,
} from '../../../../src/coins/kaspa/family.js';
import { kaspaChannel } from '../../../../src/coins/kaspa/jobfeed/channel.js';
import { KAS } from '../../../../src/coins/kaspa/stratum/types.js';
import { KaspaTemplateSource } from '../../../../src/coins/kaspa/template-source.js';
import { startFeedPublisher } from '../../../../src/jobfeed/index.js';
import type { FeedPublisher } from '../../../../src/jobfeed/publisher.js';
import { PoolEvents } from '../../../../src/events.js';
import type { Logger } from '../../../../src/logger.js';
import { startStratum, type StratumService } from '../../../../src/stratum/index.js';
import type { TestDatabase } from '../../db.js';
import { startNatsCluster, type NatsCluster } from '../../nats-cluster.js';
import { startNatsLeaf, type NatsLeaf } from '../../nats-leaf.js';
import { testLogger } from '../bitcoin/stratum/harness.js';
import { KaspaTestMiner } from './stratum/miner.js';
import { SIMNET_SHARE_DIFFICULTY } from './stratum/standalone.js';

/** Every coin off but KAS (a test starts only the chain it needs). */
const ONLY_KAS = { BTC: { enabled: false }, LTC: { enabled: false }, XMR: { enabled: false } };

export interface KaspaCoreOnFeed {
  cluster: NatsCluster;
  leaf: NatsLeaf;
  chain: KaspaDevChain;
  source: KaspaTemplateSource;
  feed: FeedPublisher;
  stop(): Promise<void>;
}

/** The core: NATS cluster, the riyadh leaf server, kaspad's simnet dev chain and KAS's job feed. */
export async function startKaspaCoreOnFeed(): Promise<KaspaCoreOnFeed> {
  const installed = await ensureKaspad({ quiet: true });
  if (!installed.ok) throw new Error(installed.reason);
  const cluster = await startNatsCluster({ domain: 'core' });
  const leaf = await startNatsLeaf('riyadh', cluster.nodes[0] as NatsCluster['nodes'][number]);
  const chain = await startKaspaDevChain({
    binaries: installed.binaries,
    logger: testLogger,
    unfunded: true,
  });
  const source = new KaspaTemplateSource({
    node: chain.node,
    payAddress: chain.poolAddress,
    logger: testLogger,
  });
  await source.start();
  const config = parseConfig({
    chains: ONLY_KAS,
    distributed: { natsUrl: cluster.servers.join(','), replicas: 3 },
  });
  const channel = kaspaChannel({
    coin: KAS,
    configNetwork: 'regtest',
    poolAddress: chain.poolAddress,
    source,
  });
  const feed = await startFeedPublisher(config, [channel], testLogger, 'core-jobs-kas');
  return {
    cluster,
    leaf,
    chain,
    source,
    feed,
    async stop() {
      await feed.stop();
      await source.stop();
      await chain.stop();
      await leaf.stop();
      await cluster.stop();
    },
  };
}

export interface KaspaRegionOnFeed {
  config: Config;
  events: PoolEvents;
  chain: KaspaRegionChain;
  stratum: StratumService;
  port: number;
  /** A miner's worker name: the core's pool address with a worker name. */
  login: string;
  /** A miner subscribed and authorized, with its first job. */
  connectMiner(): Promise<KaspaTestMiner>;
  stop(): Promise<void>;
}

/** A KAS Stratum server in riyadh on the core's jobs (simnet share difficulty: half the hashes are blocks). */
export async function startKaspaRegionOnFeed(
  core: KaspaCoreOnFeed,
  options: { database: Pick<TestDatabase, 'db'>; silenceS: number; instanceId: number; logger?: Logger },
): Promise<KaspaRegionOnFeed> {
  const logger = options.logger ?? testLogger;
  const dataDir = await mkdtemp(join(tmpdir(), 'manjam-kas-region-'));
  const difficulty = SIMNET_SHARE_DIFFICULTY;
  const config = parseConfig({
    dataDir,
    chains: { ...ONLY_KAS, KAS: { network: 'regtest', nodeSilenceSeconds: options.silenceS } },
    stratum: {
      host: '127.0.0.1',
      instanceId: options.instanceId,
      ports: [{ port: 0, coin: 'KAS', vardiff: { start: difficulty, min: difficulty, max: difficulty } }],
    },
    distributed: { natsUrl: core.leaf.url, domain: 'riyadh', region: 'riyadh', jobsFromCore: true },
  });
  const chain = await kaspaFamily.startChain(config, logger, 'core-jobs');
  if (!chain || !isKaspaRegionChain(chain))
    throw new Error('the Kaspa family started no KAS chain on the job feed');
  const events = new PoolEvents();
  const stratum = await startStratum({ config, db: options.database.db, logger, events, chains: [chain] });
  const port = stratum.ports()[0]?.port as number;
  const login = `${core.chain.poolAddress}.riyadh${options.instanceId}`;
  const miners: KaspaTestMiner[] = [];
  return {
    config,
    events,
    chain,
    stratum,
    port,
    login,
    async connectMiner() {
      const miner = await KaspaTestMiner.connect(port);
      miners.push(miner);
      await miner.request('mining.subscribe', ['lolMiner 1.88', 'EthereumStratum/1.0.0']);
      const auth = await miner.request('mining.authorize', [login, 'x']);
      if (auth.result !== true) throw new Error(`authorize refused: ${JSON.stringify(auth.error)}`);
      await miner.jobCount(1);
      return miner;
    },
    async stop() {
      for (const miner of miners) miner.close();
      await stratum.stop();
      await chain.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
