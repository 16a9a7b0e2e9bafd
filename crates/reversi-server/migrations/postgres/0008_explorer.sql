-- The game database explorer (issue 32): see the SQLite migration of the same number.
CREATE TABLE IF NOT EXISTS db_games (
    id          BIGSERIAL PRIMARY KEY,
    key         TEXT NOT NULL UNIQUE,
    source      BIGINT NOT NULL,
    black       TEXT NOT NULL,
    white       TEXT NOT NULL,
    black_key   TEXT NOT NULL,
    white_key   TEXT NOT NULL,
    tournament  TEXT NOT NULL,
    year        BIGINT NOT NULL,
    margin      BIGINT NOT NULL,
    moves       TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS db_games_black ON db_games (black_key);
CREATE INDEX IF NOT EXISTS db_games_white ON db_games (white_key);

-- The statistics read the primary key's range with the columns they need beside it
-- (an index-only scan).
CREATE TABLE IF NOT EXISTS db_positions (
    hash    BIGINT NOT NULL,
    game    BIGINT NOT NULL,
    ply     BIGINT NOT NULL,
    next    BIGINT NOT NULL,
    margin  BIGINT NOT NULL,
    year    BIGINT NOT NULL,
    source  BIGINT NOT NULL,
    PRIMARY KEY (hash, game, ply)
);
CREATE INDEX IF NOT EXISTS db_positions_stats ON db_positions (hash) INCLUDE (next, margin, year, source);

-- The statistics of the positions at least 2,000 games reached (explorer::POPULAR_GAMES),
-- counted after each import: the unfiltered statistics of the opening positions are read here.
CREATE TABLE IF NOT EXISTS db_popular (
    hash        BIGINT NOT NULL,
    next        BIGINT NOT NULL,
    games       BIGINT NOT NULL,
    wins        BIGINT NOT NULL,
    draws       BIGINT NOT NULL,
    margin_sum  BIGINT NOT NULL,
    PRIMARY KEY (hash, next)
);
