-- Public lookup is by payout address (issue 13): find accounts by their payout address, current
-- or pending, without scanning every user's settings.
CREATE INDEX user_settings_payout_address_idx ON user_settings (payout_address) WHERE payout_address IS NOT NULL;
CREATE INDEX user_settings_pending_payout_address_idx ON user_settings (pending_payout_address) WHERE pending_payout_address IS NOT NULL;
CREATE INDEX payees_wallet_address_idx ON payees (address) WHERE kind = 'wallet';
