-- Who is connected to each game (issue 29): each server instance stores, per game, the
-- websockets open there on Black's seat, White's seat and as spectators, and when each seat's
-- last socket there closed (Unix ms). A game's presence is the sum over the instances still
-- alive (see `instances`); crate::presence documents the rules, and the claim of a win from a
-- player who left.
CREATE TABLE IF NOT EXISTS presence (
    game_id     TEXT NOT NULL,
    instance    TEXT NOT NULL,
    black       BIGINT NOT NULL,
    white       BIGINT NOT NULL,
    spectators  BIGINT NOT NULL,
    black_left  BIGINT,
    white_left  BIGINT,
    PRIMARY KEY (game_id, instance)
);
CREATE INDEX IF NOT EXISTS presence_instance ON presence (instance);

-- Each server instance's last sign of life (Unix ms), written every ten seconds.
CREATE TABLE IF NOT EXISTS instances (
    id        TEXT PRIMARY KEY,
    alive_at  BIGINT NOT NULL
);

-- The player in `resigned` left the game and the opponent claimed the win (1), rather than
-- resigning (0).
ALTER TABLE games ADD COLUMN left_game BIGINT NOT NULL DEFAULT 0;
