// The operator console's pool wallets: per live coin, the wallet balance accounting last recorded
// (accounting/wallet-balance.ts; the wallet is read where it runs, this may be another process),
// what the pool owes, and what the next payout run would pay, by the run's own rule (payout-plan.ts
// planPayouts over PayoutsRepository.payableBalances), so "covered" means the run can be funded.
import type { OperatorWallets } from '@manjam/contract';
import { planPayouts } from '../../accounting/payout-plan.js';
import { COIN_IDS } from '../../config/constants.js';
import type { Config } from '../../config/index.js';
import { payoutThresholdBounds } from '../../config/payout-thresholds.js';
import type { Database } from '../../db/index.js';
import { PayoutsRepository } from '../../db/repositories/payouts.js';
import { PoolWalletsRepository } from '../../db/repositories/pool-wallets.js';

export async function poolWallets(db: Database, config: Config, nowMs: number): Promise<OperatorWallets> {
  const now = new Date(nowMs);
  const wallets = new PoolWalletsRepository(db);
  const payouts = new PayoutsRepository(db);
  const [readings, owed] = await Promise.all([wallets.readings(), wallets.owedByCoin()]);
  const intervalMs = config.accounting.payoutIntervalHours * 3_600_000;
  const coins = COIN_IDS.filter((coin) => config.chains[coin].enabled);
  const rows = [];
  for (const coin of coins) {
    const reading = readings.find((r) => r.coin === coin);
    // Every payee the next run would pay; a wallet that limits its outputs per transaction pays
    // the rest in follow-up runs right after, so the whole sum is what the wallet must hold.
    const { payouts: planned } = planPayouts(
      await payouts.payableBalances(coin),
      { coin, network: config.chains[coin].network },
      payoutThresholdBounds(config.accounting.payoutThresholds, coin).default,
      now,
    );
    const nextRunAmount = planned.reduce((sum, p) => sum + p.amount, 0n);
    const lastRun = await payouts.lastRunAt(coin);
    const shortBy = reading && reading.balance < nextRunAmount ? nextRunAmount - reading.balance : 0n;
    rows.push({
      coin,
      balance: reading ? reading.balance.toString() : null,
      readAt: reading ? reading.readAt.toISOString() : null,
      owed: (owed.get(coin) ?? 0n).toString(),
      nextRunAmount: nextRunAmount.toString(),
      nextRunPayees: planned.length,
      nextRunAt: lastRun ? new Date(lastRun.getTime() + intervalMs).toISOString() : null,
      covered: reading ? reading.balance >= nextRunAmount : null,
      shortBy: shortBy.toString(),
    });
  }
  return { asOf: now.toISOString(), wallets: rows };
}
