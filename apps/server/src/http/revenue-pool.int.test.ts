/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-argument -- tests read JSON bodies field by field */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { FixtureWriter } from '../../test/support/db/fixtures.js';
import { describeEachDatabase } from '../../test/support/db.js';
import { startTestApi, type TestApi } from '../../test/support/http.js';

const WALLET = 'rb1qw508d6qejxtdg4y5r3zarvary0c5xw7k38f4sn';
const RIG_TOKEN = 'hive-token-0123456789';

/** A local rig-management API: GET /farms and /farms/:id/workers answer {data: [...]} for the right bearer token. */
function startRigApi(): Promise<{ server: Server; url: string; seen: string[] }> {
  const seen: string[] = [];
  const server = createServer((req, res) => {
    seen.push(`${req.url} ${req.headers.authorization}`);
    if (req.headers.authorization !== `Bearer ${RIG_TOKEN}`) {
      res.writeHead(401).end('{"message":"Unauthenticated"}');
      return;
    }
    const send = (data: unknown) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data }));
    if (req.url === '/farms') return send([{ id: 7, name: 'Home farm' }]);
    if (req.url === '/farms/7/workers')
      return send([
        {
          id: 101,
          name: 'gpu-rig-a',
          stats: { online: true },
          hashrates: [{ algo: 'ethash', hash: 95_000 }],
          flight_sheet: { items: [{ coin: 'ETC', wallet_address: WALLET.toUpperCase() }] },
          gpu_stats: [
            { name: 'RTX 3070', hash: 61_000, temp: 58 },
            { name: 'RTX 3060', hash: 34_000, temp: 55 },
          ],
        },
        {
          id: 102,
          name: 'other-wallet',
          stats: { online: false },
          offline_since: 1_700_000_000,
          flight_sheet: { items: [{ coin: 'ETC', wallet_address: 'somebody-else' }] },
        },
        {
          id: 103,
          name: 'asleep',
          stats: { online: false, offline_since: 1_700_000_000 },
          flight_sheet: { items: [{ coin: 'ETC', wallet_address: WALLET }] },
        },
      ]);
    res.writeHead(404).end('{}');
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen }),
    ),
  );
}

describeEachDatabase('revenue, public pool pages and search', (getDb) => {
  let api: TestApi;
  let fx: FixtureWriter;
  let rig: Awaited<ReturnType<typeof startRigApi>>;
  let user: Awaited<ReturnType<TestApi['signUp']>>;
  let payee: number;

  beforeAll(async () => {
    rig = await startRigApi();
    api = await startTestApi(getDb(), { config: { rigManagement: { baseUrl: rig.url, timeoutMs: 2_000 } } });
    fx = new FixtureWriter(getDb());
    user = await api.signUp('revenue_user');
    payee = await fx.userPayee(user.id, 'BTC');
    for (let d = 1; d <= 12; d++)
      await fx.settlement(payee, `2026-10-${String(d).padStart(2, '0')}`, BigInt(d * 1000));
    await fx.settlement(payee, '2026-10-05', 777n, { coin: 'LTC' });
    await fx.payout(payee, 150_000n, {
      txid: 'aa'.repeat(32),
      status: 'confirmed',
      createdAt: new Date('2026-10-03T04:00:00Z'),
    });
    await fx.payout(payee, 90_000n, {
      txid: null,
      status: 'pending',
      createdAt: new Date('2026-10-04T04:00:00Z'),
    });
    await fx.payout(payee, 20_000n, {
      txid: '=HYPERLINK("http://evil")',
      status: 'failed',
      address: 'bc1q,"quoted"',
      createdAt: new Date('2026-10-05T04:00:00Z'),
    });
    const wallet = await fx.walletPayee(WALLET, 'BTC');
    const w = await fx.worker(wallet, 'farm01', {
      lastShareAt: new Date(api.clock.now - 60_000),
      accepted: 500,
      rejected: 12,
      stale: 2,
    });
    await fx.shareStat(w, new Date(api.clock.now - 120_000), 50, 5_000);
    await fx.ledger(wallet, 10_000n, 'pps', new Date(api.clock.now - 3_600_000));
    await fx.block('BTC', 1234, 'bb'.repeat(32), { finderPayeeId: wallet, status: 'confirmed' });
    await fx.block('BTC', 1235, 'cc'.repeat(32), { finderPayeeId: payee, status: 'submitted' });
    await fx.chainTip('BTC', 1240, 123.5);
  });
  afterAll(async () => {
    await api.close();
    await new Promise((resolve) => rig.server.close(resolve));
  });

  it('pages rewards newest first and searches them by date', async () => {
    const page1 = await api.request('GET', '/api/rewards?page=1&pageSize=5&coin=BTC', { token: user.token });
    expect(page1.json).toMatchObject({ page: 1, pageSize: 5, total: 12 });
    expect(page1.json.items.map((r: { date: string }) => r.date)).toEqual([
      '2026-10-12',
      '2026-10-11',
      '2026-10-10',
      '2026-10-09',
      '2026-10-08',
    ]);
    expect(page1.json.items[0]).toMatchObject({
      amount: '12000',
      coin: 'BTC',
      description: 'pps-plus',
      settledAt: '2026-10-12T03:00:00.000Z',
    });
    const page3 = await api.request('GET', '/api/rewards?page=3&pageSize=5&coin=BTC', { token: user.token });
    expect(page3.json.items).toHaveLength(2);
    const byDate = await api.request('GET', '/api/rewards?search=2026-10-05', { token: user.token });
    expect(byDate.json.items.map((r: { coin: string }) => r.coin).sort()).toEqual(['BTC', 'LTC']);
    const wildcard = await api.request('GET', '/api/rewards?search=%25', { token: user.token });
    expect(wildcard.json.total).toBe(0);
  });

  it('pages payouts, searches by transaction id and filters by status', async () => {
    const all = await api.request('GET', '/api/payouts', { token: user.token });
    expect(all.json.total).toBe(3);
    expect(all.json.items[0]).toMatchObject({ amount: '20000', status: 'failed', failure: 'wallet-short' });
    expect(all.json.items.filter((p: { failure: string | null }) => p.failure !== null)).toHaveLength(1);
    const byTx = await api.request('GET', `/api/payouts?search=${'aa'.repeat(4)}`, { token: user.token });
    expect(byTx.json.items).toEqual([
      expect.objectContaining({ amount: '150000', status: 'completed', txId: 'aa'.repeat(32) }),
    ]);
    const pending = await api.request('GET', '/api/payouts?status=pending', { token: user.token });
    expect(pending.json.items).toEqual([expect.objectContaining({ amount: '90000', txId: null })]);
    const bad = await api.request('GET', '/api/payouts?status=stolen&pageSize=1000', { token: user.token });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.json.error.fields).sort()).toEqual(['pageSize', 'status']);
  });

  it('exports payouts and rewards as CSV with quoting and formula cells neutralised', async () => {
    const csv = await api.request('GET', '/api/payouts.csv', { token: user.token });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(csv.headers.get('content-disposition')).toContain('manjam-payouts.csv');
    const lines = csv.text.split('\r\n');
    // No zone chosen and none reported by a browser: UTC.
    expect(lines[0]).toBe(
      'Date (UTC),Coin,Amount,Amount (base units),Status,Transaction ID,Address,Confirmations,Failure',
    );
    expect(lines[1]).toBe(
      `2026-10-05 04:00:00,BTC,0.00020000,20000,failed,"'=HYPERLINK(""http://evil"")","bc1q,""quoted""",0,wallet-short`,
    );
    const rewards = await api.request('GET', '/api/rewards.csv?coin=LTC', { token: user.token });
    expect(rewards.text.split('\r\n')[1]).toBe(
      '2026-10-05 03:00:00,LTC,1000000000000,0.00000777,777,36760000000000,pps-plus',
    );
    // The browser's zone once the web app reported it; the miner's own choice over it.
    await api.request('PUT', '/api/settings', {
      token: user.token,
      body: { browserTimeZone: 'Africa/Cairo' },
    });
    const cairo = (await api.request('GET', '/api/payouts.csv', { token: user.token })).text.split('\r\n');
    expect(cairo[0]?.startsWith('Date (Africa/Cairo),')).toBe(true);
    expect(cairo[1]?.startsWith('2026-10-05 07:00:00,')).toBe(true);
    const chosen = await api.request('PUT', '/api/settings', {
      token: user.token,
      body: { timeZone: 'Asia/Riyadh' },
    });
    expect(chosen.json.timeZone).toBe('Asia/Riyadh');
    const riyadh = (await api.request('GET', '/api/rewards.csv?coin=LTC', { token: user.token })).text;
    expect(riyadh.split('\r\n')[1]?.startsWith('2026-10-05 06:00:00,LTC,')).toBe(true);
    const bad = await api.request('PUT', '/api/settings', {
      token: user.token,
      body: { timeZone: 'Mars/Olympus' },
    });
    expect(bad.status).toBe(400);
    await api.request('PUT', '/api/settings', { token: user.token, body: { timeZone: null } });
  });

  it('shows public pool stats, the 19-port table and found blocks without an account', async () => {
    const stats = await api.request('GET', '/api/pool/stats');
    expect(stats.status).toBe(200);
    const btc = stats.json.algorithms.find((a: { coin: string }) => a.coin === 'BTC');
    expect(btc).toMatchObject({
      algorithm: 'sha256',
      network: 'regtest',
      live: true,
      port: 3333,
      networkHeight: 1240,
      networkDifficulty: 123.5,
      fee: 1,
      payoutInterval: 24,
      miners: 1,
      workers: 1,
      blocksFound: 1,
    });
    expect(btc.hashrate).toBeGreaterThan(0);
    const ports = await api.request('GET', '/api/pool/ports');
    expect(ports.json.host).toBe('pool.test');
    expect(ports.json.ports).toHaveLength(19);
    expect(
      ports.json.ports.filter((p: { live: boolean }) => p.live).map((p: { name: string }) => p.name),
    ).toEqual(['SHA-256', 'Scrypt']);
    const blocks = await api.request('GET', '/api/blocks');
    expect(blocks.json.total).toBe(2);
    expect(blocks.json.items[1]).toMatchObject({
      height: 1234,
      status: 'confirmed',
      reward: '5000000000',
      finder: 'rb1qw5…f4sn',
    });
    // The account has no payout address: its block shows no finder, never the username.
    expect(blocks.json.items[0]).toMatchObject({ height: 1235, status: 'pending', finder: '' });
  });

  it('looks up a wallet address: its miners with shares and earnings', async () => {
    const res = await api.request('GET', `/api/miners/lookup/${WALLET}`);
    expect(res.status).toBe(200);
    expect(res.json.address).toBe(WALLET);
    expect(res.json.miners).toEqual([
      expect.objectContaining({
        name: 'farm01',
        status: 'active',
        source: 'pool',
        shares: { accepted: 500, rejected: 12, stale: 2 },
        earnings: { daily: '10000', weekly: '10000', monthly: '10000' },
      }),
    ]);
    const none = await api.request('GET', '/api/miners/lookup/nobody');
    expect(none.json).toEqual({ address: 'nobody', miners: [] });
    const seedPath = await api.request('GET', `/api/miners/${WALLET}`);
    expect(seedPath.json).toEqual(res.json);
  });

  it('searches by address.worker and by address, and needs a non-blank query', async () => {
    const byLogin = await api.request('GET', `/api/search?q=${WALLET}.FARM01`);
    expect(byLogin.json.results).toEqual([
      { address: WALLET, miners: [expect.objectContaining({ name: 'farm01' })] },
    ]);
    const blank = await api.request('GET', '/api/search?q=%20%20', { headers: { 'accept-language': 'ar' } });
    expect(blank.status).toBe(400);
    expect(blank.json.error.fields).toEqual({ q: 'يرجى إدخال عنوان محفظة' });
  });

  it("merges the signed-in user's rig-management workers into search with source hive, token encrypted at rest", async () => {
    const saved = await api.request('PUT', '/api/settings/rig-token', {
      token: user.token,
      body: { token: RIG_TOKEN },
    });
    expect(saved.json.rigTokenSet).toBe(true);
    const stored = await getDb().query<{ rig_token_encrypted: string }>(
      'SELECT rig_token_encrypted FROM user_settings WHERE user_id = $1',
      [user.id],
    );
    expect(stored.rows[0]?.rig_token_encrypted).not.toContain(RIG_TOKEN);
    const res = await api.request('GET', `/api/search?q=${WALLET}`, { token: user.token });
    const miners = res.json.results[0].miners;
    expect(miners.map((m: { source: string; name: string }) => `${m.source}:${m.name}`)).toEqual([
      'pool:farm01',
      'hive:gpu-rig-a',
      'hive:asleep',
    ]);
    expect(miners[1]).toMatchObject({
      status: 'active',
      hashrate: 95_000_000,
      algorithm: 'ethash',
      gpus: [
        { name: 'RTX 3070', hashrate: 61_000_000, temperature: 58 },
        { name: 'RTX 3060', hashrate: 34_000_000, temperature: 55 },
      ],
    });
    expect(miners[2]).toMatchObject({
      status: 'inactive',
      lastSeen: new Date(1_700_000_000_000).toISOString(),
    });
    expect(rig.seen).toContain(`/farms Bearer ${RIG_TOKEN}`);
    const anonymous = await api.request('GET', `/api/search?q=${WALLET}`);
    expect(anonymous.json.results[0].miners.map((m: { source: string }) => m.source)).toEqual(['pool']);
  });

  it('still answers search with pool results when the rig service refuses the token', async () => {
    await api.request('PUT', '/api/settings/rig-token', {
      token: user.token,
      body: { token: 'wrong-token-0000' },
    });
    const res = await api.request('GET', `/api/search?q=${WALLET}`, { token: user.token });
    expect(res.status).toBe(200);
    expect(res.json.results[0].miners.map((m: { source: string }) => m.source)).toEqual(['pool']);
    const removed = await api.request('PUT', '/api/settings/rig-token', {
      token: user.token,
      body: { token: null },
    });
    expect(removed.json.rigTokenSet).toBe(false);
  });
});
