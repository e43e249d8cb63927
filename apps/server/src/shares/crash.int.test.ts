import { fork, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, TEST_DATABASE_URL, type TestDatabase } from '../../test/support/db.js';
import { DatabaseProxy } from '../../test/support/shares/db-proxy.js';
import { startShareLoad, WINDOW, type ShareLoad } from '../../test/support/shares/share-load.js';
import { journalDir } from './writer.js';

const CHILD = fileURLToPath(new URL('../../test/support/shares/pool-child.ts', import.meta.url));
const CLIENTS = 4;
const MiB = 1024 * 1024;

interface PoolChild {
  child: ChildProcess;
  port: number;
  exited: Promise<void>;
}

/** Pool processes still running (killed in afterAll if a test failed half-way). */
const live = new Set<ChildProcess>();

function startPool(spec: { databaseUrl: string; schema: string; dataDir: string }): Promise<PoolChild> {
  const child = fork(CHILD, [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, MANJAM_POOL_CHILD: JSON.stringify(spec) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  live.add(child);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  void exited.then(() => live.delete(child));
  return new Promise((resolve, reject) => {
    child.once('message', (message: { port: number }) => resolve({ child, port: message.port, exited }));
    child.once('exit', (code) => reject(new Error(`pool child exited (${code}) before listening`)));
  });
}

function rssOf(pool: PoolChild): Promise<number> {
  return new Promise((resolve) => {
    pool.child.once('message', (message: { rss: number }) => resolve(message.rss));
    pool.child.send('usage');
  });
}

async function kill9(pool: PoolChild): Promise<void> {
  pool.child.kill('SIGKILL');
  await pool.exited;
}

async function stopPool(pool: PoolChild): Promise<void> {
  pool.child.kill('SIGTERM');
  await pool.exited;
}

async function until(
  probe: () => boolean | Promise<boolean>,
  timeoutMs: number,
  what: string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function report(title: string, load: ShareLoad, stored: number, extra = ''): void {
  const lost = Math.max(0, load.acked - stored);
  process.stdout.write(
    `[journal drill] ${title}: sent ${load.sent}, acknowledged ${load.acked}, stored ${stored}, lost ${lost}${extra}\n`,
  );
}

describe('acknowledged shares across a pool crash and a database outage [postgres]', () => {
  let admin: TestDatabase;
  let proxy: DatabaseProxy;
  let dataDir: string;
  let spec: { databaseUrl: string; schema: string; dataDir: string };
  const scalar = async (sql: string) => Number((await admin.db.query<{ n: bigint }>(sql)).rows[0]?.n ?? 0);
  const shares = () => scalar('SELECT count(*)::bigint AS n FROM shares');
  const statsAccepted = () => scalar('SELECT coalesce(sum(accepted), 0)::bigint AS n FROM share_stats');
  const segments = () => {
    const dir = journalDir(dataDir, undefined);
    return existsSync(dir) ? readdirSync(dir).filter((n) => /^\d{13}-/.test(n)).length : 0;
  };

  beforeAll(async () => {
    admin = await openTestDatabase('postgres');
    proxy = new DatabaseProxy(new URL(TEST_DATABASE_URL));
    await proxy.up();
    dataDir = await mkdtemp(join(tmpdir(), 'manjam-crash-'));
    spec = { databaseUrl: proxy.url(), schema: admin.schema as string, dataDir };
  });
  afterAll(async () => {
    for (const child of live) child.kill('SIGKILL');
    await proxy?.down();
    await admin?.drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('stores every share a miner saw accepted when the pool is killed with SIGKILL mid-load, counting none twice', async () => {
    const [before, statsBefore] = [await shares(), await statsAccepted()];
    const first = await startPool(spec);
    const load = await startShareLoad(first.port, CLIENTS, 4_000);
    await until(() => load.acked >= 3_000, 60_000, '3,000 accepted shares');
    await kill9(first);
    await load.stop();
    const left = segments();
    // The next process writes the journal it finds before it opens its port.
    const second = await startPool(spec);
    const stored = (await shares()) - before;
    report('kill -9 mid-load', load, stored, `, journal segments left by the crash ${left}`);
    expect(load.sent).toBeLessThan(CLIENTS * 4_000);
    expect(stored).toBeGreaterThanOrEqual(load.acked);
    // Only shares in flight when the process died (journaled, reply never sent) may be stored unacknowledged.
    expect(stored).toBeLessThanOrEqual(load.acked + CLIENTS * WINDOW);
    expect((await statsAccepted()) - statsBefore).toBe(stored);
    expect(segments()).toBe(0);
    await stopPool(second);
  });

  it('keeps answering through a database outage with memory bounded, and stores every acknowledged share when it is back', async () => {
    const before = await shares();
    const pool = await startPool(spec);
    // Enough shares that the load still runs when the 3 s outage ends, however fast the machine.
    const load = await startShareLoad(pool.port, CLIENTS, 40_000);
    await until(() => load.acked >= 1_000, 60_000, '1,000 accepted shares');
    const rssBefore = await rssOf(pool);
    await proxy.down();
    const atOutage = load.acked;
    const outageEnds = Date.now() + 3_000;
    await until(
      () => Date.now() >= outageEnds && load.acked >= atOutage + 3_000,
      60_000,
      '3 s and 3,000 shares accepted during the outage',
    );
    const rssDuring = await rssOf(pool);
    const onDisk = segments();
    await load.stop();
    await proxy.up();
    await until(
      async () => (await shares()) - before >= load.acked,
      30_000,
      'the acknowledged shares in the database',
    );
    const stored = (await shares()) - before;
    report(
      'database outage',
      load,
      stored,
      `, acknowledged during the outage ${load.acked - atOutage}, RSS ${(rssBefore / MiB).toFixed(1)} -> ${(rssDuring / MiB).toFixed(1)} MiB, journal segments ${onDisk}`,
    );
    expect(onDisk).toBeGreaterThan(4);
    // In memory: at most 4 waiting batches of one flush tick (250 ms) each, whatever the outage's
    // length; at the ~50,000 shares/s this load reaches that is up to ~50,000 shares.
    expect(rssDuring - rssBefore).toBeLessThan(96 * MiB);
    expect(stored).toBeLessThanOrEqual(load.acked + CLIENTS * WINDOW);
    await stopPool(pool);
    expect(segments()).toBe(0);
  });

  it('stores every acknowledged share when the pool is killed with SIGKILL in the middle of a database outage', async () => {
    const before = await shares();
    const first = await startPool(spec);
    const load = await startShareLoad(first.port, CLIENTS, 4_000);
    await until(() => load.acked >= 1_000, 60_000, '1,000 accepted shares');
    await proxy.down();
    const atOutage = load.acked;
    await until(() => load.acked >= atOutage + 3_000, 60_000, '3,000 shares accepted during the outage');
    await kill9(first);
    await load.stop();
    await proxy.up();
    const second = await startPool(spec);
    const stored = (await shares()) - before;
    report(
      'kill -9 during a database outage',
      load,
      stored,
      `, acknowledged during the outage ${load.acked - atOutage}`,
    );
    expect(stored).toBeGreaterThanOrEqual(load.acked);
    expect(stored).toBeLessThanOrEqual(load.acked + CLIENTS * WINDOW);
    await stopPool(second);
  });
});
