// Which payees' "balance above threshold not paid: no valid payout address" warnings were already
// logged: each payee once while its situation lasts (payouts.ts planRun), not on every cycle.
// The situation is the reason and the address; a payee no longer in a coin's skipped list (paid,
// or under its threshold again) is forgotten, so a later skip is logged again. What is kept
// mirrors the coin's payees skipped in the last plan (replaced on every plan, never grown), so it
// is bounded by the balances the plan itself reads. Per process: a restart logs each one again.
import type { CoinId } from '../config/constants.js';
import type { SkippedPayee } from './payout-plan.js';

const situationOf = (skip: SkippedPayee): string => `${skip.reason}:${skip.address ?? ''}`;

export class SkipNotices {
  private readonly logged = new Map<CoinId, Map<number, string>>();

  /**
   * The skips of one coin's latest plan not logged yet in the same situation; remembers the
   * plan's skips as logged and forgets the coin's payees not in it.
   */
  fresh(coin: CoinId, skips: readonly SkippedPayee[]): SkippedPayee[] {
    const before = this.logged.get(coin);
    const now = new Map<number, string>();
    const fresh: SkippedPayee[] = [];
    for (const skip of skips) {
      const situation = situationOf(skip);
      if (before?.get(skip.payeeId) !== situation) fresh.push(skip);
      now.set(skip.payeeId, situation);
    }
    if (now.size === 0) this.logged.delete(coin);
    else this.logged.set(coin, now);
    return fresh;
  }
}
