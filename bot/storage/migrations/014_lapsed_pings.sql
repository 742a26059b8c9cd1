-- A turn ping whose turn ran out (the bot played for its absent member) is edited to say so
-- instead of deleted, so Discord's notification still leads somewhere; it is deleted when
-- that member next acts at the table, is pinged there again, or the table ends. Stored so a
-- restart still deletes it.
CREATE TABLE lapsed_pings (
    table_id INTEGER NOT NULL REFERENCES tables (id),
    user_id INTEGER NOT NULL,
    message_id INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,
    lapsed_at INTEGER NOT NULL,
    PRIMARY KEY (table_id, user_id)
);
