// A balance above its threshold with no valid payout address is kept, and the warning saying so
// is logged once per payee while that lasts, not on every payout cycle (payouts.ts, skip-notices.ts).
import { pino } from 'pino';
import { expect, it } from 'vitest';
import { parseConfig } from '../config/index.js';
import { PayoutSettingsRepository } from '../db/repositories/payout-settings.js';
import { describeEachDatabase } from '../../test/support/db.js';
import { createUserMiner, insertShare, type MinerFixture } from '../../test/support/accounting/fixtures.js';
import { MemoryChain } from '../../test/support/accounting/memory-chain.js';
import { PoolEvents } from '../events.js';
import { startAccounting } from './index.js';

const COIN = 'BTC';
const WARNING = 'balance above threshold not paid: no valid payout address';

describeEachDatabase('the unpaid-balance warning', (db) => {
  it('is logged once per payee over several payout cycles, and again when the payout address changes', async () => {
    type Line = { msg: string; payeeId?: number; reason?: string; address?: string };
    const lines: Line[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => lines.push(JSON.parse(line) as Line) });
    const chain = new MemoryChain(200);
    chain.walletBalance = 1_000_000_000n;
    const earn = (miner: MinerFixture) =>
      insertShare(db(), COIN, miner, {
        difficulty: 1,
        networkDifficulty: 1000,
        height: 200,
        scheme: 'pps-plus',
        at: new Date(),
      });
    const bad = await createUserMiner(db(), COIN, { threshold: '0.001', payoutAddress: 'not-an-address' });
    const none = await createUserMiner(db(), COIN, { threshold: '0.001' });
    await earn(bad);
    await earn(none);
    const service = await startAccounting({
      config: parseConfig({}),
      db: db(),
      logger,
      events: new PoolEvents(),
      chains: new Map([[COIN, chain]]),
      loop: false,
      intentGraceMs: 0,
    });
    const warned = () =>
      lines.filter((l) => l.msg === WARNING).map((l) => [l.payeeId, l.reason, l.address ?? null]);
    for (let cycle = 0; cycle < 4; cycle++) {
      await service.runOnce();
      expect((await service.runPayouts(COIN))[0]?.status).toBe('nothing-to-pay');
      if (cycle === 1) await earn(bad); // a growing balance is the same situation
    }
    expect(warned()).toEqual([
      [bad.payeeId, 'invalid-address', 'not-an-address'],
      [none.payeeId, 'no-address', null],
    ]);
    // Every skip still counts on /metrics.
    expect(service.metrics().payouts_skipped_invalid_address_total).toBe(8);

    await new PayoutSettingsRepository(db()).setAddress(bad.userId ?? 0, COIN, 'still-not-an-address', null);
    for (let cycle = 0; cycle < 3; cycle++) await service.runPayouts(COIN);
    expect(warned().slice(2)).toEqual([[bad.payeeId, 'invalid-address', 'still-not-an-address']]);
    await service.stop();
  });
});
