/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-argument -- tests read JSON bodies field by field */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FixtureWriter } from '../../test/support/db/fixtures.js';
import { describeEachDatabase } from '../../test/support/db.js';
import { startTestApi, type TestApi } from '../../test/support/http.js';
import { payoutOf } from '../../test/support/payout-settings.js';

const SCRIPT = '<script>alert("x")</script>';
const SQL = "'; DROP TABLE users; --";

describeEachDatabase('authorization, bad input and the error shape', (getDb) => {
  let api: TestApi;
  let alice: Awaited<ReturnType<TestApi['signUp']>>;
  let bob: Awaited<ReturnType<TestApi['signUp']>>;
  let bobMiner: number;
  let bobWorker: number;

  beforeAll(async () => {
    api = await startTestApi(getDb(), {
      config: { http: { host: '127.0.0.1', port: 0, webDist: '', bodyLimitBytes: 2_048 } },
    });
    alice = await api.signUp('alice_sec');
    bob = await api.signUp('bob_sec');
    const fx = new FixtureWriter(getDb());
    bobWorker = await fx.worker(await fx.userPayee(bob.id), 'bobrig', {
      lastShareAt: new Date(api.clock.now - 60_000),
    });
    const miner = await api.request('POST', '/api/miners', {
      token: bob.token,
      body: { name: 'Bob S19', type: 'asic', algorithm: 'sha256', workerName: 'bobrig' },
    });
    bobMiner = miner.json.id;
    api.forget(bob.id);
  });
  afterAll(() => api.close());

  it('answers 401 with the error shape on every protected route without a token or with a bad one', async () => {
    const doc = (await api.request('GET', '/api/openapi.json')).json;
    const protectedRoutes: [string, string][] = [];
    for (const [path, methods] of Object.entries(
      doc.paths as Record<string, Record<string, { security?: unknown }>>,
    )) {
      for (const [method, op] of Object.entries(methods))
        if (op.security) protectedRoutes.push([method.toUpperCase(), path.replace(/\{[^}]+\}/g, '1')]);
    }
    expect(protectedRoutes.length).toBeGreaterThanOrEqual(24);
    for (const [method, path] of protectedRoutes) {
      const body = method === 'GET' || method === 'DELETE' ? undefined : {};
      for (const token of [undefined, 'not-a-real-token-but-long-enough']) {
        const res = await api.request(method, path, { token, body });
        expect([method, path, res.status]).toEqual([method, path, 401]);
        expect(res.json.error.code).toBe('unauthorized');
      }
    }
  });

  it("answers 404 when a user touches another user's miner or worker, and changes nothing", async () => {
    const attempts = [
      api.request('PUT', `/api/miners/${bobMiner}`, { token: alice.token, body: { name: 'mine now' } }),
      api.request('DELETE', `/api/miners/${bobMiner}`, { token: alice.token }),
      api.request('PUT', `/api/workers/${bobWorker}`, { token: alice.token, body: { name: 'mine now' } }),
      api.request('DELETE', `/api/workers/${bobWorker}`, { token: alice.token }),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.status).toBe(404);
      expect(res.json.error.code).toMatch(/not-found$/);
    }
    const conn = await api.request('GET', '/api/workers/bob_sec.bobrig/connection', { token: alice.token });
    expect(conn.json.connected).toBe(false);
    expect((await api.request('GET', '/api/miners', { token: alice.token })).json.miners).toEqual([]);
    const bobs = await api.request('GET', '/api/miners', { token: bob.token });
    expect(bobs.json.miners).toEqual([expect.objectContaining({ id: bobMiner, name: 'Bob S19' })]);
    expect((await api.request('GET', '/api/workers', { token: bob.token })).json.workers[0].name).toBe(
      'bobrig',
    );
  });

  it('answers 400 invalid-json for a broken body, 413 for an oversized one, 415 for a non-JSON type', async () => {
    const broken = await api.request('POST', '/api/auth/login', {
      rawBody: '{"email": "a@b.c",',
      headers: { 'content-type': 'application/json' },
    });
    expect(broken.status).toBe(400);
    expect(broken.json.error.code).toBe('invalid-json');
    const big = await api.request('POST', '/api/auth/login', {
      body: { email: 'a@b.co', password: 'x'.repeat(5_000) },
    });
    expect(big.status).toBe(413);
    expect(big.json.error).toEqual({ code: 'payload-too-large', message: 'The request body is too large' });
    const text = await api.request('POST', '/api/auth/login', {
      rawBody: 'email=a',
      headers: { 'content-type': 'text/plain' },
    });
    expect(text.status).toBe(415);
    expect(text.json.error.code).toBe('unsupported-media-type');
  });

  it('answers 400 with per-field messages for wrong types', async () => {
    const res = await api.request('PUT', '/api/settings', {
      token: alice.token,
      body: { darkMode: 'yes', language: ['en'] },
    });
    expect(res.status).toBe(400);
    expect(res.json.error.fields).toEqual({
      darkMode: 'Must be true or false',
      language: 'Invalid value',
    });
    const miner = await api.request('POST', '/api/miners', {
      token: alice.token,
      body: { name: 42, type: 'fpga', algorithm: 'sha256', workerName: 'a b' },
    });
    expect(Object.keys(miner.json.error.fields).sort()).toEqual(['name', 'type', 'workerName']);
    const id = await api.request('PUT', '/api/miners/abc', { token: alice.token, body: { name: 'x' } });
    expect(id.status).toBe(400);
    expect(id.json.error.fields).toHaveProperty('id');
  });

  it('stores script and SQL text inert and returns it byte for byte as JSON', async () => {
    const created = await api.request('POST', '/api/miners', {
      token: alice.token,
      body: { name: `${SCRIPT}${SQL}`, type: 'gpu', algorithm: 'ethash', workerName: 'w1' },
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('content-type')).toMatch(/^application\/json/);
    expect(created.json.name).toBe(`${SCRIPT}${SQL}`);
    const list = await api.request('GET', '/api/miners', { token: alice.token });
    expect(list.json.miners[0].name).toBe(`${SCRIPT}${SQL}`);
    const search = await api.request('GET', `/api/workers?search=${encodeURIComponent(SQL)}`, {
      token: alice.token,
    });
    expect(search.status).toBe(200);
    const users = await getDb().query<{ n: bigint }>('SELECT COUNT(*) AS n FROM users');
    expect(Number(users.rows[0]?.n)).toBeGreaterThanOrEqual(2);
    const reg = await api.request('POST', '/api/auth/register', {
      body: { username: 'x<b>', email: `${SQL}@x.co`, password: 'longenough1' },
    });
    expect(reg.status).toBe(400);
  });

  it('persists every setting and strips unknown and read-only fields', async () => {
    const res = await api.request('PUT', '/api/settings', {
      token: alice.token,
      body: {
        darkMode: false,
        showBalance: false,
        showHashrate: false,
        theme: 'light',
        language: 'ar',
        notifications: false,
        // This pool sends no email: turning email alerts on is refused (password-reset.int.test.ts).
        emailAlerts: false,
        autoLogout: false,
        timeZone: 'Asia/Dubai',
        payoutThreshold: '0.1',
        twoFactorAuth: true,
        payoutAddress: 'bc1qstolen',
        isAdmin: true,
      },
    });
    expect(res.status).toBe(200);
    const read = await api.request('GET', '/api/settings', { token: alice.token });
    expect(read.json).toEqual({
      darkMode: false,
      showBalance: false,
      showHashrate: false,
      theme: 'light',
      language: 'ar',
      notifications: false,
      emailAlerts: false,
      emailAlertsAvailable: false,
      twoFactorAuth: false,
      autoLogout: false,
      timeZone: 'Asia/Dubai',
      payouts: expect.any(Array),
      rigTokenSet: false,
    });
    // The old coin-less threshold and address fields are stripped: every coin keeps its default.
    expect(
      ['BTC', 'LTC', 'XMR', 'KAS']
        .map((coin) => payoutOf(read.json, coin))
        .map((p) => [p.coin, p.address, p.threshold]),
    ).toEqual([
      ['BTC', null, '1000000'],
      ['LTC', null, '1000000'],
      ['XMR', null, '10000000000'],
      ['KAS', null, '1000000000'],
    ]);
  });

  it('sets the first payout address at once and holds a change for the configured hours', async () => {
    const first = await api.request('PUT', '/api/settings/payout-address', {
      token: alice.token,
      body: {
        address: 'rb1qw508d6qejxtdg4y5r3zarvary0c5xw7k38f4sn',
        coin: 'BTC',
        password: alice.password,
      },
    });
    expect(payoutOf(first.json, 'BTC').address).toBe('rb1qw508d6qejxtdg4y5r3zarvary0c5xw7k38f4sn');
    const bad = await api.request('PUT', '/api/settings/payout-address', {
      token: alice.token,
      body: { address: '1notvalid', coin: 'BTC', password: alice.password },
    });
    expect(bad.status).toBe(400);
    expect(bad.json.error.fields).toEqual({ address: 'Please enter a valid BTC address' });
    const next = 'rb1qqurswpc8qurswpc8qurswpc8qurswpc8qurswpc8qurswpc8qurst2l86c';
    const change = await api.request('PUT', '/api/settings/payout-address', {
      token: alice.token,
      body: { address: next, coin: 'BTC', password: alice.password },
    });
    expect(payoutOf(change.json, 'BTC').address).toBe('rb1qw508d6qejxtdg4y5r3zarvary0c5xw7k38f4sn');
    expect(payoutOf(change.json, 'BTC').pendingAddress).toBe(next);
    expect(payoutOf(change.json, 'BTC').pendingEffectiveAt).toBe(
      new Date(api.clock.now + 48 * 3_600_000).toISOString(),
    );
    api.clock.now += 48 * 3_600_000 + 1_000;
    const later = await api.request('GET', '/api/settings', { token: alice.token });
    expect(payoutOf(later.json, 'BTC')).toMatchObject({
      address: next,
      pendingAddress: null,
      pendingEffectiveAt: null,
    });
    const view = await getDb().query<{ address: string }>(
      "SELECT address FROM user_payout_addresses WHERE user_id = $1 AND coin = 'BTC'",
      [alice.id],
    );
    expect(view.rows[0]?.address).toBe(next);
  });

  it('answers unknown API routes with the error shape, in Arabic when asked', async () => {
    const res = await api.request('GET', '/api/nothing-here', { headers: { 'accept-language': 'ar' } });
    expect(res.status).toBe(404);
    expect(res.json.error).toEqual({ code: 'route-not-found', message: 'مسار الواجهة هذا غير موجود' });
  });

  it('sends security headers and a strict same-origin CSP', async () => {
    const res = await api.request('GET', '/api/pool/ports');
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN');
  });

  it('publishes an OpenAPI document from the contract schemas and a docs page', async () => {
    const doc = await api.request('GET', '/api/openapi.json');
    expect(doc.json.openapi).toBe('3.0.3');
    expect(
      doc.json.paths['/api/auth/register'].post.requestBody.content['application/json'].schema.properties,
    ).toHaveProperty('username');
    expect(doc.json.paths['/api/workers/{id}'].put.parameters[0]).toMatchObject({
      name: 'id',
      in: 'path',
      required: true,
    });
    const docs = await api.request('GET', '/api/docs');
    expect(docs.headers.get('content-type')).toMatch(/^text\/html/);
    expect(docs.text).toContain('/api/dashboard');
    expect(docs.text).not.toContain('<script');
  });

  it('serves Prometheus metrics with HTTP latency, blocks and payouts', async () => {
    const res = await api.request('GET', '/metrics');
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(res.text).toContain('# TYPE manjam_http_request_duration_seconds histogram');
    expect(res.text).toMatch(
      /manjam_http_request_duration_seconds_bucket\{method="GET",route="\/api\/pool\/ports",status="200",le="0.05"\} \d+/,
    );
    expect(res.text).toContain('# TYPE manjam_blocks gauge');
    expect(res.text).toContain('# TYPE manjam_shares_last_hour gauge');
  });

  it('shows the operator accounting counters such as a payout run stopped for insufficient funds', async () => {
    const counters = { payout_runs_total: 3, payout_insufficient_funds_total: 1 };
    const withAccounting = await startTestApi(getDb(), { accountingCounters: () => counters });
    try {
      const res = await withAccounting.request('GET', '/metrics');
      expect(res.text).toContain('# TYPE manjam_accounting_payout_insufficient_funds_total counter');
      expect(res.text).toMatch(/^manjam_accounting_payout_insufficient_funds_total 1$/m);
      expect(res.text).toMatch(/^manjam_accounting_payout_runs_total 3$/m);
    } finally {
      await withAccounting.close();
    }
  });

  it('answers health 200 when all is well and 503 with what is wrong', async () => {
    const ok = await api.request('GET', '/api/health');
    expect(ok.status).toBe(200);
    expect(ok.json.status).toBe('ok');
    api.health.report = {
      ok: false,
      database: { ok: true, kind: 'pglite' },
      chains: [{ coin: 'BTC', ok: false, height: null, error: 'node unreachable' }],
      alerts: [],
    };
    const bad = await api.request('GET', '/api/health');
    expect(bad.status).toBe(503);
    expect(bad.json).toEqual({
      status: 'degraded',
      database: { ok: true, kind: 'pglite' },
      chains: [{ coin: 'BTC', ok: false, height: null, error: 'node unreachable' }],
      alerts: [],
    });
    const alert = {
      kind: 'payout-stuck',
      coin: 'BTC',
      message: 'BTC payout run 7 has been sent for 95 min',
      since: '2026-11-25T10:00:00.000Z',
    };
    api.health.report = { ok: true, database: { ok: true, kind: 'pglite' }, chains: [], alerts: [alert] };
    const degraded = await api.request('GET', '/api/health');
    expect(degraded.status).toBe(200);
    expect(degraded.json).toEqual({
      status: 'degraded',
      database: { ok: true, kind: 'pglite' },
      chains: [],
      alerts: [alert],
    });
  });
});

describeEachDatabase('rate limits and the web app', (getDb) => {
  let api: TestApi;
  let web: string;
  beforeAll(async () => {
    web = mkdtempSync(join(tmpdir(), 'manjam-web-'));
    mkdirSync(join(web, 'assets'));
    writeFileSync(join(web, 'index.html'), '<!doctype html><title>Manjam</title><div id="root"></div>');
    writeFileSync(join(web, 'assets', 'app-1234.js'), 'console.log(1)');
    api = await startTestApi(getDb(), {
      config: { http: { host: '127.0.0.1', port: 0, webDist: web } },
      app: { rateLimits: { auth: { max: 5, timeWindow: 60_000 }, search: { max: 3, timeWindow: 60_000 } } },
    });
  });
  afterAll(() => api.close());

  it('rate-limits a burst of logins with 429 and the error shape', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++)
      statuses.push(
        (
          await api.request('POST', '/api/auth/login', {
            body: { email: `burst${i}@x.co`, password: 'whatever1' },
          })
        ).status,
      );
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses.slice(5)).toEqual([429, 429]);
    const limited = await api.request('POST', '/api/auth/login', {
      body: { email: 'a@x.co', password: 'whatever1' },
    });
    expect(limited.json.error.code).toBe('rate-limited');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('rate-limits search', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await api.request('GET', '/api/search?q=abc')).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  it('serves the built web app, its assets, and index.html for client routes', async () => {
    const root = await api.request('GET', '/', { headers: { accept: 'text/html' } });
    expect(root.status).toBe(200);
    expect(root.text).toContain('<div id="root">');
    const route = await api.request('GET', '/dashboard/workers', {
      headers: { accept: 'text/html,application/xhtml+xml' },
    });
    expect(route.status).toBe(200);
    expect(route.text).toContain('<div id="root">');
    expect(route.headers.get('content-security-policy')).toContain("default-src 'self'");
    const asset = await api.request('GET', '/assets/app-1234.js');
    expect(asset.headers.get('cache-control')).toContain('immutable');
    const api404 = await api.request('GET', '/api/unknown', { headers: { accept: 'text/html' } });
    expect(api404.status).toBe(404);
    expect(api404.json.error.code).toBe('route-not-found');
  });
});

describe('startHttp', () => {
  it('is exported with the deps the composition root passes', async () => {
    const mod = await import('./index.js');
    expect(typeof mod.startHttp).toBe('function');
    expect(typeof mod.buildApp).toBe('function');
  });
});
