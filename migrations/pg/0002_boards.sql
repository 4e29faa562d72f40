-- 0002_boards (PostgreSQL): leaderboard and review indexes, and the count
-- and sum of ratings per game.
--
-- As on SQLite, the second and third leaderboard keys are computed columns
-- (stored here: PostgreSQL computes no virtual columns before version 18).
-- review_stats is kept by the store itself (store_run_finish) rather than
-- by a trigger.
ALTER TABLE runs ADD COLUMN rank_second BIGINT
	GENERATED ALWAYS AS (CASE WHEN game = 'stackfall' THEN lines ELSE rung END) STORED;
ALTER TABLE runs ADD COLUMN rank_third BIGINT
	GENERATED ALWAYS AS (CASE WHEN game = 'stackfall' THEN -pieces ELSE 0 END) STORED;

CREATE INDEX runs_board ON runs (game, seed_chosen, score DESC, rank_second DESC,
	rank_third DESC, id DESC) WHERE over = 1;
CREATE INDEX runs_board_seed ON runs (game, seed, score DESC, rank_second DESC,
	rank_third DESC, id DESC) WHERE over = 1;

CREATE INDEX reviews_recent ON reviews (game, id DESC);

CREATE TABLE review_stats (
	game   TEXT PRIMARY KEY,
	count  BIGINT NOT NULL,
	total  BIGINT NOT NULL
);
INSERT INTO review_stats (game, count, total)
	SELECT game, count(*), sum(rating) FROM reviews GROUP BY game;
