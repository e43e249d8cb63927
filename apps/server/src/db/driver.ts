import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import type { Database, Queryable, QueryResult } from './types.js';

// Both drivers return BIGINT (int8) as bigint — money is never a float — and NUMERIC as a string.
const INT8 = 20;
const NUMERIC = 1700;

export interface OpenOptions {
  /** PostgreSQL URL; when absent an embedded PGlite database is used. */
  databaseUrl?: string | undefined;
  /** PGlite data directory; `memory://` keeps it in memory. */
  dataDir?: string;
  /** PostgreSQL schema to use (tests isolate themselves in one). */
  schema?: string;
}

export async function openDatabase(options: OpenOptions): Promise<Database> {
  return options.databaseUrl ? openPostgres(options.databaseUrl, options.schema) : await openPglite(options.dataDir ?? 'memory://');
}

function serialize(params: readonly unknown[] | undefined): unknown[] | undefined {
  return params?.map((value) => (typeof value === 'bigint' ? value.toString() : value));
}

function openPostgres(url: string, schema: string | undefined): Database {
  const typeParsers = {
    getTypeParser: ((oid: number, format?: string): ((text: string) => unknown) => {
      if (oid === INT8) return (text: string) => BigInt(text);
      if (oid === NUMERIC) return (text: string) => text;
      return pg.types.getTypeParser(oid, format as 'text') as (text: string) => unknown;
    }) as typeof pg.types.getTypeParser,
  };
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    types: typeParsers,
    connectionTimeoutMillis: 5_000,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  // A database that goes away must not crash the process: idle-client errors are reported by queries.
  pool.on('error', () => undefined);
  const run = async <R>(client: pg.Pool | pg.PoolClient, sql: string, params?: readonly unknown[]) => {
    const result = await client.query(sql, serialize(params));
    return { rows: result.rows as R[], rowCount: result.rowCount ?? 0 } satisfies QueryResult<R>;
  };
  return {
    kind: 'postgres',
    query: (sql, params) => run(pool, sql, params),
    exec: async (sql) => {
      await pool.query(sql);
    },
    async transaction(fn) {
      const client = await pool.connect();
      // A connection that drops mid-transaction must reject the query, not crash the process.
      let broken: Error | undefined;
      const onError = (error: Error) => {
        broken = error;
      };
      client.on('error', onError);
      try {
        await client.query('BEGIN');
        const tx: Queryable = {
          query: (sql, params) => run(client, sql, params),
          exec: async (sql) => {
            await client.query(sql);
          },
        };
        const value = await fn(tx);
        await client.query('COMMIT');
        return value;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.off('error', onError);
        // A broken connection is destroyed rather than returned to the pool.
        client.release(broken);
      }
    },
    async ping() {
      try {
        await pool.query('SELECT 1');
        return true;
      } catch {
        return false;
      }
    },
    close: () => pool.end(),
  };
}

async function openPglite(dataDir: string): Promise<Database> {
  // PGlite runs one statement per query(); multi-statement scripts go through exec().
  if (!dataDir.startsWith('memory://')) mkdirSync(resolve(dataDir), { recursive: true });
  const db = await PGlite.create(dataDir, {
    parsers: { [INT8]: (text: string) => BigInt(text), [NUMERIC]: (text: string) => text },
    serializers: { [INT8]: (value: unknown) => String(value) },
  });
  let closed = false;
  const run = async <R>(target: Pick<PGlite, 'query'>, sql: string, params?: readonly unknown[]) => {
    const result = await target.query<R>(sql, serialize(params));
    return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length } satisfies QueryResult<R>;
  };
  return {
    kind: 'pglite',
    query: (sql, params) => run(db, sql, params),
    exec: async (sql) => {
      await db.exec(sql);
    },
    transaction: (fn) =>
      db.transaction((tx) =>
        fn({
          query: (sql, params) => run(tx, sql, params),
          exec: async (sql) => {
            await tx.exec(sql);
          },
        }),
      ),
    async ping() {
      if (closed) return false;
      try {
        await db.query('SELECT 1');
        return true;
      } catch {
        return false;
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      await db.close();
    },
  };
}
