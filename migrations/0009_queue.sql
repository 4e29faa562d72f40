-- 0009_queue: the quick-match queue and the rules that make ratings fair
-- (docs/rules/versus.md, "Ratings").
--
-- A match opened by POST /api/matches/quick is a queue match (queued = 1):
-- the server pairs its players and only such a match may be rated. items
-- is the match's item setting (0 off, 1 on), part of what the queue
-- matches on. unrated_reason says why a queue match that finished moved no
-- rating ('aborted': a player made fewer than 3 moves; 'pair_cap': a pair
-- of its players had rated 3 matches in the last 24 hours); NULL otherwise.
ALTER TABLE matches ADD COLUMN items INTEGER NOT NULL DEFAULT 0;
ALTER TABLE matches ADD COLUMN queued INTEGER NOT NULL DEFAULT 0;
ALTER TABLE matches ADD COLUMN unrated_reason TEXT;

-- At most one queue lobby per setting: two daemons that both find none and
-- both open one cannot both commit, and the loser joins the winner's.
CREATE UNIQUE INDEX matches_queue ON matches (players, turn_seconds, items)
	WHERE status = 'lobby' AND queued = 1;

-- GET /api/matches?status=finished, newest first (matches_open leaves
-- the finished out).
CREATE INDEX matches_finished ON matches (created_at DESC, id DESC) WHERE status = 'finished';
