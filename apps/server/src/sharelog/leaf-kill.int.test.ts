// A region's own JetStream leaf server, cut from the core and then killed (kill -9) while its
// miners mine, then started again on the same store: the Stratum node holds the miners' answers while the leaf is gone (nothing is
// answered `true` that JetStream did not store), reconnects, and every acknowledged share reaches
// the core's PostgreSQL exactly once.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../config/index.js';
import { openTestDatabase, type TestDatabase } from '../../test/support/db.js';
import { PoolEvents } from '../events.js';
import { startStratum, type StratumService } from '../stratum/index.js';
import { StratumTestClient } from '../../test/support/coins/bitcoin/stratum/client.js';
import {
  BTC_REGTEST_ADDRESS as ADDRESS,
  FakeTemplateSource,
} from '../../test/support/coins/bitcoin/stratum/fake-source.js';
import { testLogger } from '../../test/support/coins/bitcoin/stratum/harness.js';
import { startNatsCluster, type NatsCluster, type NatsServerNode } from '../../test/support/nats-cluster.js';
import { startNatsLeaf, type NatsLeaf } from '../../test/support/nats-leaf.js';
import { sleep, waitUntil } from '../../test/support/processes.js';
import { ShareLogConsumer } from './consumer.js';
import { ShareLogPublisher } from './publisher.js';
import { connectShareLog } from './stream.js';
import { chainOfSources } from '../coins/bitcoin/family.js';

/** How long the region's link to the core is down before its leaf is killed. */
const CUT_MS = 3_000;
/** How long the leaf stays dead. */
const DEAD_MS = 10_000;
const MINERS = 4;
/** A miner finds a share this often. */
const SHARE_INTERVAL_MS = 20;

interface Miner {
  worker: string;
  client: StratumTestClient;
  acknowledged: number;
  refused: number;
  lastAckAt: number;
}

describe('a region whose JetStream leaf server is killed', () => {
  let cluster: NatsCluster;
  let database: TestDatabase;
  let consumer: ShareLogConsumer;
  let leaf: NatsLeaf;
  let publisher: ShareLogPublisher;
  let stratum: StratumService;
  let dataDir: string;
  const miners: Miner[] = [];
  let mining = true;
  let loads: Promise<void>[] = [];

  /** Accepted shares stored at the core, per worker (a slot row counts its shares). */
  const storedPerWorker = async (): Promise<Map<string, number>> => {
    const result = await database.db.query<{ name: string; stored: bigint }>(
      'SELECT w.name, sum(s.share_count)::bigint AS stored FROM shares s JOIN workers w ON w.id = s.worker_id GROUP BY w.name',
    );
    return new Map(result.rows.map((r) => [r.name, Number(r.stored)]));
  };
  const acknowledged = () => miners.reduce((n, m) => n + m.acknowledged, 0);

  const mine = async (miner: Miner): Promise<void> => {
    while (mining) {
      const job = miner.client.job;
      if (!job) throw new Error('no job');
      const reply = await miner.client.submit(
        `${ADDRESS}.${miner.worker}`,
        miner.client.findShare(job, 'sha256d'),
      );
      if (reply.result === true) {
        miner.acknowledged++;
        miner.lastAckAt = Date.now();
      } else miner.refused++;
      await sleep(SHARE_INTERVAL_MS);
    }
  };

  beforeAll(async () => {
    [cluster, database] = await Promise.all([
      startNatsCluster({ domain: 'core' }),
      openTestDatabase('postgres'),
    ]);
    leaf = await startNatsLeaf('cairo', cluster.nodes[0] as NatsServerNode);
    dataDir = await mkdtemp(join(tmpdir(), 'manjam-cairo-'));
    const config = parseConfig({
      dataDir,
      stratum: {
        host: '127.0.0.1',
        ports: [{ port: 0, coin: 'BTC', vardiff: { start: 3e-10, min: 3e-10, max: 3e-10 } }],
      },
      distributed: { natsUrl: leaf.url, region: 'cairo', domain: 'cairo', publishTimeoutMs: 2_000 },
    });
    publisher = new ShareLogPublisher({
      nc: await connectShareLog(config.distributed, testLogger, 'test-cairo'),
      config: config.distributed,
      logger: testLogger,
      nodeId: 'cairo',
    });
    await publisher.start();
    stratum = await startStratum({
      config,
      db: database.db,
      logger: testLogger,
      events: new PoolEvents(),
      chains: [chainOfSources([new FakeTemplateSource()])],
      sink: publisher,
    });
    const core = parseConfig({
      distributed: {
        natsUrl: cluster.servers.join(','),
        region: 'core',
        replicas: 3,
        leafDomains: ['cairo'],
      },
    }).distributed;
    consumer = new ShareLogConsumer({
      nc: await connectShareLog(core, testLogger, 'test-core'),
      db: database.db,
      events: new PoolEvents(),
      config: core,
      logger: testLogger,
    });
    await consumer.start();
  }, 120_000);

  afterAll(async () => {
    mining = false;
    await Promise.allSettled(loads);
    await Promise.all(miners.map((m) => m.client.close()));
    await stratum?.stop();
    await leaf?.stop();
    await consumer?.stop();
    await cluster?.stop();
    await database?.drop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('answers no share while the leaf is dead, and stores every acknowledged share once after it returns', async () => {
    const port = stratum.ports()[0]?.port as number;
    for (let i = 0; i < MINERS; i++) {
      const client = await StratumTestClient.connect(port);
      expect((await client.subscribe()).error).toBeNull();
      expect((await client.authorize(`${ADDRESS}.k${i}`)).result).toBe(true);
      await client.waitForJob();
      miners.push({ worker: `k${i}`, client, acknowledged: 0, refused: 0, lastAckAt: 0 });
    }
    loads = miners.map(mine);
    await waitUntil(() => acknowledged() >= 500, 60_000, '500 shares acknowledged');

    // The link to the core drops first: the shares acknowledged now exist only in the leaf's store
    // when it is killed.
    await leaf.link.cut();
    const cutAck = acknowledged();
    await sleep(CUT_MS);
    const onlyOnLeaf = acknowledged() - cutAck;
    await leaf.kill();
    const killedAt = Date.now();
    const beforeKill = acknowledged();
    await sleep(DEAD_MS);
    // Answers already on their way when the leaf died may land in its first moments; none after.
    const lateAcks = miners.filter((m) => m.lastAckAt > killedAt + 2_000).length;
    const duringDead = acknowledged() - beforeKill;

    await leaf.link.restore();
    await leaf.restart();
    const restartedAt = Date.now();
    const resumed = await waitUntil(
      () => miners.every((m) => m.lastAckAt > restartedAt),
      60_000,
      'every miner acknowledged again',
    );
    await sleep(2_000);
    mining = false;
    await Promise.all(loads);
    const total = acknowledged();
    const storedIn = await waitUntil(
      async () => {
        const stored = await storedPerWorker();
        return miners.every((m) => (stored.get(m.worker) ?? 0) >= m.acknowledged);
      },
      60_000,
      'every acknowledged share stored at the core',
    );
    const stored = await storedPerWorker();
    const storedTotal = [...stored.values()].reduce((a, b) => a + b, 0);
    process.stdout.write(
      `[figure] leaf cut from the core, then kill -9 for ${DEAD_MS / 1000} s: ${beforeKill} acknowledged before ` +
        `(${onlyOnLeaf} of them only in the leaf's store), ${duringDead} answered while dead ` +
        `(${lateAcks} miners answered after the first 2 s), every miner answered again ${resumed.toFixed(1)} s after the restart; ` +
        `${total} acknowledged, ${storedTotal} stored at the core (${storedIn.toFixed(1)} s after mining stopped), ` +
        `${miners.reduce((n, m) => n + m.refused, 0)} refused, ${publisher.stats.retries} publish retries\n`,
    );
    expect(lateAcks).toBe(0);
    // Exactly once: the stored count per worker equals what the miner was told, no more.
    for (const m of miners) expect(stored.get(m.worker)).toBe(m.acknowledged);
  });
});
