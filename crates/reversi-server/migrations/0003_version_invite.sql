-- The version a client last saw must never go backwards, across restarts too: each change
-- stores it (see `game::next_version`). And the free seat of a game against a friend is taken
-- only with the secret of its invite link.
ALTER TABLE games ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN join_token TEXT;
-- A game that ended without a result: 'aborted' (before both players moved) or 'abandoned'
-- (nobody moved for a long time); NULL otherwise.
ALTER TABLE games ADD COLUMN ended TEXT;
-- Games already waiting for their friend get a secret now; their creator finds the new link
-- on the game page.
UPDATE games SET join_token = {{random_secret}}
 WHERE mode = 'friend' AND status = 'playing'
   AND ((black_player = 'human' AND black_token IS NULL) OR (white_player = 'human' AND white_token IS NULL));
