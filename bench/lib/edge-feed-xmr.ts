// Drill phase `feed-xmr`: a region's XMR block on its way to the core while the region's own
// JetStream leaf server is down (the XMR twin of phase `leaf`). Each cycle kills the leaf (kill -9),
// has the region's miner find a block while it is dead, starts the leaf again, and times the
// block until it is monerod's tip. Real NATS (a three-server core cluster, the region's leaf
// server), the real Monero regtest dev chain behind the core's XMR job feed, a region whose XMR
// port has no monerod, RandomX share checks on both sides. First it times new tips: monerod's
// tip -> the region miner's job.
//   --cycles=N (default 5)   --dead=MS (how long the leaf stays dead, default 3000)   --tips=N (default 10)
import {
  moneroLeafRestartCycle,
  moneroTip,
  onMoneroTip,
  startMoneroCoreOnFeed,
  startMoneroRegionOnFeed,
  type MoneroLeafRestartCycle,
} from '../../apps/server/test/support/coins/monero/jobfeed.js';
import type { MoneroTestMiner } from '../../apps/server/test/support/coins/monero/stratum/miner.js';
import { CORE_ATTEMPT_MS, UNREACHABLE_RETRY_MS } from '../../apps/server/src/jobfeed/core-submit.js';
import { chooseDatabase, openBenchDatabase } from './database.js';
import { Report, fixed, load } from './report.js';

/** The target: a found block at the core this soon after the region's leaf is back. */
const TARGET_S = 2;

interface Options {
  cycles: number;
  deadMs: number;
  tips: number;
}

function parse(argv: string[]): Options {
  const options: Options = { cycles: 5, deadMs: 3_000, tips: 10 };
  for (const arg of argv) {
    const [key, value = ''] = arg.replace(/^--/, '').split('=');
    if (key === 'cycles') options.cycles = Math.max(1, Number(value));
    if (key === 'dead') options.deadMs = Math.max(500, Number(value));
    if (key === 'tips') options.tips = Math.max(1, Number(value));
  }
  return options;
}

const seconds = (ms: number): string => fixed(ms / 1000, 2);

function summary(report: Report, label: string, values: number[], unit: 's' | 'ms' = 's'): void {
  const sorted = [...values].sort((a, b) => a - b);
  const median = sorted[Math.floor((sorted.length - 1) / 2)] ?? Number.NaN;
  const show = (ms: number): string => (unit === 's' ? `${seconds(ms)} s` : `${ms} ms`);
  report.line(`  ${label.padEnd(44)} median ${show(median)}, max ${show(sorted.at(-1) ?? Number.NaN)}`);
}

/** monerod's new tips (mined at the core) -> the region miner's job on the next height. */
async function newTips(
  core: Awaited<ReturnType<typeof startMoneroCoreOnFeed>>,
  miner: MoneroTestMiner,
  tips: number,
): Promise<number[]> {
  const latencies: number[] = [];
  for (let i = 0; i < tips; i++) {
    const minedAt = Date.now();
    await core.chain.devchain?.mine(1);
    const { height } = await moneroTip(core);
    await miner.nextJob((j) => j.height === height + 1);
    latencies.push(Date.now() - minedAt);
  }
  return latencies;
}

export async function runEdgeFeedXmr(report: Report, argv: string[]): Promise<void> {
  const options = parse(argv);
  report.line(
    `phase feed-xmr: XMR on the core job feed; a block found while the region's leaf server is dead ` +
      `(${options.cycles} cycles, leaf dead ${seconds(options.deadMs)} s each; attempt ${CORE_ATTEMPT_MS} ms, ` +
      `retry ${UNREACHABLE_RETRY_MS} ms)`,
  );
  report.line(`  load before: ${load()}`);
  const kind = await chooseDatabase(undefined);
  const [core, database] = await Promise.all([startMoneroCoreOnFeed(), openBenchDatabase(kind)]);
  const region = await startMoneroRegionOnFeed(core, { database, silenceS: 60, instanceId: 9 });
  try {
    const miner = await region.connectMiner();
    const login = await miner.login(region.login);
    if (login.error) throw new Error(`login refused: ${login.error.message}`);
    await onMoneroTip(core, miner);
    summary(
      report,
      `monerod tip -> region miner's job (${options.tips})`,
      await newTips(core, miner, options.tips),
      'ms',
    );
    const cycles: MoneroLeafRestartCycle[] = [];
    for (let i = 1; i <= options.cycles; i++) {
      const cycle = await moneroLeafRestartCycle(core, region, miner, options.deadMs);
      cycles.push(cycle);
      report.line(
        `  cycle ${i}: on monerod ${seconds(cycle.leafBackToDeliveredMs)} s after the leaf was back ` +
          `(${seconds(cycle.restartToDeliveredMs)} s after its restart began), ` +
          `${seconds(cycle.foundToDeliveredMs)} s after it was found; recorded "${cycle.recorded}"`,
      );
    }
    summary(
      report,
      'leaf back (ready, linked) -> block on monerod',
      cycles.map((c) => c.leafBackToDeliveredMs),
    );
    summary(
      report,
      'leaf restart begun -> block on monerod',
      cycles.map((c) => c.restartToDeliveredMs),
    );
    summary(
      report,
      'block found -> block on monerod',
      cycles.map((c) => c.foundToDeliveredMs),
    );
    const worst = Math.max(...cycles.map((c) => c.leafBackToDeliveredMs));
    report.line(
      `  target <= ${TARGET_S} s after the leaf is back: ${worst <= TARGET_S * 1000 ? 'met' : 'MISSED'} ` +
        `(worst ${seconds(worst)} s); XMR blocks submitted by the core: ${core.feed.stats.blocksSubmitted}; ` +
        `database ${kind}; load after: ${load()}`,
    );
  } finally {
    await region.stop();
    await core.stop();
    await database.close();
  }
}
