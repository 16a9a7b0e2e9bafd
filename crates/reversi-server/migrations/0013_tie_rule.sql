-- The tie rule of a game (issue 55): NULL for a draw (every preset), `second-wins` when the game
-- was made with the box edition's rule that the player who moved second wins a tie.
ALTER TABLE games ADD COLUMN tie TEXT;
