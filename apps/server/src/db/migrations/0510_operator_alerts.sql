-- Conditions the operator must act on: a payout run stuck in 'intent' or 'sent', a wallet that
-- cannot fund a run, a sent payout the wallet no longer shows, an accounting step failing cycle
-- after cycle. At most one open row per key; a row is cleared (cleared_at) when its condition
-- passes. /api/health reports open rows as degraded and /metrics counts them.
CREATE TABLE operator_alerts (
  id BIGSERIAL PRIMARY KEY,
  key TEXT NOT NULL,
  kind TEXT NOT NULL,
  coin TEXT,
  message TEXT NOT NULL,
  raised_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  cleared_at TIMESTAMPTZ
);
CREATE UNIQUE INDEX operator_alerts_open_key ON operator_alerts (key) WHERE cleared_at IS NULL;
