// Accounting records each coin's pool wallet balance (once a minute, on its cycle) for the operator console; a
// wallet that does not answer records nothing new and the cycle's other steps still run.
import { pino } from 'pino';
import { expect, it } from 'vitest';
import { parseConfig } from '../config/index.js';
import { BalancesRepository } from '../db/repositories/balances.js';
import { PoolWalletsRepository } from '../db/repositories/pool-wallets.js';
import { PoolEvents } from '../events.js';
import { createWalletMiner, insertShare, regtestAddress } from '../../test/support/accounting/fixtures.js';
import { MemoryChain } from '../../test/support/accounting/memory-chain.js';
import { describeEachDatabase } from '../../test/support/db.js';
import { startAccounting } from './index.js';

const COIN = 'BTC';

/** A wallet whose balance call fails while `down` is set (the node's RPC refused or timed out). */
class FlakyWallet extends MemoryChain {
  down = false;
  asked = 0;
  override getWalletBalance(): Promise<bigint> {
    this.asked++;
    return this.down ? Promise.reject(new Error('wallet RPC timed out')) : super.getWalletBalance();
  }
}

describeEachDatabase('pool wallet balances recorded by accounting', (db) => {
  it('records the balance once a minute with its time, and keeps the last reading while the wallet fails as the cycle goes on', async () => {
    const chain = new FlakyWallet(200);
    const clock = { now: new Date('2026-12-07T03:00:00.000Z') };
    const accounting = await startAccounting({
      config: parseConfig({}),
      db: db(),
      logger: pino({ level: 'silent' }),
      events: new PoolEvents(),
      chains: new Map([[COIN, chain]]),
      loop: false,
      now: () => clock.now,
    });
    const readings = async () =>
      (await new PoolWalletsRepository(db()).readings()).filter((r) => r.coin === COIN);
    try {
      chain.walletBalance = 7_000_000n;
      await accounting.runOnce();
      expect(await readings()).toEqual([{ coin: COIN, balance: 7_000_000n, readAt: clock.now }]);
      const firstRead = clock.now;
      // Within the minute the wallet is not asked again.
      clock.now = new Date('2026-12-07T03:00:10.000Z');
      await accounting.runOnce();
      expect(chain.asked).toBe(1);

      // The wallet stops answering; a share arrives: it is still credited this cycle.
      chain.down = true;
      chain.walletBalance = 1n;
      clock.now = new Date('2026-12-07T03:01:00.000Z');
      const miner = await createWalletMiner(db(), COIN, regtestAddress('flaky-wallet'));
      await insertShare(db(), COIN, miner, {
        difficulty: 1,
        networkDifficulty: 1000,
        height: 200,
        scheme: 'pps-plus',
        at: new Date('2026-12-07T03:00:30.000Z'),
      });
      const cycles = accounting.metrics().cycles_total ?? 0;
      await accounting.runOnce();
      expect(await readings()).toEqual([{ coin: COIN, balance: 7_000_000n, readAt: firstRead }]);
      expect(accounting.metrics().cycles_total).toBe(cycles + 1);
      expect(await new BalancesRepository(db()).get(miner.payeeId, COIN)).toBeGreaterThan(0n);

      // Back: the next cycle records the new balance and its time.
      chain.down = false;
      clock.now = new Date('2026-12-07T03:02:00.000Z');
      await accounting.runOnce();
      expect(await readings()).toEqual([{ coin: COIN, balance: 1n, readAt: clock.now }]);
    } finally {
      await accounting.stop();
    }
  });
});
