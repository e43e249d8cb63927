import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { lockDataDir } from './data-dir-lock.js';
import type { Database, DatabaseMemory, Queryable, QueryResult } from './types.js';

/**
 * The embedded PGlite database run on a worker thread (pglite-worker.mjs). PGlite executes SQL
 * synchronously inside WebAssembly: on the main thread every statement stalled Stratum replies and
 * HTTP requests (a quarter-second share flush held miners' answers for tens of milliseconds). Here
 * the main thread only posts a message and awaits the answer.
 */

interface WorkerAnswer {
  id: number;
  ok: boolean;
  value?: unknown;
  error?: { message: string; code?: string; detail?: string; constraint?: string };
}

/** A database error from the PGlite thread, with PostgreSQL's SQLSTATE code and details. */
export class PgliteError extends Error {
  readonly code: string | undefined;
  readonly detail: string | undefined;
  readonly constraint: string | undefined;

  constructor(error: NonNullable<WorkerAnswer['error']>) {
    super(error.message);
    this.name = 'PgliteError';
    this.code = error.code;
    this.detail = error.detail;
    this.constraint = error.constraint;
  }
}

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

type Request =
  | { op: 'query'; sql: string; params: unknown[] | undefined; tx?: number }
  | { op: 'exec'; sql: string; tx?: number }
  | { op: 'begin' | 'close' | 'memory' | 'dump' }
  | { op: 'commit' | 'rollback'; tx: number };

const WORKER = new URL('./pglite-worker.mjs', import.meta.url);

/**
 * Creates a new data directory in a process that then ends, taking initdb's memory with it: on a
 * thread that ended, the memory its WebAssembly compilation took stayed in this process's
 * allocator (the first `npm start` idled at 329 MB against 218-231 MB on the next ones).
 */
function initDataDir(dataDir: string): Promise<void> {
  return new Promise((resolveInit, rejectInit) => {
    const init = spawn(process.execPath, [fileURLToPath(WORKER), '--init', dataDir], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    init.once('error', rejectInit);
    init.once('exit', (code) =>
      code === 0 ? resolveInit() : rejectInit(new Error(`creating the database failed (${code})`)),
    );
  });
}

/**
 * `initialDump`: the path of a data-directory dump (see `dump()`) that an in-memory database
 * starts from instead of an empty cluster.
 */
export async function openPgliteThread(
  dataDir: string,
  serialize: (params: readonly unknown[] | undefined) => unknown[] | undefined,
  initialDump?: string,
): Promise<Database> {
  const inMemory = dataDir.startsWith('memory://');
  if (initialDump !== undefined && !inMemory) throw new Error('a dump can only seed an in-memory database');
  const dir = inMemory ? dataDir : resolve(dataDir);
  const unlock = inMemory ? () => undefined : lockDataDir(dir);
  try {
    if (!inMemory && !existsSync(join(dir, 'PG_VERSION'))) await initDataDir(dir);
  } catch (error) {
    unlock();
    throw error;
  }
  const worker = new Worker(WORKER, { workerData: { dataDir: dir, initialDump } });
  const pending = new Map<number, Pending>();
  let nextId = 1;
  let stopped: Error | undefined;

  const ready = new Promise<void>((resolveReady, rejectReady) => {
    pending.set(0, { resolve: () => resolveReady(), reject: rejectReady });
  });
  // The thread keeps the process alive only while a request is waiting for it.
  const settled = (id: number) => {
    pending.delete(id);
    if (pending.size === 0) worker.unref();
  };
  worker.on('message', (answer: WorkerAnswer) => {
    const waiting = pending.get(answer.id);
    if (!waiting) return;
    settled(answer.id);
    if (answer.ok) waiting.resolve(answer.value);
    else waiting.reject(new PgliteError(answer.error ?? { message: 'unknown database error' }));
  });
  const stop = (error: Error) => {
    stopped ??= error;
    for (const waiting of pending.values()) waiting.reject(error);
    pending.clear();
  };
  worker.on('error', (error) => stop(new Error(`the database thread failed: ${error.message}`)));
  worker.on('exit', () => {
    stop(new Error('the database is closed'));
    unlock();
  });

  const call = <T>(request: Request): Promise<T> => {
    if (stopped) return Promise.reject(stopped);
    const id = nextId++;
    return new Promise<T>((resolveCall, rejectCall) => {
      if (pending.size === 0) worker.ref();
      pending.set(id, { resolve: resolveCall as (value: unknown) => void, reject: rejectCall });
      worker.postMessage({ id, ...request });
    });
  };
  const queryable = (tx: number | undefined): Queryable => ({
    query: <R>(sql: string, params?: readonly unknown[]) =>
      call<QueryResult<R>>({
        op: 'query',
        sql,
        params: serialize(params),
        ...(tx === undefined ? {} : { tx }),
      }),
    exec: (sql: string) => call<void>({ op: 'exec', sql, ...(tx === undefined ? {} : { tx }) }),
  });

  await ready;
  const outside = queryable(undefined);
  return {
    kind: 'pglite',
    ...outside,
    async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
      const tx = await call<number>({ op: 'begin' });
      let value: T;
      try {
        value = await fn(queryable(tx));
      } catch (error) {
        await call({ op: 'rollback', tx }).catch(() => undefined);
        throw error;
      }
      await call({ op: 'commit', tx });
      return value;
    },
    async ping() {
      try {
        await outside.query('SELECT 1');
        return true;
      } catch {
        return false;
      }
    },
    memory: () => call<DatabaseMemory>({ op: 'memory' }),
    dump: async () => new Uint8Array(await call<ArrayBuffer>({ op: 'dump' })),
    async close() {
      if (stopped) return;
      await call({ op: 'close' }).catch(() => undefined);
      await worker.terminate();
    },
  };
}
