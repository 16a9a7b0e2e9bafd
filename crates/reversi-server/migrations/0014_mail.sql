-- Mail (issue 53): an account's e-mail address and the one-use links mailed to it.
--
-- `users.email` is set only when its owner has followed the link mailed to that address, so
-- every stored address is one its owner reads (normalised: lower case); one account per
-- address. A deleted account's address is cleared with it.
ALTER TABLE users ADD COLUMN email TEXT;
ALTER TABLE users ADD COLUMN email_verified_at INTEGER;
CREATE UNIQUE INDEX IF NOT EXISTS users_email ON users (email);

-- The links mailed out, by the hash of their secret (the secret itself is only in the mail):
-- `verify` confirms `email` for the account, `reset` sets a new password. A link works once,
-- until `expires_at` (Unix ms), and a reset link only while the account's credentials are of
-- the generation it was made at (a password change since voids it).
CREATE TABLE IF NOT EXISTS mail_tokens (
    token_hash     TEXT PRIMARY KEY,
    user_id        TEXT NOT NULL,
    purpose        TEXT NOT NULL,
    email          TEXT NOT NULL,
    credential_gen INTEGER NOT NULL,
    created_at     INTEGER NOT NULL,
    expires_at     INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS mail_tokens_user ON mail_tokens (user_id, purpose);
