import { expect, it } from 'vitest';
import { describeEachDatabase } from './testing.js';
import { listMigrations, migrate } from './migrate.js';

describeEachDatabase('database seam', (db) => {
  it('applies every migration once and records it', async () => {
    const rows = await db().query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
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
        await tx.query("INSERT INTO users (username, email, password_hash) VALUES ('rollback', 'r@x.io', 'h')");
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    const left = await db().query("SELECT 1 FROM users WHERE username = 'rollback'");
    expect(left.rowCount).toBe(0);
  });

  it('stores SQL text in a parameter inertly', async () => {
    const name = "x'); DROP TABLE users; --";
    await db().query('INSERT INTO users (username, email, password_hash) VALUES ($1, $2, $3)', [name, 'sql@x.io', 'h']);
    const back = await db().query<{ username: string }>('SELECT username FROM users WHERE email = $1', ['sql@x.io']);
    expect(back.rows[0]?.username).toBe(name);
  });
});
