import { pino } from 'pino';
import { expect, it } from 'vitest';
import { parseConfig } from '../config/index.js';
import { BalancesRepository } from '../db/repositories/balances.js';
import { PayoutsRepository } from '../db/repositories/payouts.js';
import { describeEachDatabase } from '../../test/support/db.js';
import { PoolEvents } from '../events.js';
import { startAccounting, type AccountingService } from './index.js';
import {
  createUserMiner,
  createWalletMiner,
  insertShare,
  regtestAddress,
  type MinerFixture,
} from '../../test/support/accounting/fixtures.js';
import { MemoryChain } from '../../test/support/accounting/memory-chain.js';

const COIN = 'BTC';
const config = parseConfig({});
const logger = pino({ level: 'silent' });

describeEachDatabase('payout runs', (db) => {
  const chain = new MemoryChain(200);
  const events = new PoolEvents();
  const sent: { payeeId: number; amount: bigint; txid: string }[] = [];
  events.on('payout.sent', (e) => sent.push({ payeeId: e.payeeId, amount: e.amount, txid: e.txid }));
  /** Interrupted runs are judged at once here (the default waits 5 minutes for a slow node). */
  const open = (intentGraceMs = 0): Promise<AccountingService> =>
    startAccounting({
      config,
      db: db(),
      logger,
      events,
      chains: new Map([[COIN, chain]]),
      loop: false,
      intentGraceMs,
    });
  const balance = (payeeId: number): Promise<bigint> => new BalancesRepository(db()).get(payeeId, COIN);
  /** Earns difficulty/1000 of a 25 BTC regtest subsidy, minus 1 %: 2 475 000 sat per unit. */
  const earn = async (miner: MinerFixture, difficulty: number): Promise<void> => {
    await insertShare(db(), COIN, miner, {
      difficulty,
      networkDifficulty: 1000,
      height: 200,
      scheme: 'pps-plus',
      at: new Date(),
    });
  };
  const paymentsTo = (address: string) =>
    chain.transactions.flatMap((tx) => tx.outputs.filter((o) => o.address === address));

  it('pays every balance at or above its threshold to its payout address with one sendmany', async () => {
    const held = regtestAddress('held-new');
    const h = await createUserMiner(db(), COIN, {
      threshold: '0.001',
      payoutAddress: regtestAddress('h-payout'),
      pending: { address: held, effectiveAt: new Date(Date.now() + 48 * 3_600_000) },
    });
    const i = await createUserMiner(db(), COIN, {
      payoutAddress: regtestAddress('i-old'),
      pending: { address: regtestAddress('i-new'), effectiveAt: new Date(Date.now() - 1000) },
    });
    const j = await createWalletMiner(db(), COIN, regtestAddress('wallet-j'));
    const k = await createUserMiner(db(), COIN, { walletAddress: 'not-an-address', threshold: '0.001' });
    await earn(h, 1);
    await earn(i, 1);
    await earn(j, 0.1);
    await earn(k, 1);
    chain.walletBalance = 1_000_000_000n;
    const service = await open();
    await service.runOnce();
    const [run] = await service.runPayouts(COIN);
    expect(run?.status).toBe('sent');
    expect(run?.payouts).toEqual([
      { payeeId: h.payeeId, userId: h.userId, address: regtestAddress('h-payout'), amount: 2_475_000n },
      { payeeId: i.payeeId, userId: i.userId, address: regtestAddress('i-new'), amount: 2_475_000n },
    ]);
    expect(chain.transactions).toHaveLength(1);
    expect(chain.transactions[0]?.comment).toBe(run?.comment);
    expect(paymentsTo(held)).toEqual([]);
    expect([await balance(h.payeeId), await balance(i.payeeId)]).toEqual([0n, 0n]);
    expect(await balance(j.payeeId)).toBe(247_500n);
    expect(await balance(k.payeeId)).toBe(2_475_000n);
    expect(sent.map((e) => e.payeeId)).toEqual([h.payeeId, i.payeeId]);
    expect(service.metrics().payouts_skipped_invalid_address_total).toBe(1);
    expect((await service.runPayouts(COIN))[0]?.status).toBe('nothing-to-pay');
    chain.extend(1);
    await service.runPayouts(COIN);
    const rows = await new PayoutsRepository(db()).payoutsOfRun(run?.runId ?? 0n);
    expect(rows.map((r) => [r.status, r.txid])).toEqual([
      ['confirmed', run?.txid],
      ['confirmed', run?.txid],
    ]);
    expect((await new PayoutsRepository(db()).getRun(run?.runId ?? 0n))?.status).toBe('recorded');
    expect(await service.checkBalances()).toEqual([]);
  });

  it('stops a run the wallet cannot fund, keeps the balances and raises the alert counter', async () => {
    const m = await createUserMiner(db(), COIN, { payoutAddress: regtestAddress('m'), threshold: '0.001' });
    await earn(m, 1);
    chain.walletBalance = 1_000n;
    const service = await open();
    await service.runOnce();
    const [run] = await service.runPayouts(COIN);
    expect(run?.status).toBe('insufficient-funds');
    expect(await balance(m.payeeId)).toBe(2_475_000n);
    expect(service.metrics().payout_insufficient_funds_total).toBe(1);
    expect((await new PayoutsRepository(db()).getRun(run?.runId ?? 0n))?.status).toBe('failed');
    expect(paymentsTo(regtestAddress('m'))).toEqual([]);
    expect(await service.checkBalances()).toEqual([]);
  });

  it('records a run whose answer was lost as sent once the wallet shows it, paying exactly once', async () => {
    const n = await createUserMiner(db(), COIN, { payoutAddress: regtestAddress('n'), threshold: '0.001' });
    await earn(n, 2);
    chain.walletBalance = 1_000_000_000n;
    chain.nextSend = 'lost-answer';
    const first = await open();
    await first.runOnce();
    const [run] = await first.runPayouts(COIN);
    expect(run?.status).toBe('unknown-outcome');
    expect(await balance(n.payeeId)).toBe(0n);
    const restarted = await open();
    const stored = await new PayoutsRepository(db()).getRun(run?.runId ?? 0n);
    expect(stored?.status).toBe('sent');
    expect(stored?.txid).toBe(chain.transactions.find((tx) => tx.comment === run?.comment)?.txid);
    await restarted.runPayouts(COIN);
    expect(paymentsTo(regtestAddress('n'))).toEqual([{ address: regtestAddress('n'), amount: 4_950_000n }]);
    expect(await balance(n.payeeId)).toBe(0n);
  });

  it('runs by itself: the loop credits new shares and pays a due balance, and stop() waits for the cycle', async () => {
    const q = await createUserMiner(db(), COIN, {
      payoutAddress: regtestAddress('loop-q'),
      threshold: '0.001',
    });
    await earn(q, 4);
    chain.walletBalance = 1_000_000_000n;
    const loopConfig = parseConfig({ accounting: { payoutIntervalHours: 0.0001 } });
    const service = await startAccounting({
      config: loopConfig,
      db: db(),
      logger,
      events,
      chains: new Map([[COIN, chain]]),
      cycleMs: 20,
    });
    const deadline = Date.now() + 30_000;
    while (paymentsTo(regtestAddress('loop-q')).length === 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await service.stop();
    expect(paymentsTo(regtestAddress('loop-q'))).toEqual([
      { address: regtestAddress('loop-q'), amount: 9_900_000n },
    ]);
    expect(await balance(q.payeeId)).toBe(0n);
    expect(service.metrics().cycles_total).toBeGreaterThan(0);
    const cycles = service.metrics().cycles_total;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(service.metrics().cycles_total).toBe(cycles);
  });

  it('pays the largest balances first when the wallet limits its outputs per transaction, and the rest in the next run', async () => {
    const miners = await Promise.all(
      ['limit-small', 'limit-large', 'limit-mid'].map((label) =>
        createUserMiner(db(), COIN, { payoutAddress: regtestAddress(label), threshold: '0.001' }),
      ),
    );
    const [small, large, mid] = miners as [MinerFixture, MinerFixture, MinerFixture];
    await earn(small, 10);
    await earn(large, 30);
    await earn(mid, 20);
    chain.walletBalance = 1_000_000_000n;
    chain.maxOutputsPerSend = 2;
    try {
      const service = await open();
      await service.runOnce();
      const [first] = await service.runPayouts(COIN);
      expect(first?.status).toBe('sent');
      expect(first?.payouts.map((p) => p.payeeId).sort()).toEqual([large.payeeId, mid.payeeId].sort());
      expect(await balance(small.payeeId)).toBe(24_750_000n);
      const [second] = await service.runPayouts(COIN);
      expect(second?.status).toBe('sent');
      expect(second?.payouts.some((p) => p.payeeId === small.payeeId)).toBe(true);
      expect(paymentsTo(regtestAddress('limit-small'))).toEqual([
        { address: regtestAddress('limit-small'), amount: 24_750_000n },
      ]);
      expect(paymentsTo(regtestAddress('limit-large'))).toEqual([
        { address: regtestAddress('limit-large'), amount: 74_250_000n },
      ]);
      expect(await Promise.all(miners.map((m) => balance(m.payeeId)))).toEqual([0n, 0n, 0n]);
    } finally {
      chain.maxOutputsPerSend = undefined;
    }
  });

  it('answers a payout request for a coin without a node with a clear error', async () => {
    const service = await open();
    await expect(service.runPayouts('LTC')).rejects.toThrow('no chain connection for LTC');
  });

  it('gives the balance back when an interrupted run never reached the wallet (after the grace period), and pays it on the next run', async () => {
    const p = await createUserMiner(db(), COIN, { payoutAddress: regtestAddress('p'), threshold: '0.001' });
    await earn(p, 3);
    chain.walletBalance = 1_000_000_000n;
    chain.nextSend = 'no-answer';
    const first = await open();
    await first.runOnce();
    const [run] = await first.runPayouts(COIN);
    expect(run?.status).toBe('unknown-outcome');
    await open(5 * 60_000);
    expect((await new PayoutsRepository(db()).getRun(run?.runId ?? 0n))?.status).toBe('intent');
    expect(await balance(p.payeeId)).toBe(0n);
    await open();
    expect((await new PayoutsRepository(db()).getRun(run?.runId ?? 0n))?.status).toBe('failed');
    expect(await balance(p.payeeId)).toBe(7_425_000n);
    const again = await (await open()).runPayouts(COIN);
    expect(again[0]?.status).toBe('sent');
    expect(paymentsTo(regtestAddress('p'))).toEqual([{ address: regtestAddress('p'), amount: 7_425_000n }]);
    expect(await balance(p.payeeId)).toBe(0n);
  });
});
