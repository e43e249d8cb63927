// The embedded PGlite database on its own thread (see pglite-thread.ts, which talks to it). Plain
// JavaScript so that it loads the same way under node, tsx and vitest.
//
// Requests: { id, op: 'query' | 'exec' | 'begin' | 'commit' | 'rollback' | 'close' | 'memory' | 'dump', tx?, sql?, params? }.
// Answers:  { id, ok: true, value } or { id, ok: false, error: { message, code, detail, constraint } }.
// `dump` answers the whole data directory as an uncompressed tar (PGlite's dumpDataDir), an
// ArrayBuffer handed over to the caller; `workerData.initialDump`, the path of such a file, makes a
// memory:// database start from it instead of from an empty cluster (initdb is the slow part of
// opening one: about 4 s against under 1 s from a dump on this machine).
// A transaction is PGlite's own transaction(): it holds PGlite's lock, so statements outside it
// wait until it commits or rolls back, exactly as on the main thread.
import { mkdirSync, readFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';

const INT8 = 20;
const NUMERIC = 1700;
const ROLLBACK = Symbol('rollback');

// As a process of its own (`node pglite-worker.mjs --init <dir>`, see pglite-thread.ts) it only
// creates the data directory and exits.
const { dataDir, initOnly, initialDump } =
  parentPort === null ? { dataDir: process.argv[3], initOnly: true } : workerData;
if (!dataDir.startsWith('memory://')) mkdirSync(dataDir, { recursive: true });

/** Open transactions by id: the PGlite transaction handle and how to end it. */
const transactions = new Map();

function answer(id, value) {
  parentPort.postMessage({ id, ok: true, value });
}

function fail(id, error) {
  const e = error ?? {};
  parentPort.postMessage({
    id,
    ok: false,
    error: { message: String(e.message ?? e), code: e.code, detail: e.detail, constraint: e.constraint },
  });
}

async function run(target, sql, params) {
  const result = await target.query(sql, params);
  return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length };
}

function begin(db, id) {
  let end;
  let started = false;
  const ended = new Promise((resolve, reject) => {
    end = { resolve, reject };
  });
  const entry = { tx: undefined, end, finished: undefined };
  const finished = db.transaction(async (tx) => {
    started = true;
    entry.tx = tx;
    transactions.set(id, entry);
    answer(id, id);
    await ended;
  });
  entry.finished = finished;
  // The commit or rollback request answers when the transaction is over (see finish()); a
  // transaction that could not even start answers the begin request with the error.
  finished.catch((error) => {
    if (!started) fail(id, error);
  });
}

async function finish(id, tx, commit) {
  const open = transactions.get(tx);
  if (!open) throw new Error(`no open transaction ${tx}`);
  transactions.delete(tx);
  if (commit) open.end.resolve();
  else open.end.reject(ROLLBACK);
  try {
    await open.finished;
  } catch (error) {
    if (error !== ROLLBACK) throw error;
  }
  answer(id, null);
}

// PostgreSQL's buffers live in the WebAssembly memory, all of it resident from the start (about
// 13 MB plus shared_buffers, measured): the default 128 MB of shared buffers doubled the pool's
// idle RSS. An embedded database's working set is small, and a page missing from the buffers is
// read from the operating system's file cache (data dir) or from memory (memory://).
const POSTGRESQL_CONF = ['shared_buffers = 8MB', 'wal_buffers = 1MB', 'temp_buffers = 1MB'];

const db = await PGlite.create(dataDir, {
  parsers: { [INT8]: (text) => BigInt(text), [NUMERIC]: (text) => text },
  serializers: { [INT8]: (value) => String(value) },
  postgresqlconf: POSTGRESQL_CONF,
  ...(initialDump ? { loadDataDir: new Blob([readFileSync(initialDump)]) } : {}),
});

// A new data directory is created (initdb) by a process of its own that ends right after: initdb's
// WebAssembly instance is never freed while its thread lives (~150 MB more RSS for good), and in a
// thread that ended, the memory its compilation took stayed in the process (~100 MB).
if (initOnly) {
  await db.close();
  process.exit(0);
}

/** This thread's V8 heap and PostgreSQL's WebAssembly memory, bytes (DatabaseMemory in types.ts). */
function memory() {
  const { heapUsed, heapTotal } = process.memoryUsage();
  return { heapUsedBytes: heapUsed, heapTotalBytes: heapTotal, wasmBytes: db.mod?.HEAPU8?.byteLength ?? 0 };
}

async function dump(id) {
  const file = await db.dumpDataDir('none');
  const bytes = await file.arrayBuffer();
  parentPort.postMessage({ id, ok: true, value: bytes }, [bytes]);
}

parentPort.on('message', (request) => {
  const { id, op, tx, sql, params } = request;
  const target = tx === undefined ? db : transactions.get(tx)?.tx;
  let work;
  if (op === 'begin') {
    begin(db, id);
    return;
  }
  if (op === 'commit' || op === 'rollback') work = finish(id, tx, op === 'commit');
  else if (op === 'memory') work = Promise.resolve().then(() => answer(id, memory()));
  else if (op === 'close') work = db.close().then(() => answer(id, null));
  else if (op === 'dump') work = dump(id);
  else if (!target) work = Promise.reject(new Error(`no open transaction ${tx}`));
  else if (op === 'query') work = run(target, sql, params).then((value) => answer(id, value));
  else if (op === 'exec') work = target.exec(sql).then(() => answer(id, null));
  else work = Promise.reject(new Error(`unknown operation ${op}`));
  work.catch((error) => fail(id, error));
});

parentPort.postMessage({ id: 0, ok: true, value: 'ready' });
