-- Issue 25 item 5: no enumeration, no lockout by strangers.
-- The per-account lock (users.failed_logins / locked_until) let anyone who knew an email keep
-- its owner out; it is replaced by throttles keyed by the guessing source (client address or
-- known device) and by the account email for unknown devices. A key is the sha256 of
-- "kind:value", so the addresses and emails strangers type are not stored in the clear.
CREATE TABLE sign_in_throttle (
  key             TEXT PRIMARY KEY,
  failures        INTEGER NOT NULL,
  blocked_until   TIMESTAMPTZ,
  last_failure_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX sign_in_throttle_last_failure ON sign_in_throttle (last_failure_at);

ALTER TABLE users DROP COLUMN failed_logins;
ALTER TABLE users DROP COLUMN locked_until;

-- A registration waiting for its email to be confirmed (only when the pool sends email). The
-- account is created from this row when the link is followed; until then nothing about the
-- address is taken, so registering a known and an unknown email answers alike.
CREATE TABLE pending_registrations (
  id             BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  token_hash     TEXT NOT NULL UNIQUE,
  username       TEXT NOT NULL,
  email          TEXT NOT NULL,
  password_hash  TEXT NOT NULL,
  wallet_address TEXT,
  preferred_coin TEXT NOT NULL,
  language       TEXT NOT NULL,
  expires_at     TIMESTAMPTZ NOT NULL
);
CREATE INDEX pending_registrations_expires ON pending_registrations (expires_at);
