-- 0004_hardening: puzzles bound to whoever they were issued to, and what
-- the periodic sweep needs to delete promptly.

-- The issuer of a puzzle: 'a:ID' for an account, 'ip:ADDRESS' for an
-- anonymous client (an IPv6 client by its /64). Only the issuer can spend
-- it. Puzzles stored before this migration have no issuer: anyone may
-- spend them, as before, until they expire.
ALTER TABLE agent_checks ADD COLUMN owner TEXT NOT NULL DEFAULT '';

-- Runs that never got a move are deleted after --unplayed-retention; this
-- index finds them oldest first without reading played runs.
CREATE INDEX runs_unplayed ON runs (created_at) WHERE step = 0;
