/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-argument -- tests read JSON bodies field by field */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { FixtureWriter } from '../../test/support/db/fixtures.js';
import { describeEachDatabase } from '../../test/support/db.js';
import { startTestApi, type TestApi } from '../../test/support/http.js';
import { WORKER_CACHE_MS } from '../services/workers/workers-service.js';

const MIN = 60_000;
const BTC_HASHES = 2 ** 32;

describeEachDatabase(
  'figures true from the first second: bounded age, asOf, the time actually mined',
  (getDb) => {
    let api: TestApi;
    let fx: FixtureWriter;

    beforeAll(async () => {
      api = await startTestApi(getDb());
      fx = new FixtureWriter(getDb());
      api.clock.now = Math.floor(api.clock.now / MIN) * MIN + 7_000;
    });
    afterAll(() => api.close());

    it('answers a read after a quiet spell longer than the cache age with figures read after the newest share', async () => {
      const user = await api.signUp('quiet');
      const payee = await fx.userPayee(user.id, 'BTC');
      const start = api.clock.now;
      const rig = await fx.worker(payee, 'rig1', { lastShareAt: new Date(start - 5_000), accepted: 10 });
      await fx.shareStat(rig, new Date(Math.floor((start - 5_000) / MIN) * MIN), 10, 100);
      api.forget(user.id);
      const first = await api.request('GET', '/api/workers', { token: user.token });
      expect(first.json.asOf).toBe(new Date(start).toISOString());
      expect(first.json.workers[0].lastSeen).toBe(new Date(start - 5_000).toISOString());

      // 90 quiet seconds later (a poller asking less often than the cache's age), a share arrives and is read.
      api.clock.now = start + 90_000;
      const newest = new Date(api.clock.now - 1_000);
      await fx.lastShare(rig, newest);
      await fx.shareStat(rig, new Date(Math.floor(newest.getTime() / MIN) * MIN), 1, 10);
      const reads = await Promise.all([
        api.request('GET', '/api/workers', { token: user.token }),
        api.request('GET', '/api/me', { token: user.token }),
        api.request('GET', '/api/dashboard', { token: user.token }),
      ]);
      for (const read of reads) {
        expect(read.status).toBe(200);
        const asOf = Date.parse(read.json.asOf);
        expect(asOf).toBeGreaterThanOrEqual(newest.getTime());
        expect(api.clock.now - asOf).toBeLessThan(WORKER_CACHE_MS);
      }
      expect(reads[0].json.workers[0].lastSeen).toBe(newest.toISOString());
    });

    it('keeps the reject rate of a worker in agreement with the shares and rejects beside it', async () => {
      const user = await api.signUp('rejects');
      const payee = await fx.userPayee(user.id, 'BTC');
      const rig = await fx.worker(payee, 'rig1', {
        lastShareAt: new Date(api.clock.now - 10_000),
        accepted: 18,
        rejected: 28,
      });
      await fx.shareStat(rig, new Date(Math.floor((api.clock.now - 10_000) / MIN) * MIN), 18, 18, {
        stale: 10,
      });
      api.forget(user.id);
      const res = await api.request('GET', '/api/workers', { token: user.token });
      const worker = res.json.workers[0];
      expect(worker).toMatchObject({ shares: 18, rejects: 28 });
      expect(worker.rejectRate).toBeCloseTo((28 / 46) * 100, 5);
    });

    it('shows a worker two minutes old within 25 % of the rate its shares imply, over the two minutes it mined', async () => {
      const user = await api.signUp('newrig');
      const payee = await fx.userPayee(user.id, 'BTC');
      const now = api.clock.now;
      const started = now - 2 * MIN;
      // One share of difficulty 4 every 5 seconds since it started: 4 * 2^32 / 5 H/s.
      const implied = (4 * BTC_HASHES) / 5;
      let last = started;
      const rig = await fx.worker(payee, 'cpu', { lastShareAt: null });
      for (let at = started + 5_000; at <= now; at += 5_000) {
        await fx.share(rig, payee, new Date(at), 4);
        await fx.shareStat(rig, new Date(Math.floor(at / MIN) * MIN), 1, 4);
        last = at;
      }
      await fx.lastShare(rig, new Date(last));
      api.forget(user.id);
      const res = await api.request('GET', '/api/workers', { token: user.token });
      const worker = res.json.workers[0];
      for (const figure of [worker.hashrate, worker.hashrate1h, worker.hashrate24h]) {
        expect(figure).toBeGreaterThan(implied * 0.75);
        expect(figure).toBeLessThan(implied * 1.25);
      }
      // It says the time it covers: about two minutes for every window, never 10 min, 1 h or 24 h.
      for (const seconds of Object.values<number>(worker.averagedSeconds)) {
        expect(seconds).toBeGreaterThanOrEqual(110);
        expect(seconds).toBeLessThanOrEqual(120);
      }
      const total = res.json.totals.hashrates[0];
      expect(total.realtime).toBe(worker.hashrate);
      const me = await api.request('GET', '/api/me', { token: user.token });
      expect(me.json.hashrates[0].realtime).toBe(worker.hashrate);
    });

    it('states when the pool figures were read and never serves them older than their age', async () => {
      const first = await api.request('GET', '/api/pool/stats');
      expect(first.status).toBe(200);
      expect(first.json.asOf).toBe(new Date(api.clock.now).toISOString());
      api.clock.now += 90_000;
      const later = await api.request('GET', '/api/pool/stats');
      expect(later.json.asOf).toBe(new Date(api.clock.now).toISOString());
    });
  },
);
