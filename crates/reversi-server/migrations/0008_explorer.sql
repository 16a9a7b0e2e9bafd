-- The game database explorer (issue 32): games imported from WTHOR, GGF files and the site
-- (`reversi db import`), and every position they reached where a move was made.
-- `key` makes an import idempotent (`wthor:YEAR:INDEX`, `ggf:HASH`, `site:ID`); `source` is
-- 0 WTHOR, 1 GGF, 2 the site; `margin` Black's final disc difference; the `_key` columns the
-- names in lower case, for the player filter.
CREATE TABLE IF NOT EXISTS db_games (
    id          {{serial_id}},
    key         TEXT NOT NULL UNIQUE,
    source      INTEGER NOT NULL,
    black       TEXT NOT NULL,
    white       TEXT NOT NULL,
    black_key   TEXT NOT NULL,
    white_key   TEXT NOT NULL,
    tournament  TEXT NOT NULL,
    year        INTEGER NOT NULL,
    margin      INTEGER NOT NULL,
    moves       TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS db_games_black ON db_games (black_key);
CREATE INDEX IF NOT EXISTS db_games_white ON db_games (white_key);

-- A position of a game where a move was made: `hash` the canonical hash (the least of the 8
-- symmetric images, with the side to move), `next` the move made there in the canonical frame
-- (bit 0 = a1 … 63 = h8), with the game's result, year and source copied beside it so that a
-- position's statistics read one range of the primary key.
CREATE TABLE IF NOT EXISTS db_positions (
    hash    INTEGER NOT NULL,
    game    INTEGER NOT NULL,
    ply     INTEGER NOT NULL,
    next    INTEGER NOT NULL,
    margin  INTEGER NOT NULL,
    year    INTEGER NOT NULL,
    source  INTEGER NOT NULL,
    PRIMARY KEY (hash, game, ply)
) {{without_rowid}};

-- The statistics of the positions at least 2,000 games reached (explorer::POPULAR_GAMES),
-- counted after each import: the unfiltered statistics of the opening positions are read here.
CREATE TABLE IF NOT EXISTS db_popular (
    hash        INTEGER NOT NULL,
    next        INTEGER NOT NULL,
    games       INTEGER NOT NULL,
    wins        INTEGER NOT NULL,
    draws       INTEGER NOT NULL,
    margin_sum  INTEGER NOT NULL,
    PRIMARY KEY (hash, next)
);
-- On PostgreSQL the statistics read the primary key's range with the columns they need beside it
-- (an index-only scan).
--postgres: CREATE INDEX IF NOT EXISTS db_positions_stats ON db_positions (hash) INCLUDE (next, margin, year, source);
