-- 0013_fair_ratings: the PostgreSQL twin of ../0013_fair_ratings.sql, which
-- says what the columns hold.
ALTER TABLE match_seats ADD COLUMN net TEXT;
CREATE INDEX match_seats_net ON match_seats (net, match_id) WHERE net IS NOT NULL;

ALTER TABLE ratings ADD COLUMN ranked INTEGER NOT NULL DEFAULT 1;
CREATE INDEX ratings_ranked ON ratings (rating DESC, account_id) WHERE ranked = 1;

-- An account's matches, newest first a page at a time, from an index that
-- reads only the page: each seat keeps its match's creation time.
ALTER TABLE match_seats ADD COLUMN match_created_at BIGINT;
UPDATE match_seats SET match_created_at = (SELECT created_at FROM matches WHERE matches.id = match_seats.match_id);
CREATE INDEX match_seats_recent ON match_seats (account_id, match_created_at DESC, match_id DESC);
