-- The secret forwarded requests' client addresses are signed with (HMAC-SHA256). SQLite
-- has one node, which never forwards, but the schema is the same for both stores. One row,
-- written at the first start.
CREATE TABLE cluster (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    secret TEXT NOT NULL
);
