// `npm run bench:memory`: where a pool process's memory and idle CPU go, per role. Each role is a
// real `manjam start --role <role>` process (the compiled server under plain node, with the
// production environment of scripts/pool-env.json) on a bcoin regtest dev chain, one BTC port:
// its memory as the process sees it (/metrics: process.memoryUsage(), and the embedded database's
// own share), its CPU over an idle window with no miner connected, then with N idle miners
// (subscribed and authorized, sending nothing) and the bytes each costs.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { startBtcDevChain } from '../apps/server/src/coins/bitcoin/devchain/index.js';
import type { Role } from '../apps/server/src/config/index.js';
import { freePort } from '../apps/server/src/devchain/child.js';
import { schemaUrl } from '../apps/server/test/support/pool-processes.js';
import { startWatched, type WatchedProcess } from '../apps/server/test/support/processes.js';
import { POSTGRES_URL, openBenchDatabase, type BenchDatabase } from './lib/database.js';
import { BOB_PAYOUT, sleep } from './lib/edge-caps-pool.js';
import { poolProcessEnv } from './lib/pool-env.js';
import { processCpuUs, threadCpuUs } from './lib/proc-cpu.js';
import { Report, fixed, int, load } from './lib/report.js';

const BUILD = fileURLToPath(new URL('../scripts/build-server.mjs', import.meta.url));
/** The compiled server, run under plain node as `npm start` runs it (built here first, not in the pool). */
const SERVER_ENTRY = fileURLToPath(new URL('../apps/server/dist/src/cli.js', import.meta.url));
const MIB = 1024 * 1024;

/** A role run: `all` twice, on the embedded default (PGlite) and on PostgreSQL as the roles apart. */
interface Run {
  name: string;
  role: Role;
  embedded: boolean;
}
const RUNS: readonly Run[] = [
  { name: 'all (embedded PGlite)', role: 'all', embedded: true },
  { name: 'all (PostgreSQL)', role: 'all', embedded: false },
  { name: 'stratum (PostgreSQL)', role: 'stratum', embedded: false },
  { name: 'api (PostgreSQL)', role: 'api', embedded: false },
  { name: 'accounting (PostgreSQL)', role: 'accounting', embedded: false },
];

const { values } = parseArgs({
  options: {
    only: { type: 'string' },
    miners: { type: 'string', default: '1000,10000' },
    'idle-seconds': { type: 'string', default: '30' },
    'settle-seconds': { type: 'string', default: '15' },
    profile: { type: 'boolean', default: false },
  },
});
const only = values.only?.split(',');
const runs = RUNS.filter((r) => !only || only.some((o) => r.name.startsWith(o)));
const minerSteps = values.miners
  .split(',')
  .filter(Boolean)
  .map((n) => Number(n));
const idleSeconds = Number(values['idle-seconds']);
const settleSeconds = Number(values['settle-seconds']);

const report = new Report(
  fileURLToPath(
    new URL(`results/memory-${new Date().toISOString().replace(/[:.]/g, '-')}.txt`, import.meta.url),
  ),
);

/** What the process says of its memory (/metrics), or only its RSS (/proc) where it serves none. */
interface Memory {
  rss: number;
  /**
   * The RSS split as the kernel counts it (/proc): private memory (V8's heap, malloc, stacks), and
   * pages of mapped files (mostly the node binary's code and ICU data, shared with every node process).
   */
  anonRss: number;
  fileRss: number;
  heapUsed: number | undefined;
  heapTotal: number | undefined;
  external: number | undefined;
  arrayBuffers: number | undefined;
  /** The embedded database's thread heap and WebAssembly memory (PGlite only). */
  dbHeap: number | undefined;
  dbWasm: number | undefined;
}

/** A `<field>: N kB` line of /proc/<pid>/status, in bytes. */
function procStatus(pid: number, field: string): number {
  const match = readFileSync(`/proc/${pid}/status`, 'utf8').match(new RegExp(`${field}:\\s+(\\d+) kB`));
  return Number(match?.[1] ?? 0) * 1024;
}

async function readMemory(pid: number, metricsUrl: string | undefined): Promise<Memory> {
  const text = metricsUrl ? await (await fetch(metricsUrl)).text() : '';
  const sample = (name: string, kind: string): number | undefined => {
    const line = text.split('\n').find((l) => l.startsWith(`${name}{kind="${kind}"}`));
    return line ? Number(line.split(' ').at(-1)) : undefined;
  };
  const own = (kind: string) => sample('manjam_process_memory_bytes', kind);
  return {
    rss: own('rss') ?? procStatus(pid, 'VmRSS'),
    anonRss: procStatus(pid, 'RssAnon'),
    fileRss: procStatus(pid, 'RssFile'),
    heapUsed: own('heap_used'),
    heapTotal: own('heap_total'),
    external: own('external'),
    arrayBuffers: own('array_buffers'),
    dbHeap: sample('manjam_database_memory_bytes', 'heap_used'),
    dbWasm: sample('manjam_database_memory_bytes', 'wasm'),
  };
}

const mib = (n: number | undefined) => (n === undefined ? '-' : fixed(n / MIB, 1));

function memoryLine(label: string, m: Memory): string {
  const db = m.dbWasm === undefined ? '' : `; database: heap ${mib(m.dbHeap)}, wasm ${mib(m.dbWasm)}`;
  return (
    `  ${label}: RSS ${mib(m.rss)} MiB (private ${mib(m.anonRss)}, files ${mib(m.fileRss)}); ` +
    `heap ${mib(m.heapUsed)}/${mib(m.heapTotal)}, ` +
    `external ${mib(m.external)}, arrayBuffers ${mib(m.arrayBuffers)} MiB${db}`
  );
}

/** The idle window's CPU by thread: the main thread, then the others by name, busiest first (ms). */
function threadLine(pid: number, before: Map<number, number>, after: Map<number, number>): string {
  const byName = new Map<string, number>();
  for (const [tid, us] of after) {
    let name = 'gone';
    try {
      name = tid === pid ? 'main' : readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
    } catch {
      // the thread ended during the window
    }
    byName.set(name, (byName.get(name) ?? 0) + us - (before.get(tid) ?? 0));
  }
  return [...byName]
    .sort((a, b) => b[1] - a[1])
    .filter(([, us]) => us > 0)
    .map(([name, us]) => `${name} ${int(us / 1000)} ms`)
    .join(', ');
}

/** One idle miner: subscribed and authorized, then silent. Resolves with its socket once authorized. */
function idleMiner(port: number, login: string): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let text = '';
    const timer = setTimeout(() => fail(new Error('no authorize answer in 60 s')), 60_000);
    const fail = (error: Error) => {
      clearTimeout(timer);
      socket.destroy();
      reject(error);
    };
    socket.setEncoding('utf8');
    socket.once('error', fail);
    socket.on('data', (chunk: string) => {
      text += chunk;
      if (/"id":\s*2\b/.test(text)) {
        clearTimeout(timer);
        socket.removeAllListeners('data');
        socket.on('data', () => undefined);
        socket.off('error', fail);
        socket.on('error', () => undefined);
        resolve(socket);
      }
    });
    socket.write(
      `{"id":1,"method":"mining.subscribe","params":["manjam-bench-memory/1"]}\n` +
        `{"id":2,"method":"mining.authorize","params":["${login}","x"]}\n`,
    );
  });
}

/** Opens miners up to `count` (adding to `open`), `parallel` at a time. */
async function connectMiners(open: net.Socket[], count: number, port: number, parallel = 100): Promise<void> {
  while (open.length < count) {
    const batch = Math.min(parallel, count - open.length);
    const sockets = await Promise.all(
      Array.from({ length: batch }, (_, i) => idleMiner(port, `${BOB_PAYOUT}.idle${open.length + i}`)),
    );
    open.push(...sockets);
  }
}

/** Builds the server when a source is newer than the bundle (scripts/build-server.mjs), in a process of its own. */
function buildServer(): void {
  const built = spawnSync(process.execPath, [BUILD], { stdio: ['ignore', 'ignore', 'inherit'] });
  if (built.status !== 0) throw new Error(`building the server failed (${built.status})`);
}

async function startRole(run: Run, chain: Awaited<ReturnType<typeof startBtcDevChain>>, db: BenchDatabase) {
  buildServer();
  const dataDir = mkdtempSync(join(tmpdir(), 'manjam-bench-memory-'));
  const stratumPort = await freePort();
  const httpPort = await freePort();
  const maxMiners = Math.max(0, ...minerSteps);
  const config = {
    ...(run.embedded ? {} : { databaseUrl: schemaUrl(POSTGRES_URL, db.schema ?? '') }),
    dataDir,
    log: { level: 'warn', pretty: false },
    http: { host: '127.0.0.1', port: httpPort, webDist: '' },
    chains: {
      BTC: { rpc: chain.rpc, walletRpc: chain.walletRpc, poolAddress: chain.poolAddress },
      LTC: { enabled: false },
      XMR: { enabled: false },
      KAS: { enabled: false },
    },
    stratum: {
      host: '127.0.0.1',
      ports: [{ port: stratumPort, coin: 'BTC' }],
      maxConnectionsPerIp: maxMiners + 100,
      maxConnectionsPerPort: maxMiners + 100,
      seats: { perAddress: maxMiners + 100 },
      ban: { enabled: false },
    },
  };
  const file = join(dataDir, 'manjam.config.json');
  writeFileSync(file, JSON.stringify(config));
  // --profile: a V8 CPU profile of the pool's main thread (CPU.*.cpuprofile in bench/results/, written at its exit).
  const profile = values.profile
    ? ['--cpu-prof', `--cpu-prof-dir=${fileURLToPath(new URL('results', import.meta.url))}`]
    : [];
  const pool: WatchedProcess = startWatched(
    process.execPath,
    [...profile, SERVER_ENTRY, 'start', '--role', run.role, '--config', file],
    { cwd: dataDir, env: poolProcessEnv() },
  );
  await pool.waitFor(/Manjam is running\./, 300_000);
  const pid = pool.child.pid ?? 0;
  const serves = run.role !== 'accounting';
  return { pool, pid, stratumPort, metricsUrl: serves ? `http://127.0.0.1:${httpPort}/metrics` : undefined };
}

async function measure(run: Run, chain: Awaited<ReturnType<typeof startBtcDevChain>>): Promise<void> {
  const db = await openBenchDatabase('postgres');
  const started = Date.now();
  const { pool, pid, stratumPort, metricsUrl } = await startRole(run, chain, db);
  const open: net.Socket[] = [];
  try {
    report.line(`${run.name}: pid ${pid}, started in ${fixed((Date.now() - started) / 1000, 1)} s`);
    await sleep(settleSeconds * 1000);
    report.line(memoryLine(`idle after ${settleSeconds} s`, await readMemory(pid, metricsUrl)));
    const cpu0 = processCpuUs(pid) ?? 0;
    const threads0 = threadCpuUs(pid);
    await sleep(idleSeconds * 1000);
    const cpuMs = ((processCpuUs(pid) ?? 0) - cpu0) / 1000;
    const threads = threadLine(pid, threads0, threadCpuUs(pid));
    const per30 = (cpuMs * 30) / idleSeconds;
    report.line(
      `  idle CPU, no miner: ${int(per30)} ms per 30 s (${fixed((per30 / 30_000) * 100, 2)} % of a core, over ${idleSeconds} s)`,
    );
    report.line(`    by thread: ${threads}`);
    const idle = await readMemory(pid, metricsUrl);
    report.line(memoryLine(`idle after the CPU window`, idle));
    if (run.role === 'all' || run.role === 'stratum') {
      let previous: { count: number; memory: Memory } | undefined;
      for (const count of minerSteps) {
        const t0 = Date.now();
        await connectMiners(open, count, stratumPort);
        await sleep(5_000);
        const loaded = await readMemory(pid, metricsUrl);
        const perMiner = (loaded.rss - idle.rss) / count;
        const heapPer = ((loaded.heapUsed ?? 0) - (idle.heapUsed ?? 0)) / count;
        report.line(
          memoryLine(
            `${int(count)} idle miners (connected in ${fixed((Date.now() - t0) / 1000, 1)} s)`,
            loaded,
          ),
        );
        report.line(
          `    per miner: RSS ${fixed(perMiner / 1024, 1)} KiB, V8 heap used ${fixed(heapPer / 1024, 1)} KiB`,
        );
        // Past the first step the garbage collector's timing matters less: the cost of each added miner.
        if (previous) {
          const added = count - previous.count;
          const rss = (loaded.rss - previous.memory.rss) / added;
          const heap = ((loaded.heapUsed ?? 0) - (previous.memory.heapUsed ?? 0)) / added;
          report.line(
            `    each of the ${int(added)} added: RSS ${fixed(rss / 1024, 1)} KiB, V8 heap used ${fixed(heap / 1024, 1)} KiB`,
          );
        }
        previous = { count, memory: loaded };
      }
      const cpu1 = processCpuUs(pid) ?? 0;
      await sleep(idleSeconds * 1000);
      const withMiners = (((processCpuUs(pid) ?? 0) - cpu1) / 1000) * (30 / idleSeconds);
      report.line(`  CPU with ${int(open.length)} idle miners: ${int(withMiners)} ms per 30 s`);
    }
  } finally {
    for (const socket of open) socket.destroy();
    pool.child.kill('SIGTERM');
    await pool.exited;
    await db.close();
  }
}

async function main(): Promise<void> {
  report.line(`# Manjam memory bench, ${new Date().toISOString()}`);
  report.line(
    `machine: ${cpus().length} cores (${cpus()[0]?.model ?? '?'}), load ${load()}, node ${process.version}`,
  );
  report.line(
    `command: npm run bench:memory -- --miners=${values.miners} --idle-seconds=${idleSeconds}` +
      (values.only ? ` --only=${values.only}` : ''),
  );
  const chain = await startBtcDevChain({ logger: pino({ level: 'warn' }) });
  try {
    for (const run of runs) await measure(run, chain);
  } finally {
    await chain.stop();
  }
  report.line(`load at the end: ${load()}`);
}

await main();
