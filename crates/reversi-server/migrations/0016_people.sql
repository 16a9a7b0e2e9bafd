-- People (issue 53): follows, blocks, reports, and the moderators who act on them.

-- Who follows whom (account ids): the followed players' games in progress and whether they are
-- online appear on the follower's home page.
CREATE TABLE IF NOT EXISTS follows (
    follower TEXT NOT NULL REFERENCES users (id),
    followed TEXT NOT NULL REFERENCES users (id),
    at       BIGINT NOT NULL,
    PRIMARY KEY (follower, followed)
);
CREATE INDEX IF NOT EXISTS follows_followed ON follows (followed);

-- Who blocks whom: a blocked account cannot challenge its blocker, accept the blocker's seeks,
-- or talk to the blocker in a game's players' room; the blocker does not see its chat.
CREATE TABLE IF NOT EXISTS blocks (
    blocker TEXT NOT NULL REFERENCES users (id),
    blocked TEXT NOT NULL REFERENCES users (id),
    at      BIGINT NOT NULL,
    PRIMARY KEY (blocker, blocked)
);
CREATE INDEX IF NOT EXISTS blocks_blocked ON blocks (blocked);

-- A report of an account to the moderators: why (`reason`: cheating, abuse, spam, name,
-- other), the reporter's words, the game it is about (if any). It stays `open` until a
-- moderator closes it (`closed_by`, `closed_at`, `resolution`).
CREATE TABLE IF NOT EXISTS reports (
    id         {{serial_id}},
    reporter   TEXT NOT NULL REFERENCES users (id),
    target     TEXT NOT NULL REFERENCES users (id),
    reason     TEXT NOT NULL,
    text       TEXT NOT NULL,
    game_id    TEXT,
    created_at BIGINT NOT NULL,
    closed_by  TEXT,
    closed_at  BIGINT,
    resolution TEXT
);
CREATE INDEX IF NOT EXISTS reports_open ON reports (closed_at, created_at);
CREATE INDEX IF NOT EXISTS reports_target ON reports (target);

-- Every moderator's action, kept: who, what (`mute`, `unmute`, `disable`, `enable`,
-- `close-game`, `close-tournament`, `close-report`, `grant`, `revoke`), on what (an account
-- id, a game, a tournament, a report), the report it answered and the moderator's note.
CREATE TABLE IF NOT EXISTS mod_log (
    id        {{serial_id}},
    moderator TEXT,
    action    TEXT NOT NULL,
    target    TEXT NOT NULL,
    report_id BIGINT,
    note      TEXT NOT NULL,
    at        BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS mod_log_at ON mod_log (at);

-- An account's role (`moderator`, or NULL), until when it may not chat (a mute; Unix ms),
-- since when a moderator has disabled it (it cannot sign in), and when it was last seen (a
-- signed-in request; "online" is seen within five minutes).
ALTER TABLE users ADD COLUMN role TEXT;
ALTER TABLE users ADD COLUMN muted_until BIGINT;
ALTER TABLE users ADD COLUMN disabled_at BIGINT;
ALTER TABLE users ADD COLUMN seen_at BIGINT;

-- Letters about play (issue 53), for those who asked: `mail_notify` is the language of the
-- letters (`en`, `ru`) or NULL for none. A letter is queued in `mail_outbox` when its cause is
-- stored (a move in a correspondence game, a correspondence challenge, an address changed)
-- and delivered by whichever instance takes it first; one that fails is tried again later
-- (`next_at`), a few times. `payload` is the JSON of what the letter needs; no row holds a
-- secret (the mailed links of verification and reset are sent at once and never stored).
ALTER TABLE users ADD COLUMN mail_notify TEXT;
CREATE TABLE IF NOT EXISTS mail_outbox (
    id         {{serial_id}},
    kind       TEXT NOT NULL,
    user_id    TEXT,
    payload    TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    next_at    BIGINT NOT NULL,
    attempts   INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS mail_outbox_next ON mail_outbox (next_at);
