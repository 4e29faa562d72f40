-- 0008_pages (PostgreSQL): the leaderboards rank every ended run but the
-- abandoned ones, and the open matches get an index for the home page
-- (migrations/0008_pages.sql has the why).
DROP INDEX runs_board;
DROP INDEX runs_board_seed;
CREATE INDEX runs_board ON runs (game, rank1 DESC, rank2 DESC, rank3 DESC, id DESC)
	WHERE over = 1 AND coalesce(end_reason, '') <> 'abandoned';
CREATE INDEX runs_board_seed ON runs (game, seed, rank1 DESC, rank2 DESC, rank3 DESC, id DESC)
	WHERE over = 1 AND coalesce(end_reason, '') <> 'abandoned';
CREATE INDEX matches_open ON matches (status, created_at DESC, id DESC)
	WHERE status <> 'finished';
