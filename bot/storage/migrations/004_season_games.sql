-- A board per game: season records and results name their game (tables and matches do
-- since 003). season_players is rebuilt with (season_id, game, user_id) as its key.
CREATE TABLE season_players_by_game (
    season_id INTEGER NOT NULL REFERENCES seasons (id),
    game TEXT NOT NULL DEFAULT 'tamalou',
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
    PRIMARY KEY (season_id, game, user_id)
);
INSERT INTO season_players_by_game (season_id, game, user_id, name, matches, wins, rank_sum,
    rounds, rounds_won, score_sum, calls_right, calls_wrong, doubles, doubles_missed,
    best_round, rated_matches, mu, sigma, ordinal, win_rate, mean_score, last_match_at)
SELECT season_id, 'tamalou', user_id, name, matches, wins, rank_sum, rounds, rounds_won,
    score_sum, calls_right, calls_wrong, doubles, doubles_missed, best_round, rated_matches,
    mu, sigma, ordinal, win_rate, mean_score, last_match_at
FROM season_players;
DROP TABLE season_players;
ALTER TABLE season_players_by_game RENAME TO season_players;
CREATE INDEX season_players_rating ON season_players (season_id, game, ordinal DESC, user_id);
CREATE INDEX season_players_wins ON season_players (season_id, game, wins DESC, user_id);
CREATE INDEX season_players_win_rate ON season_players (season_id, game, win_rate DESC, user_id);
CREATE INDEX season_players_mean_score ON season_players (season_id, game, mean_score, user_id);
CREATE INDEX season_players_matches ON season_players (season_id, game, matches);

ALTER TABLE season_results ADD COLUMN game TEXT NOT NULL DEFAULT 'tamalou';
DROP INDEX season_results_player;
CREATE INDEX season_results_player ON season_results (season_id, game, user_id, ended_at);
