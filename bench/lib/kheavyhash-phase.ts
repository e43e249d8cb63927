// The kheavyhash phase (issue 28): the KAS port's validated shares against raw kHeavyHash on the
// same kind of core, and a thousand miners under ten templates a second.
//
// 1. Raw: the fast kHeavyHash path (per-job state, the pool's own code) in the pool's process
//    while it is idle, per CPU-second (lib/kheavyhash-speed.ts).
// 2. The pool (lib/kheavyhash-pool.ts: KaspaStratumServer, KaspaTemplateSource at the config's
//    job limit, ShareWriter into the database) on a frozen template. `submitters` miners keep
//    `depth` submits in flight each for `seconds`; every nonce is a share (difficulty 2^-32), so
//    each submit costs the pool one full kHeavyHash. Accepted shares per pool CPU-second against
//    the raw hashes per second: target >= 80 %.
//    Beside it, the floor (lib/kheavyhash-floor.ts): a bare Node server that only splits lines,
//    hashes and writes `true`, under the same miners: what no Node pool can beat on this machine.
// 3. 1,000 miners logged in (half four-word jobs, half the 80-hex big job) while the fake node
//    announces ten templates a second, each with new parents, as kaspad on mainnet; the
//    submitters keep one share in flight each. Jobs per second per miner, bytes per second to
//    all miners, pool CPU and RSS, and what the submitters were told.
import { KaspaLoadMiner } from './kaspa-load.js';
import type { BenchDatabaseKind } from './database.js';
import { KheavyhashFloorHandle } from './kheavyhash-floor-handle.js';
import { KheavyhashPoolHandle } from './kheavyhash-pool-handle.js';
import type { KheavyhashPoolUsage } from './kheavyhash-pool.js';
import { processCpuUs } from './proc-cpu.js';
import { codes, fixed, int, load, verdict, type Report } from './report.js';

export interface KheavyhashPhaseOptions {
  db: BenchDatabaseKind;
  seconds: number;
  /** Miners submitting in step 2 (and one share each in step 3). */
  submitters: number;
  depth: number;
  /** Miners logged in during step 3 (the submitters among them). */
  miners: number;
  /** NewBlockTemplate announcements a second in step 3. */
  templatesPerSecond: number;
  /** The pool on core 0, this process on core 1. */
  pin: boolean;
  /** Write a V8 CPU profile of the pool process there. */
  profileDir?: string | undefined;
}

export interface KheavyhashFigures {
  rawPerSecond: number;
  acceptedPerSecond: number;
  perPoolCpuSecond: number;
  percentPerCpuSecond: number;
  /** The bare floor server's shares per CPU-second as % of raw (the most this machine allows). */
  floorPercent: number;
  storm: {
    miners: number;
    jobsPerMinerSecond: number;
    bytesPerSecond: number;
    poolCpuPercent: number;
    rssMiB: number;
    announcedPerSecond: number;
    jobsPerSecond: number;
    rejected: number;
  };
}

const sum = (miners: KaspaLoadMiner[], pick: (m: KaspaLoadMiner) => number): number =>
  miners.reduce((n, m) => n + pick(m), 0);

async function connectAll(port: number, from: number, count: number): Promise<KaspaLoadMiner[]> {
  const miners: KaspaLoadMiner[] = [];
  // In batches, so a thousand logins do not all wait on one accept queue.
  for (let i = from; i < from + count; i += 100) {
    const batch = Array.from({ length: Math.min(100, from + count - i) }, (_, k) =>
      KaspaLoadMiner.connect(port, i + k),
    );
    miners.push(...(await Promise.all(batch)));
  }
  return miners;
}

/** Runs `work` for `seconds` and answers the pool's CPU-microseconds over it and the usage after. */
async function window(
  pool: KheavyhashPoolHandle,
  seconds: number,
  work: { start(): void; stop(): Promise<void> },
): Promise<{ cpuUs: number; elapsed: number; before: KheavyhashPoolUsage; after: KheavyhashPoolUsage }> {
  const before = await pool.usage();
  const cpuBefore = processCpuUs(pool.pid) ?? 0;
  const started = performance.now();
  work.start();
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  await work.stop();
  const elapsed = (performance.now() - started) / 1000;
  const cpuUs = (processCpuUs(pool.pid) ?? cpuBefore) - cpuBefore;
  return { cpuUs, elapsed, before, after: await pool.usage() };
}

export async function runKheavyhash(report: Report, o: KheavyhashPhaseOptions): Promise<KheavyhashFigures> {
  const pool = await KheavyhashPoolHandle.start(o.db, o.pin ? 0 : undefined, o.profileDir);
  const miners: KaspaLoadMiner[] = [];
  try {
    report.line(
      `[kheavyhash] KAS port (KaspaStratumServer, pid ${pool.pid})${o.pin ? ' on core 0' : ''}, database ${o.db}; ` +
        `mainnet header (no share is a block), share difficulty 2^-32: every nonce is a share, each checked with kHeavyHash`,
    );
    // Raw in the pool's own process (on the same core when pinned), per CPU-second as the pool
    // is counted: time the scheduler gives other work lowers neither (a wall-clock rate would).
    const raw = await pool.raw(2);
    report.line(
      `  raw kHeavyHash in the pool's process (idle): ${int(raw.perCpuSecond)} hashes per CPU-second ` +
        `(best 100 ms slice ${int(raw.perSecond)}/s); load ${load()}`,
    );

    const submitters = await connectAll(pool.port, 0, o.submitters);
    miners.push(...submitters);
    const flood = await window(pool, o.seconds, {
      start: () => submitters.forEach((m) => m.startSubmitting(o.depth)),
      stop: async () => {
        submitters.forEach((m) => m.stopSubmitting());
        await Promise.all(submitters.map((m) => m.drained()));
      },
    });
    const accepted = flood.after.accepted - flood.before.accepted;
    const acceptedPerSecond = accepted / flood.elapsed;
    const perPoolCpuSecond = accepted / (flood.cpuUs / 1e6);
    const percentPerCpuSecond = (perPoolCpuSecond / raw.perCpuSecond) * 100;
    report.line(
      `  ${o.submitters} miners x ${o.depth} in flight, ${fixed(flood.elapsed)} s: ${int(accepted)} accepted (${fixed(acceptedPerSecond)}/s), ` +
        `refused ${codes(flood.after.rejected)}; ${fixed(perPoolCpuSecond)} per pool CPU-second = ${fixed(percentPerCpuSecond)} % of raw ` +
        `${verdict(percentPerCpuSecond >= 80)} (target >= 80 %); pool at ${int(flood.cpuUs / 1e4 / flood.elapsed)} % of one core; load ${load()}`,
    );

    const floorPercent = await floorPhase(report, o, raw.perCpuSecond);

    miners.push(...(await connectAll(pool.port, o.submitters, o.miners - o.submitters)));
    const jobsBefore = sum(miners, (m) => m.jobs);
    const bytesBefore = sum(miners, (m) => m.bytes);
    const rejectedBefore = sum(submitters, (m) => m.rejected);
    const storm = await window(pool, o.seconds, {
      start: () => {
        void pool.setRate(o.templatesPerSecond);
        submitters.forEach((m) => m.startSubmitting(1));
      },
      stop: async () => {
        await pool.setRate(0);
        submitters.forEach((m) => m.stopSubmitting());
        await Promise.all(submitters.map((m) => m.drained()));
      },
    });
    const jobs = sum(miners, (m) => m.jobs) - jobsBefore;
    const bytes = sum(miners, (m) => m.bytes) - bytesBefore;
    const figures = {
      miners: miners.length,
      jobsPerMinerSecond: jobs / miners.length / storm.elapsed,
      bytesPerSecond: bytes / storm.elapsed,
      poolCpuPercent: storm.cpuUs / 1e4 / storm.elapsed,
      rssMiB: storm.after.rss / 2 ** 20,
      announcedPerSecond: (storm.after.announced - storm.before.announced) / storm.elapsed,
      jobsPerSecond: (storm.after.jobs - storm.before.jobs) / storm.elapsed,
      rejected: sum(submitters, (m) => m.rejected) - rejectedBefore,
    };
    report.line(
      `  ${int(figures.miners)} miners, ${fixed(figures.announcedPerSecond)} templates/s announced for ${fixed(storm.elapsed)} s: ` +
        `${fixed(figures.jobsPerSecond)} jobs/s made (the job limit), ${fixed(figures.jobsPerMinerSecond, 2)} jobs/s per miner, ` +
        `${int(figures.bytesPerSecond / 1024)} KiB/s to all miners (${int(figures.bytesPerSecond / figures.miners)} B/s each); ` +
        `pool ${int(figures.poolCpuPercent)} % of one core, RSS ${fixed(figures.rssMiB)} MiB; ` +
        `${int(storm.after.accepted - storm.before.accepted)} shares accepted meanwhile, ${int(figures.rejected)} refused; load ${load()}`,
    );
    return {
      rawPerSecond: raw.perCpuSecond,
      acceptedPerSecond,
      perPoolCpuSecond,
      percentPerCpuSecond,
      floorPercent,
      storm: figures,
    };
  } finally {
    for (const miner of miners) miner.close();
    await pool.stop();
  }
}

/** The same miners against the floor server: its shares per CPU-second as % of raw. */
async function floorPhase(report: Report, o: KheavyhashPhaseOptions, raw: number): Promise<number> {
  const floor = await KheavyhashFloorHandle.start(o.pin ? 0 : undefined);
  const miners = await connectAll(floor.port, 0, o.submitters);
  try {
    const before = await floor.usage();
    const started = performance.now();
    miners.forEach((m) => m.startSubmitting(o.depth));
    await new Promise((resolve) => setTimeout(resolve, o.seconds * 1000));
    miners.forEach((m) => m.stopSubmitting());
    await Promise.all(miners.map((m) => m.drained()));
    const elapsed = (performance.now() - started) / 1000;
    const after = await floor.usage();
    const shares = after.accepted - before.accepted;
    const perCpuSecond = shares / ((after.cpuUs - before.cpuUs) / 1e6);
    const percent = (perCpuSecond / raw) * 100;
    report.line(
      `  floor, a bare Node server (split lines, kHeavyHash, write true; no JSON, share book, journal or database), same miners: ` +
        `${int(shares)} in ${fixed(elapsed)} s, ${fixed(perCpuSecond)} per CPU-second = ${fixed(percent)} % of raw; load ${load()}`,
    );
    return percent;
  } finally {
    for (const miner of miners) miner.close();
    await floor.stop();
  }
}
