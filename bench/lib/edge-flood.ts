// Drill phase "flood" (issue 25 item 1): an honest miner's accepted/rejected shares and submit
// round trips (p50/p99) while 1, 4 and 16 connections from 1 and 4 loopback addresses flood a
// port with garbage that needs a proof-of-work hash to refuse: the RandomX port (a real regtest
// monerod, all-zero claimed results) and a Scrypt port (litecoind regtest, random nonces on a
// high-difficulty port). Bans are off while the honest miner measures (the flood goes on: the
// fair queue alone must protect it); then, with bans on, 16 flooders from 4 addresses are cut and
// the ban counts printed. Target: every honest share checked and accepted, p99 <= 2x quiet.
//   npm run drill:edges -- --only=flood [--shares=N] [--xmr-only|--ltc-only]
import { pino } from 'pino';
import { startLtcDevChain } from '../../apps/server/src/coins/bitcoin/devchain/index.js';
import {
  MoneroFlooder,
  moneroHonestRound,
} from '../../apps/server/test/support/coins/monero/stratum/flooder.js';
import {
  FIXED_VARDIFF,
  startStandalone,
  type StandalonePort,
} from '../../apps/server/test/support/coins/monero/stratum/standalone.js';
import { StratumTestClient } from '../../apps/server/test/support/coins/bitcoin/stratum/client.js';
import {
  StratumFlooder,
  stratumHonestRound,
} from '../../apps/server/test/support/coins/bitcoin/stratum/flooder.js';
import {
  startPoolOnChain,
  testLogger,
  type PoolOnChain,
} from '../../apps/server/test/support/coins/bitcoin/stratum/harness.js';
import { fixed, int, load, ms, percentile, verdict, type Report } from './report.js';

/** Flooding shapes: connections, addresses. */
const SHAPES: [number, number][] = [
  [1, 1],
  [4, 1],
  [4, 4],
  [16, 1],
  [16, 4],
];
const XMR_NETWORK_DIFFICULTY = 5n;
const XMR_FLOOD_PER_SECOND = 100;
/**
 * The honest XMR miner submits a share every 3 s (5x a real miner's 15 s vardiff target): this
 * machine hashes RandomX at a few H/s under load, so a miner submitting as fast as it can would
 * ask for more than its fair share (it measured so on the first runs).
 */
const XMR_HONEST_PACE_MS = 3_000;
const LTC_FLOOD_PER_SECOND = 500;
/** Unanswered submits a flooder keeps (over its queue's bound, under the pool's cap on held replies). */
const FLOOD_WINDOW = 64;
const LTC_LOW_DIFFICULTY = 2e-5;
const LTC_HIGH_DIFFICULTY = 1e6;

interface Round {
  ms: number[];
  answers: string[];
}

interface Flooding {
  sent: number;
  hashedRefused: number;
  unchecked: number;
  closed: number;
}

const addressesFor = (count: number, base: number): string[] =>
  Array.from({ length: count }, (_, i) => `127.0.0.${base + i}`);

/** The i-th of `connections` flooders comes from address i mod `addresses`. */
const spread = (connections: number, addresses: number, base: number): string[] =>
  Array.from({ length: connections }, (_, i) => addressesFor(addresses, base)[i % addresses] as string);

function summary(round: Round): { accepted: number; rejected: number; p50: number; p99: number } {
  const sorted = Float64Array.from(round.ms).sort();
  const accepted = round.answers.filter((a) => a === 'OK' || a === 'true').length;
  return {
    accepted,
    rejected: round.answers.length - accepted,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
  };
}

function printRound(
  report: Report,
  label: string,
  round: Round,
  quietP99: number,
  flood?: Flooding,
): boolean {
  const s = summary(round);
  const ok = s.rejected === 0 && s.p99 <= 2 * quietP99;
  const flooding = flood
    ? `; flood: ${int(flood.sent)} sent, ${int(flood.hashedRefused)} hashed and refused, ` +
      `${int(flood.unchecked)} refused unchecked (own queue), ${flood.closed} cut`
    : '';
  report.line(
    `  ${label.padEnd(26)} honest ${s.accepted} accepted / ${s.rejected} rejected, ` +
      `p50 ${ms(s.p50)}, p99 ${ms(s.p99)}${flood ? ` (${fixed(s.p99 / quietP99, 2)}x quiet: ${verdict(ok)})` : ''}${flooding}`,
  );
  return ok;
}

const until = async (probe: () => boolean, timeoutMs: number): Promise<boolean> => {
  const deadline = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
};

async function xmrPhase(report: Report, shares: number): Promise<void> {
  const logger = pino({ level: 'error' });
  const started = Date.now();
  const standalone: StandalonePort = await startStandalone({
    logger,
    networkDifficulty: XMR_NETWORK_DIFFICULTY,
    initialBlocks: 1,
  });
  try {
    const { chain, randomx } = standalone;
    report.line(
      `RandomX port (regtest monerod, light mode, ${randomx.threads} server threads; ready in ${fixed((Date.now() - started) / 1000)} s), ` +
        `flooders at ${XMR_FLOOD_PER_SECOND} submits/s each, all-zero claimed result, honest share every ${XMR_HONEST_PACE_MS / 1000} s, bans off:`,
    );
    const { server, port } = await standalone.addServer(FIXED_VARDIFF, undefined, {
      ban: { enabled: false },
    });
    const honest = await standalone.connect(port);
    await honest.login(`${chain.poolAddress}.honest`);
    const quiet = await moneroHonestRound(honest, shares, XMR_NETWORK_DIFFICULTY, XMR_HONEST_PACE_MS);
    const quietP99 = summary(quiet).p99;
    printRound(report, 'quiet', quiet, quietP99);
    let met = 0;
    for (const [connections, addresses] of SHAPES) {
      const flood = await Promise.all(
        spread(connections, addresses, 10).map((localAddress, i) =>
          MoneroFlooder.start({
            port,
            login: `${chain.poolAddress}.flood${i}`,
            localAddress,
            perSecond: XMR_FLOOD_PER_SECOND,
            window: FLOOD_WINDOW,
          }),
        ),
      );
      for (const f of flood) f.flood();
      const before = server.powQueue.refused['own-queue'];
      await until(() => server.powQueue.queued >= connections * 8, 10_000);
      const hashes = randomx.figures().hashes;
      const at = performance.now();
      const round = await moneroHonestRound(honest, shares, XMR_NETWORK_DIFFICULTY, XMR_HONEST_PACE_MS);
      const rate = (randomx.figures().hashes - hashes) / ((performance.now() - at) / 1000);
      const figures: Flooding = {
        sent: flood.reduce((n, f) => n + f.sent, 0),
        hashedRefused: flood.reduce((n, f) => n + f.count('Invalid result'), 0),
        unchecked: server.powQueue.refused['own-queue'] - before,
        closed: flood.filter((f) => f.closed).length,
      };
      for (const f of flood) f.close();
      if (printRound(report, `${connections} conn / ${addresses} addr`, round, quietP99, figures)) met++;
      report.line(`    server hashed ${fixed(rate)} H/s during the round (all threads busy on the flood)`);
      await until(() => server.powQueue.queued === 0 && server.powQueue.hashing === 0, 30_000);
    }
    report.line(`  target met in ${met} of ${SHAPES.length} flood shapes`);
    await xmrBans(report, standalone);
  } finally {
    await standalone.stop();
  }
}

async function xmrBans(report: Report, standalone: StandalonePort): Promise<void> {
  const { server, port } = await standalone.addServer();
  const hashes = standalone.randomx.figures().hashes;
  const at = performance.now();
  const flood = await Promise.all(
    spread(16, 4, 30).map((localAddress, i) =>
      MoneroFlooder.start({
        port,
        login: `${standalone.chain.poolAddress}.cut${i}`,
        localAddress,
        perSecond: XMR_FLOOD_PER_SECOND,
      }),
    ),
  );
  for (const f of flood) f.flood();
  const cut = await until(() => flood.every((f) => f.closed), 30_000);
  const seconds = (performance.now() - at) / 1000;
  await until(() => server.powQueue.queued === 0 && server.powQueue.hashing === 0, 30_000);
  const sent = flood.reduce((n, f) => n + f.sent, 0);
  report.line(
    `  bans on, 16 conn / 4 addr: ${flood.filter((f) => f.closed).length}/16 cut${cut ? '' : ' (not all!)'} in ` +
      `${fixed(seconds, 2)} s after ${int(sent)} submits; ${int(standalone.randomx.figures().hashes - hashes)} RandomX hashes spent; ` +
      `bans logged: ${server.bans.counts.connection} connection, ${server.bans.counts.ip} address (one decision per connection: at most 16 and 4)`,
  );
  for (const f of flood) f.close();
}

async function ltcPhase(report: Report, shares: number): Promise<void> {
  const started = Date.now();
  const chain = await startLtcDevChain({ logger: testLogger, mweb: 'off' });
  const start = (ban: Record<string, unknown>): Promise<PoolOnChain> =>
    startPoolOnChain({
      coin: 'LTC',
      chain,
      ports: [{ start: LTC_LOW_DIFFICULTY }, { start: LTC_HIGH_DIFFICULTY, min: LTC_HIGH_DIFFICULTY }],
      stratum: { ban },
    });
  try {
    const pool = await start({ enabled: false });
    report.line(
      `Scrypt port (litecoind regtest; ready in ${fixed((Date.now() - started) / 1000)} s), flooders at ` +
        `${LTC_FLOOD_PER_SECOND} submits/s each on a difficulty-${LTC_HIGH_DIFFICULTY} port, bans off:`,
    );
    try {
      await ltcRounds(report, pool, chain.poolAddress, shares);
    } finally {
      await pool.close();
    }
    const banned = await start({});
    try {
      await ltcBans(report, banned, chain.poolAddress);
    } finally {
      await banned.close();
    }
  } finally {
    await chain.stop();
  }
}

async function ltcRounds(
  report: Report,
  pool: PoolOnChain,
  poolAddress: string,
  shares: number,
): Promise<void> {
  const login = `${poolAddress}.honest`;
  const honest = await StratumTestClient.connect(pool.ports[0] as number);
  await honest.subscribe();
  await honest.authorize(login);
  await honest.waitForJob();
  const quiet = await stratumHonestRound(honest, login, shares, 'scrypt');
  const quietP99 = summary(quiet).p99;
  printRound(report, 'quiet', quiet, quietP99);
  let met = 0;
  for (const [connections, addresses] of SHAPES) {
    const flood = await Promise.all(
      spread(connections, addresses, 50).map((localAddress, i) =>
        StratumFlooder.start({
          port: pool.ports[1] as number,
          login: `${poolAddress}.flood${i}`,
          localAddress,
          perSecond: LTC_FLOOD_PER_SECOND,
          window: FLOOD_WINDOW,
        }),
      ),
    );
    const busy = (): number => pool.stratum.stats().sharesRejected.busy ?? 0;
    const before = busy();
    for (const f of flood) f.flood();
    await until(() => busy() > before, 10_000);
    const round = await stratumHonestRound(honest, login, shares, 'scrypt');
    for (const f of flood) f.stop();
    const figures: Flooding = {
      sent: flood.reduce((n, f) => n + f.sent, 0),
      hashedRefused: flood.reduce((n, f) => n + f.count('Low difficulty share'), 0),
      unchecked: busy() - before,
      closed: flood.filter((f) => f.closed).length,
    };
    await Promise.all(flood.map((f) => f.close()));
    if (printRound(report, `${connections} conn / ${addresses} addr`, round, quietP99, figures)) met++;
  }
  report.line(`  target met in ${met} of ${SHAPES.length} flood shapes`);
  await honest.close();
}

async function ltcBans(report: Report, pool: PoolOnChain, poolAddress: string): Promise<void> {
  const at = performance.now();
  const flood = await Promise.all(
    spread(16, 4, 70).map((localAddress, i) =>
      StratumFlooder.start({
        port: pool.ports[1] as number,
        login: `${poolAddress}.cut${i}`,
        localAddress,
        perSecond: LTC_FLOOD_PER_SECOND,
      }),
    ),
  );
  for (const f of flood) f.flood();
  const cut = await until(() => flood.every((f) => f.closed), 30_000);
  const seconds = (performance.now() - at) / 1000;
  await new Promise((resolve) => setTimeout(resolve, 500));
  const bans = pool.stratum.stats().bans;
  report.line(
    `  bans on, 16 conn / 4 addr: ${flood.filter((f) => f.closed).length}/16 cut${cut ? '' : ' (not all!)'} in ` +
      `${fixed(seconds, 2)} s after ${int(flood.reduce((n, f) => n + f.sent, 0))} submits; ` +
      `bans logged: ${bans.connection ?? 0} connection, ${bans.ip ?? 0} address (one decision per connection: at most 16 and 4)`,
  );
  await Promise.all(flood.map((f) => f.close()));
}

export async function runEdgeFlood(report: Report, argv: string[]): Promise<void> {
  const sharesArg = argv.find((a) => a.startsWith('--shares='));
  const xmrShares = sharesArg ? Number(sharesArg.split('=')[1]) : 8;
  const ltcShares = sharesArg ? Number(sharesArg.split('=')[1]) : 40;
  report.line(`# edge: flood (issue 25 item 1) — ${new Date().toISOString()}, load ${load()}`);
  report.line(
    `Honest miner from 127.0.0.1, flooders from 127.0.0.10+ (one address per 4 connections at most); ` +
      `p99 of ${xmrShares} (XMR) / ${ltcShares} (LTC) submits per round.`,
  );
  if (!argv.includes('--ltc-only')) await xmrPhase(report, xmrShares);
  if (!argv.includes('--xmr-only')) await ltcPhase(report, ltcShares);
  report.line(`load after: ${load()}`);
}
