-- 0003_games (PostgreSQL): runs of any game on the game table. The CHECK
-- naming two games goes, and each game writes its own leaderboard keys
-- (rank1..rank3, higher is better) with every head change. PostgreSQL
-- drops a constraint and a column in place: no rebuild as on SQLite.
ALTER TABLE runs DROP CONSTRAINT runs_game_check;
ALTER TABLE runs ADD COLUMN rank1 BIGINT NOT NULL DEFAULT 0;
ALTER TABLE runs ADD COLUMN rank2 BIGINT NOT NULL DEFAULT 0;
ALTER TABLE runs ADD COLUMN rank3 BIGINT NOT NULL DEFAULT 0;
UPDATE runs SET rank1 = score,
	rank2 = CASE WHEN game = 'stackfall' THEN coalesce(lines, 0) ELSE coalesce(rung, 0) END,
	rank3 = CASE WHEN game = 'stackfall' THEN -coalesce(pieces, 0) ELSE 0 END;
DROP INDEX runs_board;
DROP INDEX runs_board_seed;
ALTER TABLE runs DROP COLUMN rank_second;
ALTER TABLE runs DROP COLUMN rank_third;
CREATE INDEX runs_board ON runs (game, seed_chosen, rank1 DESC, rank2 DESC, rank3 DESC, id DESC)
	WHERE over = 1;
CREATE INDEX runs_board_seed ON runs (game, seed, rank1 DESC, rank2 DESC, rank3 DESC, id DESC)
	WHERE over = 1;
