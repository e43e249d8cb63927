import { createECDH, randomBytes } from 'node:crypto';
import { assistantResponseSchema, notificationListSchema } from '@manjam/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { z } from 'zod';
import { describeEachDatabase } from '../../../test/support/db.js';
import { startTestApi, type TestApi } from '../../../test/support/http.js';
import { FixtureWriter } from '../../../test/support/db/fixtures.js';
import { parseConfig } from '../../config/index.js';
import { loadMinerFacts } from './load-facts.js';

// The assistant's facts from the real schema, and POST /api/assistant + /api/notifications over HTTP.

const MIN = 60_000;
const errorSchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    fields: z.record(z.string(), z.string()).optional(),
  }),
});

describeEachDatabase('assistant facts repository', (db) => {
  const now = new Date('2026-11-22T12:00:00Z');
  const ago = (minutes: number) => new Date(now.getTime() - minutes * MIN);

  it('gathers workers, hashrate, balance, today’s credits and payouts of the miner’s account and registered wallet', async () => {
    const userId = await new FixtureWriter(db()).user({
      username: 'facts',
      walletAddress: 'rb1qfactswallet',
      payoutThreshold: { coin: 'BTC', units: 100_000n },
    });
    const ltc = await new FixtureWriter(db()).payee('LTC', { userId });
    const wallet = await new FixtureWriter(db()).payee('BTC', { address: 'rb1qfactswallet' });
    const other = await new FixtureWriter(db()).payee('BTC', {
      userId: await new FixtureWriter(db()).user({ username: 'stranger' }),
    });
    const rig1 = await new FixtureWriter(db()).worker(ltc, 'rig1', { coin: 'LTC', lastShareAt: ago(30) });
    await new FixtureWriter(db()).worker(wallet, 's19', { coin: 'BTC', lastShareAt: ago(1) });
    await new FixtureWriter(db()).worker(other, 'not-mine', { coin: 'BTC', lastShareAt: ago(1) });
    await new FixtureWriter(db()).shareMinutes(rig1, ago(60), ago(30), {
      accepted: 10,
      difficulty: 1_000,
      rejected: 10,
    });
    await new FixtureWriter(db()).ledger(ltc, 40_000n, 'pps', ago(60), 'LTC');
    await new FixtureWriter(db()).ledger(ltc, 60_000n, 'pps', new Date('2026-11-21T20:00:00Z'), 'LTC');
    await new FixtureWriter(db()).payout(wallet, 500_000n, {
      coin: 'BTC',
      status: 'sent',
      address: 'rb1qfactswallet',
      txid: 'ef'.repeat(32),
      createdAt: ago(120),
    });

    const facts = await loadMinerFacts(db(), userId, {
      now,
      offlineAfterMs: 10 * MIN,
      defaultThresholds: parseConfig({}).accounting.payoutThresholds,
      settlementHourUtc: 0,
    });
    expect(facts?.username).toBe('facts');
    // One threshold per coin: the account's own BTC one, the pool default (0.01) for the others.
    expect(facts?.payoutThresholds.BTC).toBe(100_000n);
    expect(facts?.payoutThresholds.LTC).toBe(1_000_000n);
    expect(facts?.workers.map((w) => [w.name, w.coin, w.online])).toEqual([
      ['rig1', 'LTC', false],
      ['s19', 'BTC', true],
    ]);
    const rig = facts?.workers[0];
    expect(rig?.hashrate).toBe(0);
    expect(rig?.hashrate24h).toBeCloseTo((30 * 1_000 * 65_536) / 3_600, 3); // 30 minutes of shares over one hour of history
    expect(rig?.rejectedPercent).toBe(50);
    const ltcMoney = facts?.money.find((m) => m.coin === 'LTC');
    expect(ltcMoney).toMatchObject({ balance: 100_000n, earnedToday: 40_000n, lastPaid: null });
    const btcMoney = facts?.money.find((m) => m.coin === 'BTC');
    expect(btcMoney?.lastPaid).toMatchObject({ amount: 500_000n, txid: 'ef'.repeat(32) });
    expect(btcMoney?.lastPayoutRunAt?.toISOString()).toBe(ago(120).toISOString());
  });

  it('answers undefined for a user that does not exist', async () => {
    expect(
      await loadMinerFacts(db(), 987_654, {
        now,
        offlineAfterMs: MIN,
        defaultThresholds: parseConfig({}).accounting.payoutThresholds,
        settlementHourUtc: 0,
      }),
    ).toBeUndefined();
  });
});

describeEachDatabase('assistant and notifications over HTTP', (db) => {
  let api: TestApi;
  beforeAll(async () => {
    // The push service's host resolves to a public address (the test machine has no public DNS).
    api = await startTestApi(db(), {
      config: { publicHost: 'pool.manjam.example' },
      resolve: () => Promise.resolve([{ address: '93.184.215.14', family: 4 }]),
    });
  });
  afterAll(async () => {
    await api.close();
  });

  it('answers a visitor from the rules with the pool’s real host and port', async () => {
    const response = await api.request('POST', '/api/assistant', {
      body: { message: 'which port for litecoin', language: 'en', history: [] },
    });
    expect(response.status).toBe(200);
    expect(response.json).toEqual({
      reply: 'Litecoin (LTC) (Scrypt) port: stratum+tcp://pool.manjam.example:4444 (live).',
    });
  });

  it('answers a signed-in miner from their own workers, in Arabic', async () => {
    const miner = await api.signUp();
    const payee = await new FixtureWriter(db()).payee('BTC', { userId: miner.id });
    await new FixtureWriter(db()).worker(payee, 'rig1', {
      coin: 'BTC',
      lastShareAt: new Date(Date.now() - 45 * MIN),
    });
    const response = await api.request('POST', '/api/assistant', {
      token: miner.token,
      body: { message: 'لماذا العامل rig1 غير متصل؟', language: 'ar' },
    });
    expect(response.status).toBe(200);
    const { reply } = assistantResponseSchema.parse(response.json);
    // Names, URLs and usernames inside the Arabic answer are bidi-isolated (U+2068 ... U+2069).
    expect(reply).toContain('العامل \u2068rig1\u2069 غير متصل');
    expect(reply).toContain(`\u2068${miner.username}.rig1\u2069`);
  });

  it('answers "earnings with 100 TH/s" over HTTP with an estimate from the pool stats, not the account', async () => {
    const miner = await api.signUp();
    const response = await api.request('POST', '/api/assistant', {
      token: miner.token,
      body: { message: 'earnings with 100 TH/s', language: 'en' },
    });
    expect(response.status).toBe(200);
    const { reply } = assistantResponseSchema.parse(response.json);
    expect(reply).toMatch(
      /^(Estimate for 100 TH\/s on SHA-256 \(BTC\)|I cannot estimate 100 TH\/s on SHA-256 \(BTC\) yet)/,
    );
    expect(reply).not.toContain('You have no workers');
  });

  it('rejects an empty or overlong message with a clear error and no answer', async () => {
    const empty = await api.request('POST', '/api/assistant', { body: { message: '  ' } });
    expect(empty.status).toBe(400);
    const { error } = errorSchema.parse(empty.json);
    expect(error.code).toBe('validation-failed');
    expect(Object.keys(error.fields ?? {})).toEqual(['message']);
    const long = await api.request('POST', '/api/assistant', { body: { message: 'x'.repeat(2_001) } });
    expect(long.status).toBe(400);
  });

  it('limits a caller to 20 questions a minute with 429 and Retry-After', async () => {
    const miner = await api.signUp();
    const statuses: number[] = [];
    for (let i = 0; i < 21; i += 1) {
      statuses.push(
        (await api.request('POST', '/api/assistant', { token: miner.token, body: { message: 'btc' } }))
          .status,
      );
    }
    expect(statuses.slice(0, 20).every((status) => status === 200)).toBe(true);
    const limited = await api.request('POST', '/api/assistant', {
      token: miner.token,
      body: { message: 'btc' },
      headers: { 'accept-language': 'ar' },
    });
    expect(limited.status).toBe(429);
    expect(errorSchema.parse(limited.json).error).toMatchObject({
      code: 'rate-limited',
      message: 'طلبات كثيرة جدًا. يرجى الانتظار قليلًا ثم المحاولة مرة أخرى.',
    });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('lists a miner’s notifications in the request language and marks one read; others get 404', async () => {
    const miner = await api.signUp();
    const stranger = await api.signUp();
    await db().query(
      `INSERT INTO alerts (user_id, kind, dedupe_key, payload, email_status) VALUES ($1, 'payout-sent', $2, $3::jsonb, 'skipped')`,
      [
        miner.id,
        `http-payout-${miner.id}`,
        JSON.stringify({ coin: 'BTC', amount: '1000000', address: 'rb1qx', txid: 'ab'.repeat(32) }),
      ],
    );
    const unauthenticated = await api.request('GET', '/api/notifications');
    expect(unauthenticated.status).toBe(401);
    const list = await api.request('GET', '/api/notifications', {
      token: miner.token,
      headers: { 'accept-language': 'ar' },
    });
    expect(list.status).toBe(200);
    const { items } = notificationListSchema.parse(list.json);
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({
      kind: 'payout-sent',
      title: 'تم إرسال دفعة بقيمة 0.01 BTC',
      read: false,
    });
    const id = items[0]?.id ?? 0;
    expect(
      (await api.request('POST', `/api/notifications/${id}/read`, { token: stranger.token })).status,
    ).toBe(404);
    expect((await api.request('POST', `/api/notifications/${id}/read`, { token: miner.token })).status).toBe(
      204,
    );
    expect((await api.request('POST', '/api/notifications/abc/read', { token: miner.token })).status).toBe(
      400,
    );
    const after = await api.request('GET', '/api/notifications', { token: miner.token });
    expect(notificationListSchema.parse(after.json).items[0]).toMatchObject({
      title: 'Payout of 0.01 BTC sent',
      read: true,
    });
  });
  it('gives the VAPID key and keeps a browser push subscription for a signed-in miner', async () => {
    const miner = await api.signUp();
    const stranger = await api.signUp();
    const key = await api.request('GET', '/api/notifications/push-key');
    expect(key.status).toBe(200);
    expect(z.object({ publicKey: z.string().length(87) }).parse(key.json).publicKey).toMatch(/^B/);
    const subscription = {
      endpoint: `https://push.example.net/send/${miner.id}`,
      keys: {
        p256dh: createECDH('prime256v1').generateKeys('base64url'),
        auth: randomBytes(16).toString('base64url'),
      },
    };
    expect(
      (await api.request('PUT', '/api/notifications/push-subscription', { body: subscription })).status,
    ).toBe(401);
    const bad = await api.request('PUT', '/api/notifications/push-subscription', {
      token: miner.token,
      body: { ...subscription, endpoint: 'https://10.0.0.1/x' },
    });
    expect(bad.status).toBe(400);
    expect(errorSchema.parse(bad.json).error.fields).toEqual({
      endpoint: 'Push endpoint host is not allowed',
    });
    const saved = await api.request('PUT', '/api/notifications/push-subscription', {
      token: miner.token,
      body: subscription,
    });
    expect(saved.json ?? null).toBeNull();
    expect(saved.status).toBe(204);
    const remove = (token: string) =>
      api.request('DELETE', '/api/notifications/push-subscription', {
        token,
        body: { endpoint: subscription.endpoint },
      });
    expect((await remove(stranger.token)).status).toBe(404);
    expect((await remove(miner.token)).status).toBe(204);
    expect((await remove(miner.token)).status).toBe(404);
  });
});
