// npm run bench:api — p50/p99 latency and throughput of GET /api/dashboard and GET /api/workers
// for one user with 10,000 workers and a month of share_stats, at a fixed request rate (open
// loop: latency counts from when each request was due, so a slow server cannot hide queueing).
// Options: --db=pglite|postgres (default: PostgreSQL when MANJAM_BENCH_DATABASE_URL or the test
// server answers, else PGlite on disk), --rate=500, --seconds=15, --workers=10000, --days=30, --step=180 (minutes between a
// worker's share_stats rows over the month; the last 2 days have a row every 10 minutes and the
// last 30 minutes one every minute).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { pino } from 'pino';
import { parseConfig } from '../apps/server/src/config/index.js';
import { FixtureWriter } from '../apps/server/test/support/db/fixtures.js';
import { PoolEvents } from '../apps/server/src/events.js';
import { startHttp } from '../apps/server/src/http/index.js';
import { chooseDatabase, openBenchDatabase } from './lib/database.js';

interface Options {
  db: 'pglite' | 'postgres' | undefined;
  rate: number;
  seconds: number;
  workers: number;
  days: number;
  step: number;
}

function parseOptions(argv: string[]): Options {
  const o: Options = { db: undefined, rate: 500, seconds: 15, workers: 10_000, days: 30, step: 180 };
  for (const arg of argv) {
    const [key = '', value = ''] = arg.replace(/^--/, '').split('=');
    if (key === 'db' && (value === 'pglite' || value === 'postgres')) o.db = value;
    else if (key in o && key !== 'db' && Number(value) > 0)
      (o as unknown as Record<string, number>)[key] = Number(value);
    else throw new Error(`unknown or invalid option ${arg}`);
  }
  return o;
}

// The load generator runs on its own thread so that it does not share the server's event loop.
const LOAD_CODE = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const { url, token, rate, seconds, sockets } = workerData;
const agent = new http.Agent({ keepAlive: true, maxSockets: sockets });
const total = Math.round(rate * seconds), interval = 1000 / rate, latencies = [];
let sent = 0, done = 0, errors = 0, inFlight = 0, maxInFlight = 0, bytes = 0;
const start = performance.now();
function complete(due, ok) {
  if (!ok) errors++;
  latencies.push(performance.now() - due); inFlight--; done++;
  if (done === total) parentPort.postMessage({ latencies, errors, maxInFlight, bytes, elapsed: performance.now() - start });
}
function fire(due) {
  inFlight++; maxInFlight = Math.max(maxInFlight, inFlight);
  const req = http.get(url, { agent, headers: { authorization: 'Bearer ' + token } }, (res) => {
    res.on('data', (chunk) => { bytes += chunk.length; });
    res.on('end', () => complete(due, res.statusCode === 200));
    res.on('error', () => complete(due, false));
  });
  req.on('error', () => complete(due, false));
}
function tick() {
  const now = performance.now();
  while (sent < total && start + sent * interval <= now) { fire(start + sent * interval); sent++; }
  if (sent < total) setTimeout(tick, Math.max(0, start + sent * interval - performance.now()));
}
tick();
`;

interface LoadResult {
  latencies: number[];
  errors: number;
  maxInFlight: number;
  bytes: number;
  elapsed: number;
}

function runLoad(url: string, token: string, rate: number, seconds: number): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(LOAD_CODE, {
      eval: true,
      workerData: { url, token, rate, seconds, sockets: 64 },
    });
    worker.once('message', (result: LoadResult) => {
      void worker.terminate();
      resolve(result);
    });
    worker.once('error', reject);
  });
}

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

function report(name: string, r: LoadResult, rate: number): boolean {
  const sorted = [...r.latencies].sort((a, b) => a - b);
  const p99 = pct(sorted, 99);
  console.log(
    `${name.padEnd(22)} target ${rate} req/s | achieved ${(sorted.length / (r.elapsed / 1000)).toFixed(0)} req/s | ` +
      `p50 ${pct(sorted, 50).toFixed(2)} ms  p90 ${pct(sorted, 90).toFixed(2)} ms  p99 ${p99.toFixed(2)} ms  max ${(sorted.at(-1) ?? NaN).toFixed(1)} ms | ` +
      `errors ${r.errors} | max in flight ${r.maxInFlight} | ${(r.bytes / sorted.length / 1024).toFixed(1)} KiB/response`,
  );
  return p99 < 50 && r.errors === 0;
}

async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const t = performance.now();
  const value = await fn();
  return [value, performance.now() - t];
}

async function main(): Promise<void> {
  const o = parseOptions(process.argv.slice(2));
  const kind = await chooseDatabase(o.db);
  console.log(
    `Manjam API benchmark — ${kind}, ${o.workers} workers, ${o.days} days of share_stats every ${o.step} min, the last 2 days every 10 min, the last 30 min every minute, ${cpus().length} CPUs`,
  );
  const dataDir = mkdtempSync(join(tmpdir(), 'manjam-bench-data-'));
  const database = await openBenchDatabase(kind, join(dataDir, 'pglite'));
  const db = database.db;
  try {
    const config = parseConfig({
      dataDir,
      http: { host: '127.0.0.1', port: 0, webDist: '' },
      auth: { secret: randomBytes(24).toString('hex') },
      log: { level: 'silent' },
    });
    const http = await startHttp({
      config,
      db,
      logger: pino({ level: 'silent' }),
      events: new PoolEvents(),
      health: () => Promise.resolve({ ok: true, database: { ok: true, kind }, chains: [], alerts: [] }),
      pool: {
        host: 'localhost',
        ports: () => [{ coin: 'BTC', port: 3333, tls: false, scheme: 'pps-plus' }],
        hashrate: () => null,
      },
    });
    const post = (path: string, body: unknown) =>
      fetch(`${http.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const user = { username: 'benchuser', email: 'bench@example.com', password: 'bench password 1' };
    if ((await post('/api/auth/register', user)).status !== 202) throw new Error('register failed');
    const login = (await (await post('/api/auth/login', user)).json()) as {
      token: string;
      user: { id: number };
    };

    const fx = new FixtureWriter(db);
    const now = Date.now();
    const payee = await fx.userPayee(login.user.id, 'BTC');
    const [, seedWorkersMs] = await timed(() => fx.bulkWorkers(payee, o.workers, new Date(now - 60_000)));
    const minute = Math.floor(now / 60_000) * 60_000;
    const recentStart = minute - 30 * 60_000;
    const twoDays = recentStart - 2 * 86_400_000;
    const [rowsMonth, seedMonthMs] = await timed(() =>
      fx.bulkShareStats(
        payee,
        new Date(twoDays - o.days * 86_400_000 + 2 * 86_400_000),
        new Date(twoDays),
        o.step,
        0.5 * o.step,
      ),
    );
    const [rowsDays, seedDaysMs] = await timed(() =>
      fx.bulkShareStats(payee, new Date(twoDays), new Date(recentStart), 10, 5),
    );
    const [rowsRecent, seedRecentMs] = await timed(() =>
      fx.bulkShareStats(payee, new Date(recentStart), new Date(minute + 60_000), 1, 0.5),
    );
    for (let day = 0; day < o.days; day++)
      await fx.ledger(payee, 100_000n + BigInt(day), 'pps', new Date(now - day * 86_400_000 - 3_600_000));
    await fx.analyze();
    console.log(
      `seeded ${o.workers} workers (${(seedWorkersMs / 1000).toFixed(1)} s), ${rowsMonth + rowsDays + rowsRecent} share_stats rows (${((seedMonthMs + seedDaysMs + seedRecentMs) / 1000).toFixed(1)} s)`,
    );

    const auth = { headers: { authorization: `Bearer ${login.token}` } };
    const [, coldDashboard] = await timed(() =>
      fetch(`${http.url}/api/dashboard`, auth).then((r) => r.arrayBuffer()),
    );
    const [, coldWorkers] = await timed(() =>
      fetch(`${http.url}/api/workers`, auth).then((r) => r.arrayBuffer()),
    );
    console.log(
      `cold (aggregates computed from the database): /api/dashboard ${coldDashboard.toFixed(0)} ms, /api/workers ${coldWorkers.toFixed(0)} ms`,
    );
    console.log(
      `steady state: aggregates cached per user (workers 5 s, dashboard 10 s) and refreshed in the background while load runs`,
    );

    for (const path of ['/api/dashboard', '/api/workers']) {
      const serial: number[] = [];
      for (let i = 0; i < 200; i++)
        serial.push((await timed(() => fetch(`${http.url}${path}`, auth).then((r) => r.arrayBuffer())))[1]);
      serial.sort((a, b) => a - b);
      console.log(
        `one at a time, GET ${path}: p50 ${pct(serial, 50).toFixed(2)} ms, p99 ${pct(serial, 99).toFixed(2)} ms (200 requests)`,
      );
    }

    let ok = true;
    for (const path of ['/api/dashboard', '/api/workers']) {
      const result = await runLoad(`${http.url}${path}`, login.token, o.rate, o.seconds);
      ok = report(`GET ${path}`, result, o.rate) && ok;
    }
    console.log(
      ok
        ? 'target met: p99 < 50 ms at the target rate, no errors'
        : 'target NOT met (p99 >= 50 ms or errors)',
    );
    await http.stop();
  } finally {
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
