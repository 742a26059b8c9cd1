-- The admin command (/cardsadmin) holds every game's server defaults: Kalooki's turn time and
-- call window and tarot's turn time (NULL: the game's own), and the role allowed to open
-- tables (NULL or 0: every member).
ALTER TABLE guild_settings ADD COLUMN kalooki_turn_s INTEGER;
ALTER TABLE guild_settings ADD COLUMN kalooki_call_s INTEGER;
ALTER TABLE guild_settings ADD COLUMN tarot_turn_s INTEGER;
ALTER TABLE guild_settings ADD COLUMN opener_role_id INTEGER;
