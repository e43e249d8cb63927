// Ledger side of a payout run that sent nothing: fail it and give the balances back.
import type { Database, Queryable } from '../db/index.js';
import { LedgerRepository, type LedgerEntryInput } from '../db/repositories/ledger.js';
import { PayoutsRepository, type PayoutRow } from '../db/repositories/payouts.js';

/** Reverses the debits of a run that sent nothing (inside a transaction). */
export async function reverseRunDebits(tx: Queryable, payouts: readonly PayoutRow[]): Promise<void> {
  const entries: LedgerEntryInput[] = payouts.map((p) => ({
    payeeId: p.payeeId,
    coin: p.coin,
    amount: p.amount,
    reason: 'reversal',
    reference: `payout-reversal:${p.id}`,
    payoutId: p.id,
  }));
  await new LedgerRepository(tx).append(entries);
}

/** Fails an intent run and gives its payees their balances back, in one transaction. */
export async function failRun(db: Database, runId: bigint, error: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const repo = new PayoutsRepository(tx);
    if (!(await repo.markFailed(runId, error))) return false;
    await reverseRunDebits(tx, await repo.payoutsOfRun(runId));
    return true;
  });
}
