-- 0006_matches: versus matches between bots (docs/rules/versus.md), their
-- seats, their turns, and the players' Glicko-2 ratings.
--
-- A match's row holds everything a turn needs: the engine's state
-- (versus_encode), the moves sent so far for the coming turn, the lines
-- each player sent and received, and the deadline. A turn reads the row
-- once and writes it once, with `WHERE turn = ? AND status = ?` as the
-- compare-and-set: however moves and deadlines race, exactly one writer
-- resolves each turn. match_turns keeps every turn's moves for the replay
-- and is only read back when a match ends or its replay is asked for.

CREATE TABLE matches (
	id           INTEGER PRIMARY KEY,            -- random, public as match_id
	rules        TEXT NOT NULL,
	status       TEXT NOT NULL CHECK (status IN ('lobby', 'playing', 'finished')),
	players      INTEGER NOT NULL CHECK (players BETWEEN 2 AND 8), -- seats
	joined       INTEGER NOT NULL,               -- seats taken: the lobby's compare-and-set
	turn_seconds INTEGER NOT NULL,
	turn_cap     INTEGER NOT NULL,               -- turns after which the match ends
	seed         INTEGER NOT NULL,
	seed_chosen  INTEGER NOT NULL,               -- 1: the creator chose the seed
	rated        INTEGER NOT NULL,
	turn         INTEGER NOT NULL DEFAULT 0,     -- turns resolved
	state        BLOB,                           -- versus_encode(); NULL in the lobby
	pending      BLOB,                           -- moves sent for turn + 1, 4 bytes a seat
	totals       BLOB,                           -- lines sent and received, 8 bytes a seat
	last_turn    TEXT,                           -- the last resolved turn's public events (JSON)
	deadline_at  INTEGER,                        -- ms: when turn + 1 resolves without the moves missing
	end_reason   TEXT,                           -- last_standing, all_out or turn_cap
	created_by   INTEGER NOT NULL REFERENCES accounts(id),
	created_at   INTEGER NOT NULL,
	started_at   INTEGER,
	finished_at  INTEGER,
	certificate  TEXT
);
-- The deadlines to arm again when the daemon starts.
CREATE INDEX matches_playing ON matches (deadline_at) WHERE status = 'playing';

CREATE TABLE match_seats (
	match_id       INTEGER NOT NULL REFERENCES matches(id),
	seat           INTEGER NOT NULL,             -- 0 .. players - 1, in joining order
	account_id     INTEGER NOT NULL REFERENCES accounts(id),
	joined_at      INTEGER NOT NULL,
	place          INTEGER,                      -- the results, once finished
	score          INTEGER,
	lines_sent     INTEGER,
	lines_received INTEGER,
	rating_before  REAL,                         -- rated matches
	rating_after   REAL,
	PRIMARY KEY (match_id, seat),
	UNIQUE (match_id, account_id)
) WITHOUT ROWID;
CREATE INDEX match_seats_account ON match_seats (account_id, match_id);

CREATE TABLE match_turns (
	match_id   INTEGER NOT NULL REFERENCES matches(id),
	turn       INTEGER NOT NULL,                 -- 1, 2, ...
	moves      TEXT NOT NULL,                    -- JSON array, one canonical move a seat
	created_at INTEGER NOT NULL,
	PRIMARY KEY (match_id, turn)
) WITHOUT ROWID;

CREATE TABLE ratings (
	account_id INTEGER PRIMARY KEY REFERENCES accounts(id),
	rating     REAL NOT NULL,
	rd         REAL NOT NULL,
	volatility REAL NOT NULL,
	matches    INTEGER NOT NULL,                 -- rated matches played
	updated_at INTEGER NOT NULL
);
CREATE INDEX ratings_order ON ratings (rating DESC, account_id);
