-- The archive, rematches and game analyses.

-- When the game ended (Unix milliseconds; NULL while it is played): the archive's order.
ALTER TABLE games ADD COLUMN finished_at BIGINT;
UPDATE games SET finished_at = updated_at * 1000 WHERE status = 'finished';
CREATE INDEX IF NOT EXISTS games_status_finished ON games (status, finished_at);

-- The game a seat holder started as the rematch of this one.
ALTER TABLE games ADD COLUMN rematch_id TEXT;

-- One row per requested analysis. `status`: queued, running, done or failed. A running job
-- proves it is alive through `heartbeat_at` (Unix seconds); `owner` names the server instance.
CREATE TABLE IF NOT EXISTS analyses (
    game_id      TEXT PRIMARY KEY REFERENCES games (id),
    status       TEXT NOT NULL,
    level        INTEGER NOT NULL,
    owner        TEXT,
    error        TEXT,
    requested_at BIGINT NOT NULL,
    started_at   BIGINT,
    heartbeat_at BIGINT,
    finished_at  BIGINT
);

CREATE INDEX IF NOT EXISTS analyses_status ON analyses (status, requested_at);

-- The verdict on each analysed move (passes are not analysed). `ply` is 1-based, as in
-- `reversi analyze`; scores are in discs for the player who moved.
CREATE TABLE IF NOT EXISTS analysis_moves (
    game_id      TEXT NOT NULL REFERENCES games (id),
    ply          INTEGER NOT NULL,
    player       TEXT NOT NULL,
    played       TEXT NOT NULL,
    best         TEXT NOT NULL,
    played_score INTEGER NOT NULL,
    best_score   INTEGER NOT NULL,
    loss         INTEGER NOT NULL,
    exact        INTEGER NOT NULL,
    PRIMARY KEY (game_id, ply)
);
