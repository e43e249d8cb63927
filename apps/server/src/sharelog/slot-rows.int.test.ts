// Slot rows through the share log: 2,400 shares from five workers (an account with two rigs, a
// wallet with a PPS+ and a PPLNS rig, a PPLNS account) go through a real three-server JetStream
// cluster into PostgreSQL as slot rows. The same shares written one row each by the local
// writer's path into a second database are the reference: stored counts, PPS+ credits, the
// PPLNS split of a found block and every hashrate figure are equal to the satoshi, with far
// fewer rows; redelivery adds nothing. (Difficulties are exact binary fractions, so the float
// sums of share_stats do not depend on how the rows were grouped.)
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAccounting } from '../accounting/index.js';
import { regtestAddress } from '../../test/support/accounting/fixtures.js';
import { MemoryChain } from '../../test/support/accounting/memory-chain.js';
import { parseConfig } from '../config/index.js';
import { ActivityQueries } from '../db/repositories/queries-activity.js';
import { SharesRepository } from '../db/repositories/shares.js';
import { openTestDatabase, type TestDatabase } from '../../test/support/db.js';
import type { Database } from '../db/index.js';
import { PoolEvents } from '../events.js';
import { loadUserHashrate } from '../services/shared/hashrate.js';
import { newBatch } from '../shares/batch.js';
import { newIdCache, persistBatch } from '../shares/persist.js';
import { SHARE_SLOT_MS } from '../shares/slots.js';
import { minerRef, type AcceptedShare, type FoundBlockRecord, type MinerRef } from '../shares/types.js';
import { startNatsCluster, type NatsCluster } from '../../test/support/nats-cluster.js';
import { waitUntil } from '../../test/support/processes.js';
import { ShareLogConsumer } from './consumer.js';
import { ShareLogPublisher } from './publisher.js';
import { connectShareLog, type DistributedConfig } from './stream.js';

const SHARES = 2_400;
const SPACING_MS = 25;
const logger = pino({ level: 'silent' });
const WALLET = regtestAddress('slot rows wallet');

describe('slot rows written by the share log consumer', () => {
  let cluster: NatsCluster;
  let sharelog: TestDatabase;
  let perShare: TestDatabase;
  let config: DistributedConfig;
  let consumer: ShareLogConsumer;
  const chain = new MemoryChain(200);
  /** Slot-aligned, a little over a minute ago: every share falls inside the 10-minute hashrate window. */
  const base = Math.floor((Date.now() - 70_000) / SHARE_SLOT_MS) * SHARE_SLOT_MS;
  let shares: AcceptedShare[] = [];
  let block: FoundBlockRecord;
  let userId = 0;

  const createUser = async (db: Database): Promise<number> => {
    const result = await db.query<{ id: number }>(
      "INSERT INTO users (username, email, password_hash) VALUES ('alice', 'alice@example.com', 'x') RETURNING id",
    );
    return result.rows[0]?.id as number;
  };

  /** Five workers (two on PPLNS); the account's second rig is retargeted by vardiff half way; the chain moves on at share 1,200. */
  const makeShares = (alice: number, carol: number): AcceptedShare[] => {
    const miners: MinerRef[] = [
      minerRef('BTC', { kind: 'user', userId: alice, username: 'alice' }, 'rig1'),
      minerRef('BTC', { kind: 'user', userId: alice, username: 'alice' }, 'rig2'),
      minerRef('BTC', { kind: 'wallet', address: WALLET }, 'default'),
      minerRef('BTC', { kind: 'wallet', address: WALLET }, 'pplns'),
      minerRef('BTC', { kind: 'user', userId: carol, username: 'carol' }, 'pplns'),
    ];
    return Array.from({ length: SHARES }, (_, i) => {
      const miner = miners[i % miners.length] as MinerRef;
      const later = i >= SHARES / 2;
      return {
        miner,
        difficulty: miner.worker === 'rig2' && later ? 2_048.5 : 1_024.25,
        actualDifficulty: 5_000 + i,
        networkDifficulty: later ? 7_777_777.7 : 7_000_000.3,
        height: later ? 201 : 200,
        scheme: miner.worker === 'pplns' ? 'pplns' : 'pps-plus',
        atMs: base + i * SPACING_MS,
      } satisfies AcceptedShare;
    });
  };

  const publishAll = async (): Promise<void> => {
    const publisher = new ShareLogPublisher({
      nc: await connectShareLog(config, logger, 'test-riyadh'),
      config,
      logger,
      nodeId: 'riyadh',
    });
    await publisher.start();
    let acked = 0;
    for (let sent = 0; sent < SHARES; sent += 100) {
      const turn = shares.slice(sent, sent + 100);
      const socket = {
        cork: () => undefined,
        uncork: () => (acked += turn.length),
        destroy: () => undefined,
      };
      for (const share of turn) publisher.addAccepted(share, socket);
      await new Promise((resolve) => setImmediate(resolve));
    }
    await publisher.addBlock(block);
    await waitUntil(() => acked === SHARES, 30_000, 'every share acknowledged by JetStream');
    await publisher.stop();
  };

  const startConsumer = async (durable: string): Promise<ShareLogConsumer> => {
    const own = { ...config, consumer: durable };
    const started = new ShareLogConsumer({
      nc: await connectShareLog(own, logger, `test-core-${durable}`),
      db: sharelog.db,
      events: new PoolEvents(),
      config: own,
      logger,
    });
    await started.start();
    return started;
  };

  beforeAll(async () => {
    [cluster, sharelog, perShare] = await Promise.all([
      startNatsCluster(),
      openTestDatabase('postgres'),
      openTestDatabase('postgres'),
    ]);
    config = parseConfig({
      distributed: { natsUrl: cluster.servers.join(','), region: 'riyadh', replicas: 3 },
    }).distributed;
    userId = await createUser(sharelog.db);
    expect(await createUser(perShare.db)).toBe(userId);
    const carol = userId + 1_000;
    await Promise.all(
      [sharelog.db, perShare.db].map((db) =>
        db.query(
          "INSERT INTO users (id, username, email, password_hash) OVERRIDING SYSTEM VALUE VALUES ($1, 'carol', 'carol@example.com', 'x')",
          [carol],
        ),
      ),
    );
    shares = makeShares(userId, carol);
    block = {
      miner: shares[3]?.miner as MinerRef,
      height: 150,
      hash: chain.hashes[150] as string,
      scheme: 'pplns',
      reward: 2_500_012_345n,
      subsidy: 2_500_000_000n,
      fees: 12_345n,
      networkDifficulty: 9e9,
      shareDifficulty: 1_024.25,
      status: 'pending',
      submitResult: null,
      atMs: base + SHARES * SPACING_MS + 1_000,
    };
    await publishAll();
    consumer = await startConsumer('slot-rows-core');
    await waitUntil(() => consumer.stats.shares === SHARES, 60_000, 'the consumer stored every share');
    await persistBatch(perShare.db, { ...newBatch(), id: 'local-1', shares, blocks: [block] }, newIdCache());
  }, 180_000);

  afterAll(async () => {
    await consumer?.stop();
    await Promise.all([cluster?.stop(), sharelog?.drop(), perShare?.drop()]);
  });

  const count = async (db: Database, sql: string): Promise<number> =>
    Number((await db.query<{ n: bigint }>(sql)).rows[0]?.n);
  const perWorker = async (db: Database) =>
    (
      await db.query<{ name: string; shares: bigint; difficulty: number }>(
        `SELECT w.name, sum(s.share_count)::bigint AS shares, sum(s.difficulty * s.share_count) AS difficulty
         FROM shares s JOIN workers w ON w.id = s.worker_id GROUP BY w.name ORDER BY w.name`,
      )
    ).rows;

  it('stores every share once in at least ten times fewer rows, and the block in a row of its own', async () => {
    const rows = await count(sharelog.db, 'SELECT count(*)::bigint AS n FROM shares');
    expect(rows).toBeLessThanOrEqual(SHARES / 10);
    expect(await count(perShare.db, 'SELECT count(*)::bigint AS n FROM shares')).toBe(SHARES);
    expect(await perWorker(sharelog.db)).toEqual(await perWorker(perShare.db));
    expect(await count(sharelog.db, 'SELECT count(*)::bigint AS n FROM blocks')).toBe(1);
  });

  it('adds nothing when every message is delivered again', async () => {
    const before = await count(sharelog.db, 'SELECT count(*)::bigint AS n FROM shares');
    const again = await startConsumer('slot-rows-replay');
    try {
      await waitUntil(
        () => again.stats.duplicates === consumer.stats.messages,
        60_000,
        'every message delivered again and skipped',
      );
      expect(again.stats.shares).toBe(0);
    } finally {
      await again.stop();
    }
    expect(await count(sharelog.db, 'SELECT count(*)::bigint AS n FROM shares')).toBe(before);
    expect(await count(sharelog.db, 'SELECT sum(share_count)::bigint AS n FROM shares')).toBe(SHARES);
    expect(await count(sharelog.db, 'SELECT count(*)::bigint AS n FROM blocks')).toBe(1);
  });

  /** Balances, ledger totals by reason and the block's planned split, by payee identity. */
  const money = async (db: Database) => {
    const service = await startAccounting({
      config: parseConfig({}),
      db,
      logger,
      events: new PoolEvents(),
      chains: new Map([['BTC', chain]]),
      loop: false,
    });
    await service.runOnce();
    expect(await service.checkBalances()).toEqual([]);
    const credited = service.metrics().shares_credited_total;
    await service.stop();
    const payee = "COALESCE(p.address, p.kind || ':' || COALESCE(p.user_id::text, ''))";
    const ledger = await db.query<{ payee: string; reason: string; amount: bigint }>(
      `SELECT ${payee} AS payee, l.reason, sum(l.amount)::bigint AS amount FROM ledger_entries l
       JOIN payees p ON p.id = l.payee_id GROUP BY 1, 2 ORDER BY 1, 2`,
    );
    const plan = await db.query<{ payee: string; reason: string; amount: bigint }>(
      `SELECT ${payee} AS payee, c.reason, c.amount FROM block_credit_plans c
       JOIN payees p ON p.id = c.payee_id ORDER BY 1, 2, 3`,
    );
    return { credited, ledger: ledger.rows, plan: plan.rows };
  };

  it('credits PPS+ and plans the PPLNS block to the satoshi as the per-share rows do', async () => {
    const slots = await money(sharelog.db);
    const reference = await money(perShare.db);
    expect(slots).toEqual(reference);
    expect(slots.credited).toBe(SHARES);
    expect(slots.ledger.filter((r) => r.reason === 'pps').length).toBe(2);
    expect(slots.plan.filter((r) => r.reason === 'pplns' && r.amount > 0n).length).toBe(2);
  });

  it('shows every hashrate and share figure of the web as the per-share rows do', async () => {
    const now = new Date();
    const since = new Date(base - 60_000);
    const figures = async (db: Database) => {
      const repo = new SharesRepository(db);
      const hashrate = await loadUserHashrate(db, userId, now);
      const workers = (
        await db.query<{ id: number; name: string; payee_id: number }>(
          'SELECT id, name, payee_id FROM workers ORDER BY name',
        )
      ).rows;
      return {
        user: [...hashrate.workers.values()],
        algorithms: hashrate.algorithms,
        pool: await repo.poolDifficultySince('BTC', since),
        perWorker: await Promise.all(
          workers.map(async (w) => ({
            name: w.name,
            stored: await repo.countForWorker(w.id),
            sums: (await repo.sumsByWorkerOfPayee(w.payee_id, since)).find((s) => s.id === w.id)?.difficulty,
          })),
        ),
        connection: await new ActivityQueries(db).connection(userId, 'rig2'),
      };
    };
    const slots = await figures(sharelog.db);
    expect(slots).toEqual(await figures(perShare.db));
    expect(slots.connection.accepted).toBe(SHARES / 5);
    expect(slots.user.every((w) => w.realtime > 0)).toBe(true);
  });
});
