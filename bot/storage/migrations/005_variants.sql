-- House variants (R-V): a server's default variant for new Tamalou tables, and the variant of
-- each season result (NULL: recorded before variants existed, i.e. the default game).
ALTER TABLE guild_settings ADD COLUMN variant TEXT;
ALTER TABLE season_results ADD COLUMN variant TEXT;
