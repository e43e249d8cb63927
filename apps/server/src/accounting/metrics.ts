// Counters an operator reads (exported through AccountingService.metrics()).
export const ACCOUNTING_COUNTERS = [
  'cycles_total',
  /** Bounded slices run (slices.ts): share batches, block plan and track pages. */
  'slices_total',
  'cycle_errors_total',
  'shares_credited_total',
  'shares_unvaluable_total',
  'pps_credited_base_units',
  'blocks_planned_total',
  'blocks_confirmed_total',
  'blocks_orphaned_total',
  'blocks_held_total',
  'blocks_reinstated_total',
  'block_credits_reversed_total',
  'settlement_rows_written_total',
  'payout_runs_total',
  'payout_runs_sent_total',
  'payouts_sent_total',
  'payout_base_units_sent',
  'payout_runs_failed_total',
  'payout_insufficient_funds_total',
  'payout_runs_reconciled_total',
  'payout_runs_unknown_outcome_total',
  'payouts_skipped_invalid_address_total',
  'payout_transactions_conflicted_total',
  'balance_mismatches',
] as const;
export type AccountingCounter = (typeof ACCOUNTING_COUNTERS)[number];

export class AccountingMetrics {
  private readonly values = new Map<AccountingCounter, number>(ACCOUNTING_COUNTERS.map((name) => [name, 0]));

  inc(name: AccountingCounter, by: number | bigint = 1): void {
    this.values.set(name, (this.values.get(name) ?? 0) + Number(by));
  }

  set(name: AccountingCounter, value: number): void {
    this.values.set(name, value);
  }

  snapshot(): Record<string, number> {
    return Object.fromEntries(this.values);
  }
}
