-- 0012_account_summary (PostgreSQL): the summary an account's page reads,
-- filled from the runs already stored (migrations/0012_account_summary.sql
-- has the why).
CREATE TABLE account_games (
	account_id BIGINT NOT NULL,
	game       TEXT NOT NULL,
	nruns      BIGINT NOT NULL,
	PRIMARY KEY (account_id, game)
);

CREATE TABLE account_seeds (
	account_id BIGINT NOT NULL,
	game       TEXT NOT NULL,
	seed       BIGINT NOT NULL,
	best_id    BIGINT NOT NULL,
	rank1      BIGINT NOT NULL,
	rank2      BIGINT NOT NULL,
	rank3      BIGINT NOT NULL,
	nruns      BIGINT NOT NULL,
	PRIMARY KEY (account_id, game, seed)
);
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
