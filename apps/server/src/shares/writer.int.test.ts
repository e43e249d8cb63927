import { existsSync } from 'node:fs';
import { appendFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { openDatabase, type Database } from '../db/index.js';
import { openTestDatabase, TEST_DATABASE_URL, type TestDatabase } from '../db/testing.js';
import { PoolEvents } from '../events.js';
import { encodeBatch, newBatch } from './batch.js';
import { minerRef, type AcceptedShare } from './types.js';
import { ShareWriter } from './writer.js';

/** A TCP proxy in front of PostgreSQL that the test can pull down (every connection cut) and bring back. */
class DatabaseProxy {
  private server: net.Server | undefined;
  private readonly sockets = new Set<net.Socket>();
  port = 0;

  constructor(private readonly target: URL) {}

  async up(): Promise<void> {
    const server = net.createServer((client) => {
      const upstream = net.connect(Number(this.target.port || 5432), this.target.hostname);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.port = (server.address() as net.AddressInfo).port;
    this.server = server;
  }

  async down(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const s of this.sockets) s.destroy();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
    // Let the pool's idle clients see their sockets close. (Without this pause, a client handed
    // out by the pool before it learns its socket died emits an 'error' nobody listens to: see
    // the note on db/driver.ts transactions in the stratum report.)
    await new Promise((resolve) => setTimeout(resolve, 50));
  }

  url(): string {
    const url = new URL(this.target);
    url.hostname = '127.0.0.1';
    url.port = String(this.port);
    return url.toString();
  }
}

const logger = pino({ level: 'silent' });
const miner = minerRef('BTC', { kind: 'wallet', address: 'bcrt1qzyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3lgth6c' }, 'rig');
const share = (atMs: number): AcceptedShare => ({
  miner, difficulty: 2, actualDifficulty: 3, networkDifficulty: 1000, height: 200, scheme: 'pps-plus', atMs,
});

describe('share writer when the database goes away [postgres]', () => {
  let admin: TestDatabase;
  let proxy: DatabaseProxy;
  let db: Database;
  let dataDir: string;
  const count = async () => Number((await admin.db.query<{ n: bigint }>('SELECT count(*)::bigint AS n FROM shares')).rows[0]?.n);

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

  it('keeps accepted shares in memory and a spill file while the database is down, then writes each exactly once', async () => {
    const events = new PoolEvents();
    const flushed: number[] = [];
    events.on('shares.flushed', (e) => flushed.push(e.count));
    const writer = new ShareWriter({ db, events, logger, dataDir, maxBufferedShares: 5 });
    const t = Date.UTC(2030, 0, 1);
    for (let i = 0; i < 3; i++) writer.addAccepted(share(t + i));
    await writer.flush();
    expect(await count()).toBe(3);

    await proxy.down();
    for (let i = 0; i < 10; i++) writer.addAccepted(share(t + 100 + i));
    writer.addRejected(miner, 'low_difficulty', t + 100);
    await writer.flush();
    expect(existsSync(writer.spillPath)).toBe(true);
    expect(writer.stats.sharesSpilled).toBe(10);
    for (let i = 0; i < 2; i++) writer.addAccepted(share(t + 200 + i));
    await writer.flush();
    expect(writer.stats.sharesWaiting).toBe(2);

    await proxy.up();
    await writer.flush();
    expect(await count()).toBe(15);
    expect(existsSync(writer.spillPath)).toBe(false);
    await writer.flush();
    expect(await count()).toBe(15);
    expect(flushed.reduce((a, b) => a + b, 0)).toBe(15);
    const stats = await admin.db.query<{ accepted: number; low_difficulty: number }>('SELECT sum(accepted)::int AS accepted, sum(low_difficulty)::int AS low_difficulty FROM share_stats');
    expect(stats.rows[0]).toEqual({ accepted: 15, low_difficulty: 1 });
    await writer.stop();
  });

  it('never writes a batch twice, even when it is replayed after it was committed', async () => {
    const writer = new ShareWriter({ db, events: new PoolEvents(), logger, dataDir });
    const before = await count();
    writer.addAccepted(share(Date.UTC(2030, 0, 2)));
    await writer.flush();
    const batch = newBatch();
    batch.shares.push(share(Date.UTC(2030, 0, 3)));
    await mkdir(dirname(writer.spillPath), { recursive: true });
    await appendFile(writer.spillPath, `${encodeBatch(batch)}\n${encodeBatch(batch)}\nnot json\n`);
    await writer.flush();
    expect(await count()).toBe(before + 2);
    expect(existsSync(`${writer.spillPath}.bad`)).toBe(true);
    await writer.stop();
  });

  it('spills on a stop with the database down and a restarted writer writes the shares when it returns', async () => {
    const before = await count();
    await proxy.down();
    const first = new ShareWriter({ db, events: new PoolEvents(), logger, dataDir });
    for (let i = 0; i < 4; i++) first.addAccepted(share(Date.UTC(2030, 0, 4) + i));
    await first.stop();
    expect(existsSync(first.spillPath)).toBe(true);
    await proxy.up();
    const second = new ShareWriter({ db, events: new PoolEvents(), logger, dataDir });
    await second.flush();
    expect(await count()).toBe(before + 4);
    await second.stop();
  });
});
