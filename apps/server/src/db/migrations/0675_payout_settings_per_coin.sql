-- Issue 27: a payout address and a threshold per (account, coin) for every coin the pool mines,
-- each address with its own pending change and hold (config.accounting.payoutAddressHoldHours).
-- Before this, user_settings held ONE address (and one pending change) for every coin, so saving
-- an LTC address replaced a pending XMR one, and one coin-less threshold ('0.001' | '0.01' | '0.1').
--
-- threshold: base units of `coin` (8 decimals for BTC, LTC, KAS; 12 for XMR); NULL = the pool's
-- default for the coin (config.accounting.payoutThresholds). The range a user may choose is
-- checked by the settings service against that config; here only that it is positive.
CREATE TABLE user_payout_settings (
  user_id              INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  coin                 TEXT NOT NULL,
  address              TEXT,
  pending_address      TEXT,
  pending_effective_at TIMESTAMPTZ,
  threshold            BIGINT CHECK (threshold IS NULL OR threshold > 0),
  updated_at           TIMESTAMPTZ NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, coin),
  CHECK ((pending_address IS NULL) = (pending_effective_at IS NULL))
);
-- Public lookup is by payout address, current or pending (issue 13).
CREATE INDEX user_payout_settings_address_idx ON user_payout_settings (address) WHERE address IS NOT NULL;
CREATE INDEX user_payout_settings_pending_idx ON user_payout_settings (pending_address)
  WHERE pending_address IS NOT NULL;

-- The coin an old address is for. Since 0300 the coin it was validated for at registration or in
-- Settings (isPayableAddress of that coin) was stored beside it; older rows are placed by their
-- format: Kaspa prefixes, Monero's 95/106-letter base58 (network bytes 4/8 mainnet and regtest,
-- 5/7 stagenet, 9/A/B testnet), Litecoin's bech32 prefixes and base58 L/M/Q, then Bitcoin's.
-- Format alone cannot prove an address (no checksum here): payout planning still decodes every
-- address with isPayableAddress of the coin it pays, and skips (and logs) one it cannot pay.
CREATE FUNCTION manjam_0675_coin_of(address TEXT, recorded TEXT) RETURNS TEXT LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE
    WHEN address IS NULL THEN NULL
    WHEN recorded IN ('BTC', 'LTC', 'XMR', 'KAS') THEN recorded
    WHEN address ~ '^kaspa(test|sim|dev)?:' THEN 'KAS'
    WHEN address ~ '^[4-9AB][1-9A-HJ-NP-Za-km-z]{94}([1-9A-HJ-NP-Za-km-z]{11})?$' THEN 'XMR'
    WHEN lower(address) ~ '^(ltc|tltc|rltc)1' OR address ~ '^[LMQ][1-9A-HJ-NP-Za-km-z]{25,40}$' THEN 'LTC'
    WHEN lower(address) ~ '^(bc|tb|bcrt|rb)1' OR address ~ '^[123mn][1-9A-HJ-NP-Za-km-z]{25,40}$' THEN 'BTC'
  END
$$;

-- The old coin-less threshold in base units of a coin.
CREATE FUNCTION manjam_0675_units(threshold TEXT, coin TEXT) RETURNS BIGINT LANGUAGE sql IMMUTABLE AS $$
  SELECT (threshold::numeric * (10::numeric ^ CASE coin WHEN 'XMR' THEN 12 ELSE 8 END))::bigint
$$;

CREATE TEMPORARY TABLE manjam_0675_old AS
SELECT s.user_id, s.payout_threshold, s.payout_address, s.pending_payout_address, s.pending_payout_effective_at,
       manjam_0675_coin_of(s.payout_address, s.payout_coin) AS coin,
       manjam_0675_coin_of(s.pending_payout_address, s.pending_payout_coin) AS pending_coin,
       CASE WHEN u.preferred_coin IN ('BTC', 'LTC', 'XMR', 'KAS') THEN u.preferred_coin END AS preferred,
       u.wallet_address
  FROM user_settings s JOIN users u ON u.id = s.user_id;

-- 1. The address in force goes to its coin.
INSERT INTO user_payout_settings (user_id, coin, address)
SELECT user_id, coin, payout_address FROM manjam_0675_old WHERE coin IS NOT NULL;

-- 2. A pending change goes to ITS coin, with its hold (a change to another coin stays pending:
--    the hold it was given is kept).
INSERT INTO user_payout_settings (user_id, coin, pending_address, pending_effective_at)
SELECT user_id, pending_coin, pending_payout_address, COALESCE(pending_payout_effective_at, now())
  FROM manjam_0675_old WHERE pending_coin IS NOT NULL
ON CONFLICT (user_id, coin) DO UPDATE
  SET pending_address = EXCLUDED.pending_address, pending_effective_at = EXCLUDED.pending_effective_at;

-- 3. An account without a payout address was paid to its registration wallet address (the old
--    fallback, which payouts no longer read): that address becomes its preferred coin's.
INSERT INTO user_payout_settings (user_id, coin, address)
SELECT user_id, manjam_0675_coin_of(wallet_address, preferred), wallet_address
  FROM manjam_0675_old
 WHERE payout_address IS NULL AND wallet_address IS NOT NULL
   AND manjam_0675_coin_of(wallet_address, preferred) IS NOT NULL
ON CONFLICT (user_id, coin) DO UPDATE
  SET address = COALESCE(user_payout_settings.address, EXCLUDED.address);

-- 4. The old threshold goes to the coin of the address (else of the pending one, else the
--    preferred coin), in that coin's base units.
INSERT INTO user_payout_settings (user_id, coin, threshold)
SELECT user_id, target, manjam_0675_units(payout_threshold, target)
  FROM (SELECT user_id, payout_threshold,
               COALESCE(coin, pending_coin, manjam_0675_coin_of(wallet_address, preferred), preferred) AS target
          FROM manjam_0675_old) t
 WHERE target IS NOT NULL
ON CONFLICT (user_id, coin) DO UPDATE SET threshold = EXCLUDED.threshold;

DROP TABLE manjam_0675_old;
DROP FUNCTION manjam_0675_units(TEXT, TEXT);
DROP FUNCTION manjam_0675_coin_of(TEXT, TEXT);

-- The address in force per (account, coin): a pending change takes effect once its hold passed.
DROP VIEW user_payout_addresses;
CREATE VIEW user_payout_addresses AS
SELECT user_id, coin,
       CASE WHEN pending_address IS NOT NULL AND pending_effective_at <= now()
            THEN pending_address ELSE address END AS address,
       threshold
  FROM user_payout_settings;

-- Nothing reads the single address, its coin and the coin-less threshold any more.
DROP INDEX user_settings_payout_address_idx;
DROP INDEX user_settings_pending_payout_address_idx;
ALTER TABLE user_settings
  DROP COLUMN payout_address,
  DROP COLUMN payout_coin,
  DROP COLUMN pending_payout_address,
  DROP COLUMN pending_payout_coin,
  DROP COLUMN pending_payout_effective_at,
  DROP COLUMN payout_threshold;
