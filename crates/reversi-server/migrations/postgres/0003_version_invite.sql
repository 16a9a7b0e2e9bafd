-- The PostgreSQL version of ../0003_version_invite.sql (BIGINT integers).
ALTER TABLE games ADD COLUMN version BIGINT NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN join_token TEXT;
ALTER TABLE games ADD COLUMN ended TEXT;
UPDATE games SET join_token = md5(random()::text || clock_timestamp()::text || id)
 WHERE mode = 'friend' AND status = 'playing'
   AND ((black_player = 'human' AND black_token IS NULL) OR (white_player = 'human' AND white_token IS NULL));
