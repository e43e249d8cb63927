-- The miner software each worker last named (mining.subscribe's agent, XMRig's login agent,
-- SV2's SetupConnection vendor/firmware) and the device type it says, recorded by the Stratum
-- process at login. Keyed as the share path keys a worker (shares/types.ts minerRef): the payee
-- key (`<coin>:u:<user id>` or `<coin>:w:<address>`) and the worker name; a login may come before
-- the worker's first share creates its row, so no foreign key.
CREATE TABLE worker_agents (
  payee_key   TEXT NOT NULL,
  worker      TEXT NOT NULL,
  agent       TEXT NOT NULL,
  device_type TEXT CHECK (device_type IN ('asic', 'gpu', 'cpu')),
  seen_at     TIMESTAMPTZ NOT NULL,
  PRIMARY KEY (payee_key, worker)
);

-- A device type the owner chose (Edit Worker) is kept; until then the agent's, else the algorithm's.
ALTER TABLE workers ADD COLUMN type_chosen BOOLEAN NOT NULL DEFAULT false;
