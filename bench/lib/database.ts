// The benchmarks' database: PostgreSQL on this machine (a fresh schema, dropped afterwards) when
// it answers, as a production pool runs; else PGlite (in the server process, so its CPU counts
// as the server's).
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { migrate, openDatabase, type Database } from '../../apps/server/src/db/index.js';

export type BenchDatabaseKind = 'pglite' | 'postgres';

export const POSTGRES_URL =
  process.env.MANJAM_BENCH_DATABASE_URL ??
  process.env.MANJAM_TEST_DATABASE_URL ??
  'postgres://postgres:postgres@127.0.0.1:5432/test';

/** The database asked for, or by default PostgreSQL when it answers and PGlite when it does not. */
export async function chooseDatabase(asked: BenchDatabaseKind | undefined): Promise<BenchDatabaseKind> {
  if (asked) return asked;
  const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    await client.end();
    return 'postgres';
  } catch {
    return 'pglite';
  }
}

export interface BenchDatabase {
  db: Database;
  /** PostgreSQL only: the fresh schema, for other processes that open the same database. */
  schema?: string;
  /** PostgreSQL: also returns the rows each table of the schema had inserted or updated. */
  close(): Promise<TableWrites | undefined>;
}

/** Rows inserted plus rows updated, per table (pg_stat_user_tables). */
export type TableWrites = Map<string, number>;

/**
 * A schema's table writes once the bench's connections are closed: each backend hands its
 * counts to the statistics as it exits, so the figures are read until they stop moving.
 */
async function tableWrites(schema: string): Promise<TableWrites> {
  const admin = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 5_000 });
  await admin.connect();
  try {
    let last = '';
    for (let i = 0; i < 20; i++) {
      const result = await admin.query<{ relname: string; n: string }>(
        `SELECT relname, (n_tup_ins + n_tup_upd)::text AS n FROM pg_stat_user_tables
         WHERE schemaname = $1 ORDER BY relname`,
        [schema],
      );
      const now = JSON.stringify(result.rows);
      if (now === last) return new Map(result.rows.map((r) => [r.relname, Number(r.n)]));
      last = now;
      await admin.query('SELECT pg_stat_clear_snapshot(), pg_sleep(0.3)');
    }
    throw new Error(`table statistics of ${schema} did not settle`);
  } finally {
    await admin.end();
  }
}

async function adminQuery(sql: string): Promise<void> {
  const admin = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 5_000 });
  try {
    await admin.connect();
  } catch (error) {
    throw new Error(
      `PostgreSQL unreachable at ${POSTGRES_URL} (set MANJAM_BENCH_DATABASE_URL): ${(error as Error).message}`,
    );
  }
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

/** `pgliteDir`: keep PGlite in that directory (large data sets) instead of in memory. */
export async function openBenchDatabase(kind: BenchDatabaseKind, pgliteDir?: string): Promise<BenchDatabase> {
  if (kind === 'pglite') {
    const db = await openDatabase({ dataDir: pgliteDir ?? 'memory://' });
    await migrate(db);
    return {
      db,
      async close() {
        await db.close();
        return undefined;
      },
    };
  }
  const schema = `bench_${randomBytes(6).toString('hex')}`;
  await adminQuery(`CREATE SCHEMA ${schema}`);
  const db = await openDatabase({ databaseUrl: POSTGRES_URL, schema });
  await migrate(db);
  return {
    db,
    schema,
    async close() {
      await db.close();
      try {
        return await tableWrites(schema);
      } finally {
        await adminQuery(`DROP SCHEMA ${schema} CASCADE`);
      }
    },
  };
}

/** Accepted shares written to the database so far. */
export async function persistedShares(db: Database): Promise<number> {
  const result = await db.query<{ n: bigint }>(
    'SELECT COALESCE(sum(share_count), 0)::bigint AS n FROM shares',
  );
  return Number(result.rows[0]?.n ?? 0n);
}
