-- 0012_account_summary: an account's page from a summary the store keeps
-- (issue 42), instead of reading and ranking every run the account has.
--
-- account_games holds, per account and game, the number of its runs (every
-- run, whatever its status: what the page's "runs" counts). account_seeds
-- holds, per account, game and seed, the seed's best ranked run (ended and
-- not abandoned, as the leaderboards rank: rank1, rank2, rank3 higher is
-- better, then the larger id) with its keys, and how many ranked runs the
-- seed has. The store writes both in the transaction that inserts, ends or
-- deletes the run (store_summary.c); account_seeds_best hands the page its
-- top seeds in order and stops after one page.
--
-- Both start from the runs already stored.
CREATE TABLE account_games (
	account_id INTEGER NOT NULL,
	game       TEXT NOT NULL,
	nruns      INTEGER NOT NULL,                 -- runs of the game, any status
	PRIMARY KEY (account_id, game)
) WITHOUT ROWID;

CREATE TABLE account_seeds (
	account_id INTEGER NOT NULL,
	game       TEXT NOT NULL,
	seed       INTEGER NOT NULL,
	best_id    INTEGER NOT NULL,                 -- the seed's best ranked run
	rank1      INTEGER NOT NULL,                 -- its leaderboard keys
	rank2      INTEGER NOT NULL,
	rank3      INTEGER NOT NULL,
	nruns      INTEGER NOT NULL,                 -- ranked runs on the seed, at least 1
	PRIMARY KEY (account_id, game, seed)
) WITHOUT ROWID;
CREATE INDEX account_seeds_best ON account_seeds (account_id, game, rank1 DESC, rank2 DESC,
	rank3 DESC, best_id DESC);

INSERT INTO account_games (account_id, game, nruns)
SELECT account_id, game, count(*) FROM runs WHERE account_id IS NOT NULL GROUP BY account_id, game;

INSERT INTO account_seeds (account_id, game, seed, best_id, rank1, rank2, rank3, nruns)
SELECT account_id, game, seed, id, rank1, rank2, rank3, nruns FROM (
	SELECT account_id, game, seed, id, rank1, rank2, rank3, count(*) OVER w AS nruns,
		row_number() OVER (w ORDER BY rank1 DESC, rank2 DESC, rank3 DESC, id DESC) AS k
	FROM runs WHERE account_id IS NOT NULL AND over = 1 AND coalesce(end_reason, '') <> 'abandoned'
	WINDOW w AS (PARTITION BY account_id, game, seed)) AS ranked
WHERE k = 1;
