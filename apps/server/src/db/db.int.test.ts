import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from './driver.js';
import { describeEachDatabase } from '../../test/support/db.js';
import { listMigrations, migrate } from './migrate.js';

describeEachDatabase('database seam', (db) => {
  it('applies every migration once and records it', async () => {
    const rows = await db().query<{ version: number }>(
      'SELECT version FROM schema_migrations ORDER BY version',
    );
    expect(rows.rows.map((r) => r.version)).toEqual(listMigrations().map((m) => m.version));
    expect(await migrate(db())).toEqual([]);
  });

  it('returns BIGINT money as bigint and accepts bigint parameters beyond 2^53', async () => {
    const big = 9_007_199_254_740_993n;
    const result = await db().query<{ v: bigint }>('SELECT $1::bigint + 1 AS v', [big]);
    expect(result.rows[0]?.v).toBe(big + 1n);
  });

  it('rolls a transaction back when it throws, leaving nothing behind', async () => {
    await expect(
      db().transaction(async (tx) => {
        await tx.query(
          "INSERT INTO users (username, email, password_hash) VALUES ('rollback', 'r@x.io', 'h')",
        );
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    const left = await db().query("SELECT 1 FROM users WHERE username = 'rollback'");
    expect(left.rowCount).toBe(0);
  });

  it('stores SQL text in a parameter inertly', async () => {
    const name = "x'); DROP TABLE users; --";
    await db().query('INSERT INTO users (username, email, password_hash) VALUES ($1, $2, $3)', [
      name,
      'sql@x.io',
      'h',
    ]);
    const back = await db().query<{ username: string }>('SELECT username FROM users WHERE email = $1', [
      'sql@x.io',
    ]);
    expect(back.rows[0]?.username).toBe(name);
  });

  it('reports a constraint violation with its SQLSTATE code and constraint name', async () => {
    await db().query("INSERT INTO users (username, email, password_hash) VALUES ('dupe', 'dupe@x.io', 'h')");
    const error = await db()
      .query("INSERT INTO users (username, email, password_hash) VALUES ('dupe', 'other@x.io', 'h')")
      .then(
        () => undefined,
        (e: unknown) => e as { code?: string; constraint?: string; message: string },
      );
    expect(error?.code).toBe('23505');
    expect(`${error?.constraint ?? ''} ${error?.message ?? ''}`).toMatch(/users_username_key/);
  });

  it('keeps statements outside a transaction out of it until it commits', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const inTx = db().transaction(async (tx) => {
      await tx.query(
        "INSERT INTO users (username, email, password_hash) VALUES ('txwait', 'txwait@x.io', 'h')",
      );
      await held;
      await tx.query("UPDATE users SET email = 'txwait2@x.io' WHERE username = 'txwait'");
    });
    const outside = db().query<{ email: string }>("SELECT email FROM users WHERE username = 'txwait'");
    release();
    await inTx;
    // Either driver answers with a committed state: before the transaction (nothing) or after it.
    const rows = (await outside).rows;
    expect(rows.length === 0 || rows[0]?.email === 'txwait2@x.io').toBe(true);
    expect(
      (await db().query<{ email: string }>("SELECT email FROM users WHERE username = 'txwait'")).rows[0]
        ?.email,
    ).toBe('txwait2@x.io');
  });

  it('rolls back a transaction whose statement fails and stays usable', async () => {
    await expect(
      db().transaction(async (tx) => {
        await tx.query(
          "INSERT INTO users (username, email, password_hash) VALUES ('half', 'half@x.io', 'h')",
        );
        await tx.query('SELECT * FROM no_such_table');
      }),
    ).rejects.toThrow(/no_such_table/);
    expect((await db().query("SELECT 1 FROM users WHERE username = 'half'")).rowCount).toBe(0);
    expect(await db().ping()).toBe(true);
  });
});

describe('embedded PGlite on its own thread', () => {
  it('answers queries while the main thread stays free, and refuses them once closed', async () => {
    const db = await openDatabase({ dataDir: 'memory://' });
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    // A statement that keeps PGlite busy for a while; the main thread's timer keeps firing meanwhile.
    await db.query('SELECT count(*) FROM generate_series(1, 3000000)');
    clearInterval(timer);
    expect(ticks).toBeGreaterThan(5);
    await db.close();
    expect(await db.ping()).toBe(false);
    await expect(db.query('SELECT 1')).rejects.toThrow(/closed/);
  });

  it('reports its own memory: its thread heap and the WebAssembly memory holding the shared buffers', async () => {
    const db = await openDatabase({ dataDir: 'memory://' });
    try {
      const memory = await db.memory?.();
      expect(memory?.heapUsedBytes).toBeGreaterThan(0);
      expect(memory?.heapTotalBytes).toBeGreaterThanOrEqual(memory?.heapUsedBytes ?? 0);
      // 8 MB of shared buffers live in it, with PostgreSQL's own code and caches.
      expect(memory?.wasmBytes).toBeGreaterThan(8 * 1024 * 1024);
    } finally {
      await db.close();
    }
  });

  it('creates a new data directory on disk, and a second start finds what the first stored', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'manjam-pglite-'));
    try {
      const first = await openDatabase({ dataDir: dir });
      await first.exec('CREATE TABLE kept (v int); INSERT INTO kept VALUES (42)');
      await first.close();
      const second = await openDatabase({ dataDir: dir });
      expect((await second.query<{ v: number }>('SELECT v FROM kept')).rows).toEqual([{ v: 42 }]);
      await second.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
