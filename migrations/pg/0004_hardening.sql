-- 0004_hardening (PostgreSQL): puzzles bound to their issuer, and the index
-- the retention sweep reads.
ALTER TABLE agent_checks ADD COLUMN owner TEXT NOT NULL DEFAULT '';
CREATE INDEX runs_unplayed ON runs (created_at) WHERE step = 0;
