// Edge drill `shutdown` (issue 30, "shutdown that always stops"): `npm start` as a newcomer runs it
// (every dev chain: bitcoind-compatible bcoin, litecoind, monerod and its wallet, kaspad and its
// wallet when Go is there; the embedded database), a share load on its BTC port from load-generator
// threads, then ONE SIGTERM to the whole process group (Ctrl+C, systemd) in the middle of the load.
// Prints the load reached, the time until every process of the group is gone (target <= 15 s),
// lines that say a node was restarted (target none), and the shares the miners were told were
// accepted against those stored in the embedded database afterwards.
//   npm run drill:edges -- --only=shutdown [--rate=20000] [--seconds=10] [--connections=40] [--btc-only]
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDatabase } from '../../apps/server/src/db/driver.js';
import { journalDir } from '../../apps/server/src/shares/writer.js';
import { BTC_REGTEST_ADDRESS } from '../../apps/server/test/support/coins/bitcoin/stratum/fake-source.js';
import {
  processGroup,
  startWatched,
  waitUntil,
  type WatchedProcess,
} from '../../apps/server/test/support/processes.js';
import { DRILL_DIFFICULTY } from './drill-pool.js';
import { Generator } from './generator.js';
import { fixed, int, load, type Report } from './report.js';

interface Options {
  rate: number;
  seconds: number;
  connections: number;
  allChains: boolean;
}

function parseOptions(argv: string[]): Options {
  const options: Options = { rate: 20_000, seconds: 10, connections: 40, allChains: true };
  for (const arg of argv) {
    if (arg === '--btc-only') {
      options.allChains = false;
      continue;
    }
    const [key, value = ''] = arg.replace(/^--/, '').split('=');
    const n = Number(value);
    if (!Number.isInteger(n) || n <= 0) throw new Error(`invalid option ${arg}`);
    if (key === 'rate') options.rate = n;
    else if (key === 'seconds') options.seconds = n;
    else if (key === 'connections') options.connections = n;
    else throw new Error(`unknown option ${arg} (--rate, --seconds, --connections, --btc-only)`);
  }
  return options;
}

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The first start of every dev chain (kaspad's wallet funded from genesis is the longest). */
const BANNER_WITHIN_MS = 400_000;
/** The pool's own deadline is 15 s (STOP_DEADLINE_MS, signals.ts); the drill waits longer to see it. */
const WAIT_FOR_STOP_MS = 60_000;
const LOAD_THREADS = 2;

function startNpm(dataDir: string, allChains: boolean): WatchedProcess {
  const difficulty = DRILL_DIFFICULTY.BTC;
  return startWatched('npm', ['start'], {
    cwd: ROOT,
    detached: true,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/root',
      MANJAM_DATA_DIR: dataDir,
      MANJAM_HTTP_HOST: '127.0.0.1',
      MANJAM_HTTP_PORT: '0',
      MANJAM_STRATUM_HOST: '127.0.0.1',
      MANJAM_STRATUM_PORTS: JSON.stringify([
        { port: 0, coin: 'BTC', vardiff: { start: difficulty, min: difficulty, max: difficulty } },
      ]),
      MANJAM_LOG_PRETTY: 'false',
      ...(allChains ? {} : { MANJAM_XMR_ENABLED: 'false', MANJAM_KAS_ENABLED: 'false' }),
    },
  });
}

/** Accepted shares in the embedded database the stopped pool left (a slot row counts its shares). */
async function storedShares(dataDir: string): Promise<number> {
  const db = await openDatabase({ dataDir: join(dataDir, 'pglite') });
  try {
    const result = await db.query<{ n: bigint }>(
      'SELECT COALESCE(sum(share_count), 0)::bigint AS n FROM shares',
    );
    return Number(result.rows[0]?.n ?? 0n);
  } finally {
    await db.close();
  }
}

/** Accepted shares the stopped pool left in its journal (the database takes them at the next start). */
function journaledShares(dataDir: string): number {
  const dir = journalDir(dataDir, undefined);
  if (!existsSync(dir)) return 0;
  let n = 0;
  for (const name of readdirSync(dir).filter((f) => /^\d{13}-/.test(f)))
    n += readFileSync(join(dir, name), 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('["s",')).length;
  return n;
}

export async function runEdgeShutdown(report: Report, argv: string[]): Promise<void> {
  const options = parseOptions(argv);
  report.line(
    `\n# Edge drill: shutdown (one SIGTERM under load), ${new Date().toISOString()}, load ${load()}`,
  );
  const dataDir = await mkdtemp(join(tmpdir(), 'manjam-shutdown-'));
  const started = performance.now();
  const pool = startNpm(dataDir, options.allChains);
  const pgid = pool.child.pid ?? 0;
  let generator: Generator | undefined;
  try {
    const banner = await pool.waitFor(/Stratum BTC\s+stratum\+tcp:\/\/[^:]+:(\d+)/, BANNER_WITHIN_MS);
    await pool.waitFor(/Web app and API:/, BANNER_WITHIN_MS);
    const port = Number(banner[1]);
    const processes = processGroup(pgid).length;
    report.line(
      `  npm start (${options.allChains ? 'every dev chain' : 'Bitcoin-family dev chains'}, embedded database): banner after ${fixed((performance.now() - started) / 1000, 1)} s, ${processes} processes in its group`,
    );
    generator = Generator.start(LOAD_THREADS, {
      port,
      host: '127.0.0.1',
      coin: 'BTC',
      login: `${BTC_REGTEST_ADDRESS}.down`,
      distinctWorkers: true,
    });
    const connected = await generator.connect(options.connections);
    if (connected.ok === 0) throw new Error(`no load connection: ${connected.firstError ?? '?'}`);
    // Enough shares for the whole run at the rate: the load never runs dry before the signal.
    const runSeconds = options.seconds + 10;
    const perConnection = Math.ceil((options.rate * runSeconds) / connected.ok);
    const prepared = await generator.prepare(perConnection);
    report.line(
      `  load: ${int(connected.ok)} connections, ${int(prepared.shares)} shares mined in ${fixed(prepared.seconds, 1)} s, sent at ${int(options.rate)}/s`,
    );
    const run = generator.run({ mode: 'rate', seconds: runSeconds, rate: options.rate });
    await new Promise((resolve) => setTimeout(resolve, options.seconds * 1000));
    const signalled = performance.now();
    process.kill(-pgid, 'SIGTERM');
    let stopMs: number | undefined;
    try {
      await waitUntil(() => processGroup(pgid).length === 0, WAIT_FOR_STOP_MS, 'every process stopped');
      stopMs = performance.now() - signalled;
    } catch {
      stopMs = undefined;
    }
    const result = await run;
    const lines = pool.output().split('\n');
    const restarted = lines.filter((line) => /restart/.test(line) && !/not restarted/.test(line));
    const deadline = lines.some((line) => /deadline/.test(line) && /stop/.test(line));
    const stored = await storedShares(dataDir);
    const journaled = journaledShares(dataDir);
    const acceptedPerSecond = result.acceptedInTime / Math.max(options.seconds, 1);
    report.line(
      `  under load: ${int(result.sent)} sent, ${int(result.accepted)} acknowledged (about ${int(acceptedPerSecond)} a second before the signal), rejected ${JSON.stringify(result.rejected)}`,
    );
    report.line(
      stopMs === undefined
        ? `  one SIGTERM to the group: processes still running after ${WAIT_FOR_STOP_MS / 1000} s: ${processGroup(pgid).join(', ')} (target <= 15 s: NOT MET)`
        : `  one SIGTERM to the group: every process gone ${fixed(stopMs / 1000, 2)} s later (target <= 15 s: ${stopMs <= 15_000 ? 'MET' : 'NOT MET'})${deadline ? '; the pool hit its own stop deadline' : ''}`,
    );
    report.line(
      `  lines saying a node was restarted: ${restarted.length} (target 0)${restarted.length > 0 ? `: ${restarted.slice(0, 3).join(' | ')}` : ''}`,
    );
    report.line(
      `  acknowledged ${int(result.accepted)}; after the stop ${int(stored)} in the database and ${int(journaled)} in the journal (written at the next start); lost ${int(Math.max(0, result.accepted - stored - journaled))}`,
    );
  } finally {
    await generator?.close();
    for (const pid of processGroup(pgid)) process.kill(pid, 'SIGKILL');
    await rm(dataDir, { recursive: true, force: true });
  }
}
