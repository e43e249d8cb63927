-- Manjam's base schema. Money is BIGINT base units (satoshis, litoshis); never floating point.
-- Difficulties and hashrates are DOUBLE PRECISION: they are measurements, not money.

CREATE TABLE users (
  id            INTEGER GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  username      TEXT NOT NULL,
  email         TEXT NOT NULL,
  password_hash TEXT NOT NULL,
  wallet_address TEXT,
  preferred_coin TEXT NOT NULL DEFAULT 'BTC',
  totp_secret   TEXT,               -- encrypted at rest
  totp_enabled  BOOLEAN NOT NULL DEFAULT FALSE,
  failed_logins INTEGER NOT NULL DEFAULT 0,
  locked_until  TIMESTAMPTZ,
  created_at    TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX users_username_key ON users (lower(username));
CREATE UNIQUE INDEX users_email_key ON users (lower(email));

CREATE TABLE sessions (
  id           BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id      INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  token_hash   TEXT NOT NULL UNIQUE, -- sha256 of the bearer token; the token itself is never stored
  created_at   TIMESTAMPTZ NOT NULL DEFAULT now(),
  expires_at   TIMESTAMPTZ NOT NULL,
  last_seen_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  revoked_at   TIMESTAMPTZ,
  ip           TEXT,
  user_agent   TEXT
);
CREATE INDEX sessions_user_idx ON sessions (user_id);

CREATE TABLE user_settings (
  user_id        INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  dark_mode      BOOLEAN NOT NULL DEFAULT TRUE,
  show_balance   BOOLEAN NOT NULL DEFAULT TRUE,
  show_hashrate  BOOLEAN NOT NULL DEFAULT TRUE,
  theme          TEXT NOT NULL DEFAULT 'dark' CHECK (theme IN ('dark', 'light', 'system')),
  language       TEXT NOT NULL DEFAULT 'en' CHECK (language IN ('en', 'ar')),
  notifications  BOOLEAN NOT NULL DEFAULT TRUE,
  email_alerts   BOOLEAN NOT NULL DEFAULT FALSE,
  auto_logout    BOOLEAN NOT NULL DEFAULT TRUE,
  payout_threshold TEXT NOT NULL DEFAULT '0.01' CHECK (payout_threshold IN ('0.001', '0.01', '0.1')),
  payout_address TEXT,
  pending_payout_address TEXT,
  pending_payout_effective_at TIMESTAMPTZ,
  rig_token_encrypted TEXT,
  updated_at     TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- A payee earns and is paid: a user's account for one coin, a wallet address mining without
-- an account, or the pool itself (fees).
CREATE TABLE payees (
  id         INTEGER GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  coin       TEXT NOT NULL,
  kind       TEXT NOT NULL CHECK (kind IN ('user', 'wallet', 'pool')),
  user_id    INTEGER REFERENCES users(id) ON DELETE SET NULL,
  address    TEXT,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  CHECK ((kind = 'user') = (user_id IS NOT NULL)),
  CHECK (kind <> 'wallet' OR address IS NOT NULL)
);
CREATE UNIQUE INDEX payees_user_key ON payees (coin, user_id) WHERE kind = 'user';
CREATE UNIQUE INDEX payees_wallet_key ON payees (coin, address) WHERE kind = 'wallet';
CREATE UNIQUE INDEX payees_pool_key ON payees (coin) WHERE kind = 'pool';

-- Devices a user declares in the web app.
CREATE TABLE miners (
  id          INTEGER GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id     INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  name        TEXT NOT NULL,
  type        TEXT NOT NULL CHECK (type IN ('asic', 'gpu', 'cpu')),
  algorithm   TEXT NOT NULL,
  worker_name TEXT NOT NULL,
  created_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
  updated_at  TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX miners_user_idx ON miners (user_id);

-- Live Stratum identities: "<account or wallet>.<worker>" on one coin. Created on first share.
CREATE TABLE workers (
  id             INTEGER GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  payee_id       INTEGER NOT NULL REFERENCES payees(id) ON DELETE CASCADE,
  coin           TEXT NOT NULL,
  name           TEXT NOT NULL,              -- the part after the dot ('default' when none)
  display_name   TEXT,                       -- a rename from the web app
  type           TEXT NOT NULL DEFAULT 'asic' CHECK (type IN ('asic', 'gpu', 'cpu')),
  algorithm      TEXT NOT NULL,
  first_seen_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
  last_share_at  TIMESTAMPTZ,
  last_connected_at TIMESTAMPTZ,
  accepted_shares BIGINT NOT NULL DEFAULT 0,
  rejected_shares BIGINT NOT NULL DEFAULT 0,
  stale_shares   BIGINT NOT NULL DEFAULT 0,
  best_difficulty DOUBLE PRECISION NOT NULL DEFAULT 0,
  hidden_at      TIMESTAMPTZ                  -- deleted from the web app; reappears on a new share
);
CREATE UNIQUE INDEX workers_identity_key ON workers (payee_id, name);

-- Accepted shares, one row each, kept for the PPLNS window and the connection test
-- (pruned by age). Long-range charts read share_stats.
CREATE TABLE shares (
  id            BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  worker_id     INTEGER NOT NULL REFERENCES workers(id) ON DELETE CASCADE,
  payee_id      INTEGER NOT NULL REFERENCES payees(id) ON DELETE CASCADE,
  coin          TEXT NOT NULL,
  difficulty    DOUBLE PRECISION NOT NULL,   -- share difficulty in the algorithm's Stratum unit
  network_difficulty DOUBLE PRECISION NOT NULL, -- same unit, when the share was found
  height        INTEGER NOT NULL,            -- height of the block the share worked on
  scheme        TEXT NOT NULL CHECK (scheme IN ('pps-plus', 'pplns', 'solo')),
  created_at    TIMESTAMPTZ NOT NULL,
  credited      BOOLEAN NOT NULL DEFAULT FALSE -- PPS part credited to the ledger
);
CREATE INDEX shares_coin_time_idx ON shares (coin, created_at);
CREATE INDEX shares_worker_time_idx ON shares (worker_id, created_at);
CREATE INDEX shares_uncredited_idx ON shares (coin, id) WHERE NOT credited;

-- Per worker, per minute: the aggregate behind hashrate windows and charts.
CREATE TABLE share_stats (
  worker_id     INTEGER NOT NULL REFERENCES workers(id) ON DELETE CASCADE,
  bucket        TIMESTAMPTZ NOT NULL,        -- start of the minute
  accepted      INTEGER NOT NULL DEFAULT 0,
  accepted_difficulty DOUBLE PRECISION NOT NULL DEFAULT 0,
  stale         INTEGER NOT NULL DEFAULT 0,
  duplicate     INTEGER NOT NULL DEFAULT 0,
  low_difficulty INTEGER NOT NULL DEFAULT 0,
  invalid       INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (worker_id, bucket)
);
CREATE INDEX share_stats_bucket_idx ON share_stats (bucket);

CREATE TABLE chain_tips (
  coin          TEXT PRIMARY KEY,
  height        INTEGER NOT NULL,
  hash          TEXT NOT NULL,
  network_difficulty DOUBLE PRECISION NOT NULL,
  updated_at    TIMESTAMPTZ NOT NULL DEFAULT now()
);

CREATE TABLE blocks (
  id            INTEGER GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  coin          TEXT NOT NULL,
  height        INTEGER NOT NULL,
  hash          TEXT NOT NULL UNIQUE,
  finder_worker_id INTEGER REFERENCES workers(id) ON DELETE SET NULL,
  finder_payee_id  INTEGER REFERENCES payees(id) ON DELETE SET NULL,
  scheme        TEXT NOT NULL CHECK (scheme IN ('pps-plus', 'pplns', 'solo')),
  reward        BIGINT NOT NULL,              -- coinbase value: subsidy + fees
  subsidy       BIGINT NOT NULL,
  fees          BIGINT NOT NULL,
  network_difficulty DOUBLE PRECISION NOT NULL,
  share_difficulty DOUBLE PRECISION NOT NULL,
  effort        DOUBLE PRECISION,             -- shares' expected hashes since the last block / block's
  status        TEXT NOT NULL CHECK (status IN ('submitted', 'rejected', 'pending', 'confirmed', 'orphaned')),
  submit_result TEXT,
  confirmations INTEGER NOT NULL DEFAULT 0,
  credited      BOOLEAN NOT NULL DEFAULT FALSE, -- block-based credits (PPLNS fees, SOLO) written
  found_at      TIMESTAMPTZ NOT NULL DEFAULT now(),
  confirmed_at  TIMESTAMPTZ,
  orphaned_at   TIMESTAMPTZ
);
CREATE INDEX blocks_coin_height_idx ON blocks (coin, height DESC);
CREATE INDEX blocks_status_idx ON blocks (status);

-- Immutable ledger: every credit and debit with its reason. Balances derive from it.
CREATE TABLE ledger_entries (
  id            BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  payee_id      INTEGER NOT NULL REFERENCES payees(id),
  coin          TEXT NOT NULL,
  amount        BIGINT NOT NULL,              -- signed base units
  reason        TEXT NOT NULL CHECK (reason IN ('pps', 'pplns', 'solo', 'fee', 'payout', 'reversal', 'adjustment')),
  block_id      INTEGER REFERENCES blocks(id),
  payout_id     BIGINT,
  reference     TEXT NOT NULL UNIQUE,         -- idempotency key: the same credit is never written twice
  created_at    TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX ledger_payee_idx ON ledger_entries (payee_id, coin, created_at);
CREATE INDEX ledger_block_idx ON ledger_entries (block_id);

-- Cached balance; a check proves it equals the ledger sum.
CREATE TABLE balances (
  payee_id      INTEGER NOT NULL REFERENCES payees(id),
  coin          TEXT NOT NULL,
  amount        BIGINT NOT NULL DEFAULT 0,
  updated_at    TIMESTAMPTZ NOT NULL DEFAULT now(),
  PRIMARY KEY (payee_id, coin)
);

CREATE TABLE payout_runs (
  id            BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  coin          TEXT NOT NULL,
  status        TEXT NOT NULL CHECK (status IN ('intent', 'sent', 'recorded', 'failed')),
  comment       TEXT NOT NULL UNIQUE,         -- written into the wallet tx, found again on reconcile
  txid          TEXT,
  error         TEXT,
  created_at    TIMESTAMPTZ NOT NULL DEFAULT now(),
  sent_at       TIMESTAMPTZ
);

CREATE TABLE payouts (
  id            BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  run_id        BIGINT NOT NULL REFERENCES payout_runs(id),
  payee_id      INTEGER NOT NULL REFERENCES payees(id),
  coin          TEXT NOT NULL,
  address       TEXT NOT NULL,
  amount        BIGINT NOT NULL CHECK (amount > 0),
  status        TEXT NOT NULL CHECK (status IN ('pending', 'sent', 'confirmed', 'failed')),
  txid          TEXT,
  confirmations INTEGER NOT NULL DEFAULT 0,
  created_at    TIMESTAMPTZ NOT NULL DEFAULT now(),
  sent_at       TIMESTAMPTZ,
  confirmed_at  TIMESTAMPTZ
);
CREATE INDEX payouts_payee_idx ON payouts (payee_id, created_at DESC);

-- Daily settlement rows: the Revenue screen's Rewards tab.
CREATE TABLE settlements (
  id            BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  payee_id      INTEGER NOT NULL REFERENCES payees(id),
  coin          TEXT NOT NULL,
  day           DATE NOT NULL,
  avg_hashrate  DOUBLE PRECISION NOT NULL,
  amount        BIGINT NOT NULL,
  network_difficulty DOUBLE PRECISION NOT NULL,
  scheme        TEXT NOT NULL,
  created_at    TIMESTAMPTZ NOT NULL DEFAULT now(),
  UNIQUE (payee_id, coin, day)
);

CREATE TABLE alerts (
  id            BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id       INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  kind          TEXT NOT NULL,               -- worker-offline, worker-recovered, hashrate-drop, block-found, payout-sent
  worker_id     INTEGER REFERENCES workers(id) ON DELETE CASCADE,
  dedupe_key    TEXT NOT NULL UNIQUE,        -- an alert is sent once
  payload       JSONB NOT NULL DEFAULT '{}',
  email_status  TEXT NOT NULL DEFAULT 'pending' CHECK (email_status IN ('pending', 'sent', 'skipped', 'failed')),
  email_sent_at TIMESTAMPTZ,
  read_at       TIMESTAMPTZ,
  created_at    TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX alerts_user_idx ON alerts (user_id, created_at DESC);
