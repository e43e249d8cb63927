-- The operator console (issue 30). `is_operator`: the account may use /api/operator/* and the
-- web app's /operator screen; granted and revoked only from the CLI (`manjam operator grant|revoke
-- <email>`), never over HTTP. `totp_passed`: the session was opened with the password AND a TOTP
-- code (the account had 2FA on at sign-in); the console takes only such sessions, so turning 2FA
-- on in a session opened without it does not open the console until the next full sign-in.
ALTER TABLE users ADD COLUMN is_operator BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE sessions ADD COLUMN totp_passed BOOLEAN NOT NULL DEFAULT false;

-- The console's audit log: every operator action (who, what, when, from where), shown in the
-- console. Rows are only added; `target` names what was acted on (alert key, run id and outcome,
-- banned address).
CREATE TABLE operator_actions (
  id BIGSERIAL PRIMARY KEY,
  user_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
  email TEXT NOT NULL,
  ip TEXT NOT NULL,
  action TEXT NOT NULL,
  target TEXT NOT NULL,
  at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX operator_actions_at_idx ON operator_actions (at DESC, id DESC);
