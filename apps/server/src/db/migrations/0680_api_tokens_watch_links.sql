-- Issue 27, monitoring: read-only API tokens and watcher links, both per account.
--
-- api_tokens: a token is `mj_ro_` + 43 base64url characters (32 random bytes); only the sha256 of
-- the whole token is kept, and its first characters (`prefix`) so the owner can tell tokens apart.
-- A token reads the account's own data on the GET routes marked readable (docs/API.md); it never
-- writes. Revoked or expired rows stay (revoked_at / expires_at) so the list keeps its history.
CREATE TABLE api_tokens (
  id            SERIAL PRIMARY KEY,
  user_id       INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  name          TEXT NOT NULL,
  prefix        TEXT NOT NULL,
  token_hash    TEXT NOT NULL UNIQUE,
  created_at    TIMESTAMPTZ NOT NULL,
  expires_at    TIMESTAMPTZ,
  last_used_at  TIMESTAMPTZ,
  revoked_at    TIMESTAMPTZ
);
CREATE INDEX api_tokens_user ON api_tokens (user_id);

-- watch_links: a public read-only link /watch/<token> showing the chosen coins and pages of one
-- account. The token is looked up by its sha256; the token itself is kept encrypted (the
-- server's secret box) so the owner can copy the link again from Settings.
CREATE TABLE watch_links (
  id              SERIAL PRIMARY KEY,
  user_id         INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  label           TEXT NOT NULL,
  token_hash      TEXT NOT NULL UNIQUE,
  token_sealed    TEXT NOT NULL,
  -- Comma-separated, checked against the contract's lists by the service (e.g. 'BTC,LTC').
  coins           TEXT NOT NULL CHECK (coins <> ''),
  pages           TEXT NOT NULL CHECK (pages <> ''),
  created_at      TIMESTAMPTZ NOT NULL,
  expires_at      TIMESTAMPTZ,
  last_viewed_at  TIMESTAMPTZ,
  revoked_at      TIMESTAMPTZ
);
CREATE INDEX watch_links_user ON watch_links (user_id);
