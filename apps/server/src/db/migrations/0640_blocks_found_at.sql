-- A found block's effort reads the time of the pool's previous block of the coin
-- (BlockLifecycleRepository.previousFoundAt): without this index every block planned scanned all
-- of the coin's blocks, so planning a backlog of n blocks took n^2 row reads.
CREATE INDEX IF NOT EXISTS blocks_coin_found_idx ON blocks (coin, found_at);
