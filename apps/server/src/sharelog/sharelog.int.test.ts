// Two regional Stratum nodes (riyadh, cairo) publish their miners' shares to a real three-server
// JetStream cluster (stream replicas 3); the core's durable consumer stores them in PostgreSQL.
// Killing the stream's leader server mid-load loses no acknowledged share and counts none twice;
// a consumer stopped and started again catches up.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig, type Config } from '../config/index.js';
import { openTestDatabase, type TestDatabase } from '../../test/support/db.js';
import { PoolEvents } from '../events.js';
import { minerRef } from '../shares/types.js';
import { startStratum, type StratumService } from '../stratum/index.js';
import { StratumTestClient } from '../../test/support/coins/bitcoin/stratum/client.js';
import {
  BTC_REGTEST_ADDRESS as ADDRESS,
  FakeTemplateSource,
} from '../../test/support/coins/bitcoin/stratum/fake-source.js';
import { testLogger } from '../../test/support/coins/bitcoin/stratum/harness.js';
import { startNatsCluster, type NatsCluster } from '../../test/support/nats-cluster.js';
import { waitUntil } from '../../test/support/processes.js';
import { ShareLogConsumer } from './consumer.js';
import { ShareLogPublisher } from './publisher.js';
import { connectShareLog } from './stream.js';
import { chainOfSources } from '../coins/bitcoin/family.js';

const REGIONS = ['riyadh', 'cairo'] as const;
const MINERS_PER_REGION = 3;

interface Region {
  name: string;
  config: Config;
  publisher: ShareLogPublisher;
  stratum: StratumService;
  dataDir: string;
}

interface Miner {
  region: Region;
  worker: string;
  client: StratumTestClient;
  acknowledged: number;
  refused: number;
  lastAckMs: number;
  /** Longest wait between two acknowledged shares (ms). */
  longestGapMs: number;
}

describe('JetStream share log between regional Stratum nodes and the core', () => {
  let cluster: NatsCluster;
  let database: TestDatabase;
  let consumer: ShareLogConsumer;
  const regions: Region[] = [];
  const miners: Miner[] = [];
  let mining = true;

  const distributed = (region: string, servers: string[]) => ({
    natsUrl: servers.join(','),
    region,
    replicas: 3,
    publishTimeoutMs: 2_000,
  });

  const consumerConfig = () => parseConfig({ distributed: distributed('core', cluster.servers) }).distributed;
  const startConsumer = async (): Promise<ShareLogConsumer> => {
    const config = consumerConfig();
    const started = new ShareLogConsumer({
      nc: await connectShareLog(config, testLogger, 'test-core'),
      db: database.db,
      events: new PoolEvents(),
      config,
      logger: testLogger,
    });
    await started.start();
    return started;
  };

  const storedPerWorker = async (): Promise<Map<string, number>> => {
    const result = await database.db.query<{ name: string; stored: bigint }>(
      'SELECT w.name, sum(s.share_count)::bigint AS stored FROM shares s JOIN workers w ON w.id = s.worker_id GROUP BY w.name',
    );
    return new Map(result.rows.map((r) => [r.name, Number(r.stored)]));
  };
  const everyAckStored = async (): Promise<boolean> => {
    const stored = await storedPerWorker();
    return miners.every((m) => (stored.get(m.worker) ?? 0) >= m.acknowledged);
  };
  const acknowledged = () => miners.reduce((n, m) => n + m.acknowledged, 0);

  /** Submits shares on the latest job, one at a time, until `mining` is false. */
  const mine = async (miner: Miner): Promise<void> => {
    while (mining) {
      const job = miner.client.job;
      if (!job) throw new Error('no job');
      const share = miner.client.findShare(job, 'sha256d');
      const reply = await miner.client.submit(`${ADDRESS}.${miner.worker}`, share);
      if (reply.result !== true) {
        miner.refused++;
        continue;
      }
      const now = Date.now();
      if (miner.acknowledged > 0) miner.longestGapMs = Math.max(miner.longestGapMs, now - miner.lastAckMs);
      miner.lastAckMs = now;
      miner.acknowledged++;
    }
  };

  const startRegion = async (name: string, extra: Record<string, unknown> = {}): Promise<Region> => {
    const dataDir = await mkdtemp(join(tmpdir(), `manjam-${name}-`));
    const config = parseConfig({
      dataDir,
      stratum: {
        host: '127.0.0.1',
        ports: [{ port: 0, coin: 'BTC', vardiff: { start: 3e-10, min: 3e-10, max: 3e-10 } }],
      },
      distributed: { ...distributed(name, cluster.servers), ...extra },
    });
    const publisher = new ShareLogPublisher({
      nc: await connectShareLog(config.distributed, testLogger, `test-${name}`),
      config: config.distributed,
      logger: testLogger,
      nodeId: name,
    });
    await publisher.start();
    const stratum = await startStratum({
      config,
      db: database.db,
      logger: testLogger,
      events: new PoolEvents(),
      chains: [chainOfSources([new FakeTemplateSource()])],
      sink: publisher,
    });
    return { name, config, publisher, stratum, dataDir };
  };

  const connectMiner = async (region: Region, worker: string): Promise<Miner> => {
    const port = region.stratum.ports()[0]?.port as number;
    const client = await StratumTestClient.connect(port);
    expect((await client.subscribe()).error).toBeNull();
    expect((await client.authorize(`${ADDRESS}.${worker}`)).result).toBe(true);
    await client.waitForJob();
    return { region, worker, client, acknowledged: 0, refused: 0, lastAckMs: 0, longestGapMs: 0 };
  };

  beforeAll(async () => {
    [cluster, database] = await Promise.all([startNatsCluster(), openTestDatabase('postgres')]);
    for (const name of REGIONS) regions.push(await startRegion(name));
    consumer = await startConsumer();
  });

  afterAll(async () => {
    mining = false;
    await Promise.all(miners.map((m) => m.client.close()));
    for (const r of regions) {
      await r.stratum.stop();
      await rm(r.dataDir, { recursive: true, force: true });
    }
    await consumer?.stop();
    await cluster?.stop();
    await database?.drop();
  });

  it('stores every acknowledged share of both regions exactly once while the stream leader server is killed', async () => {
    for (const region of regions)
      for (let i = 1; i <= MINERS_PER_REGION; i++)
        miners.push(await connectMiner(region, `${region.name}${i}`));
    const loads = miners.map(mine);

    await waitUntil(() => acknowledged() >= 1_500, 60_000, 'first shares acknowledged');
    const admin = await connectShareLog(consumerConfig(), testLogger, 'test-admin');
    const leaderName = (await (await admin.jetstreamManager()).streams.info('MANJAM_SHARELOG')).cluster
      ?.leader;
    await admin.close();
    const leader = cluster.nodes.findIndex((n) => n.name === leaderName);
    expect(leader).toBeGreaterThanOrEqual(0);
    const atKill = acknowledged();
    const killedAt = Date.now();
    await cluster.kill(leader);
    const resumeSeconds = await waitUntil(
      () => miners.every((m) => m.lastAckMs > killedAt),
      60_000,
      'every miner acknowledged again after the leader died',
    );
    await waitUntil(() => acknowledged() >= atKill + 1_500, 60_000, 'shares acknowledged on two servers');
    await cluster.restart(leader);
    await waitUntil(() => acknowledged() >= atKill + 2_500, 60_000, 'shares acknowledged after the restart');
    mining = false;
    await Promise.all(loads);

    await waitUntil(everyAckStored, 60_000, 'every acknowledged share stored');
    const stored = await storedPerWorker();
    const storedTotal = [...stored.values()].reduce((a, b) => a + b, 0);
    const total = acknowledged();
    const publishers = regions.map((r) => r.publisher.stats);
    process.stdout.write(
      `[sharelog] acknowledged ${total}, stored ${storedTotal}, stored twice ${storedTotal - total}, ` +
        `refused ${miners.reduce((n, m) => n + m.refused, 0)}; leader ${leaderName} killed after ${atKill}: ` +
        `every miner acknowledged again within ${resumeSeconds.toFixed(2)} s, longest wait between two acks ` +
        `${Math.max(...miners.map((m) => m.longestGapMs))} ms; publish retries ${publishers.map((p) => p.retries).join('/')}, ` +
        `duplicate publishes ${publishers.map((p) => p.duplicates).join('/')}; consumer duplicates ${consumer.stats.duplicates}\n`,
    );
    // Every share a miner was told `true` is stored, once; nothing else was published.
    for (const m of miners) expect(stored.get(m.worker)).toBe(m.acknowledged);
    expect(miners.every((m) => m.refused === 0)).toBe(true);
    expect(publishers.every((p) => p.sharesFailed === 0 && p.sharesWaiting === 0)).toBe(true);
  });

  it('a consumer stopped while shares keep coming catches up once it is started again', async () => {
    await consumer.stop();
    const before = acknowledged();
    mining = true;
    const loads = miners.map(mine);
    await waitUntil(
      () => acknowledged() >= before + 1_000,
      60_000,
      'shares acknowledged while the core is away',
    );
    mining = false;
    await Promise.all(loads);
    const started = Date.now();
    consumer = await startConsumer();
    await waitUntil(everyAckStored, 60_000, 'the backlog stored');
    const seconds = (Date.now() - started) / 1000;
    process.stdout.write(
      `[sharelog] consumer restarted: ${acknowledged() - before} waiting shares stored in ${seconds.toFixed(2)} s\n`,
    );
    const stored = await storedPerWorker();
    for (const m of miners) expect(stored.get(m.worker)).toBe(m.acknowledged);
  });

  it("a region whose JetStream lost its quorum holds its miners' answers, refuses past the backlog with error 20, and stores what it acknowledged once the servers return", async () => {
    const region = await startRegion('dubai', { maxBacklogShares: 20 });
    regions.push(region);
    const miner = await connectMiner(region, 'dubai1');
    miners.push(miner);
    await cluster.kill(0);
    await cluster.kill(1);
    const job = miner.client.job;
    if (!job) throw new Error('no job');
    // Shares, not blocks: after a block of the pool's own, the rest of its job would be stale.
    const shares = Array.from({ length: 30 }, () =>
      miner.client.findShare(job, 'sha256d', { accept: (b, j) => b.hashValue > j.template.networkTarget }),
    );
    const replies = Promise.all(shares.map((share) => miner.client.submit(`${ADDRESS}.dubai1`, share)));
    await waitUntil(
      () => region.publisher.stats.sharesWaiting === 20 && region.stratum.stats().sharesRejected.busy === 10,
      30_000,
      'twenty shares waiting for JetStream and ten refused',
    );
    await cluster.restart(0);
    await cluster.restart(1);
    const answered = await replies;
    const accepted = answered.filter((r) => r.result === true);
    const refused = answered.filter((r) => r.result !== true);
    miner.acknowledged += accepted.length;
    expect(accepted).toHaveLength(20);
    expect(refused).toHaveLength(10);
    for (const r of refused) expect(r.error).toEqual([20, expect.stringMatching(/backlog full/), null]);
    await waitUntil(everyAckStored, 60_000, 'the held shares stored');
    expect((await storedPerWorker()).get('dubai1')).toBe(20);
  });

  it('carries reject counts and found blocks to the core as well', async () => {
    const miner = miners[0] as Miner;
    const job = miner.client.job;
    if (!job) throw new Error('no job');
    const share = miner.client.findShare(job, 'sha256d');
    expect((await miner.client.submit(`${ADDRESS}.${miner.worker}`, share)).result).toBe(true);
    miner.acknowledged++;
    expect((await miner.client.submit(`${ADDRESS}.${miner.worker}`, share)).error?.[0]).toBe(22);
    const hash = 'ab'.repeat(32);
    await miner.region.publisher.addBlock({
      miner: minerRef('BTC', { kind: 'wallet', address: ADDRESS }, miner.worker),
      height: 101,
      hash,
      scheme: 'pps-plus',
      reward: 5_000_000_000n,
      subsidy: 5_000_000_000n,
      fees: 0n,
      networkDifficulty: 1,
      shareDifficulty: 3e-10,
      status: 'submitted',
      submitResult: null,
      atMs: Date.now(),
    });
    const stored = async () => {
      const blocks = await database.db.query<{ n: bigint }>(
        'SELECT count(*)::bigint AS n FROM blocks WHERE hash = $1',
        [hash],
      );
      const duplicates = await database.db.query<{ n: bigint }>(
        `SELECT coalesce(sum(s.duplicate), 0)::bigint AS n FROM share_stats s JOIN workers w ON w.id = s.worker_id
         WHERE w.name = $1`,
        [miner.worker],
      );
      return Number(blocks.rows[0]?.n) === 1 && Number(duplicates.rows[0]?.n) === 1;
    };
    await waitUntil(stored, 30_000, 'the found block and the duplicate count stored');
    await waitUntil(everyAckStored, 30_000, 'the last share stored');
  });
});
