/* eslint-disable @typescript-eslint/no-unsafe-member-access -- tests read JSON bodies field by field */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../../test/support/db.js';
import { FixtureWriter } from '../../test/support/db/fixtures.js';
import { startTestApi, type TestApi } from '../../test/support/http.js';

// Issue 27: per-worker and account alert thresholds, and the webhook URL, over HTTP.

describeEachDatabase('alert settings over HTTP', (getDb) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi(getDb());
  });
  afterAll(() => api.close());

  async function minerWithWorker() {
    const account = await api.signUp();
    const fx = new FixtureWriter(getDb());
    const payeeId = await fx.payee('BTC', { userId: account.id });
    const workerId = await fx.worker(payeeId, 'rig1', { coin: 'BTC', lastShareAt: new Date() });
    return { ...account, workerId };
  }

  it("shows the pool's thresholds and range, then the account default, then the worker's own", async () => {
    const { token, workerId } = await minerWithWorker();
    const initial = await api.request('GET', '/api/settings/alerts', { token });
    expect(initial.json).toEqual({
      offlineMinutes: null,
      dropPercent: null,
      bounds: {
        offlineMinutesMin: 2,
        offlineMinutesMax: 720,
        dropPercentMin: 10,
        dropPercentMax: 95,
        poolOfflineMinutes: 10,
        poolDropPercent: 50,
      },
      webhook: { url: null, lastDeliveredAt: null, lastError: null, lastErrorAt: null },
    });
    expect((await api.request('GET', `/api/workers/${workerId}/alerts`, { token })).json).toMatchObject({
      off: false,
      offlineMinutes: null,
      effectiveOfflineMinutes: 10,
      effectiveDropPercent: 50,
    });
    const account = await api.request('PUT', '/api/settings/alerts', {
      token,
      body: { offlineMinutes: 20, dropPercent: null },
    });
    expect(account.json).toMatchObject({ offlineMinutes: 20, dropPercent: null });
    expect((await api.request('GET', `/api/workers/${workerId}/alerts`, { token })).json).toMatchObject({
      effectiveOfflineMinutes: 20,
      effectiveDropPercent: 50,
    });
    const own = await api.request('PUT', `/api/workers/${workerId}/alerts`, {
      token,
      body: { off: false, offlineMinutes: 5, dropPercent: 70 },
    });
    expect(own.json).toMatchObject({
      offlineMinutes: 5,
      dropPercent: 70,
      effectiveOfflineMinutes: 5,
      effectiveDropPercent: 70,
    });
  });

  it('refuses values outside the range, in Arabic too, and another miner’s worker', async () => {
    const { token, workerId } = await minerWithWorker();
    const tooShort = await api.request('PUT', `/api/workers/${workerId}/alerts`, {
      token,
      body: { off: false, offlineMinutes: 1, dropPercent: 99 },
      headers: { 'accept-language': 'ar' },
    });
    expect(tooShort.status).toBe(400);
    expect(tooShort.json.error.fields).toEqual({
      offlineMinutes: 'اختر قيمة ضمن النطاق المعروض',
      dropPercent: 'اختر قيمة ضمن النطاق المعروض',
    });
    const stranger = await api.signUp();
    const theirs = await api.request('PUT', `/api/workers/${workerId}/alerts`, {
      token: stranger.token,
      body: { off: true, offlineMinutes: null, dropPercent: null },
    });
    expect(theirs.status).toBe(404);
    expect(theirs.json.error.code).toBe('worker-not-found');
    expect(
      (await api.request('GET', `/api/workers/${workerId}/alerts`, { token: stranger.token })).status,
    ).toBe(404);
  });

  it('refuses a webhook to a private address or over http, and removes a webhook with null', async () => {
    const { token } = await api.signUp();
    for (const url of ['http://hooks.example.com/x', 'https://192.168.1.10/x', 'https://[::1]/x']) {
      const refused = await api.request('PUT', '/api/settings/webhook', { token, body: { url } });
      expect(refused.status, url).toBe(400);
      expect(refused.json.error.fields.url, url).toMatch(/^This webhook URL cannot be used/);
    }
    const arabic = await api.request('PUT', '/api/settings/webhook', {
      token,
      body: { url: 'https://10.0.0.1/x' },
      headers: { 'accept-language': 'ar' },
    });
    expect(arabic.json.error.fields.url).toMatch(/^لا يمكن استخدام رابط الويب هوك هذا/);
    const removed = await api.request('PUT', '/api/settings/webhook', { token, body: { url: null } });
    expect(removed.json).toEqual({ url: null, lastDeliveredAt: null, lastError: null, lastErrorAt: null });
    const test = await api.request('POST', '/api/settings/webhook/test', { token });
    expect(test.status).toBe(404);
  });
});
