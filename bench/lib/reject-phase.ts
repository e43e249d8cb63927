// The rejected-shares phase: N connections, each its own worker, send shares that are not mined
// (nonces 0, 1, 2...) as fast as the pool answers; the pool hashes every one in full and rejects
// it as low difficulty. The same phase runs against Manjam's reject port and, side by side,
// against another Stratum pool (--compare host:port): neither needs shares mined to its target,
// so the two do the same work per share and their figures compare.
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import type { WriteCounts } from './counting-database.js';
import { writesBetween } from './counting-database.js';
import { printDatabase, type DatabaseCpu, type DatabaseWatch } from './database-watch.js';
import { MAINNET_POOL_ADDRESS } from './frozen-source.js';
import { Generator, type MergedRun } from './generator.js';
import type { PoolHandle } from './pool-handle.js';
import { processCpuUs } from './proc-cpu.js';
import { codes, fixed, int, ms, percentile, type Report } from './report.js';

export interface RejectTarget {
  label: string;
  host: string;
  port: number;
  /** The pool's process, for its CPU and RSS (/proc); undefined when it cannot be found. */
  pid: number | undefined;
  /** Stratum login; each connection appends its own worker number. */
  login: string;
  /** Manjam's own pool: its write counters and PostgreSQL backends. */
  manjam?: { pool: PoolHandle; watch: DatabaseWatch | undefined };
}

export interface RejectSpec {
  connections: number;
  seconds: number;
  depth: number;
  threads: number;
  /** After the phase, how long the pool's database work is still counted (its stats interval). */
  settleSeconds: number;
}

export interface RejectFigures {
  label: string;
  answeredPerSecond: number;
  perPoolCpuSecond: number | undefined;
  p50: number;
  p99: number;
}

/** Shares prepared per second of the phase: more than any pool here answers. */
const BUDGET_PER_SECOND = 60_000;

export function defaultRejectLogin(): string {
  return `${MAINNET_POOL_ADDRESS.BTC}.rig`;
}

function rssOf(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

const MIB = 2 ** 20;

export async function runRejectPhase(
  report: Report,
  target: RejectTarget,
  spec: RejectSpec,
): Promise<RejectFigures> {
  const generator = Generator.start(spec.threads, {
    host: target.host,
    port: target.port,
    coin: 'BTC',
    login: target.login,
    distinctWorkers: true,
  });
  let run: MergedRun;
  let poolCpuUs: number | undefined;
  let settledCpuUs: number | undefined;
  let database: DatabaseCpu | undefined;
  let writes: WriteCounts | undefined;
  const rssBefore = rssOf(target.pid);
  try {
    const connected = await generator.connect(spec.connections);
    if (connected.ok === 0)
      throw new Error(`${target.label}: no connection (${connected.firstError ?? '?'})`);
    const perConnection = Math.ceil((BUDGET_PER_SECOND * spec.seconds) / connected.ok);
    await generator.prepare(perConnection, true);
    const before = await target.manjam?.pool.usage();
    target.manjam?.watch?.begin();
    const cpuBefore = target.pid === undefined ? undefined : processCpuUs(target.pid);
    run = await generator.run({ mode: 'max', seconds: spec.seconds, depth: spec.depth });
    const cpuAfter = target.pid === undefined ? undefined : processCpuUs(target.pid);
    if (cpuBefore !== undefined && cpuAfter !== undefined) poolCpuUs = cpuAfter - cpuBefore;
    if (target.manjam) {
      // Counted until the pool's next stats interval has written the phase's reject counts.
      await new Promise((resolve) => setTimeout(resolve, spec.settleSeconds * 1000));
      const settled = await target.manjam.pool.usage();
      settledCpuUs = settled.cpuUs - (before?.cpuUs ?? settled.cpuUs);
      database = await target.manjam.watch?.end();
      writes = writesBetween(before?.writes ?? {}, settled.writes);
    }
    report.line(
      `[sha256d-rejects: ${target.label}] ${target.host}:${target.port}, ${int(connected.ok)} connections (${int(connected.failed)} failed), ` +
        `each its own worker, ${spec.depth} in flight each, ${spec.seconds} s; shares not mined: every one hashed in full and rejected`,
    );
  } finally {
    await generator.close().catch(() => undefined);
  }
  run.latencies.sort();
  const answered = run.latencies.length;
  const figures: RejectFigures = {
    label: target.label,
    answeredPerSecond: answered / run.wallSeconds,
    perPoolCpuSecond: poolCpuUs === undefined ? undefined : answered / (poolCpuUs / 1e6),
    p50: percentile(run.latencies, 50, run.sent),
    p99: percentile(run.latencies, 99, run.sent),
  };
  report.line(
    `  ANSWERED ${int(figures.answeredPerSecond)} shares/s (sent ${int(run.sent)}, accepted ${int(run.accepted)}, rejected ${codes(run.rejected)}, ` +
      `unanswered ${int(run.unanswered)}${run.starved > 0 ? `, RAN OUT of prepared shares ${int(run.starved)} times` : ''})`,
  );
  report.line(
    `  latency p50 ${ms(figures.p50)}, p99 ${ms(figures.p99)}, max ${ms(percentile(run.latencies, 100, run.sent))}; ` +
      `generator CPU ${int((run.cpuUs / 1e6 / run.wallSeconds) * 100)} %`,
  );
  const rssAfter = rssOf(target.pid);
  if (poolCpuUs === undefined) {
    report.line('  pool CPU: unknown (no pid: pass --compare-pid=N)');
  } else {
    report.line(
      `  pool CPU ${fixed(poolCpuUs / 1e6)} CPU-s = ${int((poolCpuUs / 1e6 / run.wallSeconds) * 100)} % of one core (/proc/${target.pid}/stat): ` +
        `${int(figures.perPoolCpuSecond ?? 0)} shares per pool CPU-second = ${fixed(poolCpuUs / Math.max(1, answered))} us per share` +
        (settledCpuUs === undefined
          ? ''
          : `; ${fixed(settledCpuUs / Math.max(1, answered))} us counting ${spec.settleSeconds} s after it`) +
        (rssBefore === undefined || rssAfter === undefined
          ? ''
          : `; RSS ${fixed(rssBefore / MIB)} -> ${fixed(rssAfter / MIB)} MiB`),
    );
  }
  if (target.manjam && writes) printDatabase(report, database, writes, settledCpuUs ?? 0, answered);
  return figures;
}

/** The process listening on a local TCP port (this user's processes only), from /proc/net/tcp{,6}. */
export function listeningPid(port: number): number | undefined {
  const inodes = new Set<string>();
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      const local = f[1];
      // State 0A: LISTEN; inode is the 10th field.
      if (local && f[3] === '0A' && parseInt(local.split(':')[1] ?? '', 16) === port && f[9])
        inodes.add(f[9]);
    }
  }
  if (inodes.size === 0) return undefined;
  for (const pidText of readdirSafe('/proc')) {
    if (!/^\d+$/.test(pidText)) continue;
    for (const fd of readdirSafe(`/proc/${pidText}/fd`)) {
      const link = readlinkSafe(`/proc/${pidText}/fd/${fd}`);
      const inode = /^socket:\[(\d+)\]$/.exec(link ?? '')?.[1];
      if (inode && inodes.has(inode)) return Number(pidText);
    }
  }
  return undefined;
}

function readdirSafe(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function readlinkSafe(path: string): string | undefined {
  try {
    return readlinkSync(path);
  } catch {
    return undefined;
  }
}

/** The side-by-side lines: Manjam against the other pool. */
export function printComparison(report: Report, manjam: RejectFigures, other: RejectFigures): void {
  const ratio = (a: number | undefined, b: number | undefined) =>
    a === undefined || b === undefined || b === 0 ? 'n/a' : `${fixed(a / b, 2)}x`;
  report.line(
    `  side by side (${manjam.label} / ${other.label}): shares/s ${int(manjam.answeredPerSecond)} / ${int(other.answeredPerSecond)} = ${ratio(manjam.answeredPerSecond, other.answeredPerSecond)}; ` +
      `per pool CPU-second ${int(manjam.perPoolCpuSecond ?? 0)} / ${int(other.perPoolCpuSecond ?? 0)} = ${ratio(manjam.perPoolCpuSecond, other.perPoolCpuSecond)}; ` +
      `p99 ${ms(manjam.p99)} / ${ms(other.p99)}`,
  );
}
