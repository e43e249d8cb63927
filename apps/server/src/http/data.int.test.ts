/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-argument -- tests read JSON bodies field by field */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { FixtureWriter } from '../../test/support/db/fixtures.js';
import { describeEachDatabase } from '../../test/support/db.js';
import { startTestApi, type TestApi } from '../../test/support/http.js';
import { testLogger } from '../../test/support/coins/bitcoin/stratum/harness.js';
import { WorkerAgentRecorder } from '../stratum/worker-agents.js';

const MIN = 60_000;
const BTC_HASHES = 2 ** 32;

describeEachDatabase('dashboard, workers and miners from real share rows', (getDb) => {
  let api: TestApi;
  let fx: FixtureWriter;
  let user: Awaited<ReturnType<TestApi['signUp']>>;
  let rigId: number;
  let oldId: number;
  let now: number;

  beforeAll(async () => {
    api = await startTestApi(getDb());
    fx = new FixtureWriter(getDb());
    now = Math.floor(api.clock.now / MIN) * MIN;
    api.clock.now = now;
    user = await api.signUp('alice');
    const payee = await fx.userPayee(user.id, 'BTC');
    rigId = await fx.worker(payee, 'rig1', {
      lastShareAt: new Date(now - 2 * MIN),
      accepted: 120,
      rejected: 3,
    });
    oldId = await fx.worker(payee, 'old', {
      lastShareAt: new Date(now - 3 * 3_600_000),
      accepted: 40,
      rejected: 1,
      type: 'gpu',
    });
    // rig1: 600 difficulty per minute now (-> 600 * 2^32 / 60 H/s), 300 per minute in the window before.
    for (let m = 1; m <= 10; m++) await fx.shareStat(rigId, new Date(now - m * MIN), 10, 600);
    for (let m = 11; m <= 20; m++) await fx.shareStat(rigId, new Date(now - m * MIN), 5, 300);
    await fx.shareStat(oldId, new Date(now - 25 * 3_600_000), 5, 1200);
    await fx.share(rigId, payee, new Date(now - 2 * MIN));
    await fx.ledger(payee, 30_000n, 'pps', new Date(now - 30 * 3_600_000));
    await fx.ledger(payee, 50_000n, 'pps', new Date(now - 3_600_000));
    // Another user's worker must never show up.
    const other = await api.signUp('bob');
    await fx.worker(await fx.userPayee(other.id, 'BTC'), 'rig1', { lastShareAt: new Date(now - MIN) });
    api.forget(user.id);
  });
  afterAll(() => api.close());

  it("lists the user's workers with status, 10 min / 1 h / 24 h hashrate, change, shares and rejects", async () => {
    const res = await api.request('GET', '/api/workers', { token: user.token });
    expect(res.status).toBe(200);
    expect(res.json.workers).toHaveLength(2);
    const rig = res.json.workers.find((w: { name: string }) => w.name === 'rig1');
    expect(rig).toMatchObject({
      id: rigId,
      fullName: 'alice.rig1',
      coin: 'BTC',
      status: 'online',
      change: '+33.3%',
      shares: 120,
      rejects: 3,
      type: 'asic',
      algorithm: 'sha256',
    });
    expect(rig.hashrate).toBeCloseTo((6000 * BTC_HASHES) / 600, 0);
    // It started 20 minutes ago: the 1 h and 24 h averages cover those 20 minutes (9,000 difficulty).
    expect(rig.hashrate1h).toBeCloseTo((9000 * BTC_HASHES) / 1200, 0);
    expect(rig.hashrate24h).toBeCloseTo((9000 * BTC_HASHES) / 1200, 0);
    // The reject rate is that of the counts beside it (3 rejects, 120 shares), from the same read.
    expect(rig.rejectRate).toBeCloseTo((3 / 123) * 100, 5);
    // Its figures count its shares up to its newest one, the moment the list shows as last seen.
    expect(rig.lastSeen).toBe(new Date(now - 2 * MIN).toISOString());
    expect(rig.sparkline).toHaveLength(24);
    expect(Math.max(...rig.sparkline)).toBe(100); // percent of its busiest hour
    const old = res.json.workers.find((w: { name: string }) => w.name === 'old');
    expect(old).toMatchObject({ status: 'offline', hashrate: 0, hashrate24h: 0, type: 'gpu', sparkline: [] });
    expect(res.json.totals.active).toBe(1);
    expect(res.json.totals.hashrates).toEqual([
      {
        algorithm: 'sha256',
        coin: 'BTC',
        realtime: rig.hashrate,
        hour: rig.hashrate1h,
        day: rig.hashrate24h,
        activeWorkers: 1,
        countedUpTo: new Date(now - 2 * MIN).toISOString(),
        averagedSeconds: { realtime: 600, hour: 1200, day: 1200 },
      },
    ]);
  });

  it('filters workers by name', async () => {
    const res = await api.request('GET', '/api/workers?search=RIG', { token: user.token });
    expect(res.json.workers.map((w: { name: string }) => w.name)).toEqual(['rig1']);
  });

  it('renames a worker and hides a deleted one', async () => {
    const renamed = await api.request('PUT', `/api/workers/${oldId}`, {
      token: user.token,
      body: { name: 'Basement GPU' },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.json).toMatchObject({ id: oldId, name: 'Basement GPU', fullName: 'alice.old' });
    // Its algorithm is its port's: an algorithm sent with the edit changes nothing.
    const relabelled = await api.request('PUT', `/api/workers/${oldId}`, {
      token: user.token,
      body: { algorithm: 'ethash', type: 'gpu' },
    });
    expect(relabelled.status).toBe(200);
    expect(relabelled.json).toMatchObject({ algorithm: renamed.json.algorithm, type: 'gpu' });
    expect((await api.request('DELETE', `/api/workers/${oldId}`, { token: user.token })).status).toBe(204);
    const list = await api.request('GET', '/api/workers', { token: user.token });
    expect(list.json.workers.map((w: { id: number }) => w.id)).toEqual([rigId]);
    expect((await api.request('DELETE', `/api/workers/${oldId}`, { token: user.token })).status).toBe(404);
  });

  it('tells the setup guide whether a worker connected and had a share accepted', async () => {
    const yes = await api.request('GET', '/api/workers/alice.rig1/connection', { token: user.token });
    expect(yes.json).toEqual({
      connected: true,
      stage: 'sharing',
      authorizedAt: null,
      lastShareAt: new Date(now - 2 * MIN).toISOString(),
      acceptedShares: 120,
    });
    const short = await api.request('GET', '/api/workers/rig1/connection', { token: user.token });
    expect(short.json.connected).toBe(true);
    const none = await api.request('GET', '/api/workers/never/connection', { token: user.token });
    expect(none.json).toEqual({
      connected: false,
      stage: 'waiting',
      authorizedAt: null,
      lastShareAt: null,
      acceptedShares: 0,
    });
  });

  it("passes Test Connection on the first ask by the worker's last accepted share, with no share rows to count", async () => {
    // Under a heavy load the shares table lags behind; the worker row's last accepted share does not.
    const payee = await fx.userPayee(user.id, 'LTC');
    const busy = await fx.worker(payee, 'busy7', { lastShareAt: new Date(now - 9 * MIN), accepted: 5_000 });
    const first = await api.request('GET', '/api/workers/alice.busy7/connection', { token: user.token });
    expect(first.json).toEqual({
      connected: true,
      stage: 'sharing',
      authorizedAt: null,
      lastShareAt: new Date(now - 9 * MIN).toISOString(),
      acceptedShares: 5_000,
    });
    await fx.lastShare(busy, new Date(now - 11 * MIN));
    const stale = await api.request('GET', '/api/workers/busy7/connection', { token: user.token });
    expect(stale.json).toMatchObject({ connected: false, stage: 'waiting', acceptedShares: 5_000 });
    await api.request('DELETE', `/api/workers/${busy}`, { token: user.token });
  });

  it('shows a worker connected and authorized but without a share as such (Test Connection, workers, miners), until it disconnects', async () => {
    const payee = await fx.userPayee(user.id, 'BTC');
    await fx.worker(payee, 'cpu9', { lastShareAt: new Date(now - 5 * 3_600_000), accepted: 2 });
    api.forget(user.id);
    const miner = await api.request('POST', '/api/miners', {
      token: user.token,
      body: { name: 'Laptop', type: 'cpu', algorithm: 'sha256', workerName: 'cpu9' },
    });
    expect(miner.json).toMatchObject({ status: 'offline' });
    api.events.emit('worker.connected', {
      coin: 'BTC',
      workerId: null,
      userId: user.id,
      login: 'alice.cpu9',
      payeeKey: `BTC:u:${user.id}`,
      worker: 'cpu9',
      agent: 'cpuminer/2.5.1',
    });
    const stage = await api.request('GET', '/api/workers/alice.CPU9/connection', { token: user.token });
    expect(stage.json).toEqual({
      connected: false,
      stage: 'authorized',
      authorizedAt: new Date(now).toISOString(),
      lastShareAt: new Date(now - 5 * 3_600_000).toISOString(),
      acceptedShares: 2,
    });
    const workers = await api.request('GET', '/api/workers?search=cpu9', { token: user.token });
    expect(workers.json.workers).toMatchObject([{ name: 'cpu9', status: 'connected', hashrate: 0 }]);
    expect(workers.json.totals.active).toBe(1);
    const miners = await api.request('GET', '/api/miners?type=cpu', { token: user.token });
    expect(miners.json.miners).toMatchObject([{ name: 'Laptop', status: 'connected' }]);
    // Bob's session under the same worker name says nothing about Alice's.
    const bob = await api.signUp('bob2');
    expect((await api.request('GET', '/api/workers/cpu9/connection', { token: bob.token })).json.stage).toBe(
      'waiting',
    );
    api.events.emit('worker.disconnected', {
      coin: 'BTC',
      workerId: null,
      userId: user.id,
      login: 'alice.cpu9',
    });
    expect(
      (await api.request('GET', '/api/workers/cpu9/connection', { token: user.token })).json,
    ).toMatchObject({ stage: 'waiting', authorizedAt: null });
    await api.request('DELETE', `/api/miners/${miner.json.id}`, { token: user.token });
  });

  it('lists a new worker as connected from its authorization on, before its first share, without storing it', async () => {
    api.events.emit('worker.connected', {
      coin: 'LTC',
      workerId: null,
      userId: user.id,
      login: 'alice.fresh1',
      payeeKey: `LTC:u:${user.id}`,
      worker: 'fresh1',
      agent: '',
    });
    const listed = await api.request('GET', '/api/workers?search=fresh1', { token: user.token });
    expect(listed.json.workers).toEqual([
      expect.objectContaining({
        id: null,
        name: 'fresh1',
        fullName: 'alice.fresh1',
        coin: 'LTC',
        status: 'connected',
        hashrate: 0,
        shares: 0,
        lastSeen: null,
      }),
    ]);
    expect(listed.json.total).toBe(1);
    const rows = await getDb().query<{ n: number }>(
      "SELECT count(*)::int AS n FROM workers WHERE name = 'fresh1'",
    );
    expect(rows.rows[0]?.n).toBe(0);
    api.events.emit('worker.disconnected', {
      coin: 'LTC',
      workerId: null,
      userId: user.id,
      login: 'alice.fresh1',
    });
    // Gone with its last session: a login left nothing behind in the account.
    const after = await api.request('GET', '/api/workers?search=fresh1', { token: user.token });
    expect(after.json.workers).toEqual([]);
  });

  it('tells one story of miners and workers: a live worker no miner claims is offered, and once declared it is listed under its miner', async () => {
    const before = await api.request('GET', '/api/miners', { token: user.token });
    expect(before.json.miners).toEqual([]);
    // rig1 mines (online); "old" has not shared for 3 hours: only the live one is offered.
    expect(before.json.undeclared).toEqual([
      expect.objectContaining({ id: rigId, name: 'rig1', coin: 'BTC', algorithm: 'sha256', online: true }),
    ]);
    expect(before.json.undeclared[0].hashrate).toBeGreaterThan(0);
    const declared = await api.request('POST', '/api/miners', {
      token: user.token,
      body: { name: 'Rack A', type: 'asic', algorithm: 'sha256', workerName: 'RIG1' },
    });
    expect(declared.json.linked).toEqual([{ id: rigId, name: 'rig1', coin: 'BTC', online: true }]);
    const after = await api.request('GET', '/api/miners', { token: user.token });
    expect(after.json.undeclared).toEqual([]);
    // A GPU tab shows no ASIC miner, and no worker that one claims.
    const gpu = await api.request('GET', '/api/miners?type=gpu', { token: user.token });
    expect(gpu.json).toEqual({ miners: [], undeclared: [] });
    await api.request('DELETE', `/api/miners/${declared.json.id}`, { token: user.token });
  });

  it("shows a worker's device as its mining software names it, until its owner chooses one", async () => {
    const recorder = new WorkerAgentRecorder(getDb(), api.events, testLogger);
    // Its own account: the other tests count alice's workers.
    const carol = await api.signUp('carol');
    const payee = await fx.userPayee(carol.id, 'LTC');
    const laptopId = await fx.worker(payee, 'laptop', { lastShareAt: new Date(now - MIN), accepted: 5 });
    api.forget(carol.id);
    const typeOf = async () =>
      (await api.request('GET', `/api/workers/${laptopId}`, { token: carol.token })).json.worker
        .type as string;
    // A Scrypt worker is an ASIC until its software says otherwise.
    expect(await typeOf()).toBe('asic');
    const login = {
      coin: 'LTC' as const,
      workerId: null,
      userId: carol.id,
      login: 'carol.laptop',
      payeeKey: `LTC:u:${carol.id}`,
      worker: 'laptop',
    };
    api.events.emit('worker.connected', { ...login, agent: 'cpuminer/2.5.1' });
    await recorder.flush();
    api.forget(carol.id);
    expect(await typeOf()).toBe('cpu');
    const edited = await api.request('PUT', `/api/workers/${laptopId}`, {
      token: carol.token,
      body: { type: 'gpu' },
    });
    expect(edited.status).toBe(200);
    api.events.emit('worker.connected', { ...login, agent: 'bmminer/2.0.0' });
    await recorder.stop();
    api.forget(carol.id);
    expect(await typeOf()).toBe('gpu');
  });

  it('creates, lists by tab, edits and deletes miners joined with their live worker', async () => {
    const created = await api.request('POST', '/api/miners', {
      token: user.token,
      body: { name: 'S19', type: 'asic', algorithm: 'sha256', workerName: 'rig1' },
    });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({
      name: 'S19',
      type: 'asic',
      algorithm: 'sha256',
      workerName: 'rig1',
      status: 'online',
      workers: 1,
    });
    expect(created.json.hashrate).toBeGreaterThan(0);
    const cpu = await api.request('POST', '/api/miners', {
      token: user.token,
      body: { name: 'Laptop', type: 'cpu', algorithm: 'randomx', workerName: 'laptop' },
    });
    expect(cpu.json).toMatchObject({ status: 'offline', workers: 0, hashrate: 0, lastSeen: null });
    expect(
      (await api.request('GET', '/api/miners?type=asic', { token: user.token })).json.miners.map(
        (m: { name: string }) => m.name,
      ),
    ).toEqual(['S19']);
    expect((await api.request('GET', '/api/miners', { token: user.token })).json.miners).toHaveLength(2);
    const edited = await api.request('PUT', `/api/miners/${cpu.json.id}`, {
      token: user.token,
      body: { name: 'Old laptop' },
    });
    expect(edited.json).toMatchObject({ name: 'Old laptop', type: 'cpu' });
    expect((await api.request('DELETE', `/api/miners/${cpu.json.id}`, { token: user.token })).status).toBe(
      204,
    );
    expect((await api.request('GET', '/api/miners?type=cpu', { token: user.token })).json.miners).toEqual([]);
  });

  it('rejects a miner without a name with the seed message', async () => {
    const res = await api.request('POST', '/api/miners', {
      token: user.token,
      body: { name: '  ', type: 'asic', algorithm: 'sha256', workerName: 'x' },
    });
    expect(res.status).toBe(400);
    expect(res.json.error.fields).toEqual({ name: 'Miner Name is required' });
  });

  it('shows the dashboard cards: hashrate per algorithm, the rest with their change against the previous 24 h', async () => {
    const res = await api.request('GET', '/api/dashboard', { token: user.token });
    expect(res.status).toBe(200);
    expect(res.json.coin).toBe('BTC');
    expect(res.json.unpaidBalance).toEqual({ value: '80000', change: '+166.7%' });
    expect(res.json.dailyEarnings).toEqual({ value: '50000', change: '+66.7%' });
    expect(res.json.activeMiners).toEqual({ value: 1, change: '0.0%' });
    // rig1 mined for the last 20 minutes: its 24 h average covers those 20 minutes, not 86,400 s.
    expect(res.json.hashrates).toHaveLength(1);
    expect(res.json.hashrates[0]).toMatchObject({ algorithm: 'sha256', coin: 'BTC', activeWorkers: 1 });
    expect(res.json.hashrates[0].realtime).toBeCloseTo((6000 * BTC_HASHES) / 600, 0);
    expect(res.json.hashrates[0].day).toBeCloseTo((9000 * BTC_HASHES) / 1200, 0);
    expect(res.json.hashrates[0].countedUpTo).toBe(new Date(now - 2 * MIN).toISOString());
  });

  it('says how old each hashrate figure is: the newest share counted, one that stopped 40 minutes ago included', async () => {
    // Its own account: the other tests count alice's workers.
    const dave = await api.signUp('dave');
    const btc = await fx.userPayee(dave.id, 'BTC');
    const ltc = await fx.userPayee(dave.id, 'LTC');
    const fresh = new Date(now - MIN + 17_000);
    const stopped = new Date(now - 40 * MIN + 5_000);
    const s19 = await fx.worker(btc, 's19', { lastShareAt: fresh, accepted: 10 });
    const l7 = await fx.worker(ltc, 'l7', { coin: 'LTC', lastShareAt: stopped, accepted: 30 });
    await fx.shareStat(s19, new Date(now - MIN), 10, 600);
    for (let m = 40; m <= 60; m++) await fx.shareStat(l7, new Date(now - m * MIN), 3, 90);
    api.forget(dave.id);
    const dashboard = await api.request('GET', '/api/dashboard', { token: dave.token });
    expect(dashboard.json.hashrates).toMatchObject([
      { coin: 'BTC', activeWorkers: 1, countedUpTo: fresh.toISOString() },
      { coin: 'LTC', activeWorkers: 0, realtime: 0, countedUpTo: stopped.toISOString() },
    ]);
    expect(dashboard.json.hashrates[1].hour).toBeGreaterThan(0);
    // The same figures, and the same age, on the workers page, the sidebar and the worker's own page.
    const workers = await api.request('GET', '/api/workers', { token: dave.token });
    expect(workers.json.totals.hashrates).toEqual(dashboard.json.hashrates);
    const me = await api.request('GET', '/api/me', { token: dave.token });
    expect(me.json.hashrates).toEqual(dashboard.json.hashrates);
    const quiet = await api.request('GET', `/api/workers/${l7}`, { token: dave.token });
    expect(quiet.json.worker).toMatchObject({ status: 'offline', lastSeen: stopped.toISOString() });
  });

  it('answers a zero-filled hashrate series in H/s', async () => {
    const day = await api.request('GET', '/api/hashrate?window=24h&step=1h', { token: user.token });
    expect(day.json.unit).toBe('H/s');
    expect(day.json.points).toHaveLength(24);
    const total = day.json.points.reduce((sum: number, p: { value: number }) => sum + p.value * 3600, 0);
    expect(total / BTC_HASHES).toBeGreaterThan(0);
    expect(day.json.points.filter((p: { value: number }) => p.value === 0).length).toBeGreaterThan(20);
    const week = await api.request('GET', '/api/hashrate?window=7d&step=1h', { token: user.token });
    expect(week.json.points).toHaveLength(168);
    const fine = await api.request('GET', '/api/hashrate?window=24h&step=10m', { token: user.token });
    expect(fine.json.points).toHaveLength(144);
    const bad = await api.request('GET', '/api/hashrate?window=1y', { token: user.token });
    expect(bad.status).toBe(400);
    expect(bad.json.error.fields).toHaveProperty('window');
  });

  it("shows the user's worker count, hashrate and balance on /api/me", async () => {
    const me = await api.request('GET', '/api/me', { token: user.token });
    expect(me.json).toMatchObject({ username: 'alice', activeWorkers: 1, balance: '80000' });
    expect(me.json.hashrates).toMatchObject([{ algorithm: 'sha256', coin: 'BTC' }]);
    expect(me.json.hashrates[0].realtime).toBeGreaterThan(0);
  });
});
