-- 0005_run_facts: what a run's moves record beyond its state (the game's
-- "facts", api/game/game.h), for games whose rules look at the whole history:
-- HATETRIS records the 25-byte key of the board each placement leaves.
--
-- One row per distinct fact of a run, with the first step that recorded it,
-- so that the facts of a run as of any step (those with step <= it) can be
-- read exactly even while later steps are being written. Rows are written
-- in the job that advances the head, after its compare-and-set succeeds.
CREATE TABLE run_facts (
	run_id INTEGER NOT NULL REFERENCES runs(id),
	fact   BLOB NOT NULL,
	step   INTEGER NOT NULL,                       -- the first step whose move recorded it
	PRIMARY KEY (run_id, fact)
) WITHOUT ROWID;
