-- Issue 25: a Stratum login no longer writes a worker row (anyone may log in as "bob.<anything>");
-- a row is written with the worker's first accepted share. Rows that logins (or rejected shares)
-- wrote before are collected here: a worker that never had an accepted share has earned nothing,
-- and its reject counts and alert state go with it (ON DELETE CASCADE). A block row keeps its
-- finder payee (finder_worker_id is SET NULL), though a found block always comes with a share.
DELETE FROM workers WHERE accepted_shares = 0;
