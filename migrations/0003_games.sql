-- 0003_games: runs of any game on the game table.
--
-- The runs table named its two games in a CHECK and ordered leaderboards by
-- columns computed per game in SQL. Each game now writes its own leaderboard
-- keys with every head change (rank1, rank2, rank3: most significant first,
-- higher is better), so the schema names no game. SQLite cannot drop a
-- CHECK in place: the table is rebuilt. Renaming a parent table repoints
-- its children's foreign keys at the new name, so runs is renamed away,
-- rebuilt, and moves and reviews are rebuilt to reference the new runs
-- before the old one goes; no foreign key dangles at any point.

ALTER TABLE runs RENAME TO runs_0002;

CREATE TABLE runs (
	id             INTEGER PRIMARY KEY,           -- random, public as runId
	game           TEXT NOT NULL,                 -- a name on the game table
	rules          TEXT NOT NULL,
	account_id     INTEGER REFERENCES accounts(id),
	seed           INTEGER NOT NULL,
	seed_chosen    INTEGER NOT NULL,              -- 1: the client chose the seed
	status         TEXT NOT NULL,                 -- the game's own word
	over           INTEGER NOT NULL DEFAULT 0,    -- 1 once the game has ended
	end_reason     TEXT,
	step           INTEGER NOT NULL DEFAULT 0,
	state          BLOB NOT NULL,
	last_from_step INTEGER,
	last_request   BLOB,
	score          INTEGER NOT NULL DEFAULT 0,
	lines          INTEGER,                       -- NULL where the game has no such figure
	pieces         INTEGER,
	rung           INTEGER,
	lives          INTEGER,
	rank1          INTEGER NOT NULL DEFAULT 0,    -- leaderboard keys, higher is better
	rank2          INTEGER NOT NULL DEFAULT 0,
	rank3          INTEGER NOT NULL DEFAULT 0,
	created_at     INTEGER NOT NULL,
	ended_at       INTEGER,
	finished_at    INTEGER,
	certificate    TEXT
);

-- The keys the two games of 0002 ranked by: Stackfall score, lines, fewer
-- pieces; Duskcourt score, rung.
INSERT INTO runs (id, game, rules, account_id, seed, seed_chosen, status, over, end_reason, step,
	state, last_from_step, last_request, score, lines, pieces, rung, lives, rank1, rank2, rank3,
	created_at, ended_at, finished_at, certificate)
SELECT id, game, rules, account_id, seed, seed_chosen, status, over, end_reason, step,
	state, last_from_step, last_request, score, lines, pieces, rung, lives,
	score,
	CASE WHEN game = 'stackfall' THEN coalesce(lines, 0) ELSE coalesce(rung, 0) END,
	CASE WHEN game = 'stackfall' THEN -coalesce(pieces, 0) ELSE 0 END,
	created_at, ended_at, finished_at, certificate
FROM runs_0002;

ALTER TABLE moves RENAME TO moves_0002;
CREATE TABLE moves (
	run_id     INTEGER NOT NULL REFERENCES runs(id),
	step       INTEGER NOT NULL,
	action     TEXT NOT NULL,                     -- canonical JSON
	created_at INTEGER NOT NULL,
	PRIMARY KEY (run_id, step)
) WITHOUT ROWID;
INSERT INTO moves (run_id, step, action, created_at)
	SELECT run_id, step, action, created_at FROM moves_0002;
DROP TABLE moves_0002;

DROP TRIGGER reviews_stats;
ALTER TABLE reviews RENAME TO reviews_0002;
CREATE TABLE reviews (
	id         INTEGER PRIMARY KEY,
	run_id     INTEGER NOT NULL UNIQUE REFERENCES runs(id),
	game       TEXT NOT NULL,
	account_id INTEGER REFERENCES accounts(id),
	rating     INTEGER NOT NULL CHECK (rating BETWEEN 1 AND 10),
	review     TEXT NOT NULL,
	created_at INTEGER NOT NULL
);
INSERT INTO reviews (id, run_id, game, account_id, rating, review, created_at)
	SELECT id, run_id, game, account_id, rating, review, created_at FROM reviews_0002;
DROP TABLE reviews_0002;
CREATE INDEX reviews_recent ON reviews (game, id DESC);
CREATE TRIGGER reviews_stats AFTER INSERT ON reviews BEGIN
	INSERT INTO review_stats (game, count, total) VALUES (NEW.game, 1, NEW.rating)
		ON CONFLICT (game) DO UPDATE SET count = count + 1, total = total + NEW.rating;
END;

DROP TABLE runs_0002;

CREATE INDEX runs_account ON runs (account_id, game, created_at);
-- Without ?seed: runs whose seed the server chose.
CREATE INDEX runs_board ON runs (game, seed_chosen, rank1 DESC, rank2 DESC, rank3 DESC, id DESC)
	WHERE over = 1;
-- With ?seed: every finished run on that seed.
CREATE INDEX runs_board_seed ON runs (game, seed, rank1 DESC, rank2 DESC, rank3 DESC, id DESC)
	WHERE over = 1;
