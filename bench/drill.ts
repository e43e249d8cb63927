// `npm run drill`: the pool under faults, in figures (asserts nothing). See bench/README.md.
//   (a) kill -9 of the pool under load, N cycles: acknowledged, stored, lost, seconds to resume;
//   (b) the node going silent (a hang past the silence limit, then a kill -9): shares acknowledged
//       and stored for work that could not reach a node, seconds to resume on a fresh job.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import type { BitcoinFamilyCoin } from '@manjam/protocol';
import { freePort } from '../apps/server/src/devchain/child.js';
import {
  startBtcDevChain,
  startLtcDevChain,
  type DevChain,
} from '../apps/server/src/coins/bitcoin/devchain/index.js';
import { schemaUrl } from '../apps/server/test/support/pool-processes.js';
import { POSTGRES_URL, openBenchDatabase, type BenchDatabase } from './lib/database.js';
import { killCycle, type KillCycle } from './lib/drill-kill.js';
import { nodeCycle, type NodeCycle } from './lib/drill-node.js';
import { DrillPool, silenceSetting } from './lib/drill-pool.js';
import { Report, fixed, int, load } from './lib/report.js';

interface Options {
  cycles: number;
  seconds: number;
  connections: number;
  coin: BitcoinFamilyCoin;
  silence: number;
  only: 'kill' | 'node' | undefined;
}

function parseOptions(argv: string[]): Options {
  const options: Options = {
    cycles: 5,
    seconds: 10,
    connections: 20,
    coin: 'BTC',
    silence: 10,
    only: undefined,
  };
  const positive = (value: string) => Number.isInteger(Number(value)) && Number(value) > 0;
  for (const arg of argv) {
    const [key, value = ''] = arg.replace(/^--/, '').split('=');
    if (key === 'cycles' && positive(value)) options.cycles = Number(value);
    else if (key === 'seconds' && positive(value)) options.seconds = Number(value);
    else if (key === 'connections' && positive(value)) options.connections = Number(value);
    else if (key === 'silence' && positive(value)) options.silence = Number(value);
    else if (key === 'coin' && (value === 'BTC' || value === 'LTC')) options.coin = value;
    else if (key === 'only' && (value === 'kill' || value === 'node')) options.only = value;
    else if (key === 'db' && value === 'postgres') continue;
    else if (key === 'db')
      throw new Error(
        'the drill runs on PostgreSQL only (--db=postgres): a killed pool must leave its database behind',
      );
    else throw new Error(`unknown or invalid option ${arg} (see bench/README.md)`);
  }
  return options;
}

const seconds = (s: number | null) => (s === null ? 'never' : `${fixed(s)} s`);

function printKill(report: Report, n: number, c: KillCycle): void {
  report.line(
    `  cycle ${n}: kill -9 after ${fixed(c.killedAfterSeconds)} s of load; acknowledged ${int(c.acknowledged)}, stored ${int(c.stored)} ` +
      `(of the acknowledged: ${int(c.storedOfAcknowledged)}), LOST ${int(c.lost)}; accepting again ${seconds(c.resumeSeconds)} after the kill`,
  );
}

function printNode(report: Report, c: NodeCycle, limit: number): void {
  const what = c.silence === 'hang' ? `SIGSTOP for ${limit + 5} s, then SIGCONT` : 'kill -9';
  report.line(
    `  node ${c.silence} (${what}): node answering again ${seconds(c.nodeBackSeconds)} after it went silent`,
  );
  report.line(`    acknowledged while the node was silent: ${int(c.acknowledgedWhileSilent)}`);
  report.line(
    `    STORED with a time past the ${limit} s silence limit: ${int(c.storedPastLimit)} (target 0)`,
  );
  report.line(
    `    first accepted share (on a fresh job when work had stopped): ${seconds(c.resumeSeconds)} after the node answered again (target <= 10 s)`,
  );
}

async function startChain(coin: BitcoinFamilyCoin): Promise<DevChain> {
  const logger = pino({ level: 'warn' });
  return coin === 'BTC' ? startBtcDevChain({ logger }) : startLtcDevChain({ logger, mweb: 'off' });
}

async function main(options: Options): Promise<void> {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const report = new Report(fileURLToPath(new URL(`./results/drill-${stamp}.txt`, import.meta.url)));
  const chainExtra = silenceSetting(options.coin, options.silence);
  report.line(`manjam drill, ${new Date().toISOString()}, load average ${load()}`);
  report.line(
    `  ${options.coin} regtest dev chain, PostgreSQL at ${POSTGRES_URL} (a fresh schema), one \`manjam start --role stratum\` process, ` +
      `${options.connections} miners with one share in flight each`,
  );
  report.line(
    chainExtra
      ? `  chains.${options.coin}.nodeSilenceSeconds = ${options.silence}`
      : `  this build has no chains.${options.coin}.nodeSilenceSeconds setting: the node figures are measured against ${options.silence} s`,
  );
  const chain = await startChain(options.coin);
  let database: BenchDatabase | undefined;
  const dataDir = await mkdtemp(join(tmpdir(), 'manjam-drill-'));
  let pool: DrillPool | undefined;
  try {
    database = await openBenchDatabase('postgres');
    const port = await freePort();
    pool = new DrillPool({
      coin: options.coin,
      chain,
      databaseUrl: schemaUrl(POSTGRES_URL, database.schema ?? ''),
      dataDir,
      stratumPort: port,
      chainExtra,
    });
    await pool.start();
    const base = { coin: options.coin, db: database.db, port, address: chain.poolAddress };
    if (options.only !== 'node')
      await killCycles(
        report,
        { ...base, pool, connections: options.connections, seconds: options.seconds },
        options.cycles,
      );
    if (options.only !== 'kill') {
      report.line('(b) the node goes silent under mining');
      const drill = {
        ...base,
        chain,
        miners: Math.min(options.connections, 8),
        limitSeconds: options.silence,
      };
      for (const silence of ['hang', 'kill'] as const)
        printNode(report, await nodeCycle(drill, silence), options.silence);
    }
  } finally {
    await pool?.stop();
    await database?.close();
    await chain.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

async function killCycles(
  report: Report,
  drill: Parameters<typeof killCycle>[0],
  cycles: number,
): Promise<void> {
  report.line(
    `(a) kill -9 of the pool under load, ${cycles} cycles, restarted on the same dataDir and database`,
  );
  const total = { acknowledged: 0, stored: 0, storedOfAcknowledged: 0, lost: 0, resume: [] as number[] };
  for (let n = 1; n <= cycles; n++) {
    const c = await killCycle(drill, n);
    printKill(report, n, c);
    total.acknowledged += c.acknowledged;
    total.stored += c.stored;
    total.storedOfAcknowledged += c.storedOfAcknowledged;
    total.lost += c.lost;
    if (c.resumeSeconds !== null) total.resume.push(c.resumeSeconds);
  }
  const worst = total.resume.length ? Math.max(...total.resume) : null;
  report.line(
    `  TOTAL: acknowledged ${int(total.acknowledged)}, stored ${int(total.stored)} (of the acknowledged: ${int(total.storedOfAcknowledged)}), ` +
      `LOST ${int(total.lost)} (target 0); accepting again after the kill: worst ${seconds(worst)}`,
  );
}

main(parseOptions(process.argv.slice(2))).catch((error: unknown) => {
  process.stderr.write(`drill: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
