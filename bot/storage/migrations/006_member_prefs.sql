-- Issue 10 (reliability): what must survive a restart for the displays, and member
-- preferences.
-- A member's preferences in a server: the turn ping (1: on, the default; 0: off).
CREATE TABLE member_prefs (
    guild_id INTEGER NOT NULL,
    user_id INTEGER NOT NULL,
    turn_ping INTEGER NOT NULL DEFAULT 1,
    PRIMARY KEY (guild_id, user_id)
);

-- A private panel showing cards for a while (peek, King look, failed call's reveal): the
-- token of the interaction that showed it (Discord keeps it 15 minutes) and when to hide
-- it, so that a restart still hides it.
CREATE TABLE open_panels (
    table_id INTEGER NOT NULL REFERENCES tables (id),
    seat INTEGER NOT NULL,
    token TEXT NOT NULL,
    message_id INTEGER NOT NULL,
    opened_at INTEGER NOT NULL,
    hide_at INTEGER NOT NULL,
    lang TEXT NOT NULL,
    PRIMARY KEY (table_id, seat, message_id)
);

-- 0 from a match's start until its table's final message is drawn: a table that finished
-- without it (a kill between the last commit and the rendering) gets it at start.
ALTER TABLE tables ADD COLUMN final_shown INTEGER NOT NULL DEFAULT 1;
