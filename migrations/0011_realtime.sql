-- 0011_realtime: matches played in real time, on a ruleset's tick clock
-- (docs/rules/actionblocks.md, "Real time").
--
-- clock is 'turns' for every match the turn by turn pipeline plays (all of
-- them before this migration) and 'ticks' for a real-time one. A
-- real-time match's row holds its state at the start and at the end; in
-- between the match lives in the daemon's memory and match_inputs keeps
-- every input it applied, in order (seq 0, 1, ...), each with its tick
-- and seat and the ruleset's canonical text of it: the seed, the options
-- and these rows are the whole match (its replay). A key request is
-- answered only once the rows of its keys have committed.
ALTER TABLE matches ADD COLUMN clock TEXT NOT NULL DEFAULT 'turns';

CREATE TABLE match_inputs (
	match_id INTEGER NOT NULL REFERENCES matches(id),
	seq      INTEGER NOT NULL,                   -- 0, 1, ... in the order applied
	tick     INTEGER NOT NULL,                   -- never below the previous seq's
	seat     INTEGER NOT NULL,
	input    TEXT NOT NULL,                      -- the ruleset's text: "L", "v", "disconnect"
	PRIMARY KEY (match_id, seq)
) WITHOUT ROWID;
