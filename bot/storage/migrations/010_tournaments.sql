-- Server tournaments (issue 28, docs/tournaments.md): a tournament, its entrants, its rounds
-- and the tables of each round. A tournament's tables may share its channel: the channel's
-- one live table (tables_one_live_per_channel) is counted among the other tables only.
CREATE TABLE tournaments (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,
    game TEXT NOT NULL,
    name TEXT NOT NULL,
    host_id INTEGER NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('signup', 'playing', 'finished', 'cancelled')),
    format TEXT NOT NULL,
    settings TEXT NOT NULL,
    seed TEXT NOT NULL,
    message_id INTEGER,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE INDEX tournaments_live ON tournaments (status);
CREATE INDEX tournaments_guild ON tournaments (guild_id, id);

CREATE TABLE tournament_entrants (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    user_id INTEGER NOT NULL,
    name TEXT NOT NULL,
    entry_no INTEGER NOT NULL,
    withdrawn INTEGER NOT NULL DEFAULT 0,
    final_rank INTEGER,
    score REAL,
    buchholz REAL,
    PRIMARY KEY (tournament_id, user_id)
);
CREATE INDEX tournament_entrants_member ON tournament_entrants (user_id, tournament_id);

-- status: playing until every table of the round is finished; scored once its scores are in
CREATE TABLE tournament_rounds (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    round_no INTEGER NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('playing', 'scored', 'cancelled')),
    started_at INTEGER NOT NULL,
    scored_at INTEGER,
    PRIMARY KEY (tournament_id, round_no)
);

-- seats: JSON list of member ids, null for an AI seat; result: JSON {deals, totals} once the
-- table's match is finished (status finished)
CREATE TABLE tournament_tables (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    round_no INTEGER NOT NULL,
    table_no INTEGER NOT NULL,
    seed TEXT NOT NULL,
    seats TEXT NOT NULL,
    table_id INTEGER REFERENCES tables (id),
    status TEXT NOT NULL CHECK (status IN ('playing', 'finished', 'cancelled')),
    result TEXT,
    PRIMARY KEY (tournament_id, round_no, table_no)
);
CREATE UNIQUE INDEX tournament_tables_table ON tournament_tables (table_id);

CREATE TABLE tournament_scores (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    round_no INTEGER NOT NULL,
    user_id INTEGER NOT NULL,
    score REAL NOT NULL,
    PRIMARY KEY (tournament_id, round_no, user_id)
);

ALTER TABLE tables ADD COLUMN tournament_id INTEGER;
DROP INDEX tables_one_live_per_channel;
CREATE UNIQUE INDEX tables_one_live_per_channel ON tables (channel_id)
    WHERE status IN ('lobby', 'playing') AND tournament_id IS NULL;
