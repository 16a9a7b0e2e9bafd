-- Puzzles (issue 32): the ratings of the shipped puzzles (data/puzzles/puzzles.tsv, embedded in
-- the binary, which holds their positions and solutions; a row is made on first use by
-- `Db::ensure_puzzles`, and ids stay stable from one version to the next), and each account's
-- attempts. Only the first attempt at a puzzle is rated; a player's own puzzle rating is the
-- `puzzle` row of `ratings`.
-- `themes` has a comma before and after every theme (`,corner,endgame,`), so that one theme is
-- found with LIKE '%,corner,%'; `solutions` counts the attempts that solved it.
CREATE TABLE IF NOT EXISTS puzzles (
    id          INTEGER PRIMARY KEY,
    themes      TEXT NOT NULL,
    rating      REAL NOT NULL,
    deviation   REAL NOT NULL,
    volatility  REAL NOT NULL,
    attempts    INTEGER NOT NULL DEFAULT 0,
    solutions   INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS puzzles_rating ON puzzles (rating);

-- `diff` is the rating change the attempt brought the player (0 when not rated).
CREATE TABLE IF NOT EXISTS puzzle_attempts (
    user_id     TEXT NOT NULL,
    puzzle_id   INTEGER NOT NULL,
    solved      INTEGER NOT NULL,
    at          INTEGER NOT NULL,
    diff        INTEGER NOT NULL,
    PRIMARY KEY (user_id, puzzle_id)
);
CREATE INDEX IF NOT EXISTS puzzle_attempts_recent ON puzzle_attempts (user_id, at);
