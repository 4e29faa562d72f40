-- 0006_matches (PostgreSQL): versus matches, their seats, their turns and
-- the players' ratings (migrations/0006_matches.sql has the why). A turn
-- is resolved by one UPDATE whose WHERE on turn and status is the
-- compare-and-set, on PostgreSQL as on SQLite: whichever daemon's writer
-- gets there first resolves it, the other finds nothing to update.

CREATE TABLE matches (
	id           BIGINT PRIMARY KEY,
	rules        TEXT NOT NULL,
	status       TEXT NOT NULL CHECK (status IN ('lobby', 'playing', 'finished')),
	players      INTEGER NOT NULL CHECK (players BETWEEN 2 AND 8),
	joined       INTEGER NOT NULL,
	turn_seconds INTEGER NOT NULL,
	turn_cap     INTEGER NOT NULL,
	seed         BIGINT NOT NULL,
	seed_chosen  INTEGER NOT NULL,
	rated        INTEGER NOT NULL,
	turn         INTEGER NOT NULL DEFAULT 0,
	state        BYTEA,
	pending      BYTEA,
	totals       BYTEA,
	last_turn    TEXT,
	deadline_at  BIGINT,
	end_reason   TEXT,
	created_by   BIGINT NOT NULL REFERENCES accounts(id),
	created_at   BIGINT NOT NULL,
	started_at   BIGINT,
	finished_at  BIGINT,
	certificate  TEXT
);
CREATE INDEX matches_playing ON matches (deadline_at) WHERE status = 'playing';

CREATE TABLE match_seats (
	match_id       BIGINT NOT NULL REFERENCES matches(id),
	seat           INTEGER NOT NULL,
	account_id     BIGINT NOT NULL REFERENCES accounts(id),
	joined_at      BIGINT NOT NULL,
	place          INTEGER,
	score          BIGINT,
	lines_sent     BIGINT,
	lines_received BIGINT,
	rating_before  DOUBLE PRECISION,
	rating_after   DOUBLE PRECISION,
	PRIMARY KEY (match_id, seat),
	UNIQUE (match_id, account_id)
);
CREATE INDEX match_seats_account ON match_seats (account_id, match_id);

CREATE TABLE match_turns (
	match_id   BIGINT NOT NULL REFERENCES matches(id),
	turn       INTEGER NOT NULL,
	moves      TEXT NOT NULL,
	created_at BIGINT NOT NULL,
	PRIMARY KEY (match_id, turn)
);

CREATE TABLE ratings (
	account_id BIGINT PRIMARY KEY REFERENCES accounts(id),
	rating     DOUBLE PRECISION NOT NULL,
	rd         DOUBLE PRECISION NOT NULL,
	volatility DOUBLE PRECISION NOT NULL,
	matches    INTEGER NOT NULL,
	updated_at BIGINT NOT NULL
);
CREATE INDEX ratings_order ON ratings (rating DESC, account_id);
