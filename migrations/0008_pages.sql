-- 0008_pages: what the pages for bot authors read (issue 30).
--
-- The leaderboard without ?seed now ranks every ended run, whoever chose
-- its seed (the entry's seed says which), so runs_board loses seed_chosen.
-- A run abandoned by a /new that ended it unfinished is not ranked at all:
-- its score says nothing about the bot, so both board indexes leave it out
-- (the query repeats the index's WHERE, which SQLite needs to use it).
DROP INDEX runs_board;
DROP INDEX runs_board_seed;
CREATE INDEX runs_board ON runs (game, rank1 DESC, rank2 DESC, rank3 DESC, id DESC)
	WHERE over = 1 AND coalesce(end_reason, '') <> 'abandoned';
CREATE INDEX runs_board_seed ON runs (game, seed, rank1 DESC, rank2 DESC, rank3 DESC, id DESC)
	WHERE over = 1 AND coalesce(end_reason, '') <> 'abandoned';

-- The home page lists the lobbies and the matches being played, newest
-- first, one status at a time; finished matches (the many) are not in it.
CREATE INDEX matches_open ON matches (status, created_at DESC, id DESC)
	WHERE status <> 'finished';
