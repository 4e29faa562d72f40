-- 0005_run_facts (PostgreSQL): what a run's moves record beyond its state
-- (migrations/0005_run_facts.sql has the why). One row per distinct fact
-- of a run, with the first step that recorded it.
CREATE TABLE run_facts (
	run_id BIGINT NOT NULL REFERENCES runs(id),
	fact   BYTEA NOT NULL,
	step   BIGINT NOT NULL,
	PRIMARY KEY (run_id, fact)
);
