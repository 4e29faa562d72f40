-- 0007_lobbies (PostgreSQL): the two partial indexes that bound the
-- matches waiting in their lobby (migrations/0007_lobbies.sql has the why):
-- one counts an account's, one finds the oldest for the sweep.
CREATE INDEX matches_lobbies ON matches (created_by) WHERE status = 'lobby';
CREATE INDEX matches_lobby_age ON matches (created_at) WHERE status = 'lobby';
