// The double-payment window: a payout process and its wallet die between the transfer and the
// wallet's save, and the wallet learns the transfer back without its destinations or comment
// (monero-wallet-rpc), or does not know it at all while it is still in the node's pool. The run must
// never be failed and paid again (reconcile.ts, holdRun).
import { pino } from 'pino';
import { expect, it } from 'vitest';
import { parseConfig } from '../config/index.js';
import { BalancesRepository } from '../db/repositories/balances.js';
import { OperatorAlertsRepository } from '../db/repositories/operator-alerts.js';
import { PayoutsRepository } from '../db/repositories/payouts.js';
import { describeEachDatabase } from '../../test/support/db.js';
import { PoolEvents } from '../events.js';
import { startAccounting, type AccountingService } from './index.js';
import { settleRun } from './settle-run.js';
import {
  createUserMiner,
  insertShare,
  regtestAddress,
  type MinerFixture,
} from '../../test/support/accounting/fixtures.js';
import { MemoryChain } from '../../test/support/accounting/memory-chain.js';

const COIN = 'BTC';
const config = parseConfig({});
const logger = pino({ level: 'silent' });

describeEachDatabase('interrupted payout runs the wallet lost its record of', (db) => {
  const alerts: string[] = [];
  const open = (chain: MemoryChain): Promise<AccountingService> =>
    startAccounting({
      config,
      db: db(),
      logger,
      events: new PoolEvents(),
      chains: new Map([[COIN, chain]]),
      loop: false,
      intentGraceMs: 0,
      notifyOperator: (m) => {
        alerts.push(m.text);
        return Promise.resolve();
      },
    });
  const balance = (m: MinerFixture): Promise<bigint> => new BalancesRepository(db()).get(m.payeeId, COIN);
  /** A miner credited for one share; runs held by earlier tests claim an untold transfer of their total: `difficulty` keeps totals apart. */
  const paidMiner = async (label: string, difficulty = 1): Promise<MinerFixture> => {
    const miner = await createUserMiner(db(), COIN, { payoutAddress: regtestAddress(label) });
    await insertShare(db(), COIN, miner, {
      difficulty,
      networkDifficulty: 1000,
      height: 200,
      scheme: 'pps-plus',
      at: new Date(),
    });
    return miner;
  };
  /** A run whose answer was lost: the wallet sent it, the process died before recording the txid. */
  const interruptedRun = async (chain: MemoryChain, service: AccountingService) => {
    chain.nextSend = 'lost-answer';
    const [run] = await service.runPayouts(COIN);
    expect(run?.status).toBe('unknown-outcome');
    const tx = chain.transactions.at(-1);
    if (!run?.runId || !tx) throw new Error('no interrupted run');
    return { runId: run.runId, txid: tx.txid, total: run.total };
  };

  it('records the run as sent when the wallet shows an outgoing transfer of exactly its total, and pays nobody twice', async () => {
    const chain = new MemoryChain(200);
    chain.walletBalance = 1_000_000_000n;
    const a = await paidMiner('untold-a');
    const b = await paidMiner('untold-b');
    const service = await open(chain);
    await service.runOnce();
    const { runId, txid } = await interruptedRun(chain, service);
    chain.loseRecord(txid);
    const [next] = await service.runPayouts(COIN);
    expect(next?.status).toBe('nothing-to-pay');
    expect(await new PayoutsRepository(db()).getRun(runId)).toMatchObject({ status: 'sent', txid });
    expect(chain.transactions).toHaveLength(1);
    expect([await balance(a), await balance(b)]).toEqual([0n, 0n]);
    await service.stop();
  });

  it('holds the run and alerts the operator when an outgoing transfer it cannot describe does not add up to its total', async () => {
    const chain = new MemoryChain(200);
    chain.walletBalance = 1_000_000_000n;
    const a = await paidMiner('held-a');
    const service = await open(chain);
    await service.runOnce();
    const { runId, txid, total } = await interruptedRun(chain, service);
    chain.loseRecord(txid, total + 1n);
    for (let cycle = 0; cycle < 2; cycle++) {
      const [next] = await service.runPayouts(COIN);
      expect(next?.status).toBe('nothing-to-pay');
    }
    expect((await new PayoutsRepository(db()).getRun(runId))?.status).toBe('intent');
    expect(await balance(a)).toBe(0n);
    expect(chain.transactions).toHaveLength(1);
    expect(alerts.filter((text) => text.includes(`payout run ${runId} `))).toHaveLength(1);
    expect(alerts.at(-1)).toContain('the run is held, neither sent nor failed');
    await service.stop();
  });

  const openAlerts = async () =>
    (await new OperatorAlertsRepository(db()).open())
      .map((a) => a.key)
      .filter((k) => k.startsWith('payout-'));
  const runOf = (runId: bigint) => new PayoutsRepository(db()).getRun(runId);
  const alertsOf = (runId: bigint) => alerts.filter((text) => text.includes(`payout run ${runId} `));

  it("holds a run whose transfer the wallet lost while it is still in the node's pool, past the grace, and records it by its amount once mined: nobody is paid twice", async () => {
    const chain = new MemoryChain(200);
    chain.walletBalance = 1_000_000_000n;
    const a = await paidMiner('pool-a', 2);
    const b = await paidMiner('pool-b', 2);
    const service = await open(chain);
    await service.runOnce();
    const { runId, txid } = await interruptedRun(chain, service);
    chain.loseRecordInPool(txid);
    for (let cycle = 0; cycle < 2; cycle++) {
      const [next] = await service.runPayouts(COIN);
      expect(next?.status).toBe('nothing-to-pay');
      expect((await runOf(runId))?.status).toBe('intent');
    }
    expect([await balance(a), await balance(b)]).toEqual([0n, 0n]);
    expect([chain.transactions.length, chain.untoldPool.length]).toEqual([0, 1]);
    expect(alertsOf(runId)).toHaveLength(1);
    expect(alertsOf(runId)[0]).toContain(
      `the run is held, neither sent nor failed, waiting for them to be mined`,
    );
    expect(alertsOf(runId)[0]).toContain(txid);
    chain.extend(1);
    await service.runOnce();
    expect(await runOf(runId)).toMatchObject({ status: 'recorded', txid });
    expect(await openAlerts()).not.toContain(`payout-missing:${COIN}:${runId}`);
    expect([await balance(a), await balance(b)]).toEqual([0n, 0n]);
    expect(chain.transactions).toHaveLength(1);
    await service.stop();
  });

  it('keeps a run held when the transfer it waited for leaves the pool unmined, until the operator settles it', async () => {
    const chain = new MemoryChain(200);
    chain.walletBalance = 1_000_000_000n;
    const miner = await paidMiner('pool-dropped', 3);
    const service = await open(chain);
    await service.runOnce();
    const credited = await balance(miner);
    const { runId, txid, total } = await interruptedRun(chain, service);
    chain.loseRecordInPool(txid);
    await service.runPayouts(COIN);
    // Other nodes may still hold it and mine it: the run is not failed and paid again by itself.
    chain.dropFromPool(txid);
    for (let cycle = 0; cycle < 2; cycle++) {
      const [next] = await service.runPayouts(COIN);
      expect(next?.status).toBe('nothing-to-pay');
    }
    expect((await runOf(runId))?.status).toBe('intent');
    expect(await balance(miner)).toBe(0n);
    expect(await openAlerts()).toContain(`payout-missing:${COIN}:${runId}`);
    await settleRun(db(), logger, runId, { kind: 'failed' });
    expect(await balance(miner)).toBe(credited);
    const [next] = await service.runPayouts(COIN);
    expect(next).toMatchObject({ status: 'sent', total });
    expect(await balance(miner)).toBe(0n);
    await service.stop();
  });

  it("leaves a run the wallet refused after its transfer reached the node's pool as intent, holds it, and records it once mined", async () => {
    const chain = new MemoryChain(200);
    chain.walletBalance = 1_000_000_000n;
    const miner = await paidMiner('refused-after-send', 5);
    const service = await open(chain);
    await service.runOnce();
    chain.nextSend = 'refused-after-send';
    const [run] = await service.runPayouts(COIN);
    expect(run).toMatchObject({ status: 'unknown-outcome', error: 'No connection to daemon' });
    const runId = run?.runId ?? 0n;
    const [next] = await service.runPayouts(COIN);
    expect(next?.status).toBe('nothing-to-pay');
    expect((await runOf(runId))?.status).toBe('intent');
    expect(await balance(miner)).toBe(0n);
    expect(alertsOf(runId)[0]).toContain('waiting for them to be mined');
    chain.extend(1);
    await service.runOnce();
    expect((await runOf(runId))?.status).toBe('recorded');
    expect(chain.transactions).toHaveLength(1);
    await service.stop();
  });

  /** A held run: interrupted, and the wallet shows a transfer of another amount it cannot describe. */
  const heldRun = async (label: string) => {
    const chain = new MemoryChain(200);
    chain.walletBalance = 1_000_000_000n;
    const miner = await paidMiner(label);
    const service = await open(chain);
    await service.runOnce();
    const credited = await balance(miner);
    const run = await interruptedRun(chain, service);
    chain.loseRecord(run.txid, run.total + 1n);
    await service.runPayouts(COIN);
    expect((await new PayoutsRepository(db()).getRun(run.runId))?.status).toBe('intent');
    return { chain, miner, service, credited, ...run };
  };

  it('lets the operator settle a held run as failed: the balance comes back once and the next run pays it', async () => {
    const { chain, miner, service, runId, total, credited } = await heldRun('settle-failed');
    expect(await openAlerts()).toContain(`payout-missing:${COIN}:${runId}`);
    const settled = await settleRun(db(), logger, runId, { kind: 'failed' });
    expect(settled).toMatchObject({ status: 'failed', total });
    expect(await balance(miner)).toBe(credited);
    expect(await openAlerts()).not.toContain(`payout-missing:${COIN}:${runId}`);
    // Settled once: a second call is refused and changes nothing.
    await expect(settleRun(db(), logger, runId, { kind: 'failed' })).rejects.toThrow(
      `payout run ${runId} is 'failed'`,
    );
    expect(await balance(miner)).toBe(credited);
    const [next] = await service.runPayouts(COIN);
    expect(next).toMatchObject({ status: 'sent', total });
    expect(await balance(miner)).toBe(0n);
    expect(chain.transactions).toHaveLength(2);
    await service.stop();
  });

  it('lets the operator settle a held run as sent by a txid: nobody is paid again and the run is followed by it', async () => {
    const { chain, miner, service, runId, txid } = await heldRun('settle-sent');
    await expect(settleRun(db(), logger, runId, { kind: 'sent', txid: 'not-a-txid' })).rejects.toThrow(
      'is not a transaction id',
    );
    const settled = await settleRun(db(), logger, runId, { kind: 'sent', txid });
    expect(settled.status).toBe('sent');
    expect(await new PayoutsRepository(db()).getRun(runId)).toMatchObject({ status: 'sent', txid });
    expect(await balance(miner)).toBe(0n);
    const [next] = await service.runPayouts(COIN);
    expect(next?.status).toBe('nothing-to-pay');
    expect(chain.transactions).toHaveLength(1);
    await service.stop();
  });
});
