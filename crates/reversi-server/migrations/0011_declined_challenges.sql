-- A challenge its player declined (issue 53): it leaves `seeks` and is recorded in
-- `seek_games` with no game (`game_id` empty) and the name of the player who declined, so that
-- the challenger's pages say so; kept as long as the other rows there.
ALTER TABLE seek_games ADD COLUMN declined_by TEXT;
