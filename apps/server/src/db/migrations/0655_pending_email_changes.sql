-- An email change waits for the new address to be confirmed (issue 25: the change no longer tells a
-- signed-in account whether another account has that email). Only the sha256 of the link's token is kept.
CREATE TABLE pending_email_changes (
  token_hash  TEXT PRIMARY KEY,
  user_id     INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  new_email   TEXT NOT NULL,
  expires_at  TIMESTAMPTZ NOT NULL
);
CREATE INDEX pending_email_changes_expires ON pending_email_changes (expires_at);
