-- Issue 27: money figures that agree and say their age.
--
-- 1. A refund is not a reversal. Until now the balance given back by a failed payout run was
--    written with reason 'reversal', like the take-back of an orphaned block's credit, and every
--    earnings figure (24 h earnings, today so far, daily settlements) counted it as earned. From
--    here on it is 'refund', which no earnings figure sums. Existing refunds are told apart from
--    orphan reversals by their columns: a refund names the payout it gives back (payout_id, and its
--    reference is 'payout-reversal:<payout id>'), an orphan reversal names its block (block_id,
--    reference 'reversal:block:...'). Re-labelling the reason is the only change to these rows:
--    amounts and references stay, so balances and idempotency are untouched.
ALTER TABLE ledger_entries DROP CONSTRAINT ledger_entries_reason_check;
ALTER TABLE ledger_entries ADD CONSTRAINT ledger_entries_reason_check
  CHECK (reason IN ('pps', 'pplns', 'solo', 'fee', 'payout', 'reversal', 'refund', 'adjustment'));

-- 2. Daily settlement rows that counted a refund must be settled again. Which day a refund fell in
--    depends on accounting.settlementHourUtc, a setting this script cannot read, so the refunds'
--    payees and moments are queued here and the settlement step (accounting/settlement.ts,
--    settleQueued), which knows the hour, recomputes those days' amounts on its next cycle and
--    empties the queue. Anything that later corrects a settled day can queue it the same way.
CREATE TABLE settlement_redo (
  payee_id      INTEGER NOT NULL REFERENCES payees(id),
  coin          TEXT NOT NULL,
  at            TIMESTAMPTZ NOT NULL,
  PRIMARY KEY (payee_id, coin, at)
);
INSERT INTO settlement_redo (payee_id, coin, at)
  SELECT DISTINCT payee_id, coin, created_at FROM ledger_entries
   WHERE reason = 'reversal' AND payout_id IS NOT NULL AND block_id IS NULL
  ON CONFLICT DO NOTHING;
UPDATE ledger_entries SET reason = 'refund'
 WHERE reason = 'reversal' AND payout_id IS NOT NULL AND block_id IS NULL;

-- 3. Why a failed run sent nothing, in words a miner can be shown (the contract's PAYOUT_FAILURES);
--    `error` keeps the operator's detail. Past failed runs are classified from that detail, as
--    payouts.ts / reconcile.ts / settle-run.ts worded it.
ALTER TABLE payout_runs ADD COLUMN failure TEXT
  CHECK (failure IN ('wallet-short', 'wallet-refused', 'not-sent', 'cancelled'));
UPDATE payout_runs SET failure = CASE
    WHEN error ~* '(insufficient funds|not enough funds|not enough (unlocked )?money)' THEN 'wallet-short'
    WHEN error LIKE 'interrupted before sending%' THEN 'not-sent'
    WHEN error LIKE 'settled by the operator%' THEN 'cancelled'
    ELSE 'wallet-refused'
  END
 WHERE status = 'failed';

-- 4. How far each coin's shares are credited: written by the accounting cycle after each credits
--    step (accounting/credits.ts, creditAndRecord); the money screens show it ("credited up to
--    14:05") and say when it falls behind.
CREATE TABLE credit_progress (
  coin             TEXT PRIMARY KEY,
  credited_through TIMESTAMPTZ NOT NULL,
  updated_at       TIMESTAMPTZ NOT NULL DEFAULT now()
);
