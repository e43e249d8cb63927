/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-assignment -- tests read JSON bodies field by field */
// Watcher links over HTTP (issue 27): a public read-only view of the coins and pages its owner
// chose, with nothing private (no email, username, settings, nor a payout address in full); a
// revoked, expired or unknown link answers 404; another account's data is never shown.
// Run on PostgreSQL and PGlite.
import { MAX_LIVE_WATCH_LINKS } from '@manjam/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { FixtureWriter } from '../../test/support/db/fixtures.js';
import { describeEachDatabase } from '../../test/support/db.js';
import { startTestApi, type TestApi } from '../../test/support/http.js';

const DAY_MS = 86_400_000;
const BTC_ADDRESS = 'rb1qw508d6qejxtdg4y5r3zarvary0c5xw7k38f4sn';
const LTC_ADDRESS = 'rltc1qw508d6qejxtdg4y5r3zarvary0c5xw7k693xs3';

describeEachDatabase('watcher links', (getDb) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi(getDb());
  });
  afterAll(() => api.close());

  type User = Awaited<ReturnType<TestApi['signUp']>>;
  const createLink = async (user: User, body: Record<string, unknown>) => {
    const created = await api.request('POST', '/api/settings/watch-links', {
      token: user.token,
      body: { label: 'Family', password: user.password, ...body },
    });
    expect(created.status).toBe(201);
    return created.json as { id: number; token: string };
  };

  /** An account mining BTC and LTC, with one worker and one payout on each coin. */
  const miner = async (name: string): Promise<User> => {
    const user = await api.signUp(name);
    const fixtures = new FixtureWriter(getDb());
    const seen = new Date(api.clock.now - 60_000);
    const btc = await fixtures.userPayee(user.id, 'BTC');
    const ltc = await fixtures.userPayee(user.id, 'LTC');
    await fixtures.worker(btc, `${name}_btc`, { coin: 'BTC', lastShareAt: seen });
    await fixtures.worker(ltc, `${name}_ltc`, { coin: 'LTC', lastShareAt: seen });
    await fixtures.payout(btc, 70_000n, { coin: 'BTC', address: BTC_ADDRESS, txid: 'b'.repeat(64) });
    await fixtures.payout(ltc, 90_000n, { coin: 'LTC', address: LTC_ADDRESS, txid: 'c'.repeat(64) });
    api.forget(user.id);
    return user;
  };

  it(`holds at most ${MAX_LIVE_WATCH_LINKS} live links; the next is refused with the reason, a revoked one makes room`, async () => {
    const user = await api.signUp('watch_cap');
    const body = { coins: ['BTC'], pages: ['dashboard'] };
    const links = [];
    for (let i = 0; i < MAX_LIVE_WATCH_LINKS; i++) links.push(await createLink(user, body));
    const refused = await api.request('POST', '/api/settings/watch-links', {
      token: user.token,
      body: { label: 'One more', password: user.password, ...body },
    });
    expect(refused.status).toBe(409);
    expect(refused.json.error.code).toBe('watch-link-limit');
    const revoked = await api.request('DELETE', `/api/settings/watch-links/${links[0]?.id ?? 0}`, {
      token: user.token,
    });
    expect(revoked.status).toBe(204);
    await createLink(user, body);
  });

  it('shows only the chosen coins and pages, signed out, with nothing private', async () => {
    const user = await miner('watch_ltc');
    const { token } = await createLink(user, { coins: ['LTC'], pages: ['workers', 'payouts'] });
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const view = await api.request('GET', `/api/watch/${token}`);
    expect(view.status).toBe(200);
    expect(view.json).toEqual({
      label: 'Family',
      coins: ['LTC'],
      pages: ['workers', 'payouts'],
      expiresAt: null,
    });

    const workers = await api.request('GET', `/api/watch/${token}/workers`);
    expect(workers.status).toBe(200);
    expect(workers.json.workers.map((w: { name: string; coin: string }) => [w.name, w.coin])).toEqual([
      ['watch_ltc_ltc', 'LTC'],
    ]);

    const payouts = await api.request('GET', `/api/watch/${token}/payouts`);
    expect(payouts.status).toBe(200);
    expect(payouts.json.items).toEqual([
      expect.objectContaining({ coin: 'LTC', amount: '90000', address: 'rltc1q…3xs3', txId: 'cccccc…cccc' }),
    ]);
    expect(payouts.json.items[0]).not.toHaveProperty('id');
    expect(payouts.text).not.toContain('c'.repeat(12));
    const btcPayouts = await api.request('GET', `/api/watch/${token}/payouts?coin=BTC`);
    expect(btcPayouts.json.items).toEqual([]);

    const dashboard = await api.request('GET', `/api/watch/${token}/dashboard`);
    expect(dashboard.status).toBe(404);
    expect(dashboard.json.error.code).toBe('watch-link-not-found');

    for (const answer of [view, workers, payouts]) {
      expect(answer.text).not.toContain(user.email);
      expect(answer.text).not.toContain(user.username + '.');
      expect(answer.text).not.toContain(LTC_ADDRESS);
      expect(answer.text).not.toContain(BTC_ADDRESS);
    }
  });

  it("shows the dashboard's hashrates and balances of the chosen coins only", async () => {
    const user = await miner('watch_dash');
    const { token } = await createLink(user, { coins: ['BTC'], pages: ['dashboard'] });
    const dashboard = await api.request('GET', `/api/watch/${token}/dashboard`);
    expect(dashboard.status).toBe(200);
    expect(dashboard.json.coins.map((c: { coin: string }) => c.coin)).toEqual(['BTC']);
    for (const rate of dashboard.json.hashrates as { coin: string }[]) expect(rate.coin).toBe('BTC');
    expect((await api.request('GET', `/api/watch/${token}/workers`)).status).toBe(404);
  });

  it("never shows another account's data", async () => {
    const owner = await miner('watch_owner');
    const other = await miner('watch_someone');
    const { token } = await createLink(owner, { coins: ['BTC', 'LTC'], pages: ['workers', 'payouts'] });
    const workers = await api.request('GET', `/api/watch/${token}/workers`);
    const names = workers.json.workers.map((w: { name: string }) => w.name).sort();
    expect(names).toEqual(['watch_owner_btc', 'watch_owner_ltc']);
    expect(workers.text).not.toContain(other.username);
    const othersList = await api.request('GET', '/api/settings/watch-links', { token: other.token });
    expect(othersList.json.links).toEqual([]);
  });

  it('answers 404 for a revoked link, and only its owner can revoke it', async () => {
    const user = await miner('watch_revoke');
    const stranger = await api.signUp('watch_revoke_x');
    const { id, token } = await createLink(user, { coins: ['BTC'], pages: ['workers'] });
    const foreign = await api.request('DELETE', `/api/settings/watch-links/${id}`, { token: stranger.token });
    expect(foreign.status).toBe(404);
    expect((await api.request('GET', `/api/watch/${token}`)).status).toBe(200);
    expect(
      (await api.request('DELETE', `/api/settings/watch-links/${id}`, { token: user.token })).status,
    ).toBe(204);
    for (const path of [`/api/watch/${token}`, `/api/watch/${token}/workers`]) {
      const gone = await api.request('GET', path, { headers: { 'accept-language': 'ar' } });
      expect(gone.status).toBe(404);
      expect(gone.json.error.code).toBe('watch-link-not-found');
      expect(gone.json.error.message).toContain('رابط المتابعة');
    }
    const list = await api.request('GET', '/api/settings/watch-links', { token: user.token });
    expect(list.json.links[0]).toEqual(expect.objectContaining({ id, token, revokedAt: expect.any(String) }));
  });

  it('answers 404 for an expired link and for a token that names no link', async () => {
    const user = await miner('watch_expiry');
    const { token } = await createLink(user, { coins: ['BTC'], pages: ['payouts'], expiresInDays: 7 });
    expect((await api.request('GET', `/api/watch/${token}/payouts`)).status).toBe(200);
    api.clock.now += 7 * DAY_MS + 1_000;
    try {
      expect((await api.request('GET', `/api/watch/${token}/payouts`)).status).toBe(404);
    } finally {
      api.clock.now -= 7 * DAY_MS + 1_000;
    }
    expect((await api.request('GET', `/api/watch/${'x'.repeat(43)}`)).status).toBe(404);
    expect((await api.request('GET', `/api/watch/${'x'.repeat(150)}`)).status).toBe(404);
  });

  it('refuses a link without a coin or a page, or without the password', async () => {
    const user = await api.signUp('watch_invalid');
    const none = await api.request('POST', '/api/settings/watch-links', {
      token: user.token,
      body: { label: 'x', coins: [], pages: [], password: user.password },
    });
    expect(none.status).toBe(400);
    expect(Object.keys(none.json.error.fields as object).sort()).toEqual(['coins', 'pages']);
    const wrong = await api.request('POST', '/api/settings/watch-links', {
      token: user.token,
      body: { label: 'x', coins: ['BTC'], pages: ['workers'], password: 'wrong password' },
    });
    expect(wrong.status).toBe(403);
    expect(wrong.json.error.code).toBe('wrong-password');
  });
});
