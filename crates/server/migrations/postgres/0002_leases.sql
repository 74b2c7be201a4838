-- Several nodes on one database: a game is written by one node at a time, the holder of
-- its lease. A node renews its leases while it is alive; a lease that has expired may be
-- taken by any node, which restores the game from the tables first. Another node forwards
-- the game's commands to `addr` (the holder's base URL).
CREATE TABLE leases (
    game TEXT PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
    node TEXT NOT NULL,
    addr TEXT NOT NULL,
    expires_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX leases_by_node ON leases(node);
