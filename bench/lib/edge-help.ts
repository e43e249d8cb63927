// Drill phase NAME=help (issue 27, items 1 and 7). First Mining Help in the browser on every route
// (edge-help-browser.ts), then Test Connection on a busy pool. A miner "rig2" mines
// beside `--load` other connections of the same account that submit shares as fast as they can;
// the setup guide's Test Connection (GET /api/workers/rig2/connection, asked every 2 s as the web
// app does) must say "sharing" on its first answer, judged by the worker's last accepted share.
// Printed: shares accepted meanwhile, the first answer's stage and how long the verdict took, the
// answer's latency under load (p50/p99 of `--asks` back-to-back asks), and the answer once rig2
// has stopped. One real `manjam start --role all` process on a bcoin regtest node and a fresh
// PostgreSQL schema.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { algorithmOf } from '@manjam/protocol';
import { pino } from 'pino';
import type { Database } from '../../apps/server/src/db/index.js';
import { FixtureWriter } from '../../apps/server/test/support/db/fixtures.js';
import { UsersRepository } from '../../apps/server/src/db/repositories/users.js';
import { freePort } from '../../apps/server/src/devchain/child.js';
import { startBtcDevChain } from '../../apps/server/src/coins/bitcoin/devchain/index.js';
import { hashPassword } from '../../apps/server/src/services/auth/passwords.js';
import {
  processConfig,
  schemaUrl,
  startPoolProcess,
  type PoolProcess,
} from '../../apps/server/test/support/pool-processes.js';
import { StratumTestClient } from '../../apps/server/test/support/coins/bitcoin/stratum/client.js';
import { POSTGRES_URL, openBenchDatabase, type BenchDatabase } from './database.js';
import { DRILL_DIFFICULTY } from './drill-pool.js';
import { runEdgeHelpBrowser } from './edge-help-browser.js';
import { Report, fixed, int, load, ms, percentile } from './report.js';

const PASSWORD = 'correct horse battery';
/** The web app's Test Connection asks every 2 s (apps/web/.../connectionTest.ts POLL_INTERVAL_MS). */
const WEB_POLL_MS = 2_000;

interface Options {
  load: number;
  asks: number;
  warmup: number;
}

function parseOptions(argv: string[]): Options {
  const options: Options = { load: 6, asks: 200, warmup: 5 };
  for (const arg of argv) {
    const [key, value = ''] = arg.replace(/^--/, '').split('=');
    const n = Number(value);
    if (!Number.isInteger(n) || n <= 0) throw new Error(`invalid option ${arg}`);
    if (key === 'load') options.load = n;
    else if (key === 'asks') options.asks = n;
    else if (key === 'warmup') options.warmup = n;
    else throw new Error(`unknown option ${arg} (--load, --asks, --warmup)`);
  }
  return options;
}

/** A miner of the account: one share at a time on its latest job, as long as it runs. */
class Miner {
  accepted = 0;
  private running = true;
  private readonly loop: Promise<void>;

  private constructor(
    private readonly client: StratumTestClient,
    private readonly login: string,
  ) {
    this.loop = this.run();
  }

  static async start(port: number, login: string): Promise<Miner> {
    const client = await StratumTestClient.connect(port);
    await client.subscribe();
    if ((await client.authorize(login)).result !== true) throw new Error(`${login} was not authorized`);
    await client.waitForJob();
    return new Miner(client, login);
  }

  private async run(): Promise<void> {
    while (this.running) {
      const job = await this.client.waitForJob();
      // Not a block: a block moves the chain and every job with it.
      const share = this.client.findShare(job, algorithmOf('BTC'), {
        accept: (b, j) => b.hashValue > j.template.networkTarget,
      });
      const reply = await this.client.submit(this.login, share);
      if (reply.result === true) this.accepted++;
    }
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.loop;
    await this.client.close();
  }
}

interface Answer {
  stage: string;
  connected: boolean;
  acceptedShares: number;
  lastShareAt: string | null;
  authorizedAt: string | null;
}

async function ask(webUrl: string, token: string): Promise<{ answer: Answer; ms: number }> {
  const started = performance.now();
  const res = await fetch(`${webUrl}/api/workers/khalid.rig2/connection`, {
    headers: { authorization: `Bearer ${token}` },
  });
  if (!res.ok) throw new Error(`connection: ${res.status} ${await res.text()}`);
  const answer = (await res.json()) as Answer;
  return { answer, ms: performance.now() - started };
}

function describe(answer: Answer): string {
  return `stage ${answer.stage}, connected ${answer.connected}, acceptedShares ${int(answer.acceptedShares)}, lastShareAt ${answer.lastShareAt ?? 'null'}`;
}

async function signIn(webUrl: string, email: string): Promise<string> {
  const res = await fetch(`${webUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  if (!res.ok) throw new Error(`login: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { token: string }).token;
}

/**
 * What the endpoint counted before this change, for comparison: the worker's rows of the shares
 * table in the last 10 minutes (a SUM the share writer's backlog can hold back), and how long it took.
 */
async function oldCount(db: Database): Promise<{ count: number; ms: number }> {
  const started = performance.now();
  const result = await db.query<{ recent: string | number }>(
    `SELECT COALESCE(SUM(sh.share_count), 0) AS recent FROM shares sh JOIN workers w ON w.id = sh.worker_id
      WHERE w.name = 'rig2' AND sh.created_at >= now() - interval '10 minutes'`,
  );
  return { count: Number(result.rows[0]?.recent ?? 0), ms: performance.now() - started };
}

async function drill(
  report: Report,
  options: Options,
  pool: PoolProcess,
  token: string,
  db: Database,
): Promise<void> {
  const loaders = await Promise.all(
    Array.from({ length: options.load }, (_, i) => Miner.start(pool.stratumPort, `khalid.load${i}`)),
  );
  const rig2 = await Miner.start(pool.stratumPort, 'khalid.rig2');
  await new Promise((resolve) => setTimeout(resolve, options.warmup * 1000));
  const sum = (): number => loaders.reduce((n, m) => n + m.accepted, rig2.accepted);
  report.line(
    `  after ${options.warmup} s: ${int(sum())} shares accepted over ${options.load + 1} connections, rig2 ${int(rig2.accepted)}`,
  );

  // Test Connection as the web app runs it: ask, and ask again every 2 s until the verdict.
  const started = performance.now();
  let asks = 0;
  let first: Answer | undefined;
  let verdict: Answer | undefined;
  while (performance.now() - started < 60_000) {
    const { answer } = await ask(pool.webUrl, token);
    asks++;
    first ??= answer;
    if (answer.connected) {
      verdict = answer;
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, WEB_POLL_MS));
  }
  const verdictMs = performance.now() - started;
  report.line(`  Test Connection, first answer: ${first ? describe(first) : 'none'}`);
  report.line(
    `  Test Connection verdict: ${verdict ? `connected after ${int(asks)} ask(s), ${ms(verdictMs)}` : `NOT connected after ${fixed(verdictMs / 1000, 1)} s`}`,
  );
  const old = await oldCount(db);
  report.line(
    `  for comparison, the count the endpoint used before (rig2's shares-table rows of the last 10 minutes): ` +
      `${int(old.count)} while rig2 had ${int(rig2.accepted)} accepted, in ${ms(old.ms)}`,
  );

  const before = sum();
  const latencies: number[] = [];
  let sharing = 0;
  const askStart = performance.now();
  for (let i = 0; i < options.asks; i++) {
    const { answer, ms: took } = await ask(pool.webUrl, token);
    latencies.push(took);
    if (answer.connected) sharing++;
  }
  const seconds = (performance.now() - askStart) / 1000;
  const sorted = Float64Array.from(latencies).sort();
  report.line(
    `  ${int(options.asks)} asks back to back under load (${int((sum() - before) / seconds)} shares/s accepted meanwhile): ` +
      `${int(sharing)} said sharing; answer p50 ${ms(percentile(sorted, 50))}, p99 ${ms(percentile(sorted, 99))}`,
  );

  await rig2.stop();
  const after = await ask(pool.webUrl, token);
  report.line(
    `  rig2 stopped after ${int(rig2.accepted)} accepted shares; the next answer: ${describe(after.answer)}, ` +
      `authorizedAt ${after.answer.authorizedAt ?? 'null'} (a share in the last 10 minutes still counts as connected)`,
  );
  await Promise.all(loaders.map((m) => m.stop()));
}

export async function runEdgeHelp(report: Report, argv: string[]): Promise<void> {
  const options = parseOptions(argv);
  report.line(
    `edge: Mining Help within reach on every route (issue 27, item 1), ${new Date().toISOString()}, load average ${load()}`,
  );
  await runEdgeHelpBrowser(report);

  report.line(
    `edge: Test Connection under a share load (issue 27, item 7), ${new Date().toISOString()}, load average ${load()}`,
  );
  report.line(
    `  BTC regtest dev chain, PostgreSQL at ${new URL(POSTGRES_URL).host} (a fresh schema), one \`manjam start --role all\` process; ` +
      `account khalid, miner khalid.rig2 beside ${options.load} load connections`,
  );
  const chain = await startBtcDevChain({ logger: pino({ level: 'warn' }) });
  const dataDir = await mkdtemp(join(tmpdir(), 'manjam-edge-help-'));
  let database: BenchDatabase | undefined;
  let pool: PoolProcess | undefined;
  try {
    database = await openBenchDatabase('postgres');
    const { db } = database;
    const email = 'khalid@example.com';
    const khalid = await new FixtureWriter(db).user({ username: 'khalid', email });
    await new UsersRepository(db).setPasswordHash(khalid, await hashPassword(PASSWORD));
    const config = processConfig({
      coin: 'BTC',
      node: chain,
      databaseUrl: schemaUrl(POSTGRES_URL, database.schema ?? ''),
      dataDir,
      stratumPort: await freePort(),
      difficulty: DRILL_DIFFICULTY.BTC,
    });
    pool = await startPoolProcess('all', config);
    await drill(report, options, pool, await signIn(pool.webUrl, email), db);
  } finally {
    if (pool) {
      pool.child.kill('SIGTERM');
      await pool.exited;
    }
    await database?.close();
    await chain.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}
