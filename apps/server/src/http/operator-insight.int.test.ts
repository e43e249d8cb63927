/* eslint-disable @typescript-eslint/no-unsafe-member-access -- tests read JSON bodies field by field */
// The operator console's read-only sections over real HTTP, on PGlite and PostgreSQL: the fastest
// workers of all accounts, and the configuration as running with no secret in it (issue 30).
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  createUserMiner,
  createWalletMiner,
  insertShare,
  regtestAddress,
  type MinerFixture,
} from '../../test/support/accounting/fixtures.js';
import { describeEachDatabase } from '../../test/support/db.js';
import { startTestApi, type TestApi } from '../../test/support/http.js';
import { signedInOperator } from '../../test/support/operator.js';

const SHARE = { networkDifficulty: 1e6, height: 100, scheme: 'pps-plus' as const };
const MINUTE = 60_000;

describeEachDatabase('the operator console: top workers and config', (getDb) => {
  let api: TestApi;
  let token: string;
  beforeAll(async () => {
    api = await startTestApi(getDb());
    ({ token } = await signedInOperator(api, getDb()));
  });
  afterAll(() => api.close());

  const share = (coin: string, miner: MinerFixture, difficulty: number, minutesAgo: number) =>
    insertShare(getDb(), coin, miner, {
      ...SHARE,
      difficulty,
      at: new Date(api.clock.now - minutesAgo * MINUTE),
    });

  it('ranks the workers of all accounts by the last 10 minutes or the last hour, in H/s with account, worker, coin and last share', async () => {
    // An account's SHA-256d worker: one share of difficulty 1 two minutes ago (2^32 hashes).
    const account = await createUserMiner(getDb(), 'BTC');
    await share('BTC', account, 1, 2);
    const lastShareAt = new Date(api.clock.now - 2 * MINUTE);
    await getDb().query('UPDATE workers SET last_share_at = $2 WHERE id = $1', [
      account.workerId,
      lastShareAt,
    ]);
    // A wallet mining Scrypt without an account: a big share 30 minutes ago, none since.
    const address = regtestAddress('top-wallet');
    const wallet = await createWalletMiner(getDb(), 'LTC', address);
    await share('LTC', wallet, 1_000_000, 30);
    // A worker whose shares are all older than an hour is not listed.
    const idle = await createUserMiner(getDb(), 'BTC');
    await share('BTC', idle, 1_000, 90);
    const username = (
      await getDb().query<{ username: string }>('SELECT username FROM users WHERE id = $1', [account.userId])
    ).rows[0]?.username;

    const recent = await api.request('GET', '/api/operator/top-workers', { token });
    expect(recent.status).toBe(200);
    expect(recent.json.window).toBe('10m');
    const items = recent.json.items as { workerId: number; realtime: number; hour: number }[];
    expect(items.map((w) => w.workerId)).toEqual([account.workerId, wallet.workerId]);
    expect(recent.json.items[0]).toMatchObject({
      account: username,
      address: null,
      coin: 'BTC',
      algorithm: 'sha256',
    });
    expect(recent.json.items[0].worker).toMatch(/^rig/);
    expect(recent.json.items[0].lastShareAt).toBe(lastShareAt.toISOString());
    // 2^32 hashes over the time mined: since the minute bucket of its share 2 minutes ago, in
    // both windows (services/shared/hashrate.ts averagingSeconds).
    const mined = (api.clock.now - Math.floor((api.clock.now - 2 * MINUTE) / MINUTE) * MINUTE) / 1000;
    expect(items[0]?.realtime).toBeCloseTo(2 ** 32 / mined, 3);
    expect(items[0]?.hour).toBeCloseTo(2 ** 32 / mined, 3);
    expect(recent.json.items[1]).toMatchObject({ account: null, address, coin: 'LTC', algorithm: 'scrypt' });
    expect(items[1]?.realtime).toBe(0);

    // Over the hour the wallet's Scrypt share (1e6 * 2^16 hashes since 30 minutes) is the faster.
    const hour = await api.request('GET', '/api/operator/top-workers?window=1h', { token });
    expect(hour.json.window).toBe('1h');
    const hourItems = hour.json.items as { workerId: number; hour: number }[];
    expect(hourItems.map((w) => w.workerId)).toEqual([wallet.workerId, account.workerId]);
    const since = (api.clock.now - Math.floor((api.clock.now - 30 * MINUTE) / MINUTE) * MINUTE) / 1000;
    expect(hourItems[0]?.hour).toBeCloseTo((1_000_000 * 2 ** 16) / since, 0);

    const bad = await api.request('GET', '/api/operator/top-workers?window=1d', { token });
    expect(bad.status).toBe(400);
  });

  it('shows the configuration as running with every secret redacted: auth secret, URL passwords, metrics token', async () => {
    const res = await api.request('GET', '/api/operator/config', { token });
    expect(res.status).toBe(200);
    expect(res.json.config.publicHost).toBe('pool.test');
    expect(res.json.config.auth.secret).toBe('[redacted]');
    expect(res.text).not.toContain('test-secret-test-secret');

    // A pool configured with SMTP credentials and a metrics scrape token.
    const secrets = await startTestApi(getDb(), {
      config: {
        rigManagement: { baseUrl: 'https://hive:rig-pass-4711@rig.pool.test/api/v2' },
        http: { host: '127.0.0.1', port: 0, webDist: '', metricsToken: 'scrape-token-0123456789' },
        distributed: { natsUrl: 'nats://core:nats-pass-99@127.0.0.1:4222' },
      },
    });
    try {
      const { token: secretsToken } = await signedInOperator(secrets, getDb());
      const shown = await secrets.request('GET', '/api/operator/config', { token: secretsToken });
      expect(shown.status).toBe(200);
      for (const secret of ['rig-pass-4711', 'scrape-token', 'nats-pass-99', 'test-secret-test-secret'])
        expect(shown.text).not.toContain(secret);
      expect(shown.json.config.rigManagement.baseUrl).toBe('https://hive:[redacted]@rig.pool.test/api/v2');
      expect(shown.json.config.http.metricsToken).toBe('[redacted]');
      expect(shown.json.config.distributed.natsUrl).toBe('nats://core:[redacted]@127.0.0.1:4222');
    } finally {
      await secrets.close();
    }
  });
});
