-- Tables in threads and turn pings as nudges (issue 22): a server may keep its tables out of
-- threads (NULL: threads on) and say how long a turn waits before its player is pinged (NULL:
-- the bot's TAMALOU_PING_AFTER_S); a table remembers the thread it plays in (its id is the
-- id of the channel message the thread was started from; NULL: it plays in the channel).
ALTER TABLE guild_settings ADD COLUMN threads INTEGER;
ALTER TABLE guild_settings ADD COLUMN ping_after_s INTEGER;
ALTER TABLE tables ADD COLUMN thread_id INTEGER;
