// Drill phase NAME=webhook (issue 27): alert webhooks under faults, in figures. A real HTTP
// receiver on 127.0.0.1 plays the miners' bots: some answer 500 first, some hang past the
// deadline first, some redirect. `miners` accounts each get one worker-offline alert; the alerts
// loop (startAlerts, the production code, with alerts.webhook.allowLoopbackHttp on) runs passes on
// a clock moved past each backoff, and is restarted (a new loop over the same database) while
// retries are due. Printed: posts received, alerts delivered, duplicates, attempts per delivery,
// redirects followed, pass times, and the SSRF refusals (at save for private forms, at send for a
// host that resolves to loopback: connections that reached the receiver). PostgreSQL when it
// answers, else PGlite.
import { mkdtempSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pino } from 'pino';
import { alertSettingsSchema } from '../../apps/server/src/config/alerts.js';
import { saveWebhook } from '../../apps/server/src/db/repositories/webhooks.js';
import type { Database } from '../../apps/server/src/db/types.js';
import { PoolEvents } from '../../apps/server/src/events.js';
import { SecretBox } from '../../apps/server/src/services/auth/secret-box.js';
import { startAlerts } from '../../apps/server/src/services/alerts/loop.js';
import { sealUrl, setWebhook } from '../../apps/server/src/services/alerts/webhook.js';
import { FixtureWriter } from '../../apps/server/test/support/db/fixtures.js';
import { chooseDatabase, openBenchDatabase } from './database.js';
import { Report, int, load, ms, verdict } from './report.js';

interface Options {
  miners: number;
  timeoutMs: number;
}

function parseOptions(argv: string[]): Options {
  const o: Options = { miners: 200, timeoutMs: 1_000 };
  for (const arg of argv) {
    const [key = '', value = ''] = arg.replace(/^--/, '').split('=');
    const name = key.replace(/-(\w)/g, (_, c: string) => c.toUpperCase());
    if (name in o && Number(value) > 0) (o as unknown as Record<string, number>)[name] = Number(value);
    else throw new Error(`unknown or invalid option ${arg}`);
  }
  return o;
}

/** Seals the URLs as the api process would, and opens them in every loop (one key throughout). */
const box = new SecretBox('edge-webhook bench key');

/** Miner i's receiver path says how it misbehaves on its first post. */
const FAULTS = ['ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'fail500', 'fail500', 'hang', 'redirect'] as const;
type Fault = (typeof FAULTS)[number];

interface Receiver {
  base: string;
  posts: { path: string; id: string }[];
  close(): Promise<void>;
}

async function startReceiver(): Promise<Receiver> {
  const posts: Receiver['posts'] = [];
  const seen = new Set<string>();
  const hanging: ServerResponse[] = [];
  let base = '';
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const path = request.url ?? '';
      posts.push({ path, id: String(request.headers['x-manjam-delivery']) });
      const fault = path.split('/')[1] as Fault;
      const first = !seen.has(path);
      seen.add(path);
      if (fault === 'redirect') response.writeHead(302, { location: `${base}/elsewhere${path}` }).end();
      else if (first && fault === 'hang') hanging.push(response);
      else if (first && fault === 'fail500') response.writeHead(500).end('busy');
      else response.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    posts,
    close: async () => {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function seedMiners(db: Database, receiver: Receiver, o: Options, now: Date) {
  const fx = new FixtureWriter(db);
  const settings = alertSettingsSchema.parse({ webhook: { allowLoopbackHttp: true } }).webhook;
  const faults = new Map<string, Fault>();
  for (let i = 0; i < o.miners; i++) {
    const fault = FAULTS[i % FAULTS.length] ?? 'ok';
    const userId = await fx.user({ username: `hook${i}`, language: i % 2 ? 'ar' : 'en' });
    const payeeId = await fx.payee('BTC', { userId });
    await fx.worker(payeeId, 'rig1', { coin: 'BTC', lastShareAt: new Date(now.getTime() - 11 * 60_000) });
    const path = `/${fault}/${i}`;
    await setWebhook({ db, box, settings }, userId, `${receiver.base}${path}`);
    faults.set(path, fault);
  }
  return faults;
}

async function ssrfPhase(report: Report, db: Database, receiver: Receiver, clock: { now: Date }) {
  const production = { db, box, settings: alertSettingsSchema.parse({}).webhook };
  const fx = new FixtureWriter(db);
  const userId = await fx.user({ username: 'ssrf' });
  const forms = [
    'https://10.0.0.1/h',
    'https://127.0.0.1/h',
    'https://169.254.169.254/latest',
    'https://[::1]/h',
    'https://[::ffff:192.168.1.1]/h',
    'https://[fd00::1]/h',
    'https://[fe80::1]/h',
    'https://224.0.0.1/h',
    'https://localhost/h',
    `${receiver.base}/h`,
    'http://example.com/h',
  ];
  let refused = 0;
  for (const url of forms)
    refused += await setWebhook(production, userId, url).then(
      () => 0,
      () => 1,
    );
  report.line(`SSRF at save: ${refused} of ${forms.length} private/loopback/http forms refused`);
  const payeeId = await fx.payee('BTC', { userId });
  await fx.worker(payeeId, 'rig1', { coin: 'BTC', lastShareAt: new Date(clock.now.getTime() - 11 * 60_000) });
  const before = receiver.posts.length;
  await saveWebhook(db, userId, sealUrl(box, `https://localhost:${new URL(receiver.base).port}/rebound`));
  await runLoop(db, clock, {}, 1);
  const reached = receiver.posts.length - before;
  report.line(`SSRF at send (host now resolving to loopback): ${reached} connections reached the receiver`);
  return refused === forms.length && reached === 0;
}

async function runLoop(db: Database, clock: { now: Date }, webhook: object, passes: number) {
  const handle = await startAlerts({
    config: {
      smtp: undefined,
      dataDir: mkdtempSync(join(tmpdir(), 'manjam-edge-webhook-')),
      publicHost: 'pool.test',
    },
    db,
    box,
    logger: pino({ level: 'silent' }),
    events: new PoolEvents(),
    now: () => clock.now,
    mailer: null,
    push: null,
    settings: { intervalSeconds: 3_600, eventDelayMs: 0, webhook: { allowLoopbackHttp: true, ...webhook } },
  });
  const times: number[] = [];
  for (let i = 0; i < passes; i++) {
    const started = performance.now();
    await handle.runOnce();
    times.push(performance.now() - started);
    clock.now = new Date(clock.now.getTime() + 10 * 60_000);
  }
  await handle.stop();
  return times;
}

export async function runEdgeWebhook(report: Report, argv: string[]): Promise<void> {
  const o = parseOptions(argv);
  const kind = await chooseDatabase(undefined);
  const database = await openBenchDatabase(kind);
  const receiver = await startReceiver();
  try {
    const clock = { now: new Date() };
    report.line(`== edge webhook: ${o.miners} miners, deadline ${o.timeoutMs} ms, ${kind}, load ${load()}`);
    const faults = await seedMiners(database.db, receiver, o, clock.now);
    const webhook = { timeoutMs: o.timeoutMs, backoffSeconds: 30 };
    // First loop: one pass, then "crash" (stopped) with the retries due; a second loop finishes.
    const first = await runLoop(database.db, clock, webhook, 1);
    const second = await runLoop(database.db, clock, webhook, 3);
    const times = [...first, ...second];
    report.line(
      `passes: ${times.map((t) => ms(t)).join(', ')} (timed runOnce passes; each loop also runs one pass when it starts; restart after the first)`,
    );
    const byPath = new Map<string, string[]>();
    for (const post of receiver.posts) byPath.set(post.path, [...(byPath.get(post.path) ?? []), post.id]);
    const rows = await database.db.query<{ status: string; attempts: number; n: number }>(
      `SELECT webhook_status AS status, webhook_attempts AS attempts, count(*)::int AS n
         FROM alerts WHERE webhook_status <> 'skipped' GROUP BY 1, 2 ORDER BY 1, 2`,
    );
    for (const row of rows.rows)
      report.line(`  ${row.status.padEnd(7)} after ${row.attempts} attempt(s): ${int(row.n)}`);
    const expected = [...faults.values()].filter((f) => f !== 'redirect').length;
    const delivered = rows.rows.filter((r) => r.status === 'sent').reduce((sum, r) => sum + r.n, 0);
    let duplicates = 0;
    for (const [path, ids] of byPath) {
      const fault = faults.get(path);
      const want = fault === 'ok' || fault === 'redirect' ? 1 : 2;
      if (fault && ids.length > want) duplicates += ids.length - want;
    }
    const followed = receiver.posts.filter((p) => p.path.startsWith('/elsewhere')).length;
    report.line(
      `posts received ${int(receiver.posts.length)}; delivered ${int(delivered)} of ${int(expected)}`,
    );
    report.line(`duplicate posts ${duplicates}; redirects followed ${followed}`);
    const slowest = Math.max(...times);
    const ssrf = await ssrfPhase(report, database.db, receiver, clock);
    report.line(
      `verdict: every alert delivered once across a restart ${verdict(delivered === expected && duplicates === 0)}; ` +
        `no redirect followed ${verdict(followed === 0)}; SSRF refused ${verdict(ssrf)}; ` +
        `slowest pass ${ms(slowest)} (hanging receivers held ${o.timeoutMs} ms slots, 8 in flight)`,
    );
  } finally {
    await receiver.close();
    await database.close();
  }
}
