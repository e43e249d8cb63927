import pg from 'pg';
import { openPgliteThread } from './pglite-thread.js';
import type { Database, DedicatedConnection, Queryable, QueryResult } from './types.js';

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
  /** PGlite in memory: the path of a data-directory dump (`Database.dump()`) to start from. */
  initialDump?: string;
}

export async function openDatabase(options: OpenOptions): Promise<Database> {
  return options.databaseUrl
    ? openPostgres(options.databaseUrl, options.schema)
    : openPglite(options.dataDir ?? 'memory://', options.initialDump);
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
  const clientConfig = {
    connectionString: url,
    types: typeParsers,
    connectionTimeoutMillis: 5_000,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  };
  const pool = new pg.Pool({ ...clientConfig, max: 10 });
  // A database that goes away must not crash the process: idle-client errors are reported by queries.
  pool.on('error', () => undefined);
  const run = async <R>(client: pg.Pool | pg.ClientBase, sql: string, params?: readonly unknown[]) => {
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
    dedicated: () => openDedicated(new pg.Client({ ...clientConfig, keepAlive: true }), run),
  };
}

type Run = <R>(client: pg.ClientBase, sql: string, params?: readonly unknown[]) => Promise<QueryResult<R>>;

async function openDedicated(client: pg.Client, run: Run): Promise<DedicatedConnection> {
  let markLost: (reason: Error) => void = () => undefined;
  const lost = new Promise<Error>((resolve) => (markLost = resolve));
  // An error on an idle connection must not crash the process: it only ends the session.
  client.on('error', (error) => markLost(error));
  client.on('end', () => markLost(new Error('connection ended')));
  await client.connect();
  return {
    query: (sql, params) => run(client, sql, params),
    exec: async (sql) => {
      await client.query(sql);
    },
    lost,
    release: () => client.end(),
  };
}

function openPglite(dataDir: string, initialDump: string | undefined): Promise<Database> {
  // PGlite runs one statement per query(); multi-statement scripts go through exec(). It runs on
  // its own thread so that its synchronous WebAssembly work never stalls miners or HTTP clients.
  return openPgliteThread(dataDir, serialize, initialDump);
}
