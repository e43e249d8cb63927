// More payees than one wallet transaction pays (Monero: 15 destinations): the rest are paid by
// follow-up runs as soon as the wallet can fund them, not a payout interval later, one run at a
// time (payouts.ts, runFollowUp). The memory chain stands in for the wallet (maxOutputsPerSend).
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
  insertShare,
  regtestAddress,
  type MinerFixture,
} from '../../test/support/accounting/fixtures.js';
import { MemoryChain } from '../../test/support/accounting/memory-chain.js';

const COIN = 'BTC';
const logger = pino({ level: 'silent' });

describeEachDatabase('follow-up payout runs', (db) => {
  /** Waits while the accounting loop runs until `done` holds (fails after 20 s). */
  const loopUntil = async (service: AccountingService, done: () => Promise<boolean>): Promise<void> => {
    const deadline = Date.now() + 20_000;
    while (!(await done())) {
      if (Date.now() > deadline) throw new Error('the accounting loop did not get there');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(service.metrics().cycles_total).toBeGreaterThan(0);
  };
  /** At least `n` more loop cycles ran. */
  const cycles = (service: AccountingService, n: number): Promise<void> => {
    const from = service.metrics().cycles_total ?? 0;
    return loopUntil(service, () => Promise.resolve((service.metrics().cycles_total ?? 0) >= from + n));
  };

  /** `n` payees with a share each, the i-th worth i units of 2,475,000 (largest paid first). */
  const payees = async (n: number, label: string): Promise<MinerFixture[]> => {
    const miners: MinerFixture[] = [];
    for (let i = 1; i <= n; i++) {
      const miner = await createUserMiner(db(), COIN, {
        threshold: '0.001',
        payoutAddress: regtestAddress(`${label}-${i}`),
      });
      await insertShare(db(), COIN, miner, {
        difficulty: i,
        networkDifficulty: 1000,
        height: 200,
        scheme: 'pps-plus',
        at: new Date(),
      });
      miners.push(miner);
    }
    return miners;
  };

  it('pays five payees with a two-output wallet in three runs, waiting quietly while the wallet cannot fund the next one', async () => {
    const chain = new MemoryChain(200);
    chain.maxOutputsPerSend = 2;
    const miners = await payees(5, 'follow');
    // Enough for the first run (the two largest: 5 and 4 units of 2,475,000) only.
    chain.walletBalance = 9n * 2_475_000n;
    const alerts: string[] = [];
    const service = await startAccounting({
      config: parseConfig({}),
      db: db(),
      logger,
      events: new PoolEvents(),
      chains: new Map([[COIN, chain]]),
      cycleMs: 10,
      intentGraceMs: 0,
      notifyOperator: (m) => {
        alerts.push(m.subject);
        return Promise.resolve();
      },
    });
    try {
      await loopUntil(service, () => Promise.resolve(chain.transactions.length === 1));
      await cycles(service, 5);
      expect(chain.transactions).toHaveLength(1); // the wallet cannot fund the follow-up: it waits
      const runs = () =>
        new PayoutsRepository(db()).runsSince(COIN, ['intent', 'sent', 'recorded', 'failed'], new Date(0));
      expect((await runs()).map((r) => r.status)).toEqual(['sent']);
      expect(alerts).toEqual([]);

      chain.walletBalance = 100_000_000n; // the change unlocked, or the wallet funded
      await loopUntil(service, () => Promise.resolve(chain.transactions.length === 3));
      await cycles(service, 3);
      expect(chain.transactions.map((tx) => tx.outputs.length)).toEqual([2, 2, 1]);
      for (const m of miners) expect(await new BalancesRepository(db()).get(m.payeeId, COIN)).toBe(0n);
      // The largest balances first, run by run (the order of outputs within one is the wallet's).
      const paid = chain.transactions.map((tx) =>
        tx.outputs.map((o) => o.amount).sort((a, b) => (a > b ? -1 : 1)),
      );
      const units = (...u: bigint[]): bigint[] => u.map((x) => x * 2_475_000n);
      expect(paid).toEqual([units(5n, 4n), units(3n, 2n), units(1n)]);
      expect((await runs()).every((r) => r.status !== 'intent' && r.status !== 'failed')).toBe(true);
      expect(alerts).toEqual([]);
    } finally {
      await service.stop();
    }
  });

  it('still owes the leftovers a follow-up run after a restart, not a payout interval later', async () => {
    const chain = new MemoryChain(200);
    chain.maxOutputsPerSend = 2;
    const miners = await payees(3, 'restart');
    chain.walletBalance = 5n * 2_475_000n; // the first run (3 and 2 units) only
    const start = () =>
      startAccounting({
        config: parseConfig({}),
        db: db(),
        logger,
        events: new PoolEvents(),
        chains: new Map([[COIN, chain]]),
        cycleMs: 10,
        intentGraceMs: 0,
      });
    const first = await start();
    try {
      await first.runOnce();
      const [run] = await first.runPayouts(COIN);
      expect(run).toMatchObject({ status: 'sent', deferred: 1 });
      await cycles(first, 3); // the wallet cannot fund the follow-up yet
    } finally {
      await first.stop();
    }
    expect(chain.transactions).toHaveLength(1);
    chain.walletBalance = 100_000_000n;
    // A new process: the payout interval (24 h) has not passed since the first run.
    const second = await start();
    try {
      await loopUntil(second, () => Promise.resolve(chain.transactions.length === 2));
      await cycles(second, 3);
      expect(chain.transactions.map((tx) => tx.outputs.length)).toEqual([2, 1]);
      for (const m of miners) expect(await new BalancesRepository(db()).get(m.payeeId, COIN)).toBe(0n);
    } finally {
      await second.stop();
    }
  });
});
