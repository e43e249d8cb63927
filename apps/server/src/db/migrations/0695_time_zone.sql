-- The time zone a miner chose for every time the pool shows them (Settings; null: their browser's)
-- and the browser's own, as the web app last reported it, for what is written without a browser
-- (notification emails and pushes, the assistant, CSV files): chosen, else the browser's, else UTC.
ALTER TABLE user_settings ADD COLUMN time_zone TEXT;
ALTER TABLE user_settings ADD COLUMN browser_time_zone TEXT;
