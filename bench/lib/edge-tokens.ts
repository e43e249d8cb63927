// Edge drill `tokens` (issue 27, monitoring): the faults a read-only API token and a watcher link
// must withstand, against a real API (real HTTP sockets, a real database) at the default config.
// 1. A token tries every write and every private read it is not given: answers by status.
// 2. One token floods a readable route (concurrency 16) while a second token and a signed-in
//    session read once every 100 ms: the flooder's 200/429 split and Retry-After, the bystanders'
//    statuses and latency.
// 3. Revocation and expiry: requests answered 200 after the revoke / past the expiry.
// 4. A watcher link: private strings in its answers, pages and coins it does not show, revoked
//    and expired answers.
import { performance } from 'node:perf_hooks';
import { FixtureWriter } from '../../apps/server/test/support/db/fixtures.js';
import { openTestDatabase, type DatabaseKind } from '../../apps/server/test/support/db.js';
import { startTestApi, type TestApi } from '../../apps/server/test/support/http.js';
import { Report, fixed, int, load, ms, percentile, verdict } from './report.js';

const DAY_MS = 86_400_000;
const LTC_ADDRESS = 'rltc1qw508d6qejxtdg4y5r3zarvary0c5xw7k693xs3';

function parse(argv: string[]): { flood: number; kind: DatabaseKind } {
  let flood = 600;
  let kind: DatabaseKind = 'pglite';
  for (const arg of argv) {
    const [key, value = ''] = arg.replace(/^--/, '').split('=');
    if (key === 'flood' && Number(value) > 0) flood = Number(value);
    else if (key === 'db' && (value === 'pglite' || value === 'postgres')) kind = value;
    else throw new Error(`unknown option ${arg} (--flood=N, --db=pglite|postgres)`);
  }
  return { flood, kind };
}

const tally = (statuses: number[]): string => {
  const counts = new Map<number, number>();
  for (const s of statuses) counts.set(s, (counts.get(s) ?? 0) + 1);
  return [...counts].map(([s, n]) => `${int(n)} x ${s}`).join(', ');
};

const p = (values: number[], q: number) => percentile(Float64Array.from(values).sort(), q);

async function timed(
  api: TestApi,
  path: string,
  token?: string,
): Promise<{ status: number; ms: number; retry: string | null }> {
  const started = performance.now();
  const answer = await api.request('GET', path, token ? { token } : {});
  return { status: answer.status, ms: performance.now() - started, retry: answer.headers.get('retry-after') };
}

async function refusals(report: Report, api: TestApi, token: string): Promise<void> {
  const writes = api.http.routes.filter((r) => r.method !== 'GET');
  const statuses: number[] = [];
  for (const route of writes) {
    const path = route.url.replace(/:id\b/g, '1').replace(/:[A-Za-z]+/g, 'x');
    statuses.push((await api.request(route.method, path, { token, body: {} })).status);
  }
  report.line(
    `  writes: ${int(writes.length)} non-GET routes -> ${tally(statuses)}  ${verdict(statuses.every((s) => s === 403))}`,
  );
  const privateReads = [
    '/api/settings',
    '/api/me',
    '/api/notifications',
    '/api/settings/api-tokens',
    '/api/settings/watch-links',
  ];
  const reads = await Promise.all(
    privateReads.map(async (path) => (await api.request('GET', path, { token })).status),
  );
  report.line(
    `  private reads not given: ${privateReads.length} routes -> ${tally(reads)}  ${verdict(reads.every((s) => s === 403))}`,
  );
}

async function flood(
  report: Report,
  api: TestApi,
  tokens: [string, string],
  session: string,
  count: number,
): Promise<void> {
  const limit = api.config.http.apiTokens.requestsPerMinute;
  const flooder: { status: number; ms: number; retry: string | null }[] = [];
  const bystanders: Record<'token' | 'session', { status: number; ms: number }[]> = {
    token: [],
    session: [],
  };
  let done = false;
  const probe = (async () => {
    while (!done) {
      bystanders.token.push(await timed(api, '/api/workers', tokens[1]));
      bystanders.session.push(await timed(api, '/api/dashboard', session));
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < count) {
        next += 1;
        flooder.push(await timed(api, '/api/revenue/summary', tokens[0]));
      }
    }),
  );
  const took = performance.now() - started;
  done = true;
  await probe;
  const ok = flooder.filter((r) => r.status === 200).length;
  const retries = flooder.filter((r) => r.status === 429).map((r) => Number(r.retry));
  report.line(
    `  flooder: ${int(count)} requests in ${fixed(took / 1000, 2)} s (${int(count / (took / 1000))}/s), limit ${limit}/min -> ${tally(flooder.map((r) => r.status))}`,
  );
  report.line(
    `    Retry-After on 429: min ${Math.min(...retries)} s, max ${Math.max(...retries)} s; latency p50 ${ms(
      p(
        flooder.map((r) => r.ms),
        50,
      ),
    )}, p99 ${ms(
      p(
        flooder.map((r) => r.ms),
        99,
      ),
    )}  ${verdict(ok === limit)}`,
  );
  for (const [who, rows] of Object.entries(bystanders)) {
    const lat = rows.map((r) => r.ms);
    report.line(
      `  bystander ${who === 'token' ? 'second token (GET /api/workers)' : 'session (GET /api/dashboard)'}: ${tally(rows.map((r) => r.status))}, p50 ${ms(p(lat, 50))}, p99 ${ms(p(lat, 99))}`,
    );
  }
}

async function revocation(
  report: Report,
  api: TestApi,
  user: { token: string; password: string },
): Promise<void> {
  const create = async (extra: Record<string, unknown>) =>
    (
      await api.request('POST', '/api/settings/api-tokens', {
        token: user.token,
        body: { name: 'drill', password: user.password, ...extra },
      })
    ).json as { id: number; token: string };
  const revoked = await create({});
  await api.request('DELETE', `/api/settings/api-tokens/${revoked.id}`, { token: user.token });
  const after = await Promise.all(
    Array.from({ length: 50 }, async () => (await timed(api, '/api/dashboard', revoked.token)).status),
  );
  report.line(
    `  revoked token, 50 reads right after the revoke -> ${tally(after)}  ${verdict(after.every((s) => s === 401))}`,
  );
  const expiring = await create({ expiresInDays: 1 });
  const before = (await timed(api, '/api/dashboard', expiring.token)).status;
  api.clock.now += DAY_MS + 1;
  const past = (await timed(api, '/api/dashboard', expiring.token)).status;
  api.clock.now -= DAY_MS + 1;
  report.line(
    `  token with a 1-day expiry: 1 ms before -> ${before}, 1 ms past -> ${past}  ${verdict(before === 200 && past === 401)}`,
  );
}

async function watcher(
  report: Report,
  api: TestApi,
  user: { id: number; token: string; password: string; email: string; username: string },
): Promise<void> {
  const link = (
    await api.request('POST', '/api/settings/watch-links', {
      token: user.token,
      body: {
        label: 'drill',
        coins: ['LTC'],
        pages: ['workers', 'payouts'],
        expiresInDays: 7,
        password: user.password,
      },
    })
  ).json as { id: number; token: string };
  const base = `/api/watch/${link.token}`;
  const shown = await Promise.all(
    [base, `${base}/workers`, `${base}/payouts`].map((path) => api.request('GET', path)),
  );
  const text = shown.map((a) => a.text).join('\n');
  const leaks = [user.email, `${user.username}.`, LTC_ADDRESS].filter((secret) => text.includes(secret));
  report.line(
    `  shown pages: ${tally(shown.map((a) => a.status))}; private strings in them (email, username.worker, full address): ${leaks.length}  ${verdict(leaks.length === 0)}`,
  );
  const workers = (shown[1]?.json as { workers: { coin: string }[] }).workers;
  const btc = (await api.request('GET', `${base}/payouts?coin=BTC`)).json as { total: number };
  report.line(
    `  workers shown ${workers.length} (BTC among them: ${workers.filter((w) => w.coin !== 'LTC').length}); BTC payouts asked -> total ${btc.total}; dashboard (not chosen) -> ${(await api.request('GET', `${base}/dashboard`)).status}`,
  );
  api.clock.now += 7 * DAY_MS + 1;
  const expired = (await api.request('GET', base)).status;
  api.clock.now -= 7 * DAY_MS + 1;
  await api.request('DELETE', `/api/settings/watch-links/${link.id}`, { token: user.token });
  const revoked = await Promise.all(
    [base, `${base}/workers`, `${base}/payouts`].map(async (path) => (await api.request('GET', path)).status),
  );
  report.line(
    `  expired -> ${expired}; revoked -> ${tally(revoked)}  ${verdict(expired === 404 && revoked.every((s) => s === 404))}`,
  );
}

export async function runEdgeTokens(report: Report, argv: string[]): Promise<void> {
  const options = parse(argv);
  const handle = await openTestDatabase(options.kind);
  const api = await startTestApi(handle.db);
  // The test API's clock stands still; the drill's runs with the wall clock (phases 3 and 4 move
  // it forward by setting it, as the tests do), so Retry-After counts down for real.
  let offset = 0;
  Object.defineProperty(api.clock, 'now', {
    get: () => Date.now() + offset,
    set: (value: number) => {
      offset = value - Date.now();
    },
  });
  try {
    report.line(
      `edge tokens (issue 27): read-only API tokens and watcher links, ${options.kind} (embedded PGlite runs in the API's process), ${new Date().toISOString()}, load ${load()}`,
    );
    const user = await api.signUp('drill_owner');
    const fixtures = new FixtureWriter(handle.db);
    const btc = await fixtures.userPayee(user.id, 'BTC');
    const ltc = await fixtures.userPayee(user.id, 'LTC');
    const seen = new Date(api.clock.now - 60_000);
    await fixtures.worker(btc, 'rig_btc', { coin: 'BTC', lastShareAt: seen });
    await fixtures.worker(ltc, 'rig_ltc', { coin: 'LTC', lastShareAt: seen });
    await fixtures.payout(ltc, 90_000n, { coin: 'LTC', address: LTC_ADDRESS, txid: 'c'.repeat(64) });
    api.forget(user.id);
    const make = async () =>
      (
        (
          await api.request('POST', '/api/settings/api-tokens', {
            token: user.token,
            body: { name: 'drill', password: user.password },
          })
        ).json as { token: string }
      ).token;
    const tokens: [string, string] = [await make(), await make()];
    report.line('phase 1: a token tries what it is not given');
    await refusals(report, api, await make());
    report.line('phase 2: one token floods, bystanders read');
    await flood(report, api, tokens, user.token, options.flood);
    report.line('phase 3: revoke and expiry');
    await revocation(report, api, user);
    report.line('phase 4: a watcher link');
    await watcher(report, api, user);
  } finally {
    await api.close();
    await handle.drop();
  }
}
