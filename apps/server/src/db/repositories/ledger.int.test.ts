import { expect, it } from 'vitest';
import { createUserMiner } from '../../../test/support/accounting/fixtures.js';
import { describeEachDatabase } from '../../../test/support/db.js';
import { BalancesRepository } from './balances.js';
import { LedgerRepository } from './ledger.js';
import { PayoutsRepository } from './payouts.js';

describeEachDatabase('ledger, balances and payout repositories', (db) => {
  it('writes a credit once however often the same batch is retried, and the cached balance follows', async () => {
    const miner = await createUserMiner(db(), 'BTC');
    const entry = {
      payeeId: miner.payeeId,
      coin: 'BTC',
      amount: 1_234n,
      reason: 'pps' as const,
      reference: `test:${miner.payeeId}:1`,
    };
    const first = await db().transaction((tx) => new LedgerRepository(tx).append([entry]));
    const retried = await db().transaction((tx) =>
      new LedgerRepository(tx).append([
        entry,
        { ...entry, reference: `test:${miner.payeeId}:2`, amount: -34n, reason: 'payout' },
      ]),
    );
    expect(first).toHaveLength(1);
    expect(retried.map((e) => e.reference)).toEqual([`test:${miner.payeeId}:2`]);
    expect(await new BalancesRepository(db()).get(miner.payeeId, 'BTC')).toBe(1_200n);
    expect(await new LedgerRepository(db()).sum(miner.payeeId, 'BTC')).toBe(1_200n);
  });

  it('keeps amounts beyond 2^53 exact', async () => {
    const miner = await createUserMiner(db(), 'LTC');
    const big = 9_007_199_254_740_993n;
    await new LedgerRepository(db()).append([
      {
        payeeId: miner.payeeId,
        coin: 'LTC',
        amount: big,
        reason: 'adjustment',
        reference: `big:${miner.payeeId}`,
      },
    ]);
    expect(await new BalancesRepository(db()).get(miner.payeeId, 'LTC')).toBe(big);
  });

  it('rolls the ledger entry and the cached balance back together', async () => {
    const miner = await createUserMiner(db(), 'BTC');
    await expect(
      db().transaction(async (tx) => {
        await new LedgerRepository(tx).append([
          {
            payeeId: miner.payeeId,
            coin: 'BTC',
            amount: 5n,
            reason: 'pps',
            reference: `rb:${miner.payeeId}`,
          },
        ]);
        throw new Error('crash mid-batch');
      }),
    ).rejects.toThrow('crash mid-batch');
    expect(await new BalancesRepository(db()).get(miner.payeeId, 'BTC')).toBe(0n);
    expect(await new LedgerRepository(db()).entriesForPayee(miner.payeeId, 'BTC')).toEqual([]);
  });

  it('finds a cached balance that no longer equals the ledger sum', async () => {
    const miner = await createUserMiner(db(), 'BTC');
    await new LedgerRepository(db()).append([
      { payeeId: miner.payeeId, coin: 'BTC', amount: 700n, reason: 'pps', reference: `mm:${miner.payeeId}` },
    ]);
    expect(await new BalancesRepository(db()).mismatches()).toEqual([]);
    await db().query('UPDATE balances SET amount = amount + 1 WHERE payee_id = $1', [miner.payeeId]);
    expect(await new BalancesRepository(db()).mismatches()).toEqual([
      { payeeId: miner.payeeId, coin: 'BTC', cached: 701n, ledger: 700n },
    ]);
    await db().query('UPDATE balances SET amount = amount - 1 WHERE payee_id = $1', [miner.payeeId]);
  });

  it('moves a payout run from intent to sent or failed once, never back', async () => {
    const miner = await createUserMiner(db(), 'BTC');
    const repo = new PayoutsRepository(db());
    const runId = await repo.createRun('BTC', `run:${miner.payeeId}`);
    await repo.addPayout(runId, miner.payeeId, 'BTC', 'bcrt1qexample', 1_000n);
    expect(await repo.markSent(runId, 'aa'.repeat(32))).toBe(true);
    expect(await repo.markFailed(runId, 'wallet-refused', 'late failure')).toBe(false);
    expect(await repo.markSent(runId, 'bb'.repeat(32))).toBe(false);
    expect((await repo.getRun(runId))?.txid).toBe('aa'.repeat(32));
    expect((await repo.payoutsOfRun(runId)).map((p) => p.status)).toEqual(['sent']);
    expect(await repo.claimedTxids('BTC')).toContain('aa'.repeat(32));
  });

  it('refuses a payout of zero with the database constraint, losing nothing', async () => {
    const miner = await createUserMiner(db(), 'BTC');
    const repo = new PayoutsRepository(db());
    await expect(
      db().transaction(async (tx) => {
        const r = new PayoutsRepository(tx);
        const runId = await r.createRun('BTC', `zero:${miner.payeeId}`);
        await r.addPayout(runId, miner.payeeId, 'BTC', 'bcrt1qexample', 0n);
      }),
    ).rejects.toThrow();
    expect(
      await repo
        .runsWithStatus('BTC', ['intent'])
        .then((runs) => runs.filter((r) => r.comment === `zero:${miner.payeeId}`)),
    ).toEqual([]);
  });
});
