// Edge drill `backlog` (issue 25, item 8): an accounting backlog on the embedded database. A
// backlog of found blocks and shares (default 30,000 blocks, as one 40 s regtest cpuminer run
// made) is written through the Stratum side's repositories; one accounting cycle then works
// through it in bounded slices (accounting/slices.ts) while a prober asks the same database what
// /api/health asks (db.ping) and the API for its blocks page over HTTP (GET /api/blocks), and
// prints: total time, slices, the probes' latency p50/p99/max, and whether the money is exact.
//   npm run drill:edges -- --only=backlog [--blocks=2000] [--shares=2] [--miners=8]
//                                 [--slice-blocks=N] [--slice-shares=N]
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { startAccounting } from '../../apps/server/src/accounting/index.js';
import { buildBacklog } from '../../apps/server/test/support/accounting/backlog.js';
import { parseConfig } from '../../apps/server/src/config/index.js';
import { migrate, openDatabase, type Database } from '../../apps/server/src/db/index.js';
import { BalancesRepository } from '../../apps/server/src/db/repositories/balances.js';
import { PoolEvents } from '../../apps/server/src/events.js';
import { startTestApi } from '../../apps/server/test/support/http.js';
import { Report, fixed, int, load, ms, percentile, verdict } from './report.js';

interface Options {
  blocks: number;
  shares: number;
  miners: number;
  sliceBlocks: number | undefined;
  sliceShares: number | undefined;
}

/** A probe answered later than this counts as the API not answering. */
const ANSWER_LIMIT_MS = 2_000;
const PROBE_GAP_MS = 50;
const PROGRESS_MS = 60_000;

function parseOptions(argv: string[]): Options {
  const options: Options = {
    blocks: 2_000, // 30,000 did not finish in 51 min on a loaded 2-core machine (see accounting/README.md)
    shares: 2,
    miners: 8,
    sliceBlocks: undefined,
    sliceShares: undefined,
  };
  for (const arg of argv) {
    const [key = '', raw = ''] = arg.replace(/^--/, '').split('=');
    const value = Number(raw);
    if (!Number.isInteger(value) || value < 1) throw new Error(`invalid option ${arg}`);
    if (key === 'blocks') options.blocks = value;
    else if (key === 'shares') options.shares = value;
    else if (key === 'miners') options.miners = value;
    else if (key === 'slice-blocks') options.sliceBlocks = value;
    else if (key === 'slice-shares') options.sliceShares = value;
    else throw new Error(`unknown option ${arg} (blocks, shares, miners, slice-blocks, slice-shares)`);
  }
  return options;
}

/** Asks `probe` again and again (one at a time) until `done`; returns each answer's milliseconds. */
async function probeUntil(probe: () => Promise<unknown>, done: () => boolean): Promise<Float64Array> {
  const samples: number[] = [];
  while (!done()) {
    const start = performance.now();
    await probe();
    samples.push(performance.now() - start);
    await new Promise((resolve) => setTimeout(resolve, PROBE_GAP_MS));
  }
  return Float64Array.from(samples).sort();
}

function printProbe(report: Report, name: string, sorted: Float64Array): void {
  const max = sorted[sorted.length - 1] ?? Number.NaN;
  report.line(
    `  ${name.padEnd(34)} ${int(sorted.length).padStart(6)} answers  p50 ${ms(percentile(sorted, 50))}  p99 ${ms(percentile(sorted, 99))}  max ${ms(max)}`,
  );
}

async function balanceSum(db: Database): Promise<bigint> {
  const rows = await db.query<{ total: bigint | null }>('SELECT SUM(amount)::bigint AS total FROM balances');
  return rows.rows[0]?.total ?? 0n;
}

export async function runEdgeBacklog(report: Report, argv: string[]): Promise<void> {
  const options = parseOptions(argv);
  const dir = await mkdtemp(join(tmpdir(), 'manjam-backlog-'));
  const db = await openDatabase({ dataDir: join(dir, 'pglite') });
  try {
    await migrate(db);
    const config = parseConfig({
      accounting: {
        ...(options.sliceBlocks ? { sliceBlocks: options.sliceBlocks } : {}),
        ...(options.sliceShares ? { sliceShares: options.sliceShares } : {}),
      },
    });
    report.line(
      `edge drill: backlog — accounting in bounded slices on the embedded database (PGlite, on disk)`,
    );
    report.line(
      `  load ${load()}; slices of ${int(config.accounting.sliceBlocks)} blocks / ${int(config.accounting.sliceShares)} share rows`,
    );
    const built = performance.now();
    const backlog = await buildBacklog(db, {
      blocks: options.blocks,
      sharesPerBlock: options.shares,
      miners: options.miners,
    });
    report.line(
      `  backlog: ${int(options.blocks)} found blocks (PPLNS), ${int(backlog.shares)} share rows (PPLNS + PPS+), ${options.miners} miners, written in ${fixed((performance.now() - built) / 1000)} s`,
    );
    const api = await startTestApi(db);
    const quiet = { done: false };
    setTimeout(() => (quiet.done = true), 3_000);
    const quietBlocks = await probeUntil(
      () => api.request('GET', '/api/blocks?pageSize=20'),
      () => quiet.done,
    );
    const accounting = await startAccounting({
      config,
      db,
      logger: pino({ level: 'silent' }),
      events: new PoolEvents(),
      chains: new Map([[backlog.coin, backlog.chain]]),
      loop: false,
    });
    let running = true;
    const started = performance.now();
    const cycle = accounting.runOnce().finally(() => (running = false));
    // A long backlog prints where it is every PROGRESS_MS, so a run cut short still shows figures.
    const progress = setInterval(() => {
      const now = accounting.metrics();
      report.line(
        `    after ${fixed((performance.now() - started) / 1000)} s: ${int(now.slices_total ?? 0)} slices, ${int(now.blocks_planned_total ?? 0)} planned, ${int(now.blocks_confirmed_total ?? 0)} confirmed`,
      );
    }, PROGRESS_MS);
    const [ping, blocks] = await Promise.all([
      probeUntil(
        () => db.ping(),
        () => !running,
      ),
      probeUntil(
        () => api.request('GET', '/api/blocks?pageSize=20'),
        () => !running,
      ),
    ]);
    await cycle;
    clearInterval(progress);
    const seconds = (performance.now() - started) / 1000;
    const m = accounting.metrics();
    report.line(
      `  cycle: ${fixed(seconds)} s, ${int(m.slices_total ?? 0)} slices; ${int(m.blocks_planned_total ?? 0)} blocks planned, ${int(m.blocks_confirmed_total ?? 0)} confirmed, ${int(m.shares_credited_total ?? 0)} share rows credited`,
    );
    report.line(`  latency while the cycle ran (one probe at a time, ${PROBE_GAP_MS} ms apart):`);
    printProbe(report, 'db.ping (what /api/health asks)', ping);
    printProbe(report, 'GET /api/blocks (HTTP)', blocks);
    printProbe(report, 'GET /api/blocks, quiet (before)', quietBlocks);
    const worst = Math.max(ping[ping.length - 1] ?? 0, blocks[blocks.length - 1] ?? 0);
    report.line(
      `  every probe answered within ${int(ANSWER_LIMIT_MS)} ms: ${verdict(worst <= ANSWER_LIMIT_MS)}`,
    );
    const total = await balanceSum(db);
    const mismatches = await new BalancesRepository(db).mismatches();
    report.line(
      `  money: balances sum ${total} = backlog value ${backlog.value}: ${verdict(total === backlog.value)}; cached balances = ledger: ${verdict(mismatches.length === 0)}`,
    );
    await accounting.stop();
    await api.close();
  } finally {
    await db.close();
    await rm(dir, { recursive: true, force: true });
  }
}
