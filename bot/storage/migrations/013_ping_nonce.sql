-- A turn ping is stored before it is posted (message_id 0: being posted) with the nonce it is
-- posted with, so a restart after a kill in between finds the message Discord may have made
-- (the same nonce with enforce_nonce returns it) and deletes it: no ping is left behind.
ALTER TABLE turn_pings ADD COLUMN nonce TEXT;
