-- 0013_fair_ratings: the PostgreSQL twin of ../0013_fair_ratings.sql, which
-- says what the columns hold.
ALTER TABLE match_seats ADD COLUMN net TEXT;
CREATE INDEX match_seats_net ON match_seats (net, match_id) WHERE net IS NOT NULL;

ALTER TABLE ratings ADD COLUMN ranked INTEGER NOT NULL DEFAULT 1;
CREATE INDEX ratings_ranked ON ratings (rating DESC, account_id) WHERE ranked = 1;
