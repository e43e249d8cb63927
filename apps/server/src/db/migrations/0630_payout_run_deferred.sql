-- Payees a run left for follow-up runs (one wallet transaction's output limit, Monero: 15).
-- Read at start-up, so a restart does not make the leftovers wait a whole payout interval.
ALTER TABLE payout_runs ADD COLUMN deferred integer NOT NULL DEFAULT 0;
