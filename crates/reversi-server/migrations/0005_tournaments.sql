-- Tournaments for people on the site (issue 30).

-- A tournament. `size` is the format's number: Swiss rounds, round-robin cycles (1 or 2) or
-- arena minutes. `round` counts the rounds paired (an arena: its pairing batches); a round is
-- claimed by the one instance whose `UPDATE … WHERE round = <old>` changes the row, in the
-- transaction that stores its pairings, so that it starts exactly once. `round_at` is when the
-- current round was paired. `invite` is the invitation secret of an invitation-only one.
-- `version` grows with every change (pages poll it).
CREATE TABLE IF NOT EXISTS tournaments (
    id          TEXT PRIMARY KEY,
    name        TEXT NOT NULL,
    organiser   TEXT NOT NULL REFERENCES users (id),
    format      TEXT NOT NULL,
    size        INTEGER NOT NULL,
    variant     TEXT NOT NULL,
    control     TEXT NOT NULL,
    rated       INTEGER NOT NULL,
    bots        INTEGER NOT NULL,
    min_rating  INTEGER,
    invite      TEXT,
    max_players INTEGER NOT NULL,
    starts_at   BIGINT NOT NULL,
    status      TEXT NOT NULL,
    round       INTEGER NOT NULL DEFAULT 0,
    round_at    BIGINT,
    created_at  BIGINT NOT NULL,
    finished_at BIGINT,
    version     BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS tournaments_status ON tournaments (status, starts_at);

-- An entrant. `seq` is the entry order (the entrant's index for pairing); `rating` the seed,
-- the rating when they entered; `from_round` the first round they could be paired in (a late
-- entrant to a Swiss gets a half point for each round before); `active` 0 once withdrawn or
-- removed (`removed` 1: by the organiser, who alone may let them back).
CREATE TABLE IF NOT EXISTS tournament_players (
    tournament_id TEXT NOT NULL REFERENCES tournaments (id),
    user_id       TEXT NOT NULL REFERENCES users (id),
    seq           INTEGER NOT NULL,
    name          TEXT NOT NULL,
    bot           INTEGER NOT NULL,
    rating        DOUBLE PRECISION NOT NULL,
    from_round    INTEGER NOT NULL,
    active        INTEGER NOT NULL DEFAULT 1,
    removed       INTEGER NOT NULL DEFAULT 0,
    joined_at     BIGINT NOT NULL,
    PRIMARY KEY (tournament_id, user_id),
    UNIQUE (tournament_id, seq)
);

-- The pairings of each round: a game between entrants `black` and `white` (their `seq`), or a
-- bye for `black` (`white` and `game_id` NULL). `game_id` is chosen with the pairing; `created`
-- becomes 1 once the game exists, so that a game whose instance stopped between the two is
-- made at the next tick, by whichever instance comes first.
CREATE TABLE IF NOT EXISTS tournament_games (
    tournament_id TEXT NOT NULL REFERENCES tournaments (id),
    round         INTEGER NOT NULL,
    board         INTEGER NOT NULL,
    black         INTEGER NOT NULL,
    white         INTEGER,
    game_id       TEXT,
    created       INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (tournament_id, round, board)
);
CREATE INDEX IF NOT EXISTS tournament_games_game ON tournament_games (game_id);

-- A tournament's chat (entrants and spectators alike).
CREATE TABLE IF NOT EXISTS tournament_chat (
    tournament_id TEXT NOT NULL REFERENCES tournaments (id),
    seq           BIGINT NOT NULL,
    author        TEXT,
    user_id       TEXT,
    text          TEXT NOT NULL,
    at            BIGINT NOT NULL,
    PRIMARY KEY (tournament_id, seq)
);

-- The tournament a game belongs to: a missed first move then loses the game by forfeit
-- instead of aborting it, and it cannot be aborted.
ALTER TABLE games ADD COLUMN tournament TEXT;
