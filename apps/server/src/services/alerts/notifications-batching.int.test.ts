// Block-found alerts batched per period, counted notifications, and "mark all read", over HTTP
// against the real schema (PGlite and PostgreSQL).
import { markAllReadResponseSchema, notificationListSchema } from '@manjam/contract';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../../../test/support/db.js';
import { startTestApi, type TestApi } from '../../../test/support/http.js';
import { PoolEvents } from '../../events.js';
import { startAlerts, type AlertsHandle } from './loop.js';
import { FixtureWriter } from '../../../test/support/db/fixtures.js';

const MIN = 60_000;
const HOUR = 60 * MIN;

describeEachDatabase('block alerts batched per period, and mark all read', (db) => {
  let api: TestApi;
  let alerts: AlertsHandle;
  // 10:05 UTC: the batching period (60 minutes, the default) runs from 10:00 to 11:00.
  let clock = new Date('2026-11-23T10:05:00Z');

  beforeAll(async () => {
    api = await startTestApi(db());
    alerts = await startAlerts({
      config: {
        smtp: { url: '', from: 'Manjam <alerts@manjam.example>' },
        dataDir: mkdtempSync(join(tmpdir(), 'manjam-batch-')),
        publicHost: 'pool.test',
      },
      db: db(),
      logger: pino({ level: 'silent' }),
      events: new PoolEvents(),
      now: () => clock,
      mailer: null,
      push: null,
      settings: { intervalSeconds: 3_600, eventDelayMs: 0 },
    });
  });
  afterAll(async () => {
    await alerts.stop();
    await api.close();
  });

  const list = async (token: string, language: 'en' | 'ar' = 'en') => {
    const response = await api.request('GET', '/api/notifications', {
      token,
      headers: { 'accept-language': language },
    });
    expect(response.status).toBe(200);
    return notificationListSchema.parse(response.json).items;
  };
  // The rig's own offline alert (its last share is 30 minutes old) is not what this test is about.
  const blocks = async (token: string, language: 'en' | 'ar' = 'en') =>
    (await list(token, language)).filter((item) => item.kind === 'block-found');

  it('tells the first of 12 blocks at once and the other 11 in one alert when the hour closes; mark all read clears both', async () => {
    const miner = await api.signUp();
    const stranger = await api.signUp();
    const fixtures = new FixtureWriter(db());
    const payeeId = await fixtures.payee('BTC', { userId: miner.id });
    await fixtures.worker(payeeId, 'rig1', {
      coin: 'BTC',
      lastShareAt: new Date(clock.getTime() - 30 * MIN),
    });
    for (let i = 0; i < 12; i += 1) {
      const hash = `${db().kind === 'pglite' ? 'c' : 'd'}${i.toString(16).padStart(63, '0')}`;
      await fixtures.block('BTC', 900 + i, hash, {
        foundAt: new Date(clock.getTime() - 4 * MIN + i * 10_000),
        finderPayeeId: i === 5 ? payeeId : null,
      });
    }

    await alerts.runOnce();
    expect((await blocks(miner.token)).map(({ title, count, read }) => ({ title, count, read }))).toEqual([
      { title: 'Block 900 found', count: 1, read: false },
    ]);

    // Still inside the hour: nothing more. After 11:00 the rest come as one alert.
    clock = new Date(clock.getTime() + 30 * MIN);
    await alerts.runOnce();
    expect(await blocks(miner.token)).toHaveLength(1);
    clock = new Date(clock.getTime() + HOUR);
    await alerts.runOnce();
    await alerts.runOnce();
    const items = await blocks(miner.token);
    expect(items.map(({ title, count }) => ({ title, count }))).toEqual([
      { title: '11 more BTC blocks found', count: 11 },
      { title: 'Block 900 found', count: 1 },
    ]);
    expect(items[0]?.body).toBe(
      'Between 2026-11-23 10:00 UTC and 2026-11-23 11:00 UTC the pool found 11 more BTC blocks (heights 901 to 911), some with shares from your workers. Their rewards are credited when they mature.',
    );
    expect((await blocks(miner.token, 'ar'))[0]?.title).toBe('كتل BTC أخرى عُثر عليها: 11');

    // Mark all read: only the caller's, and a second call finds nothing left.
    const stray = await api.request('POST', '/api/notifications/read-all', { token: stranger.token });
    expect(markAllReadResponseSchema.parse(stray.json)).toEqual({ marked: 0 });
    expect((await list(miner.token)).every((item) => !item.read)).toBe(true);
    expect((await api.request('POST', '/api/notifications/read-all')).status).toBe(401);
    const unread = (await list(miner.token)).length;
    expect(unread).toBeGreaterThanOrEqual(2);
    const marked = await api.request('POST', '/api/notifications/read-all', { token: miner.token });
    expect(marked.status).toBe(200);
    expect(markAllReadResponseSchema.parse(marked.json)).toEqual({ marked: unread });
    expect((await list(miner.token)).every((item) => item.read)).toBe(true);
    expect(
      markAllReadResponseSchema.parse(
        (await api.request('POST', '/api/notifications/read-all', { token: miner.token })).json,
      ),
    ).toEqual({ marked: 0 });
  });
});
