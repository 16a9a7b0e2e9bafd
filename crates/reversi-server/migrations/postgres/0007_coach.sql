-- The coach's sentences about each analysed move (issue 32): a JSON array of
-- {"id": "coach-…", "args": {…}} (Fluent messages of the locale files); NULL for analyses
-- made before the coach.
ALTER TABLE analysis_moves ADD COLUMN facts TEXT;
