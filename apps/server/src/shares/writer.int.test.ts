import { existsSync, readdirSync, writeFileSync, mkdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { openDatabase, type Database } from '../db/index.js';
import { openTestDatabase, TEST_DATABASE_URL, type TestDatabase } from '../../test/support/db.js';
import { PoolEvents } from '../events.js';
import { batchLines, newBatch } from './batch.js';
import { ShareJournal } from './journal.js';
import { newIdCache, persistBatch } from './persist.js';
import { DatabaseProxy } from '../../test/support/shares/db-proxy.js';
import { testMiner, testShare } from '../../test/support/shares/fixtures.js';
import { journalDir, ShareWriter, STOP_WRITE_MS } from './writer.js';

const logger = pino({ level: 'silent' });
const miner = testMiner;
const share = testShare;
const segments = (dataDir: string, instanceId?: number) => {
  const dir = journalDir(dataDir, instanceId);
  return existsSync(dir) ? readdirSync(dir).filter((n) => /^\d{13}-/.test(n)) : [];
};

describe('share writer and its journal when the database goes away [postgres]', () => {
  let admin: TestDatabase;
  let proxy: DatabaseProxy;
  let db: Database;
  let dataDir: string;
  const count = async () =>
    Number((await admin.db.query<{ n: bigint }>('SELECT count(*)::bigint AS n FROM shares')).rows[0]?.n);
  const writer = (options: { instanceId?: number; maxMemoryBatches?: number } = {}) =>
    new ShareWriter({ db, events: new PoolEvents(), logger, dataDir, ...options });

  beforeAll(async () => {
    admin = await openTestDatabase('postgres');
    proxy = new DatabaseProxy(new URL(TEST_DATABASE_URL));
    await proxy.up();
    db = await openDatabase({ databaseUrl: proxy.url(), schema: admin.schema });
    dataDir = await mkdtemp(join(tmpdir(), 'manjam-writer-'));
  });
  afterAll(async () => {
    await db?.close();
    await proxy?.down();
    await admin?.drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('keeps only a few batches in memory during an outage and writes every share once when the database returns', async () => {
    const events = new PoolEvents();
    const flushed: number[] = [];
    events.on('shares.flushed', (e) => flushed.push(e.count));
    const w = new ShareWriter({ db, events, logger, dataDir, maxMemoryBatches: 2 });
    await w.start();
    const t = Date.UTC(2030, 0, 1);
    for (let i = 0; i < 3; i++) w.addAccepted(share(t + i));
    await w.flush();
    expect(await count()).toBe(3);
    expect(segments(dataDir)).toHaveLength(0);

    await proxy.down();
    w.addRejected(miner, 'low_difficulty', t + 100);
    for (let round = 0; round < 6; round++) {
      for (let i = 0; i < 10; i++) w.addAccepted(share(t + 1_000 * round + i));
      await w.flush();
    }
    expect(w.stats.batchesWaiting).toBe(6);
    expect(w.stats.sharesWaiting).toBe(20);
    expect(segments(dataDir)).toHaveLength(6);

    await proxy.up();
    await w.flush();
    expect(await count()).toBe(63);
    expect(w.stats.batchesFromJournal).toBe(4);
    expect(segments(dataDir)).toHaveLength(0);
    await w.flush();
    expect(await count()).toBe(63);
    expect(flushed.reduce((a, b) => a + b, 0)).toBe(63);
    const stats = await admin.db.query<{ accepted: number; low_difficulty: number }>(
      'SELECT sum(accepted)::int AS accepted, sum(low_difficulty)::int AS low_difficulty FROM share_stats',
    );
    expect(stats.rows[0]).toEqual({ accepted: 63, low_difficulty: 1 });
    await w.stop();
  });

  it("replays a crash's journal and an old spill file at start without counting a committed batch twice", async () => {
    const before = await count();
    const committed = newBatch();
    committed.shares.push(share(Date.UTC(2030, 0, 2)));
    await persistBatch(db, committed, newIdCache());
    const lost = newBatch();
    lost.shares.push(share(Date.UTC(2030, 0, 3)), share(Date.UTC(2030, 0, 3) + 1));
    // A crash after the commit but before the unlink leaves `committed`'s segment behind.
    const crashed = new ShareJournal({ dir: journalDir(dataDir, undefined), logger, fsyncMs: 0 });
    crashed.open();
    crashed.importBatch(committed, batchLines(committed));
    crashed.importBatch(lost, batchLines(lost));
    await crashed.close();
    const legacy = newBatch();
    legacy.shares.push(share(Date.UTC(2030, 0, 4)));
    mkdirSync(join(dataDir, 'stratum-spill'), { recursive: true });
    const encoded = JSON.stringify({
      id: legacy.id,
      s: [
        [
          ['BTC', 'w', miner.identity.kind === 'wallet' ? miner.identity.address : '', '', 'rig'],
          2,
          3,
          1000,
          200,
          'pps-plus',
          Date.UTC(2030, 0, 4),
        ],
      ],
      r: [],
      b: [],
    });
    writeFileSync(join(dataDir, 'stratum-spill', 'shares.jsonl'), `${encoded}\n${encoded}\nnot json\n`);

    const w = writer();
    await w.start();
    expect(await count()).toBe(before + 1 + 2 + 1);
    expect(segments(dataDir)).toHaveLength(0);
    expect(existsSync(join(dataDir, 'stratum-spill', 'shares.jsonl'))).toBe(false);
    expect(existsSync(join(dataDir, 'stratum-spill', 'shares.jsonl.bad'))).toBe(true);
    await w.stop();
  });

  it('keeps the journal on a stop with the database down and a restarted writer writes the shares when it returns', async () => {
    const before = await count();
    await proxy.down();
    const first = writer();
    await first.start();
    for (let i = 0; i < 4; i++) first.addAccepted(share(Date.UTC(2030, 0, 5) + i));
    await first.stop();
    expect(segments(dataDir)).toHaveLength(1);
    await proxy.up();
    const second = writer();
    await second.start();
    expect(await count()).toBe(before + 4);
    expect(segments(dataDir)).toHaveLength(0);
    await second.stop();
  });

  it('stops within its write time however large the backlog: the rest waits in the journal and the next start writes it', async () => {
    const before = await count();
    // A database that takes 1 s per transaction: a backlog of 40 batches would take 40 s.
    const slow = new Proxy(db, {
      get(target, key) {
        if (key === 'transaction')
          return async (...args: Parameters<Database['transaction']>) => {
            await new Promise((resolve) => setTimeout(resolve, 1_000));
            return target.transaction(...args);
          };
        const value = Reflect.get(target, key) as unknown;
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
    const first = new ShareWriter({
      db: slow,
      events: new PoolEvents(),
      logger,
      dataDir,
      maxBatchShares: 10,
    });
    await first.start();
    for (let i = 0; i < 400; i++) first.addAccepted(share(Date.UTC(2030, 0, 6) + i));
    const stopping = performance.now();
    await first.stop();
    const stopMs = performance.now() - stopping;
    expect(stopMs).toBeLessThan(STOP_WRITE_MS + 2_500);
    const written = (await count()) - before;
    expect(written).toBeLessThan(400);
    expect(segments(dataDir).length).toBeGreaterThan(0);
    const second = writer();
    await second.start();
    expect(await count()).toBe(before + 400);
    expect(segments(dataDir)).toHaveLength(0);
    await second.stop();
  }, 60_000);

  it('refuses a second writer on the same journal, but not one with its own instance id', async () => {
    const first = writer();
    await first.start();
    await expect(writer().start()).rejects.toThrow(/another Stratum process uses this dataDir/);
    const other = writer({ instanceId: 2 });
    await other.start();
    other.addAccepted(share(Date.UTC(2030, 0, 6)));
    await other.flush();
    expect(existsSync(journalDir(dataDir, 2))).toBe(true);
    await other.stop();
    await first.stop();
  });
});
