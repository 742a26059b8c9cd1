-- Seasons, per-player season records, ratings and the exactly-once match marker.
-- seasons.name NULL: "Season <number>" in the reader's language.
-- Written by bot/seasons/ only; see docs/seasons.md.
CREATE TABLE seasons (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id INTEGER NOT NULL,
    number INTEGER NOT NULL,
    name TEXT,
    min_matches INTEGER NOT NULL DEFAULT 3,
    started_at INTEGER NOT NULL,
    ended_at INTEGER,
    UNIQUE (guild_id, number)
);
-- At most one current (not ended) season per guild.
CREATE UNIQUE INDEX seasons_current ON seasons (guild_id) WHERE ended_at IS NULL;

-- One row per recorded match: inserted in the same transaction as the records, so a
-- match is counted exactly once (the startup sweep records finished matches without it).
CREATE TABLE season_matches (
    match_id INTEGER PRIMARY KEY REFERENCES matches (id),
    season_id INTEGER NOT NULL REFERENCES seasons (id),
    rated INTEGER NOT NULL,
    humans INTEGER NOT NULL,
    recorded_at INTEGER NOT NULL
);
CREATE INDEX season_matches_season ON season_matches (season_id);

-- A human's season record: running totals, kept up to date at every recorded match, so
-- the leaderboard reads one row per player. win_rate and mean_score are stored (not
-- computed in the query) so that every sort order has its own index.
CREATE TABLE season_players (
    season_id INTEGER NOT NULL REFERENCES seasons (id),
    user_id INTEGER NOT NULL,
    name TEXT NOT NULL,
    matches INTEGER NOT NULL DEFAULT 0,
    wins INTEGER NOT NULL DEFAULT 0,
    rank_sum INTEGER NOT NULL DEFAULT 0,
    rounds INTEGER NOT NULL DEFAULT 0,
    rounds_won INTEGER NOT NULL DEFAULT 0,
    score_sum REAL NOT NULL DEFAULT 0,
    calls_right INTEGER NOT NULL DEFAULT 0,
    calls_wrong INTEGER NOT NULL DEFAULT 0,
    doubles INTEGER NOT NULL DEFAULT 0,
    doubles_missed INTEGER NOT NULL DEFAULT 0,
    best_round REAL,
    rated_matches INTEGER NOT NULL DEFAULT 0,
    mu REAL NOT NULL,
    sigma REAL NOT NULL,
    ordinal REAL NOT NULL,
    win_rate REAL NOT NULL DEFAULT 0,
    mean_score REAL NOT NULL DEFAULT 0,
    last_match_at INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (season_id, user_id)
);
CREATE INDEX season_players_rating ON season_players (season_id, ordinal DESC, user_id);
CREATE INDEX season_players_wins ON season_players (season_id, wins DESC, user_id);
CREATE INDEX season_players_win_rate ON season_players (season_id, win_rate DESC, user_id);
CREATE INDEX season_players_mean_score ON season_players (season_id, mean_score, user_id);
CREATE INDEX season_players_matches ON season_players (season_id, matches);

-- One row per human seat of a recorded match: the match's final rank and the rating after
-- it (the stats chart), and the per-match counts (the CSV export can be audited from it).
CREATE TABLE season_results (
    season_id INTEGER NOT NULL REFERENCES seasons (id),
    match_id INTEGER NOT NULL REFERENCES matches (id),
    user_id INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    ended_at INTEGER NOT NULL,
    rank INTEGER NOT NULL,
    won INTEGER NOT NULL,
    rounds INTEGER NOT NULL,
    rounds_won INTEGER NOT NULL,
    score_sum REAL NOT NULL,
    calls_right INTEGER NOT NULL,
    calls_wrong INTEGER NOT NULL,
    doubles INTEGER NOT NULL,
    doubles_missed INTEGER NOT NULL,
    best_round REAL,
    mu REAL NOT NULL,
    sigma REAL NOT NULL,
    ordinal REAL NOT NULL,
    PRIMARY KEY (match_id, user_id)
);
CREATE INDEX season_results_player ON season_results (season_id, user_id, ended_at);

-- The startup sweep looks for finished matches without a season_matches row.
CREATE INDEX matches_finished ON matches (status, ended_at);
