-- 0010_item_settings (PostgreSQL): a match's item chance and weights, and
-- the queue's unique lobby per setting with them
-- (migrations/0010_item_settings.sql has the why).
ALTER TABLE matches ADD COLUMN item_chance INTEGER NOT NULL DEFAULT 0;
ALTER TABLE matches ADD COLUMN item_weights TEXT NOT NULL DEFAULT '1,1,1,1,1,1';
UPDATE matches SET item_chance = 10 WHERE items = 1;
DROP INDEX matches_queue;
CREATE UNIQUE INDEX matches_queue ON matches (players, turn_seconds, items, item_chance, item_weights)
	WHERE status = 'lobby' AND queued = 1;
