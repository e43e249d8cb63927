-- Accounting state beside the base schema.

-- PPS credits accumulate below one base unit (fixed point, 1/2^32 of a satoshi/litoshi): the
-- fraction a payee has earned but not yet been credited is carried here so that small miners
-- lose nothing between batches. The pool payee's row carries the pool-fee fraction.
CREATE TABLE pps_carry (
  payee_id   INTEGER NOT NULL REFERENCES payees(id),
  coin       TEXT NOT NULL,
  fraction   BIGINT NOT NULL DEFAULT 0 CHECK (fraction >= 0 AND fraction < 4294967296),
  updated_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  PRIMARY KEY (payee_id, coin)
);

-- The split of a found block (PPLNS window, PPS+ fees, SOLO), fixed when the block is first seen
-- pending (while its shares are still kept) and written to the ledger when the block matures.
CREATE TABLE block_credit_plans (
  block_id   INTEGER NOT NULL REFERENCES blocks(id),
  label      TEXT NOT NULL,                 -- 'payee:<id>', 'fee' or 'remainder'
  payee_id   INTEGER NOT NULL REFERENCES payees(id),
  reason     TEXT NOT NULL CHECK (reason IN ('pplns', 'solo', 'fee')),
  amount     BIGINT NOT NULL CHECK (amount >= 0),
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  PRIMARY KEY (block_id, label)
);

-- Blocks whose split has been planned (a block may plan to nobody: all to the pool).
ALTER TABLE blocks ADD COLUMN planned_at TIMESTAMPTZ;
-- Block-based credits reversed after the block left the main chain.
ALTER TABLE blocks ADD COLUMN reversed_at TIMESTAMPTZ;

CREATE INDEX ledger_coin_time_idx ON ledger_entries (coin, created_at);
CREATE INDEX payout_runs_status_idx ON payout_runs (coin, status);
CREATE INDEX payouts_run_idx ON payouts (run_id);
