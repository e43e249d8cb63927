-- Slot rows (issue 17): the share log's consumer stores the accepted shares of one worker in one
-- short slot (10 s), with one share difficulty, network difficulty, height and scheme, as ONE row
-- of `share_count` identical shares, stamped with the slot's last share time. Every reader of
-- `shares` weighs a row by its count, so accounting, PPLNS windows and the web read one table
-- whichever path wrote it; the local writer still writes rows of one share (the default).
ALTER TABLE shares ADD COLUMN share_count INTEGER NOT NULL DEFAULT 1 CHECK (share_count > 0);
