-- Takebacks between people (issue 53): the colour (`black`, `white`) that asks the other to take
-- back its last move, while the offer waits; NULL otherwise. Any move clears it.
ALTER TABLE games ADD COLUMN takeback TEXT;
-- Conditional premoves in correspondence games (issue 53): JSON of both sides'
-- `reversi_site::game::conditional::Conditional` (`[null, {"from": 12, "lines": [["e6", "f4"]]}]`);
-- NULL when neither side has left any.
ALTER TABLE games ADD COLUMN conditional TEXT;
