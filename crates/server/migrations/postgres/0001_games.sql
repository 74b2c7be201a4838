-- Games, their seats and their steps (the same tables as migrations/sqlite, after its
-- 0002). A game's state is its setup replayed through its steps, which are rows of an
-- append-only table keyed by (game, seq): a step is written in the same transaction that
-- moves the game's seq on, before anyone is told of it.
CREATE TABLE games (
    id TEXT PRIMARY KEY,
    ruleset TEXT NOT NULL,
    version TEXT NOT NULL,
    scenario TEXT NOT NULL,
    setup TEXT NOT NULL,
    dice TEXT NOT NULL CHECK (dice IN ('seeded', 'table')),
    -- SHA-256 of the server seed, published at creation.
    commitment TEXT NOT NULL,
    -- The server seed (hex); never sent to a client before the game is over.
    server_seed TEXT NOT NULL,
    public BOOLEAN NOT NULL,
    created_at BIGINT NOT NULL,
    seq BIGINT NOT NULL DEFAULT 0,
    over BOOLEAN NOT NULL DEFAULT FALSE,
    -- The options the setup was built with (JSON).
    options TEXT NOT NULL DEFAULT '{}',
    -- The game a rematch of this one made.
    rematch TEXT,
    -- Who created it (the client's IP address), for the limit on open games per client.
    client TEXT NOT NULL DEFAULT '',
    -- The last time anything happened in it (seconds), for clean-up.
    touched BIGINT NOT NULL DEFAULT 0
);
CREATE TABLE seats (
    game TEXT NOT NULL REFERENCES games(id),
    seat SMALLINT NOT NULL,
    -- "human", "open" or an AI player's name ("mcts:200").
    player TEXT NOT NULL,
    -- SHA-256 of the seat's bearer token (hex); none for an AI or open seat.
    token_hash TEXT,
    -- A seat's own contribution to the dice, given when it joins, or empty.
    seed TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (game, seat)
);
CREATE UNIQUE INDEX seats_by_game_token ON seats(game, token_hash) WHERE token_hash IS NOT NULL;
CREATE INDEX seats_by_token ON seats(token_hash) WHERE token_hash IS NOT NULL;
CREATE TABLE steps (
    game TEXT NOT NULL REFERENCES games(id),
    seq BIGINT NOT NULL,
    step TEXT NOT NULL,
    -- The client's id for the action, so a resubmission is answered again, not replayed.
    client_id TEXT,
    PRIMARY KEY (game, seq)
);
CREATE UNIQUE INDEX steps_by_client_id ON steps(game, client_id) WHERE client_id IS NOT NULL;
