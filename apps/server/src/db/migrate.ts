import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Database } from './types.js';

const MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), 'migrations');
const FILE_NAME = /^(\d{4})_([a-z0-9_]+)\.sql$/;

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export function listMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return readdirSync(dir)
    .flatMap((file) => {
      const match = FILE_NAME.exec(file);
      if (!match) return [];
      return [
        { version: Number(match[1]), name: match[2] as string, sql: readFileSync(join(dir, file), 'utf8') },
      ];
    })
    .sort((a, b) => a.version - b.version);
}

/**
 * Applies every migration not yet applied, each in its own transaction, in version order.
 * On PostgreSQL an advisory lock keeps two starting processes from racing.
 */
export async function migrate(db: Database, migrations = listMigrations()): Promise<Migration[]> {
  await db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())`);
  const applied: Migration[] = [];
  await db.transaction(async (tx) => {
    if (db.kind === 'postgres') await tx.query('SELECT pg_advisory_xact_lock(727274)');
    const done = await tx.query<{ version: number }>('SELECT version FROM schema_migrations');
    const versions = new Set(done.rows.map((row) => row.version));
    for (const migration of migrations) {
      if (versions.has(migration.version)) continue;
      await tx.exec(migration.sql);
      await tx.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [
        migration.version,
        migration.name,
      ]);
      applied.push(migration);
    }
  });
  return applied;
}
