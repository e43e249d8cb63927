-- Edit Worker could relabel a worker's algorithm (issue 27: rig1 shown as Ethash while it mined
-- SHA-256d). A worker's algorithm is its port's: put back the one its coin is mined with, as
-- Stratum writes it when it stores the worker. The update no longer takes an algorithm.
UPDATE workers SET algorithm = CASE coin
    WHEN 'BTC' THEN 'sha256d'
    WHEN 'LTC' THEN 'scrypt'
    WHEN 'XMR' THEN 'randomx'
    ELSE algorithm
  END;
