-- Each coin's pool wallet balance as accounting last read it (spendable, base units), so the
-- operator console shows it from any process; a failed read leaves the last one and its time.
CREATE TABLE pool_wallet_balances (
  coin     TEXT PRIMARY KEY,
  balance  BIGINT NOT NULL,
  read_at  TIMESTAMPTZ NOT NULL
);
