-- 0007_lobbies: matches waiting in their lobby are bounded. An account may
-- have at most MATCH_LOBBIES_MAX of them (api/game/match_rules.h), counted by creator
-- when it creates another; and one still waiting after the unplayed
-- retention is deleted with its seats by the sweep, oldest first.
CREATE INDEX matches_lobbies ON matches (created_by) WHERE status = 'lobby';
CREATE INDEX matches_lobby_age ON matches (created_at) WHERE status = 'lobby';
