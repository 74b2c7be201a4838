-- What every node of one database shares: the secret a node signs the client address of a
-- request it forwards with (HMAC-SHA256), so the holder counts that client's rate and no
-- client can name an address of its choosing. One row, written by the first node to start.
CREATE TABLE cluster (
    id INT PRIMARY KEY CHECK (id = 1),
    secret TEXT NOT NULL
);
