/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-call -- tests read JSON bodies field by field */
// Read-only API tokens over HTTP (issue 27): a token reads the account's own figures on the
// routes api-token-access.ts lists, is refused (403 read-only-token) on every other route and
// every write, answers 401 once revoked or expired, and 429 past its per-minute budget.
// Run on PostgreSQL and PGlite.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { FixtureWriter } from '../../test/support/db/fixtures.js';
import { describeEachDatabase } from '../../test/support/db.js';
import { startTestApi, type TestApi } from '../../test/support/http.js';
import { MAX_LIVE_API_TOKENS } from '@manjam/contract';
import { TOKEN_READABLE_ROUTES } from './api-token-access.js';

const PER_MINUTE = 8;
const DAY_MS = 86_400_000;

describeEachDatabase('read-only API tokens', (getDb) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi(getDb(), {
      config: {
        http: { host: '127.0.0.1', port: 0, webDist: '', apiTokens: { requestsPerMinute: PER_MINUTE } },
      },
    });
  });
  afterAll(() => api.close());

  type User = Awaited<ReturnType<TestApi['signUp']>>;
  const createToken = async (user: User, extra: Record<string, unknown> = {}) => {
    const created = await api.request('POST', '/api/settings/api-tokens', {
      token: user.token,
      body: { name: 'Grafana', password: user.password, ...extra },
    });
    expect(created.status).toBe(201);
    return created.json as { id: number; token: string; prefix: string };
  };

  it('lists only routes the app serves as token-readable, every one a GET', () => {
    const served = new Set(api.http.routes.map((r) => `${r.method} ${r.url}`));
    for (const entry of TOKEN_READABLE_ROUTES) {
      expect(served.has(entry), entry).toBe(true);
      expect(entry.startsWith('GET ')).toBe(true);
    }
  });

  it('creates a token shown once in full, listed afterwards by name and prefix only', async () => {
    const user = await api.signUp('tok_create');
    const created = await createToken(user, { expiresInDays: 30 });
    expect(created.token).toMatch(/^mj_ro_[A-Za-z0-9_-]{43}$/);
    expect(created.token.startsWith(created.prefix)).toBe(true);
    const list = await api.request('GET', '/api/settings/api-tokens', { token: user.token });
    expect(list.status).toBe(200);
    expect(list.json.tokens).toEqual([
      expect.objectContaining({ id: created.id, name: 'Grafana', prefix: created.prefix, revokedAt: null }),
    ]);
    expect(list.text).not.toContain(created.token);
    const expires = Date.parse(list.json.tokens[0].expiresAt as string);
    expect(expires - api.clock.now).toBe(30 * DAY_MS);
  });

  it('refuses to create a token without the account password', async () => {
    const user = await api.signUp('tok_nopass');
    const wrong = await api.request('POST', '/api/settings/api-tokens', {
      token: user.token,
      body: { name: 'x', password: 'not my password' },
    });
    expect(wrong.status).toBe(403);
    expect(wrong.json.error.code).toBe('wrong-password');
    const list = await api.request('GET', '/api/settings/api-tokens', { token: user.token });
    expect(list.json.tokens).toEqual([]);
  });

  it("reads the account's own dashboard, workers, balances and payouts with the token", async () => {
    const user = await api.signUp('tok_reads');
    const other = await api.signUp('tok_other');
    const fixtures = new FixtureWriter(getDb());
    const payee = await fixtures.userPayee(user.id, 'BTC');
    await fixtures.worker(payee, 'rig1', { lastShareAt: new Date(api.clock.now - 60_000) });
    await fixtures.payout(payee, 50_000n, { status: 'confirmed', txid: 'a'.repeat(64) });
    const otherPayee = await fixtures.userPayee(other.id, 'BTC');
    await fixtures.worker(otherPayee, 'stranger', { lastShareAt: new Date(api.clock.now - 60_000) });
    api.forget(user.id);
    const { token } = await createToken(user);

    const dashboard = await api.request('GET', '/api/dashboard', { token });
    expect(dashboard.status).toBe(200);
    expect(dashboard.json.coin).toBe('BTC');
    const workers = await api.request('GET', '/api/workers', { token });
    expect(workers.status).toBe(200);
    expect(workers.json.workers.map((w: { name: string }) => w.name)).toEqual(['rig1']);
    const summary = await api.request('GET', '/api/revenue/summary', { token });
    expect(summary.status).toBe(200);
    const payouts = await api.request('GET', '/api/payouts', { token });
    expect(payouts.status).toBe(200);
    expect(payouts.json.items).toEqual([expect.objectContaining({ amount: '50000', coin: 'BTC' })]);
    const csv = await api.request('GET', '/api/payouts.csv', { token });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toContain('text/csv');

    const listed = await api.request('GET', '/api/settings/api-tokens', { token: user.token });
    expect(listed.json.tokens[0].lastUsedAt).not.toBeNull();
  });

  it('answers 403 read-only-token on every non-GET route and on settings and security reads', async () => {
    const user = await api.signUp('tok_writes');
    const { token } = await createToken(user);
    const writes = api.http.routes.filter((r) => r.method !== 'GET');
    expect(writes.length).toBeGreaterThan(10);
    for (const route of writes) {
      const path = route.url.replace(/:id\b/g, '1').replace(/:[A-Za-z]+/g, 'x');
      const answer = await api.request(route.method, path, { token, body: {} });
      expect(answer.status, `${route.method} ${route.url}`).toBe(403);
      expect(answer.json.error.code).toBe('read-only-token');
    }
    for (const path of [
      '/api/settings',
      '/api/settings/api-tokens',
      '/api/settings/watch-links',
      '/api/me',
      '/api/notifications',
    ]) {
      const answer = await api.request('GET', path, { token });
      expect(answer.status, path).toBe(403);
      expect(answer.json.error.code).toBe('read-only-token');
    }
    const ar = await api.request('DELETE', '/api/workers/1', { token, headers: { 'accept-language': 'ar' } });
    expect(ar.json.error.message).toContain('للقراءة فقط');
  });

  it(`holds at most ${MAX_LIVE_API_TOKENS} live tokens, even when the last ones are asked for at once; a revoked one makes room`, async () => {
    const user = await api.signUp('tok_cap');
    const ask = (name: string) =>
      api.request('POST', '/api/settings/api-tokens', {
        token: user.token,
        body: { name, password: user.password },
      });
    // Up to two short of the cap, three at a time (the password check admits a few at once per account).
    for (let made = 0; made < MAX_LIVE_API_TOKENS - 2; made += 3) {
      const batch = await Promise.all([0, 1, 2].map((i) => ask(`rig-${made + i}`)));
      expect(batch.map((a) => a.status)).toEqual([201, 201, 201]);
    }
    const last = await Promise.all(Array.from({ length: 5 }, (_, i) => ask(`last-${i}`)));
    const created = last.filter((a) => a.status === 201);
    const refused = last.filter((a) => a.status === 409);
    expect([created.length, refused.length]).toEqual([2, 3]);
    expect(refused[0]?.json.error.code).toBe('api-token-limit');
    expect(refused[0]?.json.error.message).toContain(`${MAX_LIVE_API_TOKENS} live API tokens`);
    const list = await api.request('GET', '/api/settings/api-tokens', { token: user.token });
    expect(list.json.tokens).toHaveLength(MAX_LIVE_API_TOKENS);
    const revoked = await api.request('DELETE', `/api/settings/api-tokens/${created[0]?.json.id as number}`, {
      token: user.token,
    });
    expect(revoked.status).toBe(204);
    await createToken(user);
  });

  it('answers 401 once the token is revoked, and only its owner can revoke it', async () => {
    const user = await api.signUp('tok_revoke');
    const stranger = await api.signUp('tok_revoke_other');
    const { id, token } = await createToken(user);
    expect((await api.request('GET', '/api/dashboard', { token })).status).toBe(200);
    const foreign = await api.request('DELETE', `/api/settings/api-tokens/${id}`, { token: stranger.token });
    expect(foreign.status).toBe(404);
    expect(foreign.json.error.code).toBe('api-token-not-found');
    expect((await api.request('GET', '/api/dashboard', { token })).status).toBe(200);
    const revoked = await api.request('DELETE', `/api/settings/api-tokens/${id}`, { token: user.token });
    expect(revoked.status).toBe(204);
    const after = await api.request('GET', '/api/dashboard', { token });
    expect(after.status).toBe(401);
    expect(after.json.error.code).toBe('unauthorized');
    const list = await api.request('GET', '/api/settings/api-tokens', { token: user.token });
    expect(list.json.tokens[0].revokedAt).not.toBeNull();
  });

  it('answers 401 once the token has expired', async () => {
    const user = await api.signUp('tok_expiry');
    const { token } = await createToken(user, { expiresInDays: 1 });
    expect((await api.request('GET', '/api/workers', { token })).status).toBe(200);
    api.clock.now += DAY_MS + 1_000;
    try {
      const after = await api.request('GET', '/api/workers', { token });
      expect(after.status).toBe(401);
    } finally {
      api.clock.now -= DAY_MS + 1_000;
    }
  });

  it('answers 429 with Retry-After past the per-minute budget of one token, not of another', async () => {
    const user = await api.signUp('tok_limit');
    const first = await createToken(user);
    const second = await createToken(user);
    for (let i = 0; i < PER_MINUTE; i += 1)
      expect((await api.request('GET', '/api/revenue/summary', { token: first.token })).status).toBe(200);
    const over = await api.request('GET', '/api/revenue/summary', { token: first.token });
    expect(over.status).toBe(429);
    expect(over.json.error.code).toBe('rate-limited');
    const retry = Number(over.headers.get('retry-after'));
    expect(retry).toBeGreaterThanOrEqual(1);
    expect(retry).toBeLessThanOrEqual(60);
    expect((await api.request('GET', '/api/revenue/summary', { token: second.token })).status).toBe(200);
    api.clock.now += 61_000;
    try {
      expect((await api.request('GET', '/api/revenue/summary', { token: first.token })).status).toBe(200);
    } finally {
      api.clock.now -= 61_000;
    }
  });

  it('answers public routes as to anyone and documents the token in the OpenAPI document', async () => {
    const user = await api.signUp('tok_public');
    const { token } = await createToken(user);
    expect((await api.request('GET', '/api/pool/stats', { token })).status).toBeLessThan(400);
    const doc = await api.request('GET', '/api/openapi.json');
    expect(doc.json.components.securitySchemes.readOnlyToken).toBeDefined();
    expect(doc.json.paths['/api/dashboard'].get.security).toEqual([{ bearer: [] }, { readOnlyToken: [] }]);
    expect(doc.json.paths['/api/settings'].get.security).toEqual([{ bearer: [] }]);
  });
});
