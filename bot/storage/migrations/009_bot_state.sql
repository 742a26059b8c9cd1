-- Issue 24 (the operator's side): what the bot keeps about itself, by key (bot/storage/state.py):
-- the hash of the slash commands last synced, per application and scope (a start syncs
-- them only when they changed), and each process's status for `python -m bot status`.
CREATE TABLE bot_state (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL,
    updated_at INTEGER NOT NULL
);
