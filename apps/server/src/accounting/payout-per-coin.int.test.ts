// Per-coin payout settings on the real dev chains (issue 27): one account mining BTC (bcoin) and
// LTC (Litecoin Core) is paid each coin at the address and threshold it set for that coin through
// the API; an account without an address for a coin keeps that coin's balance. What each address
// received is read from the node's UTXO set, not from the pool's own records.
import type { BitcoinFamilyCoin } from '@manjam/protocol';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChainNode } from '../coins/bitcoin/node/node.js';
import { RpcAccountingChain } from '../coins/bitcoin/wallet.js';
import { type DevChain } from '../coins/bitcoin/devchain/index.js';
import { startBtcTestChain, startLtcTestChain } from '../../test/support/devchain/snapshot.js';
import { parseConfig } from '../config/index.js';
import { BalancesRepository } from '../db/repositories/balances.js';
import { PoolEvents } from '../events.js';
import { startAccounting, type AccountingService, type PayoutRunResult } from './index.js';
import { insertShare, type MinerFixture } from '../../test/support/accounting/fixtures.js';
import {
  outsideAddress,
  paidOnChain,
  stratumNetworkDifficulty,
} from '../../test/support/accounting/regtest.js';
import { FixtureWriter } from '../../test/support/db/fixtures.js';
import { openTestDatabase, type TestDatabase } from '../../test/support/db.js';
import { startTestApi, type TestApi } from '../../test/support/http.js';

const logger = pino({ level: 'silent' });
const COINS = ['BTC', 'LTC'] as const satisfies readonly BitcoinFamilyCoin[];
type Account = Awaited<ReturnType<TestApi['signUp']>>;

describe('payouts per coin on the real BTC and LTC dev chains', () => {
  const devs = new Map<BitcoinFamilyCoin, DevChain>();
  const nodes = new Map<BitcoinFamilyCoin, ChainNode>();
  const difficulty = new Map<BitcoinFamilyCoin, number>();
  let database: TestDatabase;
  let api: TestApi;
  let accounting: AccountingService;
  const figures: string[] = [];

  const node = (coin: BitcoinFamilyCoin): ChainNode => {
    const found = nodes.get(coin);
    if (!found) throw new Error(`no ${coin} node`);
    return found;
  };

  beforeAll(async () => {
    devs.set('BTC', await startBtcTestChain({ logger }));
    devs.set('LTC', await startLtcTestChain({ logger, mweb: 'off' }));
    for (const coin of COINS) {
      const dev = devs.get(coin);
      if (!dev) throw new Error(`no ${coin} dev chain`);
      nodes.set(coin, new ChainNode({ coin, rpc: dev.rpc, walletRpc: dev.walletRpc }));
      difficulty.set(coin, await stratumNetworkDifficulty(node(coin), coin));
    }
    database = await openTestDatabase('postgres');
    api = await startTestApi(database.db);
    accounting = await startAccounting({
      config: parseConfig({}),
      db: database.db,
      logger,
      events: new PoolEvents(),
      chains: new Map(COINS.map((coin) => [coin, RpcAccountingChain.fromNode(node(coin))])),
      loop: false,
      intentGraceMs: 0,
    });
  }, 300_000);

  afterAll(async () => {
    await accounting?.stop();
    for (const n of nodes.values()) n.close();
    await api?.close();
    await database?.drop();
    for (const dev of devs.values()) await dev.stop();
    process.stdout.write(`[per-coin payouts]\n  ${figures.join('\n  ')}\n`);
  });

  const setAddress = async (account: Account, coin: string, address: string): Promise<void> => {
    const res = await api.request('PUT', '/api/settings/payout-address', {
      token: account.token,
      body: { address, coin, password: account.password },
    });
    expect(res.status).toBe(200);
  };
  const setThreshold = async (account: Account, coin: string, threshold: bigint): Promise<void> => {
    const res = await api.request('PUT', '/api/settings/payout-threshold', {
      token: account.token,
      body: { coin, threshold: threshold.toString() },
    });
    expect(res.status).toBe(200);
  };
  /** The account's payee and a worker on `coin`, as Stratum writes them on the first share. */
  const minerOn = async (account: Account, coin: BitcoinFamilyCoin): Promise<MinerFixture> => {
    const fx = new FixtureWriter(database.db);
    const payeeId = await fx.userPayee(account.id, coin);
    const workerId = await fx.worker(payeeId, `rig-${coin.toLowerCase()}`, { lastShareAt: new Date() });
    return { payeeId, workerId, userId: account.id };
  };
  /** A PPS share worth `fraction` of the next block's subsidy. */
  const earn = async (miner: MinerFixture, coin: BitcoinFamilyCoin, fraction: number): Promise<void> => {
    const D = difficulty.get(coin) ?? 0;
    await insertShare(database.db, coin, miner, {
      difficulty: D * fraction,
      networkDifficulty: D,
      height: (await node(coin).getBlockCount()) + 1,
      scheme: 'pps-plus',
      at: new Date(),
    });
  };
  /** Mines the run's transaction and reads what it paid each address from the UTXO set. */
  const onChain = async (coin: BitcoinFamilyCoin, run: PayoutRunResult | undefined) => {
    expect(run?.status).toBe('sent');
    await devs.get(coin)?.mine(1, outsideAddress(coin, `block-${Date.now()}`));
    return paidOnChain(node(coin), run?.txid ?? '', (run?.payouts.length ?? 0) + 1);
  };
  const balance = (miner: MinerFixture, coin: string): Promise<bigint> =>
    new BalancesRepository(database.db).get(miner.payeeId, coin);

  it('pays each coin to the address set for it, at that coin’s threshold, and keeps a coin without an address', async () => {
    const both = await api.signUp('both_coins');
    const btcOnly = await api.signUp('btc_only');
    const address = {
      bothBtc: outsideAddress('BTC', `both-${Date.now()}`),
      bothLtc: outsideAddress('LTC', `both-${Date.now()}`),
      onlyBtc: outsideAddress('BTC', `only-${Date.now()}`),
    };
    await setAddress(both, 'LTC', address.bothLtc);
    await setAddress(both, 'BTC', address.bothBtc);
    await setAddress(btcOnly, 'BTC', address.onlyBtc);
    await setThreshold(both, 'BTC', 100_000n); // 0.001 BTC
    await setThreshold(both, 'LTC', 100_000n); // 0.001 LTC
    await setThreshold(btcOnly, 'BTC', 100_000n);
    const miners = {
      bothBtc: await minerOn(both, 'BTC'),
      bothLtc: await minerOn(both, 'LTC'),
      onlyBtc: await minerOn(btcOnly, 'BTC'),
      onlyLtc: await minerOn(btcOnly, 'LTC'),
    };
    await earn(miners.bothBtc, 'BTC', 0.01);
    await earn(miners.bothLtc, 'LTC', 0.02);
    await earn(miners.onlyBtc, 'BTC', 0.03);
    await earn(miners.onlyLtc, 'LTC', 0.04);
    await accounting.runOnce();
    const owed = {
      bothBtc: await balance(miners.bothBtc, 'BTC'),
      bothLtc: await balance(miners.bothLtc, 'LTC'),
      onlyBtc: await balance(miners.onlyBtc, 'BTC'),
      onlyLtc: await balance(miners.onlyLtc, 'LTC'),
    };

    const [btcRun] = await accounting.runPayouts('BTC');
    const btcPaid = await onChain('BTC', btcRun);
    expect(btcPaid.get(address.bothBtc)).toBe(owed.bothBtc);
    expect(btcPaid.get(address.onlyBtc)).toBe(owed.onlyBtc);

    const [ltcRun] = await accounting.runPayouts('LTC');
    const ltcPaid = await onChain('LTC', ltcRun);
    expect(ltcRun?.payouts.map((p) => p.address)).toEqual([address.bothLtc]);
    expect(ltcPaid.get(address.bothLtc)).toBe(owed.bothLtc);
    // No LTC address: not paid in LTC (not to its BTC address, not to anything), balance kept.
    expect(await balance(miners.onlyLtc, 'LTC')).toBe(owed.onlyLtc);
    expect(await balance(miners.bothLtc, 'LTC')).toBe(0n);
    figures.push(
      `BTC run ${btcRun?.txid?.slice(0, 12)}: ${owed.bothBtc} sat -> both_coins' BTC address, ${owed.onlyBtc} sat -> btc_only's`,
      `LTC run ${ltcRun?.txid?.slice(0, 12)}: ${owed.bothLtc} litoshi -> both_coins' LTC address; btc_only keeps ${owed.onlyLtc} litoshi (no LTC address)`,
    );

    // The LTC address set later is paid by the next LTC run; a threshold above the balance waits.
    const lateLtc = outsideAddress('LTC', `late-${Date.now()}`);
    await setAddress(btcOnly, 'LTC', lateLtc);
    await setThreshold(both, 'LTC', 10n ** 12n); // 10,000 LTC: far above what it earns next
    await earn(miners.bothLtc, 'LTC', 0.01);
    await accounting.runOnce();
    const [laterRun] = await accounting.runPayouts('LTC');
    expect(laterRun?.payouts.map((p) => p.address)).toEqual([lateLtc]);
    expect((await onChain('LTC', laterRun)).get(lateLtc)).toBe(owed.onlyLtc);
    expect(await balance(miners.bothLtc, 'LTC')).toBeGreaterThan(0n);
    figures.push(
      `next LTC run: btc_only's new LTC address paid ${owed.onlyLtc} litoshi; both_coins below its 10,000 LTC threshold keeps ${await balance(miners.bothLtc, 'LTC')}`,
    );
  }, 300_000);
});
