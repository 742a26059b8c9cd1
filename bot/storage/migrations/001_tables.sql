-- Tables, seats, matches, rounds and the action log.
CREATE TABLE guild_settings (
    guild_id INTEGER PRIMARY KEY,
    language TEXT,
    turn_seconds INTEGER
);

CREATE TABLE tables (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,
    host_id INTEGER NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('lobby', 'playing', 'finished', 'cancelled')),
    settings TEXT NOT NULL,
    message_id INTEGER,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE UNIQUE INDEX tables_one_live_per_channel ON tables (channel_id)
    WHERE status IN ('lobby', 'playing');
CREATE INDEX tables_live ON tables (status);

CREATE TABLE seats (
    table_id INTEGER NOT NULL REFERENCES tables (id),
    seat INTEGER NOT NULL,
    user_id INTEGER NOT NULL,
    name TEXT NOT NULL,
    ai_level TEXT,
    PRIMARY KEY (table_id, seat)
);

CREATE TABLE matches (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    table_id INTEGER NOT NULL REFERENCES tables (id),
    guild_id INTEGER NOT NULL,
    seed TEXT NOT NULL,
    rules TEXT NOT NULL,
    seats TEXT NOT NULL,
    started_at INTEGER NOT NULL,
    ended_at INTEGER,
    status TEXT NOT NULL CHECK (status IN ('playing', 'finished', 'cancelled'))
);
CREATE INDEX matches_table ON matches (table_id);

CREATE TABLE actions (
    match_id INTEGER NOT NULL REFERENCES matches (id),
    n INTEGER NOT NULL,
    at INTEGER NOT NULL,
    payload TEXT NOT NULL,
    user_id INTEGER,
    PRIMARY KEY (match_id, n)
);

CREATE TABLE rounds (
    match_id INTEGER NOT NULL REFERENCES matches (id),
    round_no INTEGER NOT NULL,
    reason TEXT NOT NULL,
    caller INTEGER,
    ended_at INTEGER NOT NULL,
    PRIMARY KEY (match_id, round_no)
);

CREATE TABLE round_scores (
    match_id INTEGER NOT NULL,
    round_no INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    user_id INTEGER NOT NULL,
    total REAL NOT NULL,
    score REAL NOT NULL,
    place INTEGER NOT NULL,
    PRIMARY KEY (match_id, round_no, seat)
);
