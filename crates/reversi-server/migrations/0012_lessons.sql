-- Lessons (issue 55): the lessons of /learn an account has finished, with when (Unix ms). The
-- lessons themselves are the binary's (`learn::catalog`); a guest's progress stays in the
-- browser. A deleted account's rows go with it.
CREATE TABLE IF NOT EXISTS lesson_progress (
    user_id     TEXT NOT NULL,
    lesson      TEXT NOT NULL,
    finished_at BIGINT NOT NULL,
    PRIMARY KEY (user_id, lesson)
);
