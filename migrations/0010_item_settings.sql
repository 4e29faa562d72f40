-- 0010_item_settings: a match's item settings (docs/rules/versus.md, "Items").
--
-- items (0009) stays the on/off flag. item_chance is the percent chance a
-- mino carries an item (1..100 with items on, 0 with items off);
-- item_weights the six items' shares as text, "a,c,n,s,b,t" in the order
-- add_line, clear_line, nuke, swap, blind, transform (each 0..100, one at
-- least above 0; "1,1,1,1,1,1" with items off). A match with items made
-- before this migration had the defaults: 10 % and equal shares.
ALTER TABLE matches ADD COLUMN item_chance INTEGER NOT NULL DEFAULT 0;
ALTER TABLE matches ADD COLUMN item_weights TEXT NOT NULL DEFAULT '1,1,1,1,1,1';
UPDATE matches SET item_chance = 10 WHERE items = 1;

-- The queue pairs only lobbies with equal settings: one queue lobby for
-- each, the item settings now part of them.
DROP INDEX matches_queue;
CREATE UNIQUE INDEX matches_queue ON matches (players, turn_seconds, items, item_chance, item_weights)
	WHERE status = 'lobby' AND queued = 1;
