import {
  assistantResponseSchema,
  dashboardSchema,
  notificationListSchema,
  payoutPageSchema,
  rewardPageSchema,
  userSchema,
  workerListSchema,
} from '@manjam/contract';
import { pino } from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { FixtureWriter } from '../../test/support/db/fixtures.js';
import { describeEachDatabase } from '../../test/support/db.js';
import { PoolEvents } from '../events.js';
import { startAlerts, type AlertsHandle } from '../services/alerts/index.js';
import { startTestApi, type TestApi } from '../../test/support/http.js';

// One user mining two ways: as `username.rig1` (their account payee) and as `<their wallet>.s19`
// (the wallet payee of the address they registered), plus `username.l3` on Scrypt (Litecoin).
// Every screen and service counts both payees, and shows each algorithm apart (never summed).

const MIN = 60_000;
const WALLET = 'rb1qw508d6qejxtdg4y5r3zarvary0c5xw7k38f4sn';
const SHA256_HASHES = 2 ** 32;
const SCRYPT_HASHES = 2 ** 16;

describeEachDatabase('a user mining to both their account name and their own wallet address', (getDb) => {
  let api: TestApi;
  let alerts: AlertsHandle;
  let user: Awaited<ReturnType<TestApi['signUp']>>;
  // rig1: 600 difficulty a minute for the last 10 minutes; s19: one 600-difficulty minute 2 minutes
  // ago in the last 10 (it dropped). Each worker averages over the time it mined in the window
  // (services/shared/hashrate.ts): rig1 over 600 s, s19 over 120 s; the totals sum the workers.
  const s19Hashrate = (600 * SHA256_HASHES) / 120;
  const expectedHashrate = (10 * 600 * SHA256_HASHES) / 600 + s19Hashrate;
  // The 24 h averages: rig1's 10 minutes, and s19's every share since its first (120 minutes ago).
  const dayAverage = (10 * 600 * SHA256_HASHES) / 600 + ((600 + 11 * 60_000) * SHA256_HASHES) / 7_200;
  // l3: 2 Scrypt difficulty a minute for the last 10 minutes (its first share), so 10 min = 24 h.
  const scryptHashrate = (10 * 2 * SCRYPT_HASHES) / 600;

  beforeAll(async () => {
    api = await startTestApi(getDb());
    const fx = new FixtureWriter(getDb());
    const now = Math.floor(api.clock.now / MIN) * MIN;
    api.clock.now = now;
    user = await api.signUp('hala', { walletAddress: WALLET });
    const account = await fx.userPayee(user.id, 'BTC');
    const wallet = await fx.walletPayee(WALLET, 'BTC');
    const rig = await fx.worker(account, 'rig1', { lastShareAt: new Date(now - MIN), accepted: 100 });
    const s19 = await fx.worker(wallet, 's19', { lastShareAt: new Date(now - 2 * MIN), accepted: 300 });
    for (let m = 1; m <= 10; m++) await fx.shareStat(rig, new Date(now - m * MIN), 10, 600);
    await fx.shareStat(s19, new Date(now - 2 * MIN), 10, 600);
    for (let m = 20; m <= 120; m += 10) await fx.shareStat(s19, new Date(now - m * MIN), 100, 60_000);
    const litecoin = await fx.userPayee(user.id, 'LTC');
    const l3 = await fx.worker(litecoin, 'l3', {
      coin: 'LTC',
      lastShareAt: new Date(now - MIN),
      accepted: 20,
    });
    for (let m = 1; m <= 10; m++) await fx.shareStat(l3, new Date(now - m * MIN), 2, 2);
    await fx.ledger(account, 30_000n, 'pps', new Date(now - 3 * 3_600_000));
    await fx.ledger(wallet, 150_000n, 'pps', new Date(now - 2 * 3_600_000));
    await fx.ledger(wallet, -100_000n, 'payout', new Date(now - 3_600_000));
    await fx.payout(wallet, 100_000n, {
      address: WALLET,
      txid: 'cd'.repeat(32),
      createdAt: new Date(now - 3_600_000),
    });
    await fx.settlement(account, '2026-11-20', 30_000n);
    await fx.settlement(wallet, '2026-11-21', 150_000n);
    // A stranger mining to another address never counts.
    await fx.worker(
      await fx.walletPayee('rb1qqurswpc8qurswpc8qurswpc8qurswpc8qurswpc8qurswpc8qurst2l86c', 'BTC'),
      'rig1',
      {
        lastShareAt: new Date(now - MIN),
      },
    );
    api.forget(user.id);
    alerts = await startAlerts({
      config: { smtp: undefined, dataDir: api.config.dataDir, publicHost: 'pool.test' },
      db: getDb(),
      logger: pino({ level: 'silent' }),
      events: new PoolEvents(),
      now: () => new Date(api.clock.now),
      settings: { intervalSeconds: 3_600, eventDelayMs: 0 },
      push: null,
    });
    await alerts.runOnce();
  });
  afterAll(async () => {
    await alerts.stop();
    await api.close();
  });

  it('shows every worker, with its login, and the hashrate per algorithm on the Workers page', async () => {
    const res = await api.request('GET', '/api/workers', { token: user.token });
    expect(res.status).toBe(200);
    const { workers, totals } = workerListSchema.parse(res.json);
    expect(workers.map((w) => w.fullName).sort()).toEqual(['hala.l3', 'hala.rig1', `${WALLET}.s19`]);
    expect(totals.active).toBe(3);
    expect(totals.hashrates.map((h) => h.algorithm)).toEqual(['sha256', 'scrypt']);
    expect(totals.hashrates[0]?.realtime).toBeCloseTo(expectedHashrate, 0);
    expect(totals.hashrates[0]?.day).toBeCloseTo(dayAverage, 0);
    expect(totals.hashrates[1]?.realtime).toBeCloseTo(scryptHashrate, 6);
    expect(totals.hashrates[1]?.day).toBeCloseTo(scryptHashrate, 6);
    expect(workers.find((w) => w.name === 's19')?.hashrate).toBeCloseTo(s19Hashrate, 0);
    expect(workers.find((w) => w.name === 'l3')).toMatchObject({ coin: 'LTC', algorithm: 'scrypt' });
  });

  it('gives the same per-algorithm hashrate on the Dashboard, in the sidebar (/api/me) and on the Workers page', async () => {
    const dashboard = dashboardSchema.parse(
      (await api.request('GET', '/api/dashboard', { token: user.token })).json,
    );
    const me = userSchema.parse((await api.request('GET', '/api/me', { token: user.token })).json);
    const workers = workerListSchema.parse(
      (await api.request('GET', '/api/workers', { token: user.token })).json,
    );
    expect(dashboard.hashrates).toEqual(workers.totals.hashrates);
    expect(me.hashrates).toEqual(workers.totals.hashrates);
    expect(dashboard.activeMiners.value).toBe(3);
    expect(dashboard.unpaidBalance.value).toBe('80000');
    expect(me.balance).toBe('80000');
  });

  it('lists the rewards and payouts of both payees on the Revenue page', async () => {
    const rewards = rewardPageSchema.parse(
      (await api.request('GET', '/api/rewards', { token: user.token })).json,
    );
    expect(rewards.total).toBe(2);
    const payouts = payoutPageSchema.parse(
      (await api.request('GET', '/api/payouts', { token: user.token })).json,
    );
    expect(payouts.total).toBe(1);
    expect(payouts.items[0]).toMatchObject({ amount: '100000', address: WALLET });
  });

  it('answers the same per-algorithm hashrate and the balance in the assistant', async () => {
    const hashrate = await api.request('POST', '/api/assistant', {
      token: user.token,
      body: { message: 'what is my hashrate', language: 'en' },
    });
    const reply = assistantResponseSchema.parse(hashrate.json).reply;
    // The Workers page's figures, formatted: 64.42 GH/s and 437.01 GH/s (SHA-256), 2.18 kH/s (Scrypt).
    expect(reply).toContain(
      'BTC (SHA-256): 64.42 GH/s over the last 10 minutes, 24 h average 437.01 GH/s; 2 of 2 workers online',
    );
    expect(reply).toContain(
      'LTC (Scrypt): 2.18 kH/s over the last 10 minutes, 24 h average 2.18 kH/s; 1 of 1 worker online',
    );
    const balance = await api.request('POST', '/api/assistant', {
      token: user.token,
      body: { message: 'what is my balance', language: 'en' },
    });
    expect(assistantResponseSchema.parse(balance.json).reply).toContain('your unpaid balance is 0.0008 BTC');
  });

  it('raises alerts for the wallet worker and the wallet payout, with the same figures', async () => {
    const res = await api.request('GET', '/api/notifications', { token: user.token });
    const { items } = notificationListSchema.parse(res.json);
    const titles = items.map((item) => item.title).sort();
    expect(titles).toEqual(['Hashrate of s19 dropped', 'Payout of 0.001 BTC sent']);
    expect(items.find((item) => item.kind === 'hashrate-drop')?.body).toContain('runs at 4.29 GH/s');
  });
});
