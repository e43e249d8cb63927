-- Which payees belong to a user: the account payee of each coin, plus the wallet payee of the
-- wallet address the user registered (a miner who mines to their own address instead of
-- `username.worker` is the same person). Every screen and service reads this one view;
-- `address` is the wallet payee's address (its workers log in as `address.worker`), NULL for account payees.
CREATE VIEW user_payees AS
  SELECT p.user_id, p.id AS payee_id, p.coin, NULL::text AS address FROM payees p WHERE p.kind = 'user'
  UNION ALL
  SELECT u.id, p.id, p.coin, p.address FROM payees p JOIN users u ON u.wallet_address = p.address WHERE p.kind = 'wallet';

-- Its wallet side uses payees_wallet_address_idx (migration 0403).
