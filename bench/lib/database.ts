// The benchmark pool's database: PGlite in memory (in the server process, so its CPU counts as
// the server's) or PostgreSQL on this machine (a fresh schema, dropped afterwards).
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { migrate, openDatabase, type Database } from '../../apps/server/src/db/index.js';

export type BenchDatabaseKind = 'pglite' | 'postgres';

export const POSTGRES_URL = process.env.MANJAM_BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface BenchDatabase {
  db: Database;
  close(): Promise<void>;
}

async function adminQuery(sql: string): Promise<void> {
  const admin = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 5_000 });
  try {
    await admin.connect();
  } catch (error) {
    throw new Error(`PostgreSQL unreachable at ${POSTGRES_URL} (set MANJAM_BENCH_DATABASE_URL): ${(error as Error).message}`);
  }
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

export async function openBenchDatabase(kind: BenchDatabaseKind): Promise<BenchDatabase> {
  if (kind === 'pglite') {
    const db = await openDatabase({ dataDir: 'memory://' });
    await migrate(db);
    return { db, close: () => db.close() };
  }
  const schema = `bench_${randomBytes(6).toString('hex')}`;
  await adminQuery(`CREATE SCHEMA ${schema}`);
  const db = await openDatabase({ databaseUrl: POSTGRES_URL, schema });
  await migrate(db);
  return {
    db,
    async close() {
      await db.close();
      await adminQuery(`DROP SCHEMA ${schema} CASCADE`);
    },
  };
}

/** Accepted shares written to the database so far. */
export async function persistedShares(db: Database): Promise<number> {
  const result = await db.query<{ n: bigint }>('SELECT count(*)::bigint AS n FROM shares');
  return Number(result.rows[0]?.n ?? 0n);
}
