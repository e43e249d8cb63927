-- Alert webhook URLs sealed at rest: a Telegram/Discord bot URL carries the bot's secret token, so
-- a dump or backup of user_webhooks must not hold it in clear. From now on `url` holds the
-- SecretBox form ("v1:" + AES-256-GCM, services/auth/secret-box.ts) and `url_mac` the SecretBox
-- MAC of the URL: the ciphertext is randomized, so "the same URL as before" (which keeps the last
-- outcome on a save) is told by the MAC. The key is not in the database, so this migration cannot
-- seal the rows written before it: the alerts loop seals them in place (services/alerts/webhook.ts,
-- sealLegacyWebhooks); until then such a row has a plaintext url (never starting with "v1:": a
-- webhook URL starts with https:// or http://) and a NULL url_mac.
ALTER TABLE user_webhooks ADD COLUMN url_mac TEXT;
-- The rows still to seal, found without reading the table each alerts pass.
CREATE INDEX user_webhooks_unsealed_idx ON user_webhooks (user_id) WHERE url NOT LIKE 'v1:%';
