-- 0013_fair_ratings: ratings that measure play (docs/rules/versus.md,
-- "Ratings"; server/match_play.h, --fair-ratings).
--
-- net is the network a seat's account joined from, as the daemon counts
-- one: "net:" and the client's IPv4 /24 or IPv6 /48, or "local" (NULL for
-- seats taken before this migration, which count as no network). Two
-- networks rate a few matches a day together, and a rating is ranked,
-- shown in the rankings, once its account has played enough rated matches
-- against enough accounts of networks other than its own. ranked is 1 for
-- every rating stored before: those stay in the rankings they were in.
ALTER TABLE match_seats ADD COLUMN net TEXT;
CREATE INDEX match_seats_net ON match_seats (net, match_id) WHERE net IS NOT NULL;

ALTER TABLE ratings ADD COLUMN ranked INTEGER NOT NULL DEFAULT 1;
CREATE INDEX ratings_ranked ON ratings (rating DESC, account_id) WHERE ranked = 1;

-- An account's matches, newest first a page at a time, from an index that
-- reads only the page: each seat keeps its match's creation time.
ALTER TABLE match_seats ADD COLUMN match_created_at INTEGER;
UPDATE match_seats SET match_created_at = (SELECT created_at FROM matches WHERE matches.id = match_seats.match_id);
CREATE INDEX match_seats_recent ON match_seats (account_id, match_created_at DESC, match_id DESC);
