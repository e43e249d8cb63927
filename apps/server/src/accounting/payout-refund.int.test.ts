// Earnings after a failed payout, on the real BTC dev chain (bcoin): the pool wallet cannot fund
// a run, the run fails and the miner's balance comes back, and every earnings figure the miner
// sees (24 h earnings, today so far, the next daily settlement) counts the credits once, never the
// refund. The payouts list says why the payout failed.
import type { Dashboard, PayoutPage, RevenueSummary, RewardPage } from '@manjam/contract';
import { blockSubsidy, coinParams } from '@manjam/protocol';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChainNode } from '../coins/bitcoin/node/node.js';
import { FixtureWriter } from '../../test/support/db/fixtures.js';
import { openTestDatabase, type TestDatabase } from '../../test/support/db.js';
import { type DevChain } from '../coins/bitcoin/devchain/index.js';
import { startBtcTestChain } from '../../test/support/devchain/snapshot.js';
import { startTestApi, type TestApi } from '../../test/support/http.js';
import { startAccounting, type AccountingService } from './index.js';
import { insertShare, type MinerFixture } from '../../test/support/accounting/fixtures.js';
import { outsideAddress, stratumNetworkDifficulty } from '../../test/support/accounting/regtest.js';
import { RpcAccountingChain } from '../coins/bitcoin/wallet.js';

const COIN = 'BTC';
const DAY_MS = 86_400_000;
const logger = pino({ level: 'silent' });

describe('earnings after a payout the pool wallet could not fund (real BTC regtest chain)', () => {
  let dev: DevChain;
  let node: ChainNode;
  let database: TestDatabase;
  let api: TestApi;
  let user: Awaited<ReturnType<TestApi['signUp']>>;
  let miner: MinerFixture;
  let owed = 0n;
  const services: AccountingService[] = [];

  const open = async (now?: () => Date): Promise<AccountingService> => {
    const service = await startAccounting({
      config: api.config,
      db: database.db,
      logger,
      events: api.events,
      chains: new Map([[COIN, RpcAccountingChain.fromNode(node)]]),
      loop: false,
      ...(now ? { now } : {}),
    });
    services.push(service);
    return service;
  };
  const get = async <T>(path: string): Promise<T> => {
    api.clock.now = Date.now();
    api.forget(user.id);
    const res = await api.request('GET', path, { token: user.token });
    expect(res.status).toBe(200);
    return res.json as T;
  };
  const btcFigures = async () => {
    const summary = await get<RevenueSummary>('/api/revenue/summary');
    const btc = summary.coins.find((c) => c.coin === COIN);
    if (!btc) throw new Error('no BTC figures');
    return btc;
  };

  beforeAll(async () => {
    dev = await startBtcTestChain({ logger });
    node = new ChainNode({ coin: COIN, rpc: dev.rpc, walletRpc: dev.walletRpc });
    database = await openTestDatabase('postgres');
    api = await startTestApi(database.db);
    user = await api.signUp('refund_miner');
    const fx = new FixtureWriter(database.db);
    const payeeId = await fx.userPayee(user.id, COIN);
    const workerId = await fx.worker(payeeId, 'rig1', { lastShareAt: new Date() });
    miner = { payeeId, workerId, userId: user.id };
    await database.db.query(
      `INSERT INTO user_payout_settings (user_id, coin, threshold, address) VALUES ($1, $2, 100000, $3)
       ON CONFLICT (user_id, coin) DO UPDATE SET threshold = EXCLUDED.threshold, address = EXCLUDED.address`,
      [user.id, COIN, outsideAddress(COIN, `refund-${Date.now()}`)],
    );
    // Credits worth more than the pool wallet holds: one slot row of full-subsidy shares (a share
    // at the network difficulty earns the whole subsidy under PPS).
    const wallet = await RpcAccountingChain.fromNode(node).getWalletBalance();
    const height = (await node.getBlockCount()) + 1;
    const subsidy = blockSubsidy(coinParams(COIN, 'regtest'), height);
    const D = await stratumNetworkDifficulty(node, COIN);
    await insertShare(database.db, COIN, miner, {
      difficulty: D,
      networkDifficulty: D,
      height,
      scheme: 'pps-plus',
      at: new Date(),
    });
    const shares = 2 * Number(wallet / subsidy) + 2; // the 1 % pool fee comes off
    await database.db.query('UPDATE shares SET share_count = $1 WHERE payee_id = $2', [shares, payeeId]);
    const service = await open();
    await service.runOnce();
    owed = BigInt((await btcFigures()).balance);
    expect(owed).toBeGreaterThan(wallet);
    const [run] = await service.runPayouts(COIN);
    expect(run?.status).toBe('insufficient-funds');
  }, 300_000);

  afterAll(async () => {
    for (const service of services) await service.stop();
    await api?.close();
    node?.close();
    await database?.drop();
    await dev?.stop();
  });

  it('gives the balance back in full after the failed payout', async () => {
    expect((await btcFigures()).balance).toBe(owed.toString());
  });

  it('counts the credits once in 24h earnings and today so far, never the refund', async () => {
    const dashboard = await get<Dashboard>('/api/dashboard');
    expect(dashboard.coin).toBe(COIN);
    expect(dashboard.dailyEarnings.value).toBe(owed.toString());
    expect(dashboard.unpaidBalance.value).toBe(owed.toString());
    expect(dashboard.unsettled.accrued).toBe(owed.toString());
    expect((await btcFigures()).accrued).toBe(owed.toString());
  });

  it('lists the failed payout with its reason, the pool wallet short of funds, and no transaction', async () => {
    const payouts = await get<PayoutPage>('/api/payouts');
    expect(payouts.items).toEqual([
      expect.objectContaining({
        status: 'failed',
        failure: 'wallet-short',
        txId: null,
        amount: owed.toString(),
      }),
    ]);
    const failed = await get<PayoutPage>('/api/payouts?status=failed');
    expect(failed.total).toBe(1);
  });

  it('says up to when the credits are counted, and that they are not behind', async () => {
    const btc = await btcFigures();
    expect(btc.creditsBehind).toBe(false);
    expect(Date.now() - Date.parse(btc.creditedUpTo ?? '')).toBeLessThan(60_000);
  });
  it('settles the day with the credits only: the next reward row does not include the refund', async () => {
    // The daily close, run as it runs the day after (past its grace time).
    const tomorrow = Math.floor(Date.now() / DAY_MS) * DAY_MS + DAY_MS + 10 * 60_000;
    await (await open(() => new Date(tomorrow))).runOnce();
    const rewards = await get<RewardPage>('/api/rewards');
    expect(rewards.items).toEqual([
      expect.objectContaining({ coin: COIN, amount: owed.toString(), description: 'pps-plus' }),
    ]);
  });
});
