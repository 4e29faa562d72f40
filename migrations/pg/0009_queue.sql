-- 0009_queue (PostgreSQL): the quick-match queue's columns and its unique
-- lobby per setting, and the finished matches' list index
-- (migrations/0009_queue.sql has the why).
ALTER TABLE matches ADD COLUMN items INTEGER NOT NULL DEFAULT 0;
ALTER TABLE matches ADD COLUMN queued INTEGER NOT NULL DEFAULT 0;
ALTER TABLE matches ADD COLUMN unrated_reason TEXT;
CREATE UNIQUE INDEX matches_queue ON matches (players, turn_seconds, items)
	WHERE status = 'lobby' AND queued = 1;
CREATE INDEX matches_finished ON matches (created_at DESC, id DESC) WHERE status = 'finished';
