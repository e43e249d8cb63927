// npm run bench:stratum — Stratum throughput, latency, memory and CPU (prints figures, asserts
// nothing). See README.md. Options: --db=pglite|postgres, --seconds=N, --quick, --only=a,b,
// --depth=N, --threads=N, --profile, --pin, --compare=host:port, --compare-pid=N, --compare-login=L,
// --rounds=N (the scenarios N times on one pool: RSS after each), --rx-threads=N (the randomx phase),
// --tips=N (new blocks per condition in the new-tip phase).
import { availableParallelism, cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { chooseDatabase, type BenchDatabaseKind } from './lib/database.js';
import { DatabaseWatch, printDatabase } from './lib/database-watch.js';
import { writesBetween } from './lib/counting-database.js';
import {
  defaultRejectLogin,
  listeningPid,
  printComparison,
  runRejectPhase,
  type RejectFigures,
} from './lib/reject-phase.js';
import { FROZEN_TRANSACTIONS, MAINNET_BITS } from './lib/frozen-source.js';
import { printScenario, type Figures } from './lib/print.js';
import { fixed, int, load, ms, Report } from './lib/report.js';
import { PoolHandle, pinProcess } from './lib/pool-handle.js';
import { runScenario, type ScenarioSpec } from './lib/scenario.js';
import { runNewTip } from './lib/new-tip.js';
import { runRandomX, type RandomXFigures } from './lib/randomx-phase.js';
import { runKheavyhash, type KheavyhashFigures } from './lib/kheavyhash-phase.js';
import { summary, summaryRandomX, summaryRejects } from './lib/summary.js';
import { measureScryptCapacity, type ScryptCapacity } from './lib/scrypt-capacity.js';

interface Options {
  /** Undefined: PostgreSQL when it answers, else PGlite (lib/database.ts). */
  db: BenchDatabaseKind | undefined;
  seconds: number;
  quick: boolean;
  only: string[] | undefined;
  depth: number;
  threads: number;
  profile: boolean;
  /** Pool on core 0, this process (the load generator) on core 1. */
  pin: boolean;
  /** Another Stratum pool for the side-by-side rejected-shares phase. */
  compare: { host: string; port: number } | undefined;
  comparePid: number | undefined;
  compareLogin: string | undefined;
  rounds: number;
  /** RandomX threads of the randomx phase's pool (undefined: the cores, 1 with --pin). */
  rxThreads: number | undefined;
  /** New blocks per condition (idle, under load) in the new-tip phase (undefined: 5, 2 with --quick). */
  tips: number | undefined;
}

// The 10,000-connection scenario runs first, on a fresh pool, so its memory figure is clean.
const SCENARIOS = ['sha256d-rate', 'sha256d-max', 'sha256d-pipelined', 'scrypt-max'] as const;
type ScenarioName = (typeof SCENARIOS)[number];
/** Phases with their own runner (lib/reject-phase.ts), after the scenarios. */
const PHASES = ['sha256d-rejects'] as const;
/** The new-tip phase (lib/new-tip.ts) runs last, on its own pool process and fake node. */
const NEW_TIP = 'new-tip';
/** The randomx phase (lib/randomx-phase.ts) runs after it, on its own pool process and fake monerod. */
const RANDOMX = 'randomx';
/** The kheavyhash phase (lib/kheavyhash-phase.ts) runs last, on its own pool process and fake kaspad. */
const KHEAVYHASH = 'kheavyhash';
const ALL = [...SCENARIOS, ...PHASES, NEW_TIP, RANDOMX, KHEAVYHASH];

function parseOptions(argv: string[]): Options {
  const options: Options = {
    db: undefined,
    seconds: 15,
    quick: false,
    only: undefined,
    depth: 1,
    threads: 2,
    profile: false,
    pin: false,
    compare: undefined,
    comparePid: undefined,
    compareLogin: undefined,
    rounds: 1,
    rxThreads: undefined,
    tips: undefined,
  };
  for (const arg of argv) {
    const [key, value = ''] = arg.replace(/^--/, '').split('=');
    if (key === 'db' && (value === 'pglite' || value === 'postgres')) options.db = value;
    else if (key === 'seconds' && Number(value) > 0) options.seconds = Number(value);
    else if (key === 'quick') options.quick = true;
    else if (key === 'profile') options.profile = true;
    else if (key === 'pin') options.pin = true;
    else if (key === 'compare' && /^[^:]+:\d+$/.test(value)) {
      const [host = '', port = ''] = value.split(':');
      options.compare = { host, port: Number(port) };
    } else if (key === 'compare-pid' && Number.isInteger(Number(value))) options.comparePid = Number(value);
    else if (key === 'compare-login' && value !== '') options.compareLogin = value;
    else if (key === 'only') options.only = value.split(',');
    else if (key === 'depth' && Number.isInteger(Number(value)) && Number(value) > 0)
      options.depth = Number(value);
    else if (key === 'rounds' && Number.isInteger(Number(value)) && Number(value) > 0)
      options.rounds = Number(value);
    else if (key === 'threads' && Number.isInteger(Number(value)) && Number(value) > 0)
      options.threads = Number(value);
    else if (key === 'rx-threads' && Number.isInteger(Number(value)) && Number(value) > 0)
      options.rxThreads = Number(value);
    else if (key === 'tips' && Number.isInteger(Number(value)) && Number(value) > 0)
      options.tips = Number(value);
    else throw new Error(`unknown or invalid option ${arg} (see bench/README.md)`);
  }
  for (const name of options.only ?? [])
    if (!ALL.includes(name)) throw new Error(`unknown scenario ${name}: ${ALL.join(', ')}`);
  return options;
}

/** Submits in flight per connection in the pipelined phase, as a Stratum proxy in front of a farm sends them. */
const PIPELINE_DEPTH = 8;

function specs(
  o: Options,
  db: BenchDatabaseKind,
  scryptPerSecond: number,
): Record<ScenarioName, ScenarioSpec> {
  const scale = o.quick ? 0.1 : 1;
  const seconds = o.quick ? 3 : o.seconds;
  const base = { seconds, db, threads: o.threads };
  return {
    'sha256d-max': {
      ...base,
      label: 'sha256d-max',
      coin: 'BTC',
      connections: 1_000 * scale,
      mode: { kind: 'max', depth: o.depth, budgetPerSecond: 75_000 },
    },
    'sha256d-pipelined': {
      ...base,
      label: 'sha256d-pipelined',
      coin: 'BTC',
      connections: 1_000 * scale,
      mode: { kind: 'max', depth: PIPELINE_DEPTH, budgetPerSecond: 100_000 },
    },
    'sha256d-rate': {
      ...base,
      label: 'sha256d-rate',
      coin: 'BTC',
      connections: 10_000 * scale,
      mode: { kind: 'rate', rate: 10_000 * scale },
    },
    'scrypt-max': {
      ...base,
      label: 'scrypt-max',
      coin: 'LTC',
      connections: 1_000 * scale,
      mode: { kind: 'max', depth: o.depth, budgetPerSecond: Math.ceil(scryptPerSecond * 2) },
    },
  };
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  // The generator's threads inherit this process's core; the pool is moved to core 0 when forked.
  if (options.pin) pinProcess(process.pid, 1);
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const report = new Report(fileURLToPath(new URL(`./results/stratum-${stamp}.txt`, import.meta.url)));
  const cores = cpus().length;
  report.line(
    `Manjam Stratum benchmark, ${new Date().toISOString()}, node ${process.version}, ${cores} cores (${cpus()[0]?.model ?? '?'})`,
  );
  report.line(`load average (1/5/15 min) at start: ${load()}`);
  report.line(
    `frozen template: ${int(FROZEN_TRANSACTIONS)} transactions, mainnet bits BTC ${MAINNET_BITS.BTC} / LTC ${MAINNET_BITS.LTC}, ` +
      `mainnet coin parameters and pool address; share difficulty frozen at the protocol minimum; generator: ${options.threads} threads in a separate process`,
  );
  if (options.pin)
    report.line('pinned (taskset): the pool on core 0, the load generator on core 1; PostgreSQL unpinned');
  report.line();
  const chosen: string[] = options.only ?? ALL;
  const db = await chooseDatabase(options.db);
  // The shared pool process and the Scrypt yardstick only when a phase on them was chosen.
  const onPool = [...SCENARIOS, ...PHASES].some((name) => chosen.includes(name));
  const capacity = onPool ? await scryptCapacity(report, options.quick) : undefined;
  const { results, rejects } =
    onPool && capacity ? await poolPhases(report, options, chosen, db, capacity) : { results: {} };
  const newTip = chosen.includes(NEW_TIP)
    ? await runNewTip(report, {
        db,
        connections: options.quick ? 100 : 1_000,
        tips: options.tips ?? (options.quick ? 2 : 5),
        depth: 4,
        threads: options.threads,
        pin: options.pin,
        profileDir: options.profile ? fileURLToPath(new URL('./results/', import.meta.url)) : undefined,
      })
    : undefined;
  if (newTip) report.line();
  const randomx = chosen.includes(RANDOMX) ? await randomxPhase(report, options, db) : undefined;
  if (randomx) report.line();
  const kheavyhash = chosen.includes(KHEAVYHASH) ? await kheavyhashPhase(report, options, db) : undefined;
  if (kheavyhash) report.line();
  if (capacity) summary(report, results, capacity, options.quick);
  else report.line(`SUMMARY (load average at the end: ${load()})${options.quick ? ' -- QUICK RUN' : ''}`);
  if (rejects) summaryRejects(report, rejects);
  if (newTip)
    report.line(
      `  new tip -> every one of ${int(newTip.connections)} miners has the new job: idle p50 ${ms(newTip.idle.p50)} / p99 ${ms(newTip.idle.p99)}, under load (${newTip.depth} in flight) p50 ${ms(newTip.loaded.p50)} / p99 ${ms(newTip.loaded.p99)} (target p99 <= 30 ms)`,
    );
  if (randomx) summaryRandomX(report, randomx, options.quick);
  if (kheavyhash) summaryKheavyhash(report, kheavyhash);
}

/**
 * The kheavyhash phase: 20 miners x --depth in flight for --seconds (quick: 3 s), then 1,000
 * miners (quick: 100) under ten templates a second for as long.
 */
function kheavyhashPhase(
  report: Report,
  options: Options,
  db: BenchDatabaseKind,
): Promise<KheavyhashFigures> {
  return runKheavyhash(report, {
    db,
    seconds: options.quick ? 3 : options.seconds,
    submitters: 20,
    depth: Math.max(options.depth, 4),
    miners: options.quick ? 100 : 1_000,
    templatesPerSecond: 10,
    pin: options.pin,
    profileDir: options.profile ? fileURLToPath(new URL('./results/', import.meta.url)) : undefined,
  });
}

function summaryKheavyhash(report: Report, k: KheavyhashFigures): void {
  report.line(
    `  kHeavyHash: ${fixed(k.acceptedPerSecond)} shares/s accepted, ${fixed(k.perPoolCpuSecond)} per pool CPU-second = ` +
      `${fixed(k.percentPerCpuSecond)} % of raw ${int(k.rawPerSecond)} hashes/s (target >= 80 %; a bare Node server: ${fixed(k.floorPercent)} %); ` +
      `${int(k.storm.miners)} miners under ` +
      `${fixed(k.storm.announcedPerSecond)} templates/s: ${fixed(k.storm.jobsPerMinerSecond, 2)} jobs/s per miner, ` +
      `${int(k.storm.bytesPerSecond / 1024)} KiB/s, pool ${int(k.storm.poolCpuPercent)} % of a core`,
  );
}

async function scryptCapacity(report: Report, quick: boolean): Promise<ScryptCapacity> {
  const capacity = await measureScryptCapacity(quick ? 1 : 5);
  report.line(
    `[scrypt-capacity] Node crypto.scryptSync (N=1024, r=1, p=1), ${capacity.threads} threads x ${fixed(capacity.seconds)} s: ` +
      `${int(capacity.perSecond)} hashes/s, ${int(capacity.perCpuSecond)} per CPU-second (load average ${load()})`,
  );
  report.line();
  return capacity;
}

/** The scenarios and the rejects phase, on one pool process. */
async function poolPhases(
  report: Report,
  options: Options,
  chosen: string[],
  db: BenchDatabaseKind,
  capacity: ScryptCapacity,
): Promise<{
  results: Partial<Record<ScenarioName, Figures>>;
  rejects: { manjam: RejectFigures; other: RejectFigures | undefined } | undefined;
}> {
  const all = specs(options, db, capacity.perSecond);
  const results: Partial<Record<ScenarioName, Figures>> = {};
  let rejects: { manjam: RejectFigures; other: RejectFigures | undefined } | undefined;
  const poolStart = performance.now();
  const profileDir = options.profile ? fileURLToPath(new URL('./results/', import.meta.url)) : undefined;
  const applicationName = `manjam-bench-${process.pid}`;
  const pool = await PoolHandle.start(db, {
    profileDir,
    applicationName,
    core: options.pin ? 0 : undefined,
  });
  const watch = await DatabaseWatch.open(db, applicationName);
  report.line(
    `pool process (pid ${pool.pid}, database ${db}) up in ${fixed((performance.now() - poolStart) / 1000)} s; ports BTC ${pool.ports.BTC}, LTC ${pool.ports.LTC}`,
  );
  report.line();
  // --rounds=N runs the scenarios N times on the same pool: its RSS after each round shows what stays.
  const memory = [await pool.usage({ gc: true })];
  try {
    for (let round = 1; round <= options.rounds; round++) {
      for (const name of SCENARIOS) {
        if (!chosen.includes(name)) continue;
        watch?.begin();
        const result = await runScenario(pool, all[name], () => loadavg());
        const database = await watch?.end();
        results[name] = printScenario(report, result);
        const { before, settled } = result.pool;
        printDatabase(
          report,
          database,
          writesBetween(before.writes, settled.writes),
          settled.cpuUs - before.cpuUs,
          settled.accepted - before.accepted,
        );
        report.line();
      }
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      memory.push(await pool.usage({ gc: true }));
    }
    report.line(
      `pool after GC, idle then after each round: RSS ${memory.map((u) => fixed(u.rss / 2 ** 20)).join(' -> ')} MiB, ` +
        `JS heap ${memory.map((u) => fixed(u.heapUsed / 2 ** 20)).join(' -> ')} MiB (with V8's kept pages ` +
        `${memory.map((u) => fixed(u.heapTotal / 2 ** 20)).join(' -> ')}), outside it (Buffers, WebAssembly) ` +
        `${memory.map((u) => fixed(u.external / 2 ** 20)).join(' -> ')} MiB`,
    );
    report.line();
    if (chosen.includes('sha256d-rejects')) rejects = await rejectPhases(report, options, pool, watch);
  } finally {
    await watch?.close();
    await pool.stop();
  }
  return { results, rejects };
}

/**
 * The randomx phase. Its pool gets the machine's cores as RandomX threads (with --pin: one, the
 * pool's core; --rx-threads sets it); the window is --seconds (quick: 3 s) in 5 rounds (quick: 1)
 * between the raw capacity's slices; 4 miners per thread, --depth in flight each.
 */
function randomxPhase(report: Report, options: Options, db: BenchDatabaseKind): Promise<RandomXFigures> {
  const threads = options.rxThreads ?? (options.pin ? 1 : availableParallelism());
  return runRandomX(report, {
    db,
    seconds: options.quick ? 3 : options.seconds,
    rounds: options.quick ? 1 : 5,
    threads,
    connections: 4 * threads,
    depth: options.depth,
    pin: options.pin,
  });
}

/** Manjam's reject port, then (with --compare) the other pool, with the same scenario. */
async function rejectPhases(
  report: Report,
  options: Options,
  pool: PoolHandle,
  watch: DatabaseWatch | undefined,
): Promise<{ manjam: RejectFigures; other: RejectFigures | undefined }> {
  const spec = {
    connections: options.quick ? 100 : 1_000,
    seconds: options.quick ? 3 : options.seconds,
    depth: options.depth,
    threads: options.threads,
    // The pool writes reject counts every stratum.statsFlushSeconds (default 5 s).
    settleSeconds: 6,
  };
  const manjam = await runRejectPhase(
    report,
    {
      label: 'Manjam',
      host: '127.0.0.1',
      port: pool.rejectPort,
      pid: pool.pid,
      login: defaultRejectLogin(),
      manjam: { pool, watch },
    },
    spec,
  );
  report.line();
  if (!options.compare) return { manjam, other: undefined };
  const { host, port } = options.compare;
  const pid = options.comparePid ?? listeningPid(port);
  if (options.pin && pid !== undefined) pinProcess(pid, 0);
  const other = await runRejectPhase(
    report,
    {
      label: `other pool (pid ${pid ?? '?'})`,
      host,
      port,
      pid,
      login: options.compareLogin ?? defaultRejectLogin(),
    },
    spec,
  );
  printComparison(report, manjam, other);
  report.line();
  return { manjam, other };
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`bench:stratum failed: ${(error as Error).stack ?? String(error)}\n`);
    process.exit(1);
  },
);
