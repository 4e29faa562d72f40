-- 0011_realtime (PostgreSQL): a match's clock and the inputs of a
-- real-time match (migrations/0011_realtime.sql has the why).
ALTER TABLE matches ADD COLUMN clock TEXT NOT NULL DEFAULT 'turns';

CREATE TABLE match_inputs (
	match_id BIGINT NOT NULL REFERENCES matches(id),
	seq      INTEGER NOT NULL,
	tick     INTEGER NOT NULL,
	seat     INTEGER NOT NULL,
	input    TEXT NOT NULL,
	PRIMARY KEY (match_id, seq)
);
