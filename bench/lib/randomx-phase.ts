// The randomx phase (issue 18): shares/s the pool validates on its XMR port against what the same
// RandomX threads hash raw, and the pool's memory per RandomX epoch.
//
// 1. The pool (lib/randomx-pool.ts) on a frozen mainnet-scale template from a fake monerod
//    (lib/fake-monerod.ts), and the raw capacity process (lib/randomx-capacity.ts: RandomXPool,
//    the pool's thread count), both pinned to core 0 with --pin.
// 2. Miners (lib/monero-load.ts) log in with mainnet addresses.
// 3. The window is cut in `rounds` slices, each a capacity slice then a pool slice of the same
//    length (the other side idle meanwhile), so on a shared machine both see the same load.
//    Between the two the miners' shares (difficulty 1) are mined, in this process with its own
//    RandomXPool: each miner is topped up to what the slice could take if every pool thread had a
//    whole core at the best hashes per CPU-second measured so far, plus 30 % (a slice that runs
//    out says so). Pool slice: the miners replay their shares, `depth` in flight each; accepted within the slice /
//    its length is the shares/s; pool CPU from /proc over the slice. Shares still in flight at a
//    slice's end are answered (drained) and count only for the per-CPU-second figure, whose CPU
//    runs until they are. Target: accepted shares/s >= 80 % of the raw hashes/s.
// 4. Memory per epoch: the fake node announces the next epoch's seed (the server prepares its
//    cache, as on mainnet 64 blocks before the switch), then switches to it and announces a third
//    (the pool keeps 2 seeds: the oldest is released). The pool's RSS at each step.
import { availableParallelism } from 'node:os';
import { RandomXPool } from '@manjam/randomx';
import { ADDRESSES } from '../../packages/protocol/test/monero/test-fixtures.js';
import type { BenchDatabaseKind } from './database.js';
import { FakeMonerod, XMR_MAINNET_DIFFICULTY, XMR_NEXT_SEEDS, XMR_SEED } from './fake-monerod.js';
import { MoneroLoad, type MoneroRun } from './monero-load.js';
import { processCpuUs, splitThreadCpu, threadCpuUs } from './proc-cpu.js';
import { RandomXCapacityProcess, sumCapacity, type RandomXCapacity } from './randomx-capacity.js';
import { RandomXPoolHandle } from './randomx-pool-handle.js';
import { fixed, int, load, ms, percentile, verdict, type Report } from './report.js';

export interface RandomXPhaseOptions {
  db: BenchDatabaseKind;
  /** The pool's whole window (and the capacity's), cut in `rounds` slices. */
  seconds: number;
  rounds: number;
  /** RandomX threads of the pool (and of the capacity process). */
  threads: number;
  connections: number;
  depth: number;
  /** Pool and capacity process on core 0, this process (the miners) on core 1. */
  pin: boolean;
}

export interface RandomXFigures {
  threads: number;
  connections: number;
  depth: number;
  acceptedPerSecond: number;
  perPoolCpuSecond: number;
  poolCpuPercent: number;
  capacity: RandomXCapacity;
  /** Accepted shares/s as a percentage of the raw hashes/s of the same threads. */
  percentOfCapacity: number;
  /** The same per CPU-second (fair under load). */
  percentPerCpuSecond: number;
  /**
   * Pool RSS (MiB): before the first seed's cache, with it (one VM), after the window (a VM per
   * thread, the miners' traffic), with the next epoch's seed prepared, after the switch.
   */
  memory: { noSeed: number; oneSeed: number; afterRun: number; twoSeeds: number; afterSwitch: number };
  blocksSubmitted: number;
}

/** Mined shares per share a slice could take with a whole core per pool thread. */
const MINING_MARGIN = 1.3;
const MIB = 2 ** 20;

/** Every other miner logs in with a mainnet subaddress. */
const MINER_ADDRESSES = [ADDRESSES.mainnet.standard, ADDRESSES.mainnet.subaddress] as const;

interface PoolSlice {
  run: MoneroRun;
  /** Pool CPU over the slice, and until its last share was answered (µs). */
  windowCpuUs: number;
  drainedCpuUs: number;
  /** The drained span's CPU by thread: the RandomX threads (the busiest besides main), main, the rest (µs). */
  byThread: { randomx: number; main: number; other: number };
}

export async function runRandomX(report: Report, o: RandomXPhaseOptions): Promise<RandomXFigures> {
  const core = o.pin ? 0 : undefined;
  const where = o.pin ? ' on core 0' : '';
  const capacity = await RandomXCapacityProcess.start({ threads: o.threads, core });
  const node = await FakeMonerod.start();
  const pool = await RandomXPoolHandle.start({ db: o.db, daemonUrl: node.url, threads: o.threads, core });
  let miners: MoneroLoad | undefined;
  let miningPool: RandomXPool | undefined;
  try {
    report.line(
      `[randomx] XMR port (MoneroStratumServer, pid ${pool.pid}), ${o.threads} RandomX threads (light mode)${where}, database ${o.db}; ` +
        `frozen template (real monerod blob, network difficulty ${XMR_MAINNET_DIFFICULTY.toLocaleString('en-US')}), share difficulty 1: every hash is a share, each checked with RandomX`,
    );
    report.line(
      `  load average before: ${load()}; first seed's cache built in ${int(pool.ready.prepareMs)} ms in the pool, ` +
        `${int(capacity.prepareMs)} ms (and every thread's VM) in the raw capacity process (RandomXPool, ${o.threads} threads${where})`,
    );
    miners = await MoneroLoad.connect(pool.ready.port, MINER_ADDRESSES, o.connections);
    report.line(`  ${o.connections} miners logged in (mainnet standard and subaddress logins), one job each`);
    const raw: RandomXCapacity[] = [];
    const slices: PoolSlice[] = [];
    const sliceSeconds = o.seconds / o.rounds;
    const mining = { shares: 0, seconds: 0 };
    miningPool = await miningRandomX(o.pin ? 1 : availableParallelism());
    for (let round = 1; round <= o.rounds; round++) {
      const c = await capacity.measure(sliceSeconds);
      raw.push(c);
      const ceiling = Math.max(...raw.map((r) => r.perCpuSecond)) * o.threads;
      const started = performance.now();
      mining.shares += await miners.mine(
        miningPool,
        Math.ceil((ceiling * sliceSeconds * MINING_MARGIN) / o.connections),
      );
      mining.seconds += (performance.now() - started) / 1000;
      const p = await poolSlice(miners, pool, sliceSeconds, o.depth, o.threads);
      slices.push(p);
      report.line(
        `  round ${round}: raw ${fixed(c.perSecond)} hashes/s (${fixed(c.perCpuSecond)} per CPU-second) | pool ${fixed(p.run.acceptedInTime / p.run.seconds)} accepted shares/s ` +
          `(${fixed(p.run.accepted / (p.drainedCpuUs / 1e6))} per CPU-second, ${int(p.windowCpuUs / 1e4 / p.run.seconds)} % of one core); load ${load()}`,
      );
    }
    miners.close();
    miners = undefined;
    await miningPool?.close();
    await capacity.stop();
    report.line(
      `  miners' shares mined between the slices: ${int(mining.shares)} in ${fixed(mining.seconds)} s (${fixed(mining.shares / mining.seconds)} H/s in this process)`,
    );
    const figures = summarize(o, sumCapacity(raw), slices);
    printRun(report, o, figures, slices);
    // Shares are written in batches four times a second.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    const settled = await pool.usage(true);
    report.line(
      `  persisted: ${int(settled.persisted)} of the ${int(settled.accepted)} shares the pool accepted, 2.5 s after the last round`,
    );
    const memory = await epochs(node, pool);
    report.line(
      `  memory (pool RSS): no cache ${fixed(memory.noSeed)} MiB -> first seed's cache ${fixed(memory.oneSeed)} MiB (+${fixed(memory.oneSeed - memory.noSeed)}) -> ` +
        `after the window ${fixed(memory.afterRun)} MiB -> next epoch's seed prepared, 2 seeds ${fixed(memory.twoSeeds)} MiB (+${fixed(memory.twoSeeds - memory.afterRun)} MiB per epoch) -> ` +
        `switched, a third seed prepared and the oldest released (keepSeeds 2) ${fixed(memory.afterSwitch)} MiB`,
    );
    report.line(`  blocks submitted: ${node.submittedBlocks} (should be 0)`);
    return { ...figures, memory, blocksSubmitted: node.submittedBlocks };
  } finally {
    miners?.close();
    await miningPool?.close();
    await capacity.stop();
    await pool.stop();
    await node.close();
  }
}

async function poolSlice(
  miners: MoneroLoad,
  pool: RandomXPoolHandle,
  seconds: number,
  depth: number,
  threads: number,
): Promise<PoolSlice> {
  const threadsBefore = threadCpuUs(pool.pid);
  const cpuBefore = processCpuUs(pool.pid) ?? 0;
  let cpuEnd = cpuBefore;
  const run = await miners.run(seconds, depth, () => {
    cpuEnd = processCpuUs(pool.pid) ?? cpuBefore;
  });
  const drained = processCpuUs(pool.pid) ?? cpuEnd;
  const split = splitThreadCpu(pool.pid, threadsBefore, threadCpuUs(pool.pid), threads);
  return {
    run,
    windowCpuUs: cpuEnd - cpuBefore,
    drainedCpuUs: drained - cpuBefore,
    byThread: { main: split.main, randomx: split.busiest, other: split.other },
  };
}

function summarize(
  o: RandomXPhaseOptions,
  capacity: RandomXCapacity,
  slices: PoolSlice[],
): Omit<RandomXFigures, 'memory' | 'blocksSubmitted'> {
  const sum = (pick: (s: PoolSlice) => number) => slices.reduce((n, s) => n + pick(s), 0);
  const seconds = sum((s) => s.run.seconds);
  const acceptedPerSecond = sum((s) => s.run.acceptedInTime) / seconds;
  const perPoolCpuSecond = sum((s) => s.run.accepted) / (sum((s) => s.drainedCpuUs) / 1e6);
  return {
    threads: o.threads,
    connections: o.connections,
    depth: o.depth,
    acceptedPerSecond,
    perPoolCpuSecond,
    poolCpuPercent: (sum((s) => s.windowCpuUs) / 1e6 / seconds) * 100,
    capacity,
    percentOfCapacity: (acceptedPerSecond / capacity.perSecond) * 100,
    percentPerCpuSecond: (perPoolCpuSecond / capacity.perCpuSecond) * 100,
  };
}

/** The miners' own RandomXPool (in this process; closed after the rounds: 256 MiB). */
async function miningRandomX(threads: number): Promise<RandomXPool> {
  const randomx = new RandomXPool({ threads, mode: 'light' });
  await randomx.prepare(Uint8Array.from(Buffer.from(XMR_SEED, 'hex')));
  return randomx;
}

function printRun(
  report: Report,
  o: RandomXPhaseOptions,
  f: Omit<RandomXFigures, 'memory' | 'blocksSubmitted'>,
  slices: PoolSlice[],
): void {
  const latencies = Float64Array.from(slices.flatMap((s) => [...s.run.latencies])).sort();
  const sent = slices.reduce((n, s) => n + s.run.sent, 0);
  const rejected: Record<string, number> = {};
  for (const s of slices)
    for (const [message, n] of Object.entries(s.run.rejected))
      rejected[message] = (rejected[message] ?? 0) + n;
  const refusals = Object.entries(rejected).map(([message, n]) => `${int(n)} x "${message}"`);
  const unanswered = slices.reduce((n, s) => n + s.run.unanswered, 0);
  const starved = slices.some((s) => s.run.starved > 0);
  report.line(
    `  ${o.rounds} x ${fixed(o.seconds / o.rounds)} s, ${o.connections} miners, ${o.depth} in flight each: ACCEPTED ${fixed(f.acceptedPerSecond)} shares/s, ` +
      `rejected: ${refusals.length === 0 ? 'none' : refusals.join(', ')}${unanswered > 0 ? `, ${int(unanswered)} unanswered` : ''}` +
      `${starved ? ', RAN OUT of mined shares (a lower bound)' : ''}`,
  );
  report.line(
    `  submit-to-reply: p50 ${ms(percentile(latencies, 50, sent))}, p99 ${ms(percentile(latencies, 99, sent))}, max ${ms(percentile(latencies, 100, sent))}; ` +
      `pool CPU ${int(f.poolCpuPercent)} % of one core, ${fixed(f.perPoolCpuSecond)} accepted shares per pool CPU-second`,
  );
  const accepted = slices.reduce((n, s) => n + s.run.accepted, 0);
  const cpu = (pick: (t: PoolSlice['byThread']) => number) =>
    slices.reduce((n, s) => n + pick(s.byThread), 0) / 1e3 / accepted;
  report.line(
    `  pool CPU per accepted share (ms): ${fixed(
      cpu((t) => t.randomx),
      2,
    )} in the ${o.threads} RandomX threads (raw: ${fixed(f.capacity.hashThreadsCpuUs / 1e3 / f.capacity.hashes, 2)} per hash in its ${o.threads} busiest threads, ${fixed(1e3 / f.capacity.perCpuSecond, 2)} in the whole process), ` +
      `${fixed(
        cpu((t) => t.main),
        2,
      )} in the main thread, ${fixed(
        cpu((t) => t.other),
        2,
      )} in the others (database driver, journal, libuv, V8)`,
  );
  report.line(
    `  raw capacity over the same rounds: ${fixed(f.capacity.perSecond)} hashes/s, ${fixed(f.capacity.perCpuSecond)} per CPU-second (${int(f.capacity.cpuPercent)} % of one core)`,
  );
  report.line(
    `  vs raw capacity of the same ${o.threads} threads: ${fixed(f.acceptedPerSecond)} / ${fixed(f.capacity.perSecond)} = ${fixed(f.percentOfCapacity)} % (target >= 80 %: ${verdict(f.percentOfCapacity >= 80)}); ` +
      `per CPU-second ${fixed(f.perPoolCpuSecond)} / ${fixed(f.capacity.perCpuSecond)} = ${fixed(f.percentPerCpuSecond)} %`,
  );
}

/** The pool's RSS through two epoch changes (MiB). */
async function epochs(node: FakeMonerod, pool: RandomXPoolHandle): Promise<RandomXFigures['memory']> {
  const [second, third] = XMR_NEXT_SEEDS;
  const afterRun = (await pool.usage()).rss;
  node.moveTip({ nextSeed: second });
  const two = await pool.epoch(second);
  node.moveTip({ seed: second, nextSeed: third });
  const switched = await pool.epoch(third);
  if (two.liveSeeds !== 2 || switched.liveSeeds !== 2)
    throw new Error(`the pool kept ${two.liveSeeds} then ${switched.liveSeeds} seeds (expected 2 and 2)`);
  return {
    noSeed: pool.ready.rssNoSeed / MIB,
    oneSeed: pool.ready.rssOneSeed / MIB,
    afterRun: afterRun / MIB,
    twoSeeds: two.rss / MIB,
    afterSwitch: switched.rss / MIB,
  };
}
