-- Alerts (issue 7): delivery bookkeeping on the base `alerts` table and the per-worker state that
-- debounces offline / recovered / hashrate-drop alerts across restarts.

-- Shown in the web app's notification list (false when the user turned notifications off; the row
-- still exists so that the dedupe key keeps the alert from being raised again).
ALTER TABLE alerts ADD COLUMN in_app BOOLEAN NOT NULL DEFAULT TRUE;
-- Email delivery: attempts so far, when a sender claimed the row (a crashed sender's claim expires),
-- and the last error.
ALTER TABLE alerts ADD COLUMN email_attempts INTEGER NOT NULL DEFAULT 0;
ALTER TABLE alerts ADD COLUMN email_claimed_at TIMESTAMPTZ;
ALTER TABLE alerts ADD COLUMN email_error TEXT;
CREATE INDEX alerts_email_pending_idx ON alerts (id) WHERE email_status = 'pending';
CREATE INDEX alerts_unread_idx ON alerts (user_id, id DESC) WHERE in_app AND read_at IS NULL;

CREATE TABLE worker_alert_state (
  worker_id     INTEGER PRIMARY KEY REFERENCES workers(id) ON DELETE CASCADE,
  -- online: no open alert; offline: an offline alert was sent; recovering: shares again, not yet
  -- long enough to call it recovered (a drop now is the same outage, no new alert).
  status        TEXT NOT NULL CHECK (status IN ('online', 'offline', 'recovering')),
  offline_alert_id BIGINT REFERENCES alerts(id) ON DELETE SET NULL,
  offline_since TIMESTAMPTZ,                 -- the last accepted share before the outage
  back_since    TIMESTAMPTZ,                 -- first time the alerts loop saw it sharing again
  hashrate_low_since TIMESTAMPTZ,            -- an open hashrate-drop episode
  updated_at    TIMESTAMPTZ NOT NULL DEFAULT now()
);
