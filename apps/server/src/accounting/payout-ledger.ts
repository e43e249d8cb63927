// Ledger side of a payout run that sent nothing: fail it (with the reason a miner reads) and give
// the balances back as `refund` entries. A refund is not earned again: earnings figures and daily
// settlements leave it out (db/repositories/ledger.ts, EARNING_REASONS).
import type { PayoutFailure } from '@manjam/contract';
import type { Database, Queryable } from '../db/index.js';
import { LedgerRepository, type LedgerEntryInput } from '../db/repositories/ledger.js';
import { PayoutsRepository, type PayoutRow } from '../db/repositories/payouts.js';

/**
 * Gives back the debits of a run that sent nothing (inside a transaction). The reference keeps its
 * historical prefix (`payout-reversal:`) so a refund written before the `refund` reason existed is
 * never written a second time.
 */
export async function refundRunDebits(tx: Queryable, payouts: readonly PayoutRow[]): Promise<void> {
  const entries: LedgerEntryInput[] = payouts.map((p) => ({
    payeeId: p.payeeId,
    coin: p.coin,
    amount: p.amount,
    reason: 'refund',
    reference: `payout-reversal:${p.id}`,
    payoutId: p.id,
  }));
  await new LedgerRepository(tx).append(entries);
}

/**
 * Fails an intent run and gives its payees their balances back, in one transaction. `failure` is
 * what the payouts screen says; `error` the operator's detail (kept on the run, never shown to miners).
 */
export async function failRun(
  db: Database,
  runId: bigint,
  failure: PayoutFailure,
  error: string,
  from: 'intent' | 'sent' = 'intent',
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const repo = new PayoutsRepository(tx);
    if (!(await repo.markFailed(runId, failure, error, from))) return false;
    await refundRunDebits(tx, await repo.payoutsOfRun(runId));
    return true;
  });
}
