-- Issue 27 ("Monitoring a miner expects"): per-worker alert thresholds, webhook delivery of alerts,
-- and single-use 2FA recovery codes.

-- Alert thresholds. NULL = inherit: a worker's NULL takes the account default, an account's NULL
-- takes the pool's config (alerts.offlineMinutes, alerts.hashrateDropPercent). The range a miner
-- may choose is checked by the service against config (alerts.workerThresholds); here only sanity.
ALTER TABLE user_settings ADD COLUMN alert_offline_minutes INTEGER CHECK (alert_offline_minutes > 0);
ALTER TABLE user_settings ADD COLUMN alert_drop_percent INTEGER CHECK (alert_drop_percent BETWEEN 1 AND 99);
ALTER TABLE workers ADD COLUMN alert_offline_minutes INTEGER CHECK (alert_offline_minutes > 0);
ALTER TABLE workers ADD COLUMN alert_drop_percent INTEGER CHECK (alert_drop_percent BETWEEN 1 AND 99);
-- The owner turned this worker's alerts off (no offline, recovered or hashrate-drop alerts).
ALTER TABLE workers ADD COLUMN alerts_off BOOLEAN NOT NULL DEFAULT FALSE;

-- One webhook per account (Telegram/Discord-style bot URL); its last outcome is shown in Settings.
CREATE TABLE user_webhooks (
  user_id           INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  url               TEXT NOT NULL,
  last_delivered_at TIMESTAMPTZ,
  last_error        TEXT,
  last_error_at     TIMESTAMPTZ,
  updated_at        TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- Webhook delivery is an outbox on the alerts rows, like email: 'pending' rows are claimed (each
-- claim is an attempt and leases the row until webhook_next_at), retried with backoff until
-- alerts.webhook.maxAttempts, then 'failed'. A restart resumes from these columns.
ALTER TABLE alerts ADD COLUMN webhook_status TEXT NOT NULL DEFAULT 'skipped'
  CHECK (webhook_status IN ('pending', 'sent', 'skipped', 'failed'));
ALTER TABLE alerts ADD COLUMN webhook_attempts INTEGER NOT NULL DEFAULT 0;
ALTER TABLE alerts ADD COLUMN webhook_next_at TIMESTAMPTZ;
ALTER TABLE alerts ADD COLUMN webhook_error TEXT;
CREATE INDEX alerts_webhook_pending_idx ON alerts (webhook_next_at) WHERE webhook_status = 'pending';

-- 2FA recovery codes: sha256 of each code (a code carries 80 random bits, so a plain hash is not
-- open to guessing offline); used_at set when a sign-in spent it. Regenerating deletes the old set.
CREATE TABLE user_recovery_codes (
  id         BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id    INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  code_hash  TEXT NOT NULL,
  used_at    TIMESTAMPTZ,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  UNIQUE (user_id, code_hash)
);
