-- Browser push (VAPID): the subscriptions a user's browsers gave, and each alert's push delivery.
CREATE TABLE push_subscriptions (
  id         BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id    INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  endpoint   TEXT NOT NULL UNIQUE,          -- the push service URL of one browser
  p256dh     TEXT NOT NULL,                 -- the browser's public key (base64url)
  auth       TEXT NOT NULL,                 -- the browser's auth secret (base64url)
  created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX push_subscriptions_user_idx ON push_subscriptions (user_id);

-- 'pending' for alerts shown in the app (notifications on); a pass marks them 'sent' before pushing
-- (at most once: a browser notification is a courtesy, the in-app list is the record).
ALTER TABLE alerts ADD COLUMN push_status TEXT NOT NULL DEFAULT 'skipped' CHECK (push_status IN ('pending', 'sent', 'skipped'));
CREATE INDEX alerts_push_pending_idx ON alerts (id) WHERE push_status = 'pending';
