import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FixtureWriter } from '../../test/support/db/fixtures.js';
import { openTestDatabase, type TestDatabase } from '../../test/support/db.js';
import { PoolEvents } from '../events.js';
import { HASH_FACTORS } from '../services/stats/figures.js';
import { WorkersService } from '../services/workers/workers-service.js';
import { minerRef, type AcceptedShare, type MinerRef } from './types.js';
import { ShareWriter } from './writer.js';

const logger = pino({ level: 'silent' });

async function until(probe: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const accepted = (miner: MinerRef, atMs: number, difficulty = 4): AcceptedShare => ({
  miner,
  difficulty,
  actualDifficulty: difficulty * 2,
  networkDifficulty: 1_000,
  height: 300,
  scheme: 'pps-plus',
  atMs,
});

describe('rejected shares cost database work per worker and interval, not per share [postgres]', () => {
  let admin: TestDatabase;
  let dataDir: string;
  let fixtures: FixtureWriter;
  const scalar = async (sql: string) => Number((await admin.db.query<{ n: bigint }>(sql)).rows[0]?.n ?? 0);
  /** Rows written (inserted or updated) into a table since the counters were created. */
  const writes = (table: string) =>
    scalar(`SELECT coalesce(sum(n), 0)::bigint AS n FROM row_writes WHERE tbl = '${table}'`);

  beforeAll(async () => {
    admin = await openTestDatabase('postgres');
    dataDir = await mkdtemp(join(tmpdir(), 'manjam-stats-'));
    fixtures = new FixtureWriter(admin.db);
    // Counted from the database's side: one row per statement and table, with the rows it wrote.
    await admin.db.exec(`
      CREATE TABLE row_writes (tbl text NOT NULL, n bigint NOT NULL);
      CREATE FUNCTION count_row_writes() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO row_writes SELECT TG_TABLE_NAME, count(*) FROM changed;
        RETURN NULL;
      END $$;
      CREATE TRIGGER workers_inserted AFTER INSERT ON workers REFERENCING NEW TABLE AS changed
        FOR EACH STATEMENT EXECUTE FUNCTION count_row_writes();
      CREATE TRIGGER workers_updated AFTER UPDATE ON workers REFERENCING NEW TABLE AS changed
        FOR EACH STATEMENT EXECUTE FUNCTION count_row_writes();
      CREATE TRIGGER stats_inserted AFTER INSERT ON share_stats REFERENCING NEW TABLE AS changed
        FOR EACH STATEMENT EXECUTE FUNCTION count_row_writes();
      CREATE TRIGGER stats_updated AFTER UPDATE ON share_stats REFERENCING NEW TABLE AS changed
        FOR EACH STATEMENT EXECUTE FUNCTION count_row_writes();`);
  });
  afterAll(async () => {
    await admin?.drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('writes N rejects from M workers as about M worker updates and M stats rows per interval', async () => {
    const userId = await fixtures.user({ username: 'rejecter' });
    const M = 25;
    const N = 20_000;
    const miners = Array.from({ length: M }, (_, i) =>
      minerRef('BTC', { kind: 'user', userId, username: 'rejecter' }, `rig${i}`),
    );
    // Batches tick every 50 ms; reject counts are written every 400 ms.
    const writer = new ShareWriter({
      db: admin.db,
      events: new PoolEvents(),
      logger,
      dataDir,
      instanceId: 1,
      flushIntervalMs: 50,
      statsFlushMs: 400,
    });
    await writer.start();
    const minute = Date.UTC(2030, 0, 1, 12, 0);
    const lowDifficulty = () =>
      scalar('SELECT coalesce(sum(low_difficulty), 0)::bigint AS n FROM share_stats');
    // Each worker's first accepted share writes its row; rejects are counted against it from then on.
    for (const miner of miners) writer.addAccepted(accepted(miner, minute));
    await writer.flush();
    const batches = writer.stats.batchesWritten;
    await admin.db.exec('DELETE FROM row_writes');

    for (let i = 0; i < N; i++) writer.addRejected(miners[i % M] as MinerRef, 'low_difficulty', minute + i);
    await until(async () => (await lowDifficulty()) === N, `${N} rejects in share_stats`);
    // The first interval: one update per worker in each table.
    expect(await writes('workers')).toBe(M);
    expect(await writes('share_stats')).toBe(M);

    for (let i = 0; i < N; i++) writer.addRejected(miners[i % M] as MinerRef, 'low_difficulty', minute + i);
    await until(async () => (await lowDifficulty()) === 2 * N, `${2 * N} rejects in share_stats`);
    // The second interval: one update per worker in each table, twice as many rejects.
    expect(await writes('workers')).toBe(2 * M);
    expect(await writes('share_stats')).toBe(2 * M);
    expect(writer.stats.rejectFlushes).toBe(2);
    // No batch (no transaction, no journal segment) for rejected shares.
    expect(writer.stats.batchesWritten).toBe(batches);
    expect(await scalar("SELECT sum(rejected_shares)::bigint AS n FROM workers WHERE name LIKE 'rig%'")).toBe(
      2 * N,
    );
    await writer.stop();
  });

  it('writes nothing for the rejects of a worker that never had a share accepted', async () => {
    const userId = await fixtures.user({ username: 'targeted' });
    const writer = new ShareWriter({
      db: admin.db,
      events: new PoolEvents(),
      logger,
      dataDir,
      instanceId: 4,
      statsFlushMs: 100,
    });
    await writer.start();
    await admin.db.exec('DELETE FROM row_writes');
    const identity = { kind: 'user', userId, username: 'targeted' } as const;
    for (let i = 0; i < 1_000; i++)
      writer.addRejected(minerRef('BTC', identity, `planted${i % 50}`), 'invalid', Date.now());
    await writer.flush();
    expect(writer.stats.rejectFlushes).toBeGreaterThan(0);
    expect(await writes('workers')).toBe(0);
    expect(await writes('share_stats')).toBe(0);
    expect(await scalar('SELECT count(*)::bigint AS n FROM payees WHERE user_id = ' + String(userId))).toBe(
      0,
    );
    await writer.stop();
  });

  it('shows the same rejects, last share, shares and hashrate on the workers page as before, and no worker that only had rejects', async () => {
    const userId = await fixtures.user({ username: 'shower' });
    const identity = { kind: 'user', userId, username: 'shower' } as const;
    const [busy, failing] = [minerRef('BTC', identity, 'busy'), minerRef('BTC', identity, 'failing')];
    const writer = new ShareWriter({
      db: admin.db,
      events: new PoolEvents(),
      logger,
      dataDir,
      instanceId: 2,
    });
    await writer.start();
    const now = Date.now();
    for (let i = 0; i < 10; i++) writer.addAccepted(accepted(busy, now - 60_000 + i * 1_000));
    for (let i = 0; i < 5; i++) writer.addRejected(busy, 'stale', now - 30_000);
    for (let i = 0; i < 7; i++) writer.addRejected(busy, 'low_difficulty', now - 30_000);
    for (let i = 0; i < 40; i++) writer.addRejected(failing, 'invalid', now - 10_000);
    await writer.stop();

    const service = new WorkersService({
      db: admin.db,
      now: () => now,
      onError: (e) => {
        throw e;
      },
    });
    const page = await service.list(userId, 'shower', undefined, 1, 50);
    const byName = new Map(page.workers.map((w) => [w.name, w]));
    const busyRow = byName.get('busy');
    expect(busyRow).toMatchObject({
      status: 'online',
      shares: 10,
      rejects: 12,
      lastSeen: new Date(now - 60_000 + 9_000).toISOString(),
    });
    // Its 10 minutes average over the time it mined: from the 10 s slot of its first share, a minute ago.
    const seconds = (now - Math.floor((now - 60_000) / 10_000) * 10_000) / 1000;
    expect(busyRow?.hashrate).toBeCloseTo((10 * 4 * HASH_FACTORS.BTC) / seconds, 3);
    // Only rejected, never accepted: no row, so not listed (anyone can send rejects under a name).
    expect(byName.has('failing')).toBe(false);
  });

  it('keeps a deleted worker deleted through rejected shares and brings it back with an accepted one', async () => {
    const userId = await fixtures.user({ username: 'hider' });
    const rig = minerRef('BTC', { kind: 'user', userId, username: 'hider' }, 'rig');
    const writer = new ShareWriter({
      db: admin.db,
      events: new PoolEvents(),
      logger,
      dataDir,
      instanceId: 3,
    });
    await writer.start();
    const now = Date.now();
    const service = new WorkersService({
      db: admin.db,
      now: () => now,
      onError: (e) => {
        throw e;
      },
    });
    writer.addAccepted(accepted(rig, now - 5_000));
    await writer.flush();
    const [shown] = (await service.list(userId, 'hider', undefined, 1, 50)).workers;
    await service.hide(userId, shown?.id ?? 0);
    expect((await service.list(userId, 'hider', undefined, 1, 50)).workers).toHaveLength(0);
    // The writer knows the worker's id by now: no insert, only its counters' update.
    writer.addRejected(rig, 'stale', now - 1_000);
    await writer.flush();
    service.forget(userId);
    expect((await service.list(userId, 'hider', undefined, 1, 50)).workers).toHaveLength(0);
    writer.addAccepted(accepted(rig, now - 500));
    await writer.flush();
    service.forget(userId);
    expect(
      (await service.list(userId, 'hider', undefined, 1, 50)).workers.map((w) => [w.shares, w.rejects]),
    ).toEqual([[2, 1]]);
    await writer.stop();
  });
});
