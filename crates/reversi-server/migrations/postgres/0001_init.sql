-- The PostgreSQL schema: the same as the SQLite one (../0001_init.sql), with BIGINT integers.
-- Games: one row each; the moves are in `moves`. The summary columns (status, counts, winner)
-- are written after every change so that lists need no replay.
CREATE TABLE IF NOT EXISTS games (
    id           TEXT PRIMARY KEY,
    variant      TEXT NOT NULL,
    mode         TEXT NOT NULL,
    level        BIGINT  NOT NULL,
    black_player TEXT NOT NULL,
    white_player TEXT NOT NULL,
    black_token  TEXT,
    white_token  TEXT,
    resigned     TEXT,
    status       TEXT NOT NULL DEFAULT 'playing',
    black_count  BIGINT  NOT NULL DEFAULT 2,
    white_count  BIGINT  NOT NULL DEFAULT 2,
    winner       TEXT,
    move_count   BIGINT  NOT NULL DEFAULT 0,
    created_at   BIGINT NOT NULL,
    updated_at   BIGINT NOT NULL
);

CREATE INDEX IF NOT EXISTS games_status_updated ON games (status, updated_at);

-- Moves, passes included (`pass`), numbered from 0.
CREATE TABLE IF NOT EXISTS moves (
    game_id TEXT NOT NULL REFERENCES games (id),
    ply     BIGINT  NOT NULL,
    mv      TEXT NOT NULL,
    PRIMARY KEY (game_id, ply)
);
