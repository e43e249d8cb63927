/* eslint-disable @typescript-eslint/no-unsafe-member-access -- tests read JSON bodies field by field */
import { pino } from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startAccounting, type AccountingService } from '../accounting/index.js';
import { insertBlock, insertShare, type MinerFixture } from '../../test/support/accounting/fixtures.js';
import { MemoryChain } from '../../test/support/accounting/memory-chain.js';
import { FixtureWriter } from '../../test/support/db/fixtures.js';
import { describeEachDatabase } from '../../test/support/db.js';
import { startTestApi, type TestApi } from '../../test/support/http.js';

const COIN = 'BTC';
/** Regtest BTC subsidy at heights 150-299. */
const SUBSIDY = 2_500_000_000n;
const startOfUtcDay = (ms: number): number => ms - (ms % 86_400_000);

describeEachDatabase("money from the first share: today's accrued and immature credits", (getDb) => {
  let api: TestApi;
  let accounting: AccountingService;
  let user: Awaited<ReturnType<TestApi['signUp']>>;
  let miner: MinerFixture;
  const chain = new MemoryChain(200);

  beforeAll(async () => {
    api = await startTestApi(getDb());
    user = await api.signUp('first_share_user');
    const fx = new FixtureWriter(getDb());
    const payeeId = await fx.userPayee(user.id, COIN);
    const workerId = await fx.worker(payeeId, 'rig1', { lastShareAt: new Date(api.clock.now) });
    miner = { payeeId, workerId, userId: user.id };
    accounting = await startAccounting({
      config: api.config,
      db: getDb(),
      logger: pino({ level: 'silent' }),
      events: api.events,
      chains: new Map([[COIN, chain]]),
      loop: false,
      now: () => new Date(api.clock.now),
    });
  });
  afterAll(async () => {
    await accounting.stop();
    await api.close();
  });

  const summary = async () => {
    const res = await api.request('GET', '/api/revenue/summary', { token: user.token });
    expect(res.status).toBe(200);
    return (res.json.coins as { coin: string }[]).find((c) => c.coin === COIN);
  };
  const dashboard = async () => {
    api.forget(user.id);
    const res = await api.request('GET', '/api/dashboard', { token: user.token });
    expect(res.status).toBe(200);
    return res.json.unsettled as unknown;
  };

  it('shows nothing accrued and nothing immature before the first share', async () => {
    const since = new Date(startOfUtcDay(api.clock.now));
    expect(await summary()).toEqual({
      coin: COIN,
      balance: '0',
      accrued: '0',
      accruedSince: since.toISOString(),
      immature: '0',
      immatureBlocks: 0,
      creditedUpTo: null,
      creditsBehind: false,
    });
    const rewards = await api.request('GET', '/api/rewards', { token: user.token });
    expect(rewards.json.total).toBe(0);
  });

  it("shows today's PPS credits beside the balance before any daily settlement", async () => {
    // Two shares of difficulty 1 at network difficulty 1000: 2 x 1/1000 x 25 BTC x 99 % = 4,950,000 sat.
    // Both inside today (also when the test runs in the first minute after 00:00 UTC).
    const first = Math.max(api.clock.now - 60_000, startOfUtcDay(api.clock.now));
    for (const ms of [0, 1])
      await insertShare(getDb(), COIN, miner, {
        difficulty: 1,
        networkDifficulty: 1000,
        height: 200,
        scheme: 'pps-plus',
        at: new Date(first + ms),
      });
    await accounting.runOnce();
    expect(await summary()).toMatchObject({ balance: '4950000', accrued: '4950000', immature: '0' });
    expect(await dashboard()).toMatchObject({ accrued: '4950000', immature: '0', immatureBlocks: 0 });
    const rewards = await api.request('GET', '/api/rewards', { token: user.token });
    expect(rewards.json.total).toBe(0);
  });

  it('shows the share of a found block as immature until it matures, then in the balance', async () => {
    const [hash] = chain.extend(1);
    const height = chain.tip();
    await insertBlock(getDb(), COIN, {
      height,
      hash: hash ?? '',
      scheme: 'pps-plus',
      reward: SUBSIDY + 100_000n,
      subsidy: SUBSIDY,
      fees: 100_000n,
      networkDifficulty: 1000,
      finder: miner,
      at: new Date(api.clock.now),
    });
    await accounting.runOnce();
    // The block's fees less the 1 % pool fee, all to the only miner of the window.
    expect(await summary()).toMatchObject({ balance: '4950000', immature: '99000', immatureBlocks: 1 });
    expect(await dashboard()).toMatchObject({ immature: '99000', immatureBlocks: 1 });
    chain.extend(height + 99 - chain.tip());
    await accounting.runOnce();
    expect(await summary()).toMatchObject({ balance: '5049000', immature: '0', immatureBlocks: 0 });
  });

  it('says up to when credits are counted, and that they are behind once accounting has not run for a few cycles', async () => {
    await accounting.runOnce();
    const creditedAt = new Date(api.clock.now).toISOString();
    expect(await summary()).toMatchObject({ creditedUpTo: creditedAt, creditsBehind: false });
    // No cycle for longer than cycleSeconds x creditsBehindCycles (10 s x 6 by default).
    const { cycleSeconds, creditsBehindCycles } = api.config.accounting;
    api.clock.now += cycleSeconds * creditsBehindCycles * 1000 + 1_000;
    expect(await summary()).toMatchObject({ creditedUpTo: creditedAt, creditsBehind: true });
    expect(await dashboard()).toMatchObject({ creditedUpTo: creditedAt, creditsBehind: true });
    await accounting.runOnce();
    expect(await summary()).toMatchObject({
      creditedUpTo: new Date(api.clock.now).toISOString(),
      creditsBehind: false,
    });
  });
});
