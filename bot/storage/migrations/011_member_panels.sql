-- Issue 21: one private panel per member per round. The member's open panel of the round:
-- the token of the interaction that showed it (Discord keeps it 15 minutes), so that after a
-- restart the table's buttons and the member's next turn still edit it instead of posting a
-- new ephemeral.
CREATE TABLE member_panels (
    table_id INTEGER NOT NULL REFERENCES tables (id),
    seat INTEGER NOT NULL,
    round_no INTEGER NOT NULL,
    token TEXT NOT NULL,
    message_id INTEGER NOT NULL,
    opened_at INTEGER NOT NULL,
    lang TEXT NOT NULL,
    PRIMARY KEY (table_id, seat)
);
