-- 0002_boards: what leaderboards and review pages read, kept fast on a
-- database of millions of runs.
--
-- Leaderboards order finished runs by score, then by a second key (Stackfall
-- lines, Duskcourt rung), then by a third (Stackfall: fewer pieces), then by
-- id. The second and third keys are virtual generated columns, "higher is
-- better" for both games, so one index shape serves both and a page cursor
-- is a plain row-value comparison.
ALTER TABLE runs ADD COLUMN rank_second INTEGER
	AS (CASE WHEN game = 'stackfall' THEN lines ELSE rung END) VIRTUAL;
ALTER TABLE runs ADD COLUMN rank_third INTEGER
	AS (CASE WHEN game = 'stackfall' THEN -pieces ELSE 0 END) VIRTUAL;

-- Without ?seed: runs whose seed the server chose.
CREATE INDEX runs_board ON runs (game, seed_chosen, score DESC, rank_second DESC,
	rank_third DESC, id DESC) WHERE over = 1;
-- With ?seed: every finished run on that seed.
CREATE INDEX runs_board_seed ON runs (game, seed, score DESC, rank_second DESC,
	rank_third DESC, id DESC) WHERE over = 1;

-- Reviews, newest first, per game.
CREATE INDEX reviews_recent ON reviews (game, id DESC);

-- The count and sum of ratings per game, kept by a trigger so that the
-- average costs one row read.
CREATE TABLE review_stats (
	game   TEXT PRIMARY KEY,
	count  INTEGER NOT NULL,
	total  INTEGER NOT NULL
) WITHOUT ROWID;
INSERT INTO review_stats (game, count, total)
	SELECT game, count(*), sum(rating) FROM reviews GROUP BY game;
CREATE TRIGGER reviews_stats AFTER INSERT ON reviews BEGIN
	INSERT INTO review_stats (game, count, total) VALUES (NEW.game, 1, NEW.rating)
		ON CONFLICT (game) DO UPDATE SET count = count + 1, total = total + NEW.rating;
END;
