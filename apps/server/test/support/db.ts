import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, beforeAll, afterAll } from 'vitest';
import pg from 'pg';
import { openDatabase } from '../../src/db/driver.js';
import { listMigrations, migrate, type Migration } from '../../src/db/migrate.js';
import type { Database } from '../../src/db/types.js';

/**
 * Test support: every repository test runs on both drivers. PostgreSQL is the server on this
 * machine (database `test`); each test file gets its own schema, dropped afterwards. A test that
 * cannot reach PostgreSQL fails — it is never skipped.
 */
export const TEST_DATABASE_URL =
  process.env.MANJAM_TEST_DATABASE_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432/test';
export const DATABASE_KINDS = ['pglite', 'postgres'] as const;
export type DatabaseKind = (typeof DATABASE_KINDS)[number];

export interface TestDatabase {
  db: Database;
  /** Connection facts a child process needs to open the same database. */
  url: string | undefined;
  schema: string | undefined;
  drop(): Promise<void>;
}

/** Where migrated PGlite databases are kept between test files and runs (one per migration set). */
const SNAPSHOTS = fileURLToPath(new URL('../../../../node_modules/.cache/manjam-pglite/', import.meta.url));

/**
 * The path of a dump of an in-memory PGlite database with `migrations` applied, made by the first
 * file that needs it: opening an empty PGlite database runs initdb (about 4 s on this machine),
 * starting from a dump under 1 s. The name hashes the migrations' SQL, so a changed migration makes
 * a new one. Two workers making it at once each write their own file and rename it into place.
 */
async function migratedSnapshot(migrations: Migration[]): Promise<string> {
  const hash = createHash('sha256');
  for (const migration of migrations)
    hash.update(`${migration.version}\0${migration.name}\0${migration.sql}\0`);
  const path = join(SNAPSHOTS, `${hash.digest('hex').slice(0, 16)}.tar`);
  if (existsSync(path)) return path;
  const db = await openDatabase({ dataDir: 'memory://' });
  try {
    await migrate(db, migrations);
    const dump = await db.dump?.();
    if (!dump) throw new Error('the PGlite driver cannot dump its database');
    await mkdir(SNAPSHOTS, { recursive: true });
    const partial = `${path}.${process.pid}.${randomBytes(4).toString('hex')}`;
    await writeFile(partial, dump);
    await rename(partial, path);
  } finally {
    await db.close();
  }
  return path;
}

/** `migrations`: the ones to apply (default: all); a migration's test opens the schema as it stood before it. */
export async function openTestDatabase(
  kind: DatabaseKind,
  migrations: Migration[] = listMigrations(),
): Promise<TestDatabase> {
  if (kind === 'pglite') {
    const db = await openDatabase({ dataDir: 'memory://', initialDump: await migratedSnapshot(migrations) });
    // Applies nothing when the dump holds every migration: the same check a pool's start makes.
    await migrate(db, migrations);
    return { db, url: undefined, schema: undefined, drop: () => db.close() };
  }
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL, connectionTimeoutMillis: 5_000 });
  try {
    await admin.connect();
  } catch (error) {
    throw new Error(
      `PostgreSQL test server unreachable at ${TEST_DATABASE_URL}: ${(error as Error).message}`,
    );
  }
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const db = await openDatabase({ databaseUrl: TEST_DATABASE_URL, schema });
  await migrate(db, migrations);
  return {
    db,
    url: TEST_DATABASE_URL,
    schema,
    async drop() {
      await db.close();
      const cleanup = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await cleanup.connect();
      await cleanup.query(`DROP SCHEMA ${schema} CASCADE`);
      await cleanup.end();
    },
  };
}

/** Declares the same suite once per driver; `get()` returns the open database inside tests. */
export function describeEachDatabase(title: string, body: (get: () => Database) => void): void {
  for (const kind of DATABASE_KINDS) {
    describe(`${title} [${kind}]`, () => {
      let handle: TestDatabase | undefined;
      beforeAll(async () => {
        handle = await openTestDatabase(kind);
      });
      afterAll(async () => {
        await handle?.drop();
      });
      body(() => {
        if (!handle) throw new Error('database not open');
        return handle.db;
      });
    });
  }
}
