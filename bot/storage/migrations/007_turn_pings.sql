-- The message that pings a table's current player (one at a time per table) and the turn
-- it was for, so that a restart neither pings the same turn again nor leaves the old ping
-- behind when the turn has moved on.
CREATE TABLE turn_pings (
    table_id INTEGER PRIMARY KEY REFERENCES tables (id),
    turn TEXT NOT NULL,
    message_id INTEGER NOT NULL,
    channel_id INTEGER NOT NULL
);
