-- Exactly-once share persistence: every flush of the share writer carries a batch id written in
-- the same transaction as its shares. A flush retried after an unknown outcome (the connection
-- dropped around COMMIT) finds its id and is skipped. Old ids are pruned by the writer.
CREATE TABLE share_batches (
  id         TEXT PRIMARY KEY,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX share_batches_created_idx ON share_batches (created_at);
