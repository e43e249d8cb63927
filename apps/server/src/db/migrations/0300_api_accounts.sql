-- API (issue 5): the coin a payout address is for, and the address accounting should pay.
ALTER TABLE user_settings ADD COLUMN payout_coin TEXT;
ALTER TABLE user_settings ADD COLUMN pending_payout_coin TEXT;

-- The payout address in force for each user: a pending change takes effect once its hold
-- (config.accounting.payoutAddressHoldHours) has passed.
CREATE VIEW user_payout_addresses AS
SELECT user_id,
       CASE WHEN pending_payout_address IS NOT NULL AND pending_payout_effective_at <= now()
            THEN pending_payout_address ELSE payout_address END AS address,
       CASE WHEN pending_payout_address IS NOT NULL AND pending_payout_effective_at <= now()
            THEN pending_payout_coin ELSE payout_coin END AS coin,
       payout_threshold
  FROM user_settings;

CREATE INDEX payouts_txid_idx ON payouts (txid);
CREATE INDEX sessions_expiry_idx ON sessions (expires_at);
