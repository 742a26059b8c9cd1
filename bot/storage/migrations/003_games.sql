-- Every table and match belongs to one game of the house (tamalou, kalooki, tarot).
ALTER TABLE tables ADD COLUMN game TEXT NOT NULL DEFAULT 'tamalou';
ALTER TABLE matches ADD COLUMN game TEXT NOT NULL DEFAULT 'tamalou';
CREATE INDEX IF NOT EXISTS matches_guild_game ON matches (guild_id, game);
