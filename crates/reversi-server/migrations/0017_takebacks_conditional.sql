-- Takebacks between people (issue 53): the colour (`black`, `white`) that asks the other to take
-- back its last move, while the offer waits; NULL otherwise. Any move clears it.
ALTER TABLE games ADD COLUMN takeback TEXT;
