-- Issue 30: what a game's panel keeps for a seat between clicks (Kalooki: the lay-down being
-- built, the hand's order), as the game's own JSON, so a restart keeps a half-built contract.
-- Dropped with the table's other displays when its match is done.
CREATE TABLE panel_memory (
    table_id INTEGER NOT NULL REFERENCES tables (id),
    seat INTEGER NOT NULL,
    data TEXT NOT NULL,
    PRIMARY KEY (table_id, seat)
);
