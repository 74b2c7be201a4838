-- Seats that are joined later, seats' own seeds, presence, rematches and clean-up.
-- A seat's player may now be "open" (a free seat, no token yet). One token may hold a seat
-- in many games (a bot joining with its token, a rematch keeping its players' tokens), but
-- only one seat of a game.
DROP INDEX seats_by_token;
CREATE UNIQUE INDEX seats_by_game_token ON seats(game, token_hash) WHERE token_hash IS NOT NULL;
CREATE INDEX seats_by_token ON seats(token_hash) WHERE token_hash IS NOT NULL;
-- The options the setup was built with (JSON), so a record says its origin and a rematch
-- builds the same game.
ALTER TABLE games ADD COLUMN options TEXT NOT NULL DEFAULT '{}';
-- The game a rematch of this one made.
ALTER TABLE games ADD COLUMN rematch TEXT;
-- Who created it (the client's IP address), for the limit on open games per client.
ALTER TABLE games ADD COLUMN client TEXT NOT NULL DEFAULT '';
-- The last time anything happened in it (a step, or a seat's request), for clean-up.
ALTER TABLE games ADD COLUMN touched INTEGER NOT NULL DEFAULT 0;
