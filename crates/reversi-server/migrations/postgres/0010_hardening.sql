-- Hardening, second round (issue 51).

-- Counters of attempts per key (`login@ ADDRESS`, `signup ADDRESS`, `import ADDRESS`, …) in
-- fixed windows: an attempt reserves its place here, in one statement, before any work is done,
-- so that a burst of concurrent requests cannot all pass a check made before any was counted;
-- shared by every instance on the database.
CREATE TABLE IF NOT EXISTS throttle (
    key          TEXT PRIMARY KEY,
    window_start BIGINT NOT NULL,
    n            BIGINT NOT NULL
);

-- The server's own secrets and settings of its data: the key that signs guest identities and
-- known devices (made by the first instance to start; the others read it), the version of the
-- look-alike skeleton the stored name keys were made with.
CREATE TABLE IF NOT EXISTS site_meta (
    name  TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

-- The generation of an account's credentials: a password change raises it, and a session (or
-- bot token) of an older generation no longer signs anyone in, even one started by a sign-in
-- that checked the old password a moment before the change.
ALTER TABLE users ADD COLUMN credential_gen BIGINT NOT NULL DEFAULT 0;
ALTER TABLE sessions ADD COLUMN credential_gen BIGINT NOT NULL DEFAULT 0;

-- The address a seek was made from (the per-address limits).
ALTER TABLE seeks ADD COLUMN address TEXT;

-- Who asked for an analysis (an account, or `ip:` and an address): the queue is served in turn
-- per requester, and each has a cap.
ALTER TABLE analyses ADD COLUMN requester TEXT;

-- Imported games: who imported them (the quotas) and, for a guest's, when they go.
ALTER TABLE games ADD COLUMN imported_by TEXT;
ALTER TABLE games ADD COLUMN expires_at BIGINT;
CREATE INDEX IF NOT EXISTS games_expires_at ON games (expires_at);
CREATE INDEX IF NOT EXISTS seeks_address ON seeks (address);

-- A game of an invitation-only tournament: left out of the public lists, and its tournament
-- shown to its players only.
ALTER TABLE games ADD COLUMN private BIGINT NOT NULL DEFAULT 0;
UPDATE games SET private = 1 WHERE tournament IN (SELECT id FROM tournaments WHERE invite IS NOT NULL);
