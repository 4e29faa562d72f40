-- 0001_init: accounts and their agent keys, runs with their moves, reviews,
-- and agent-check puzzles. Times are milliseconds since the Unix epoch.

CREATE TABLE accounts (
	id         INTEGER PRIMARY KEY,
	name       TEXT NOT NULL UNIQUE COLLATE NOCASE, -- 3-32 of [A-Za-z0-9_-]
	created_at INTEGER NOT NULL
);

-- An agent key is stored only as a keyed BLAKE2b hash; `id` is the public
-- part printed inside the key itself, used to list and revoke it.
CREATE TABLE agent_keys (
	id         TEXT PRIMARY KEY,
	account_id INTEGER NOT NULL REFERENCES accounts(id),
	hash       BLOB NOT NULL,
	created_at INTEGER NOT NULL,
	revoked_at INTEGER
);
CREATE INDEX agent_keys_account ON agent_keys(account_id);

-- One row per run; `step` and `state` are the run's head (the number of
-- moves applied and the engine state after them). The head only moves by a
-- compare-and-set on `step`. `last_from_step` and `last_request` describe
-- the request that made the newest step, so that its retry is recognised.
CREATE TABLE runs (
	id             INTEGER PRIMARY KEY,           -- random, public as runId
	game           TEXT NOT NULL CHECK (game IN ('stackfall', 'duskcourt')),
	rules          TEXT NOT NULL,
	account_id     INTEGER REFERENCES accounts(id),
	seed           INTEGER NOT NULL,
	seed_chosen    INTEGER NOT NULL,              -- 1: the client chose the seed
	status         TEXT NOT NULL,                 -- game-specific, e.g. playing/over or playing/break/done
	over           INTEGER NOT NULL DEFAULT 0,    -- 1 once the game has ended
	end_reason     TEXT,
	step           INTEGER NOT NULL DEFAULT 0,
	state          BLOB NOT NULL,
	last_from_step INTEGER,
	last_request   BLOB,
	score          INTEGER NOT NULL DEFAULT 0,
	lines          INTEGER,                       -- Stackfall
	pieces         INTEGER,                       -- Stackfall
	rung           INTEGER,                       -- Duskcourt
	lives          INTEGER,                       -- Duskcourt
	created_at     INTEGER NOT NULL,
	ended_at       INTEGER,
	finished_at    INTEGER,                       -- set by finish, with the review
	certificate    TEXT                           -- the signed result certificate
);
CREATE INDEX runs_account ON runs(account_id, game, created_at);

-- The actions of a run in order; step 1 is the first move.
CREATE TABLE moves (
	run_id     INTEGER NOT NULL REFERENCES runs(id),
	step       INTEGER NOT NULL,
	action     TEXT NOT NULL,                     -- canonical JSON
	created_at INTEGER NOT NULL,
	PRIMARY KEY (run_id, step)
) WITHOUT ROWID;

-- A review per finished run; id grows with every review, so it orders them
-- from oldest to newest exactly.
CREATE TABLE reviews (
	id         INTEGER PRIMARY KEY,
	run_id     INTEGER NOT NULL UNIQUE REFERENCES runs(id),
	game       TEXT NOT NULL,
	account_id INTEGER REFERENCES accounts(id),
	rating     INTEGER NOT NULL CHECK (rating BETWEEN 1 AND 10),
	review     TEXT NOT NULL,
	created_at INTEGER NOT NULL
);

-- A puzzle lives until it is presented once or expires.
CREATE TABLE agent_checks (
	token      TEXT PRIMARY KEY,
	answer     INTEGER NOT NULL,
	expires_at INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX agent_checks_expiry ON agent_checks(expires_at);

-- /readyz writes this one row to prove that the database takes writes.
CREATE TABLE store_probe (
	id INTEGER PRIMARY KEY,
	at INTEGER NOT NULL
);
