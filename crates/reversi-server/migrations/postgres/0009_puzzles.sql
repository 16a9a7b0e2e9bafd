-- Puzzles (issue 32): see the SQLite migration of the same number.
CREATE TABLE IF NOT EXISTS puzzles (
    id          BIGINT PRIMARY KEY,
    themes      TEXT NOT NULL,
    rating      DOUBLE PRECISION NOT NULL,
    deviation   DOUBLE PRECISION NOT NULL,
    volatility  DOUBLE PRECISION NOT NULL,
    attempts    BIGINT NOT NULL DEFAULT 0,
    solutions   BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS puzzles_rating ON puzzles (rating);

-- `diff` is the rating change the attempt brought the player (0 when not rated).
CREATE TABLE IF NOT EXISTS puzzle_attempts (
    user_id     TEXT NOT NULL,
    puzzle_id   BIGINT NOT NULL,
    solved      BIGINT NOT NULL,
    at          BIGINT NOT NULL,
    diff        BIGINT NOT NULL,
    PRIMARY KEY (user_id, puzzle_id)
);
CREATE INDEX IF NOT EXISTS puzzle_attempts_recent ON puzzle_attempts (user_id, at);
