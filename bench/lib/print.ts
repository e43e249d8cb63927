// Turns a scenario's raw numbers into the printed figures.
import type { Report } from './report.js';
import { codes, fixed, int, ms, percentile } from './report.js';
import { algorithmLabel, type ScenarioResult } from './scenario.js';

const MIB = 2 ** 20;

export interface Figures {
  connections: number;
  /** The fixed rate of a rate phase (shares/s), 0 for a max-rate phase. */
  fixedRate: number;
  /** Submits in flight per connection (1 for the fixed-rate phase). */
  depth: number;
  acceptedPerSecond: number;
  poolAcceptedPerSecond: number;
  p50: number;
  p99: number;
  kibPerConnection: number;
  poolCpuPercent: number;
  /** Accepted shares per CPU-second of the pool process over the phase: what one free core would sustain. */
  perPoolCpuSecond: number;
  /** The same, counting the CPU spent until the phase's shares were all in the database. */
  perPoolCpuSecondPersisted: number;
}

export function figures(r: ScenarioResult): Figures {
  const { run, pool } = r;
  return {
    connections: r.spec.connections,
    fixedRate: r.spec.mode.kind === 'rate' ? r.spec.mode.rate : 0,
    depth: r.spec.mode.kind === 'max' ? r.spec.mode.depth : 1,
    acceptedPerSecond: run.acceptedInTime / run.seconds,
    poolAcceptedPerSecond: (pool.after.accepted - pool.before.accepted) / pool.wallSeconds,
    p50: percentile(run.latencies, 50, run.sent),
    p99: percentile(run.latencies, 99, run.sent),
    kibPerConnection: (r.memory.connectedRss - r.memory.idleRss) / 1024 / Math.max(1, r.connected.ok),
    poolCpuPercent: ((pool.after.cpuUs - pool.before.cpuUs) / 1e6 / pool.wallSeconds) * 100,
    perPoolCpuSecond:
      (pool.after.accepted - pool.before.accepted) / ((pool.after.cpuUs - pool.before.cpuUs) / 1e6),
    perPoolCpuSecondPersisted:
      (pool.settled.accepted - pool.before.accepted) / ((pool.settled.cpuUs - pool.before.cpuUs) / 1e6),
  };
}

export function printScenario(report: Report, r: ScenarioResult): Figures {
  const f = figures(r);
  const { spec, run, pool, connected, mined, memory } = r;
  const mode =
    spec.mode.kind === 'max'
      ? `max rate (${spec.mode.depth} in flight per connection)`
      : `fixed ${int(spec.mode.rate)} shares/s`;
  report.line(
    `[${spec.label}] ${algorithmLabel(spec.coin)} (${spec.coin}), ${int(spec.connections)} connections, ${mode}, ${spec.seconds} s, database ${spec.db}`,
  );
  report.line(`  load average before: ${r.loadBefore.map((n) => n.toFixed(2)).join(' ')}`);
  report.line(
    `  connected ${int(connected.ok)} (${int(connected.failed)} failed${connected.firstError ? `: ${connected.firstError}` : ''}) in ${fixed(connected.seconds)} s, all subscribed, authorized, with a job`,
  );
  report.line(
    `  memory: pool RSS ${fixed(memory.idleRss / MIB)} -> ${fixed(memory.connectedRss / MIB)} MiB = ${fixed(f.kibPerConnection)} KiB per connection ` +
      `(JS heap ${fixed(memory.heapDelta / 1024 / Math.max(1, connected.ok))} KiB per connection)`,
  );
  report.line(
    `  mined ${int(mined.shares)} valid shares up front in ${fixed(mined.seconds)} s (${int(mined.tried)} nonces hashed)`,
  );
  report.line(
    `  ACCEPTED ${int(f.acceptedPerSecond)} shares/s (answered true within the ${fixed(run.seconds)} s phase: ${int(run.acceptedInTime)}; ` +
      `the pool's own counter: ${int(f.poolAcceptedPerSecond)}/s)`,
  );
  report.line(
    `  sent ${int(run.sent)}, accepted ${int(run.accepted)} in all, rejected ${codes(run.rejected)}, unanswered after 5 s ${int(run.unanswered)}` +
      (run.starved > 0 ? `, RAN OUT of mined shares ${int(run.starved)} times` : ''),
  );
  report.line(
    `  submit-to-reply latency over all ${int(run.sent)} submits: p50 ${ms(f.p50)}, p90 ${ms(percentile(run.latencies, 90, run.sent))}, ` +
      `P99 ${ms(f.p99)}, max ${ms(percentile(run.latencies, 100, run.sent))} (${int(run.latencies.length)} answered)`,
  );
  report.line(
    `  CPU: pool ${int(f.poolCpuPercent)} % of one core (all its threads), generator ${int((run.cpuUs / 1e6 / run.wallSeconds) * 100)} %; ` +
      `pool RSS at the end ${fixed(pool.after.rss / MIB)} MiB`,
  );
  report.line(
    `  pool cost: ${fixed(1e6 / f.perPoolCpuSecond)} us of pool CPU per accepted share during the phase = ${int(f.perPoolCpuSecond)} shares per pool CPU-second; ` +
      `${fixed(1e6 / f.perPoolCpuSecondPersisted)} us = ${int(f.perPoolCpuSecondPersisted)}/CPU-s counting until ${r.settleSeconds} s after it (share persistence included)`,
  );
  const loop = pool.after.loop;
  report.line(
    `  pool event loop over the phase: delay p50 ${ms(loop.delayP50Ms)}, p99 ${ms(loop.delayP99Ms)}, max ${ms(loop.delayMaxMs)}; ` +
      `GC ${int(loop.gcPauses)} pauses, ${ms(loop.gcTotalMs)} in all, longest ${ms(loop.gcMaxMs)}`,
  );
  const accepted = pool.after.accepted;
  report.line(
    `  persisted (pool-wide, since start): ${int(pool.after.persisted)} of ${int(accepted)} accepted shares in the database at the end of the phase, ` +
      `${int(pool.settled.persisted)} of ${int(pool.settled.accepted)} ${r.settleSeconds} s later; blocks submitted: ${pool.settled.blocksSubmitted}`,
  );
  return f;
}
