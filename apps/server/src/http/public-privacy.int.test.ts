/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-argument -- tests read JSON bodies field by field */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { FixtureWriter } from '../../test/support/db/fixtures.js';
import { describeEachDatabase } from '../../test/support/db.js';
import { startTestApi, type TestApi } from '../../test/support/http.js';

const ALICE_PAYOUT = 'rb1qw508d6qejxtdg4y5r3zarvary0c5xw7k38f4sn';
const WALLET_MINER = 'rb1qqurswpc8qurswpc8qurswpc8qurswpc8qurswpc8qurswpc8qurst2l86c';
const PRIVATE_NAME = 'Basement secret rig';
const METRICS_TOKEN = 'metrics-token-0123456789abcdef';

describeEachDatabase('public data: lookup by payout address only, nothing private', (getDb) => {
  let api: TestApi;
  let alice: Awaited<ReturnType<TestApi['signUp']>>;
  let bob: Awaited<ReturnType<TestApi['signUp']>>;
  /** Everything of Alice's account the public must never see. */
  let secrets: string[];

  beforeAll(async () => {
    api = await startTestApi(getDb());
    const fx = new FixtureWriter(getDb());
    alice = await api.signUp('alice_private');
    bob = await api.signUp('bob_curious');
    const set = await api.request('PUT', '/api/settings/payout-address', {
      token: alice.token,
      body: { address: ALICE_PAYOUT, coin: 'BTC', password: alice.password },
    });
    expect(set.status).toBe(200);
    const now = api.clock.now;
    const payee = await fx.userPayee(alice.id, 'BTC');
    for (const name of ['rig1', 'rig2']) {
      const worker = await fx.worker(payee, name, {
        lastShareAt: new Date(now - 60_000),
        accepted: 300,
        rejected: 4,
        stale: 1,
      });
      await fx.shareStat(worker, new Date(now - 120_000), 30, 3_000);
    }
    const renamed = (
      await getDb().query<{ id: number }>("SELECT id FROM workers WHERE payee_id = $1 AND name = 'rig1'", [
        payee,
      ])
    ).rows[0]?.id;
    expect(
      (
        await api.request('PUT', `/api/workers/${renamed}`, {
          token: alice.token,
          body: { name: PRIVATE_NAME },
        })
      ).status,
    ).toBe(200);
    await fx.ledger(payee, 40_000n, 'pps', new Date(now - 3_600_000));
    const wallet = await fx.walletPayee(WALLET_MINER, 'BTC');
    await fx.worker(wallet, 'farm', { lastShareAt: new Date(now - 60_000), accepted: 10 });
    await fx.block('BTC', 2001, 'ab'.repeat(32), { finderPayeeId: payee, status: 'confirmed' });
    await fx.block('BTC', 2002, 'cd'.repeat(32), {
      finderPayeeId: await fx.userPayee(bob.id, 'BTC'),
      status: 'confirmed',
    });
    // Alice mines LTC too, with no LTC payout address: her BTC address is no finder of an LTC block.
    await fx.block('LTC', 3001, '9a'.repeat(32), {
      finderPayeeId: await fx.userPayee(alice.id, 'LTC'),
      status: 'pending',
    });
    await fx.chainTip('BTC', 2050, 1);
    secrets = [alice.username, alice.email, PRIVATE_NAME, bob.username, bob.email];
  });
  afterAll(() => api.close());

  const leaks = (text: string) =>
    secrets.filter((secret) => text.toLowerCase().includes(secret.toLowerCase()));

  it('walks /api/search?q=1..50 without a token and finds no account data', async () => {
    for (let q = 1; q <= 50; q++) {
      const res = await api.request('GET', `/api/search?q=${q}`);
      expect(res.status).toBe(200);
      expect(res.json).toEqual({ results: [] });
    }
    for (const q of [alice.username, `${alice.username}.rig1`, PRIVATE_NAME, alice.email, 'rig1']) {
      const res = await api.request('GET', `/api/search?q=${encodeURIComponent(q)}`);
      expect(res.json).toEqual({ results: [] });
    }
  });

  it("walks /api/search?q=1..50 signed in as another account and finds none of Alice's data", async () => {
    for (let q = 1; q <= 50; q++) {
      const res = await api.request('GET', `/api/search?q=${q}`, { token: bob.token });
      expect(res.json).toEqual({ results: [] });
    }
    expect(
      (await api.request('GET', `/api/search?q=${encodeURIComponent(PRIVATE_NAME)}`, { token: bob.token }))
        .json,
    ).toEqual({ results: [] });
  });

  it('answers a payout address with its workers under their Stratum names, opaque ids and no username', async () => {
    const res = await api.request('GET', `/api/search?q=${ALICE_PAYOUT}`);
    expect(res.json.results).toHaveLength(1);
    const miners = res.json.results[0].miners;
    expect(res.json.results[0].address).toBe(ALICE_PAYOUT);
    expect(miners.map((m: { name: string }) => m.name)).toEqual(['rig1', 'rig2']);
    expect(miners[0]).toMatchObject({
      status: 'active',
      source: 'pool',
      shares: { accepted: 300, rejected: 4, stale: 1 },
    });
    for (const miner of miners) expect(miner.id).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(new Set(miners.map((m: { id: string }) => m.id)).size).toBe(2);
    expect(leaks(res.text)).toEqual([]);
    // The same worker keeps its id from one answer to the next.
    const again = await api.request('GET', `/api/miners/lookup/${ALICE_PAYOUT}`);
    expect(again.json.miners.map((m: { id: string }) => m.id)).toEqual(
      miners.map((m: { id: string }) => m.id),
    );
    expect(leaks(again.text)).toEqual([]);
  });

  it('narrows a payout address to one worker with address.worker', async () => {
    const res = await api.request('GET', `/api/search?q=${ALICE_PAYOUT}.RIG2`);
    expect(res.json.results).toEqual([
      { address: ALICE_PAYOUT, miners: [expect.objectContaining({ name: 'rig2' })] },
    ]);
    const wallet = await api.request('GET', `/api/search?q=${WALLET_MINER}.farm`);
    expect(wallet.json.results[0].miners.map((m: { name: string }) => m.name)).toEqual(['farm']);
  });

  it('lets a signed-in owner find their own workers by private name', async () => {
    const res = await api.request('GET', `/api/search?q=${encodeURIComponent(PRIVATE_NAME.toLowerCase())}`, {
      token: alice.token,
    });
    expect(res.json.results).toEqual([
      {
        address: PRIVATE_NAME.toLowerCase(),
        miners: [expect.objectContaining({ name: PRIVATE_NAME, status: 'active' })],
      },
    ]);
    const byStratumName = await api.request('GET', '/api/search?q=rig2', { token: alice.token });
    expect(byStratumName.json.results[0].miners.map((m: { name: string }) => m.name)).toEqual(['rig2']);
    // The login the setup guide teaches, username.worker, finds the owner's worker too.
    const byLogin = await api.request('GET', `/api/search?q=${alice.username}.rig2`, { token: alice.token });
    expect(byLogin.json.results[0].miners.map((m: { name: string }) => m.name)).toEqual(['rig2']);
  });

  it('shows block finders as shortened payout addresses, never usernames', async () => {
    const blocks = await api.request('GET', '/api/blocks');
    const byHeight = new Map(
      blocks.json.items.map((b: { height: number; finder: string }) => [b.height, b.finder]),
    );
    expect(byHeight.get(2001)).toBe('rb1qw5…f4sn');
    expect(byHeight.get(2002)).toBe('');
    expect(byHeight.get(3001)).toBe('');
    // Confirmations follow the coin's tip (height 2050), not the last accounting cycle's figure.
    const confirmations = new Map(
      blocks.json.items.map((b: { height: number; confirmations: number }) => [b.height, b.confirmations]),
    );
    expect(confirmations.get(2001)).toBe(50);
    expect(confirmations.get(2002)).toBe(49);
    expect(leaks(blocks.text)).toEqual([]);
  });

  it('refuses /metrics without the bearer token when one is configured (401), and serves it with the token', async () => {
    const guarded = await startTestApi(getDb(), {
      config: { http: { host: '127.0.0.1', port: 0, webDist: '', metricsToken: METRICS_TOKEN } },
    });
    try {
      const none = await guarded.request('GET', '/metrics');
      expect(none.status).toBe(401);
      expect(none.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
      expect(none.text).not.toContain('manjam_');
      expect(
        (
          await guarded.request('GET', '/metrics', {
            headers: { authorization: 'Bearer wrong-token-0123456789abcdef' },
          })
        ).status,
      ).toBe(401);
      const ok = await guarded.request('GET', '/metrics', {
        headers: { authorization: `Bearer ${METRICS_TOKEN}` },
      });
      expect(ok.status).toBe(200);
      expect(ok.text).toContain('# TYPE manjam_blocks gauge');
    } finally {
      await guarded.close();
    }
  });

  it('serves /metrics without a configured token only to a direct loopback connection, never through a proxy', async () => {
    expect((await api.request('GET', '/metrics')).status).toBe(200);
    const proxied = await api.request('GET', '/metrics', { headers: { 'x-forwarded-for': '203.0.113.9' } });
    expect(proxied.status).toBe(403);
    expect(proxied.json.error.code).toBe('forbidden');
  });

  it('reads the database aggregates of /metrics at most once per 15 seconds, however often it is scraped', async () => {
    const count = (text: string) =>
      Number(/^manjam_blocks\{coin="BTC",status="confirmed"\} (\d+)$/m.exec(text)?.[1] ?? 0);
    const before = count((await api.request('GET', '/metrics')).text);
    await new FixtureWriter(getDb()).block('BTC', 2003, 'ef'.repeat(32), { status: 'confirmed' });
    const scrapes = await Promise.all(Array.from({ length: 20 }, () => api.request('GET', '/metrics')));
    expect(scrapes.map((s) => count(s.text))).toEqual(Array.from({ length: 20 }, () => before));
    api.clock.now += 15_000;
    expect(count((await api.request('GET', '/metrics')).text)).toBe(before + 1);
  });
});
