// Drill phase NAME=workers (issue 25, item 3): a stranger logs in as "bob.<anything>" 10,000 times
// and sends rejected shares under those names, while bob's own miner keeps mining. Printed: the
// logins answered and how fast, the permanent worker rows they wrote (target 0), what the public
// lookup of bob's payout address shows, and bob's miner's round trips before and during the flood.
// One real `manjam start --role all` process (Stratum and API in one, as `npm start` runs) on a
// bcoin regtest node and a fresh PostgreSQL schema.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { algorithmOf } from '@manjam/protocol';
import { pino } from 'pino';
import type { Database } from '../../apps/server/src/db/index.js';
import { FixtureWriter } from '../../apps/server/test/support/db/fixtures.js';
import { PayoutSettingsRepository } from '../../apps/server/src/db/repositories/payout-settings.js';
import { freePort } from '../../apps/server/src/devchain/child.js';
import { startBtcDevChain } from '../../apps/server/src/coins/bitcoin/devchain/index.js';
import {
  processConfig,
  schemaUrl,
  startPoolProcess,
  type PoolProcess,
} from '../../apps/server/test/support/pool-processes.js';
import { StratumTestClient } from '../../apps/server/test/support/coins/bitcoin/stratum/client.js';
import { POSTGRES_URL, openBenchDatabase, type BenchDatabase } from './database.js';
import { DRILL_DIFFICULTY } from './drill-pool.js';
import { Report, fixed, int, load, ms, percentile } from './report.js';

/** A regtest payout address for the drill's account (the public lookup is by payout address). */
const BOB_PAYOUT = 'rb1qw508d6qejxtdg4y5r3zarvary0c5xw7k38f4sn';
/** Under the port's default of 32 logins per connection. */
const LOGINS_PER_CONNECTION = 25;
/** The stranger's address (bob mines from 127.0.0.1): a ban of the stranger is not a ban of bob. */
const STRANGER = '127.0.0.2';

interface Options {
  logins: number;
  /** Stranger connections open at once. */
  parallel: number;
  rejects: number;
  quietShares: number;
}

function parseOptions(argv: string[]): Options {
  const options: Options = { logins: 10_000, parallel: 40, rejects: 1_000, quietShares: 50 };
  for (const arg of argv) {
    const [key, value = ''] = arg.replace(/^--/, '').split('=');
    const n = Number(value);
    if (!Number.isInteger(n) || n <= 0) throw new Error(`invalid option ${arg}`);
    if (key === 'logins') options.logins = n;
    else if (key === 'parallel') options.parallel = n;
    else if (key === 'rejects') options.rejects = n;
    else if (key === 'quiet-shares') options.quietShares = n;
    else throw new Error(`unknown option ${arg} (--logins, --parallel, --rejects, --quiet-shares)`);
  }
  return options;
}

/** Bob's own miner: one share at a time on its latest job, each round trip timed. */
class OwnMiner {
  readonly latencies: number[] = [];
  accepted = 0;
  rejected = 0;
  /** Rejections by the pool's message. */
  readonly reasons = new Map<string, number>();
  private running = false;
  private loop: Promise<void> | undefined;

  private constructor(
    private readonly client: StratumTestClient,
    readonly login: string,
  ) {}

  static async connect(port: number, login: string): Promise<OwnMiner> {
    const client = await StratumTestClient.connect(port);
    await client.subscribe();
    const reply = await client.authorize(login);
    if (reply.result !== true) throw new Error(`${login} was not authorized: ${JSON.stringify(reply)}`);
    await client.waitForJob();
    return new OwnMiner(client, login);
  }

  async mine(shares: number): Promise<void> {
    for (let i = 0; i < shares; i++) await this.submitOne();
  }

  start(): void {
    this.running = true;
    this.loop = (async () => {
      while (this.running) await this.submitOne();
    })();
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.loop;
  }

  close(): Promise<void> {
    return this.client.close();
  }

  private async submitOne(): Promise<void> {
    const job = await this.client.waitForJob();
    // Not a block (as the fault drill's miners): a block moves the chain and every job with it.
    const share = this.client.findShare(job, algorithmOf('BTC'), {
      accept: (b, j) => b.hashValue > j.template.networkTarget,
    });
    const started = performance.now();
    const reply = await this.client.submit(this.login, share);
    this.latencies.push(performance.now() - started);
    if (reply.result === true) this.accepted++;
    else {
      this.rejected++;
      const reason = reply.error?.[1] ?? 'no answer';
      this.reasons.set(reason, (this.reasons.get(reason) ?? 0) + 1);
    }
  }

  /** Drops the figures so far (the quiet round is printed before the flood's). */
  reset(): void {
    this.latencies.length = 0;
    this.accepted = 0;
    this.rejected = 0;
    this.reasons.clear();
  }
}

interface Flood {
  sent: number;
  authorized: number;
  connections: number;
  /** Connections the pool closed before their logins were answered. */
  cut: number;
  seconds: number;
}

/** `logins` authorizes of "bob.plantedN", LOGINS_PER_CONNECTION per connection, `parallel` connections at a time. */
async function strangerLogins(port: number, logins: number, parallel: number): Promise<Flood> {
  const started = performance.now();
  let next = 0;
  let authorized = 0;
  let connections = 0;
  let cut = 0;
  const connection = async (): Promise<void> => {
    while (next < logins) {
      const first = next;
      const last = Math.min(logins, first + LOGINS_PER_CONNECTION);
      next = last;
      const client = await StratumTestClient.connect(port, { localAddress: STRANGER });
      connections++;
      // One authorize at a time per connection (the pool cuts a connection whose lines pile up
      // behind a pending login): the stranger that gets every login in, the worst case for rows.
      const replies = [];
      try {
        for (let i = first; i < last; i++) replies.push(await client.authorize(`bob.planted${i}`));
      } catch {
        cut++;
      }
      authorized += replies.filter((r) => r.result === true).length;
      await client.close();
    }
  };
  await Promise.all(Array.from({ length: parallel }, connection));
  return { sent: logins, authorized, connections, cut, seconds: (performance.now() - started) / 1000 };
}

interface Rejects {
  sent: number;
  answered21: number;
  /** Connections the pool closed on the stranger (its ban judge), and connections refused. */
  cut: number;
  refused: number;
}

/**
 * Submits for a job that does not exist under planted names: every answered one is a rejected
 * share. The pool may cut and ban the sender; it reconnects until `count` are sent or it is refused.
 */
async function strangerRejects(port: number, count: number): Promise<Rejects> {
  const names = Array.from({ length: LOGINS_PER_CONNECTION }, (_, i) => `bob.rejecting${i}`);
  const out: Rejects = { sent: 0, answered21: 0, cut: 0, refused: 0 };
  while (out.sent < count && out.refused === 0) {
    let client: StratumTestClient;
    try {
      client = await StratumTestClient.connect(port, { localAddress: STRANGER });
      await client.subscribe();
      await Promise.all(names.map((name) => client.authorize(name)));
    } catch {
      out.refused++;
      break;
    }
    try {
      while (out.sent < count) {
        const batch = Math.min(10, count - out.sent);
        out.sent += batch;
        const replies = await Promise.all(
          Array.from({ length: batch }, (_, j) =>
            client.request('mining.submit', [
              names[j % names.length],
              'ffffffff',
              '00000000',
              '00000000',
              '00000000',
            ]),
          ),
        );
        out.answered21 += replies.filter((r) => r.error?.[0] === 21).length;
      }
    } catch {
      out.cut++;
    }
    await client.close();
  }
  return out;
}

interface BobRows {
  total: number;
  planted: number;
  payees: number;
  ownAccepted: number;
}

async function bobRows(db: Database, userId: number): Promise<BobRows> {
  const result = await db.query<{ total: number; planted: number; own: number | null; payees: number }>(
    `SELECT count(w.id)::int AS total,
            count(w.id) FILTER (WHERE w.name LIKE 'planted%' OR w.name LIKE 'rejecting%')::int AS planted,
            max(w.accepted_shares) FILTER (WHERE w.name = 'rig1')::int AS own,
            (SELECT count(*)::int FROM payees WHERE user_id = $1) AS payees
       FROM payees p LEFT JOIN workers w ON w.payee_id = p.id WHERE p.user_id = $1`,
    [userId],
  );
  const row = result.rows[0];
  return {
    total: row?.total ?? 0,
    planted: row?.planted ?? 0,
    payees: row?.payees ?? 0,
    ownAccepted: row?.own ?? 0,
  };
}

function latencyLine(miner: OwnMiner): string {
  const sorted = Float64Array.from(miner.latencies).sort();
  return (
    `${int(miner.accepted)} accepted, ${int(miner.rejected)} rejected ${JSON.stringify(Object.fromEntries(miner.reasons))}; submit round trip ` +
    `p50 ${ms(percentile(sorted, 50))}, p99 ${ms(percentile(sorted, 99))}`
  );
}

export async function runEdgeWorkers(report: Report, argv: string[]): Promise<void> {
  const options = parseOptions(argv);
  report.line(
    `edge: stranger logins under an account (issue 25, item 3), ${new Date().toISOString()}, load average ${load()}`,
  );
  report.line(
    `  BTC regtest dev chain, PostgreSQL at ${new URL(POSTGRES_URL).host} (a fresh schema), one \`manjam start --role all\` process; ` +
      `account bob, his miner bob.rig1 from 127.0.0.1; the stranger logs in as bob.plantedN from ${STRANGER}`,
  );
  const chain = await startBtcDevChain({ logger: pino({ level: 'warn' }) });
  const dataDir = await mkdtemp(join(tmpdir(), 'manjam-edge-workers-'));
  let database: BenchDatabase | undefined;
  let pool: PoolProcess | undefined;
  try {
    database = await openBenchDatabase('postgres');
    const { db } = database;
    const bob = await new FixtureWriter(db).user({ username: 'bob' });
    await new PayoutSettingsRepository(db).setAddress(bob, 'BTC', BOB_PAYOUT, null);
    const config = processConfig({
      coin: 'BTC',
      node: chain,
      databaseUrl: schemaUrl(POSTGRES_URL, database.schema ?? ''),
      dataDir,
      stratumPort: await freePort(),
      difficulty: DRILL_DIFFICULTY.BTC,
    });
    pool = await startPoolProcess('all', config);
    const port = pool.stratumPort;

    const miner = await OwnMiner.connect(port, 'bob.rig1');
    await miner.mine(options.quietShares);
    report.line(`  bob.rig1 on a quiet pool: ${latencyLine(miner)}`);
    miner.reset();
    miner.start();
    const flood = await strangerLogins(port, options.logins, options.parallel);
    const rejected = await strangerRejects(port, options.rejects);
    await miner.stop();
    report.line(
      `  stranger logins: ${int(flood.authorized)} of ${int(flood.sent)} answered true, over ${int(flood.connections)} connections ` +
        `(${LOGINS_PER_CONNECTION} each, ${options.parallel} at a time) in ${fixed(flood.seconds, 2)} s ` +
        `(${int(flood.sent / flood.seconds)} logins/s) from ${STRANGER}; connections cut by the pool ${int(flood.cut)}`,
    );
    report.line(
      `  stranger rejected shares: ${int(rejected.sent)} sent under ${LOGINS_PER_CONNECTION} planted names, ` +
        `${int(rejected.answered21)} answered 21 (job not found); then the pool cut the connection (${int(rejected.cut)}) ` +
        `and refused the next (${int(rejected.refused)})`,
    );
    report.line(`  bob.rig1 during the flood: ${latencyLine(miner)}`);
    await miner.close();

    const lookup = (await (await fetch(`${pool.webUrl}/api/miners/lookup/${BOB_PAYOUT}`)).json()) as {
      miners: { name: string }[];
    };
    const shown = lookup.miners.map((m) => m.name);
    report.line(
      `  public lookup of bob's payout address: ${JSON.stringify(shown)}; planted names shown: ` +
        `${int(shown.filter((n) => n.startsWith('planted') || n.startsWith('rejecting')).length)} (target 0)`,
    );
    // A clean stop flushes every count (reject counts are written every statsFlushSeconds).
    pool.child.kill('SIGTERM');
    await pool.exited;
    pool = undefined;
    const rows = await bobRows(db, bob);
    report.line(
      `  PERMANENT worker rows written by ${int(flood.sent)} stranger logins and ${int(rejected.answered21)} rejected shares: ` +
        `${int(rows.planted)} (target 0)`,
    );
    report.line(
      `  bob's rows after the pool stopped: ${int(rows.total)} worker row(s) (rig1 with ${int(rows.ownAccepted)} accepted shares), ${int(rows.payees)} payee row(s)`,
    );
  } finally {
    if (pool) {
      pool.child.kill('SIGTERM');
      await pool.exited;
    }
    const writes = await database?.close();
    if (writes)
      report.line(
        `  rows inserted + updated in the schema: workers ${int(writes.get('workers') ?? 0)}, payees ${int(writes.get('payees') ?? 0)}, ` +
          `share_stats ${int(writes.get('share_stats') ?? 0)}, shares ${int(writes.get('shares') ?? 0)}`,
      );
    await chain.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}
