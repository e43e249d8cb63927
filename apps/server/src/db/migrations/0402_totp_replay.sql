-- The TOTP time step (unix seconds / 30) of the last code accepted for the account: a code is
-- accepted once (RFC 6238 section 5.2), so a code seen by someone else cannot be replayed within
-- its 30 s window (nor an older one within the one-step drift allowance).
ALTER TABLE users ADD COLUMN totp_last_step BIGINT;
