// Drill phase `leaf`: a region's found block on its way to the core while the region's own
// JetStream leaf server is down. Each cycle kills the leaf (kill -9), has the region's miner find
// a block while it is dead, starts the leaf again, and times the block until it is on the core's
// node. Real NATS (a three-server core cluster, the region's leaf server), a real bcoin regtest
// node behind the core's job feed, a region whose Stratum server has no node of its own.
//   --cycles=N (default 5)   --dead=MS (how long the leaf stays dead, default 3000)
import { StratumTestClient } from '../../apps/server/test/support/coins/bitcoin/stratum/client.js';
import {
  leafRestartCycle,
  startCoreOnFeed,
  startRegionOnFeed,
  type LeafRestartCycle,
} from '../../apps/server/test/support/coins/bitcoin/jobfeed.js';
import {
  CORE_ATTEMPT_MS,
  UNREACHABLE_RETRY_MS,
} from '../../apps/server/src/coins/bitcoin/jobfeed/core-submit.js';
import { chooseDatabase, openBenchDatabase } from './database.js';
import { Report, fixed, load } from './report.js';

/** The target: a found block at the core this soon after the region's leaf is back. */
const TARGET_S = 2;

interface Options {
  cycles: number;
  deadMs: number;
}

function parse(argv: string[]): Options {
  const options: Options = { cycles: 5, deadMs: 3_000 };
  for (const arg of argv) {
    const [key, value = ''] = arg.replace(/^--/, '').split('=');
    if (key === 'cycles') options.cycles = Math.max(1, Number(value));
    if (key === 'dead') options.deadMs = Math.max(500, Number(value));
  }
  return options;
}

const seconds = (ms: number): string => fixed(ms / 1000, 2);

function summary(report: Report, label: string, values: number[]): void {
  const sorted = [...values].sort((a, b) => a - b);
  const median = sorted[Math.floor((sorted.length - 1) / 2)] ?? Number.NaN;
  report.line(
    `  ${label.padEnd(44)} median ${seconds(median)} s, max ${seconds(sorted.at(-1) ?? Number.NaN)} s`,
  );
}

export async function runEdgeLeaf(report: Report, argv: string[]): Promise<void> {
  const options = parse(argv);
  report.line(
    `phase leaf: a block found while the region's leaf server is dead (${options.cycles} cycles, ` +
      `leaf dead ${seconds(options.deadMs)} s each; attempt ${CORE_ATTEMPT_MS} ms, retry ${UNREACHABLE_RETRY_MS} ms)`,
  );
  report.line(`  load before: ${load()}`);
  const kind = await chooseDatabase(undefined);
  const [core, database] = await Promise.all([startCoreOnFeed(30_000), openBenchDatabase(kind)]);
  let client: StratumTestClient | undefined;
  const region = await startRegionOnFeed(core, { database, silenceS: 60, instanceId: 9 });
  try {
    client = (await region.connectMiner()).client;
    const cycles: LeafRestartCycle[] = [];
    for (let i = 1; i <= options.cycles; i++) {
      const cycle = await leafRestartCycle(core, region, client, options.deadMs);
      cycles.push(cycle);
      report.line(
        `  cycle ${i}: at the core ${seconds(cycle.leafBackToDeliveredMs)} s after the leaf was back ` +
          `(${seconds(cycle.restartToDeliveredMs)} s after its restart began), ` +
          `${seconds(cycle.foundToDeliveredMs)} s after it was found; recorded "${cycle.recorded}"`,
      );
    }
    summary(
      report,
      'leaf back (ready, linked) -> block at the core',
      cycles.map((c) => c.leafBackToDeliveredMs),
    );
    summary(
      report,
      'leaf restart begun -> block at the core',
      cycles.map((c) => c.restartToDeliveredMs),
    );
    summary(
      report,
      'block found -> block at the core',
      cycles.map((c) => c.foundToDeliveredMs),
    );
    const worst = Math.max(...cycles.map((c) => c.leafBackToDeliveredMs));
    report.line(
      `  target <= ${TARGET_S} s after the leaf is back: ${worst <= TARGET_S * 1000 ? 'met' : 'MISSED'} ` +
        `(worst ${seconds(worst)} s); blocks submitted by the core: ${core.feed.stats.blocksSubmitted}; ` +
        `database ${kind}; load after: ${load()}`,
    );
  } finally {
    await client?.close();
    await region.stop();
    await core.stop();
    await database.close();
  }
}
