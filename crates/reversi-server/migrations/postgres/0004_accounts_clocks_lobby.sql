-- The PostgreSQL version of ../0004_accounts_clocks_lobby.sql (BIGINT integers).

-- An account. `name_key` is the look-alike skeleton of the name (reversi_site::account::skeleton):
-- unique, so that `Bob`, `b0b` and `BOB` cannot all exist. A deleted account keeps its row and
-- key (nobody can take the name to pass as its owner) but loses its password and sessions.
CREATE TABLE IF NOT EXISTS users (
    id             TEXT PRIMARY KEY,
    name           TEXT NOT NULL,
    name_key       TEXT NOT NULL UNIQUE,
    password_hash  TEXT,
    created_at     BIGINT NOT NULL,
    deleted_at     BIGINT,
    bot            BIGINT NOT NULL DEFAULT 0,
    bot_token_hash TEXT UNIQUE,
    chat_off       BIGINT NOT NULL DEFAULT 0
);

-- A signed-in browser: the SHA-256 of the cookie's secret (a stolen database holds no usable
-- session), its account and when it expires (Unix milliseconds).
CREATE TABLE IF NOT EXISTS sessions (
    token_hash TEXT PRIMARY KEY,
    user_id    TEXT NOT NULL REFERENCES users (id),
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS sessions_user ON sessions (user_id);

-- Glicko-2 ratings, one row per account and rated category.
CREATE TABLE IF NOT EXISTS ratings (
    user_id    TEXT NOT NULL REFERENCES users (id),
    category   TEXT NOT NULL,
    rating     DOUBLE PRECISION NOT NULL,
    deviation  DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    games      BIGINT NOT NULL,
    last_rated BIGINT,
    PRIMARY KEY (user_id, category)
);
CREATE INDEX IF NOT EXISTS ratings_board ON ratings (category, rating);

-- A rating after each rated game (the profile's chart).
CREATE TABLE IF NOT EXISTS rating_history (
    user_id   TEXT NOT NULL REFERENCES users (id),
    category  TEXT NOT NULL,
    game_id   TEXT NOT NULL REFERENCES games (id),
    at        BIGINT NOT NULL,
    rating    DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (user_id, game_id)
);

-- Who plays each colour: an account's id, or `g:` and a guest's key, and the names shown
-- (NULL for guests and, once deleted, for deleted accounts). `seat_info` (JSON of
-- `game::SeatInfo` for each colour) keeps their ratings when the game started, whether each is a
-- bot, and the rating change the game brought.
ALTER TABLE games ADD COLUMN black_user TEXT;
ALTER TABLE games ADD COLUMN white_user TEXT;
ALTER TABLE games ADD COLUMN black_name TEXT;
ALTER TABLE games ADD COLUMN white_name TEXT;
ALTER TABLE games ADD COLUMN seat_info TEXT;
-- 1 for a rated game; `rating_done` becomes 1 in the transaction that applies its ratings.
ALTER TABLE games ADD COLUMN rated BIGINT NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN rating_done BIGINT NOT NULL DEFAULT 0;
-- The clock (JSON of `game::Timing`) as of the last change, the instant (Unix ms) the player to
-- move loses on time or the game is aborted for a missing first move, and who lost on time.
ALTER TABLE games ADD COLUMN clock TEXT;
ALTER TABLE games ADD COLUMN flag_at BIGINT;
ALTER TABLE games ADD COLUMN flagged TEXT;
CREATE INDEX IF NOT EXISTS games_flag_at ON games (flag_at);
CREATE INDEX IF NOT EXISTS games_black_user ON games (black_user, created_at);
CREATE INDEX IF NOT EXISTS games_white_user ON games (white_user, created_at);

-- Both players' remaining time (ms) after each move of a timed game.
ALTER TABLE moves ADD COLUMN black_ms BIGINT;
ALTER TABLE moves ADD COLUMN white_ms BIGINT;

-- Open seeks of the lobby and of the quick-pairing pools (`pool` names the pool's control).
-- Accepting one deletes it: whoever deletes the row has it.
CREATE TABLE IF NOT EXISTS seeks (
    id         TEXT PRIMARY KEY,
    owner      TEXT NOT NULL,
    owner_name TEXT,
    registered BIGINT NOT NULL,
    bot        BIGINT NOT NULL,
    rating     DOUBLE PRECISION,
    variant    TEXT NOT NULL,
    control    TEXT NOT NULL,
    rated      BIGINT NOT NULL,
    colour     TEXT NOT NULL,
    range_min  BIGINT,
    range_max  BIGINT,
    pool       TEXT,
    target     TEXT,
    created_at BIGINT NOT NULL,
    seen_at    BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS seeks_owner ON seeks (owner);

-- Where the game made from a seek went, for its owner to find (kept a while after acceptance).
CREATE TABLE IF NOT EXISTS seek_games (
    seek_id  TEXT PRIMARY KEY,
    owner    TEXT NOT NULL,
    game_id  TEXT NOT NULL,
    at       BIGINT NOT NULL
);

-- Chat, per game and room (`players` or `spectators`). `seq` orders the messages of a game.
CREATE TABLE IF NOT EXISTS chat (
    game_id TEXT NOT NULL REFERENCES games (id),
    seq     BIGINT NOT NULL,
    room    TEXT NOT NULL,
    author  TEXT,
    user_id TEXT,
    text    TEXT NOT NULL,
    at      BIGINT NOT NULL,
    PRIMARY KEY (game_id, seq)
);

-- The last moment a server instance was alive (Unix ms): a start after a gap (the whole site
-- was down) moves every running clock on by the gap, so the downtime is charged to nobody.
CREATE TABLE IF NOT EXISTS site_alive (
    id BIGINT PRIMARY KEY,
    at BIGINT NOT NULL
);
