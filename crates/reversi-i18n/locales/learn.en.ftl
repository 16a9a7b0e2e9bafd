# Lessons of /learn (issue 55): the text of the interactive Reversi/Othello lessons, in English.
# learn.ru.ftl has the same messages. Three sections: rules, strategy, endgame. For each lesson ID:
# learn-ID-title (2–5 words), learn-ID-intro (one sentence for the list of lessons),
# learn-ID-p1 … p3 (the lesson; the last paragraph leads into the board exercises, whose own
# prompts are written elsewhere) and learn-ID-done (what to remember, said at the end).
# The lessons teach in the terms of the source texts (shared/seeds, RULES.md §1 and §5).
# No message has variables.

## Sections

learn-section-rules = The rules
learn-section-strategy = Strategy
learn-section-endgame = The endgame
learn-source = Lessons after the classic Russian texts on Reversi and Othello.

## Rules

learn-place-title = Placing a disc
learn-place-intro = How a move is made: flank your opponent’s discs and turn them.
learn-place-p1 = On your turn you put one disc of your colour on an empty square. The move must flank the opponent: in a straight line from the new disc there must be one or more of the opponent’s discs, with no gap, and then a disc of your own.
learn-place-p2 = Every flanked disc is turned over to your colour. Discs are never taken off the board: once placed, a disc stays there to the end of the game, though it may be turned any number of times.
learn-place-p3 = A square that turns nothing is not a move, even if it touches the opponent’s discs. Now find the squares where a new disc really flanks something.
learn-place-done = A move must turn at least one disc: no flank, no move.

learn-directions-title = All eight directions
learn-directions-intro = A move turns discs across, up and down, and along both diagonals.
learn-directions-p1 = Lines run from the new disc in eight directions: left and right along the row, up and down the column, and both ways along each of the two diagonals. In every direction where an unbroken run of the opponent’s discs ends in a disc of yours, the run is turned.
learn-directions-p2 = So one move can turn several lines at once, up to all eight. Look all around a square before you play: a line on a diagonal is easy to miss. The record is 18 discs turned by a single move.
learn-directions-p3 = Now find the moves that turn discs in more than one direction.
learn-directions-done = Check all eight directions from a square: every flanked line turns together.

learn-flips-title = Which discs turn
learn-flips-intro = Only lines through the new disc turn — there are no chain reactions.
learn-flips-p1 = Only the discs on straight lines between the new disc and your other discs are turned. A disc that has just been turned does not turn anything itself, even if it now flanks a line: there are no chain reactions.
learn-flips-p2 = To count a move, go from the new disc in each of the eight directions to your nearest disc and add up the opponent’s discs in between.
learn-flips-p3 = Now count, and find the move that turns the most discs. Why that is often not the best move, later lessons explain.
learn-flips-done = Turned discs do not turn others: count only the lines through the new disc.

learn-pass-title = Passing
learn-pass-intro = A player with no legal move passes — and only then.
learn-pass-p1 = If you have no legal move — no square where your disc would turn anything — you pass, and your opponent moves again. You pass for as long as you have no move; as soon as one appears, you must play.
learn-pass-p2 = A pass is forced, never chosen: if you have even one legal move, you must make it, however bad it is.
learn-pass-p3 = That makes a weapon: a move that leaves your opponent without a move gives you two moves in a row. Now find the moves that make your opponent pass.
learn-pass-done = You pass only when you have no move; leave your opponent without one and you play again.

learn-end-title = The end and the score
learn-end-intro = When the game ends, how it is scored, and the fastest wipe-out.
learn-end-p1 = The game ends when neither player can move — usually when all 64 squares are full, sometimes earlier. The player with more discs wins; equal counts are a draw.
learn-end-p2 = Empty squares left at the end go to the winner, so the score always adds up to 64: 33–24 on the board with 7 empty squares is written 40–24. A draw is always 32–32.
learn-end-p3 = A player who loses every disc loses at once: a wipe-out, scored 64–0. The shortest possible game, the “fool’s mate” of Reversi, is a wipe-out by Black in 9 moves, with 13 black discs on the board. Now work out who wins, and by what score.
learn-end-done = The score always adds up to 64: empty squares go to the winner, and a wipe-out is 64–0.

learn-notation-title = Naming squares and moves
learn-notation-intro = How squares are named and a game is written down.
learn-notation-p1 = Columns are lettered a to h from left to right, rows numbered 1 to 8 from the top: a1 is the top-left corner, h8 the bottom-right. At the start black discs stand on d5 and e4, white ones on d4 and e5, and Black moves first.
learn-notation-p2 = A game is written as its moves in order: f5 d6 c3 … Moves are numbered one by one, not in pairs as in chess: odd numbers are usually Black’s moves and even numbers White’s, until someone passes. Four squares are filled at the start, so a game lasts at most 60 moves.
learn-notation-p3 = Black’s four first moves, d3, c4, f5 and e6, are mirror images of one another, so all four are equally good. Now read and write a few squares and moves.
learn-notation-done = Column letter first, then the row counted from the top: a1 top-left, h8 bottom-right.

## Strategy

learn-corners-title = Corners
learn-corners-intro = A disc in a corner can never be turned: take the corners.
learn-corners-p1 = A corner disc can never be flanked — there is no square beyond it — so it keeps its colour to the end of the game: corners are forever. Taking a corner gives a serious advantage, and early in the game a decisive one.
learn-corners-p2 = Next to the corners the disc count means little: in an example from the source texts White has a single disc against 53 black ones, and still wins 64–0 in two moves, the second of them into a corner.
learn-corners-p3 = Now find the moves that take a corner.
learn-corners-done = Corners are forever: take them when you can, and don’t give them away.

learn-x-c-squares-title = X-squares and C-squares
learn-x-c-squares-intro = The squares next to an empty corner give the corner away.
learn-x-c-squares-p1 = The X-squares b2, g2, b7 and g7 touch a corner diagonally. A disc there while the corner is empty often lets the opponent flank along the diagonal and take the corner: it is the commonest way to lose one.
learn-x-c-squares-p2 = The C-squares are the edge squares next to a corner: a2, b1, g1, h2, a7, b8, g8 and h7. They are almost as dangerous: a disc there can open the way into the corner along the edge. Once the corner is filled, these become ordinary squares.
learn-x-c-squares-p3 = In O. Stepanov’s famous study White moves first and wins with very few discs on the board, because Black is forced onto an X-square and must give up the corner. Now find the moves that do not give a corner away.
learn-x-c-squares-done = Keep off the X- and C-squares next to an empty corner unless you have calculated that it is safe.

learn-mobility-title = Mobility
learn-mobility-intro = The number of moves you have matters more than the number of discs.
learn-mobility-p1 = Mobility is the number of legal moves a player has. A player with many moves can pick a good one; a player with few is often forced to play badly — onto an X-square, a C-square, or a square that opens an edge.
learn-mobility-p2 = So squeeze your opponent: cut down their moves while keeping your own. If they have only one move left, you are in effect choosing it for them; if they have none, they must pass and you move again, which is stronger still.
learn-mobility-p3 = Now find the moves that leave your opponent the fewest moves.
learn-mobility-done = Play for mobility, not for discs: fewer moves for the opponent, more for you.

learn-quiet-title = Frontier discs and quiet moves
learn-quiet-intro = Fewer discs is often better: play quiet moves.
learn-quiet-p1 = A frontier disc is a disc next to an empty square. Each frontier disc of yours gives the opponent something to flank — a possible move. So in the opening and the midgame fewer discs is often better: fewer targets for the opponent and more choices for you later.
learn-quiet-p2 = A quiet move turns few discs, inside your position, and adds no new frontier disc, so it gives the opponent no new moves. A move that turns many discs on the outside usually does the opposite and hands them moves everywhere.
learn-quiet-p3 = Now find the quiet moves: turn little, and keep your discs away from the empty squares.
learn-quiet-done = Fewer discs is often better: turn few, stay inside, add no frontier discs.

learn-stable-title = Stable discs
learn-stable-intro = Discs that can never be turned decide the game.
learn-stable-p1 = A stable disc can never be turned again, whatever is played. A corner disc is stable, and so is an unbroken row of your discs running along an edge from a corner. From the corners, stable discs grow along the edges and then inwards.
learn-stable-p2 = All other discs can change colour until the very end, so only the stable ones are truly yours. The player who builds more of them usually wins: they decide the result.
learn-stable-p3 = Now find the moves that make the most stable discs.
learn-stable-done = Only stable discs are sure: build them from the corners along the edges.

learn-edges-title = Edges and walls
learn-edges-intro = An edge disc is harder to take, but an edge must be played with care.
learn-edges-p1 = A disc on an edge can be flanked only along that edge, so it is much harder to take than a disc in the centre; that is why players strive for the edges and keep the opponent off them. But an edge disc next to an empty corner can open the way into the corner.
learn-edges-p2 = A long wall of your discs facing empty squares is a weakness: the opponent has moves all along it, and you have few. Keep your discs in compact groups, not in long lines beside the empty squares.
learn-edges-p3 = The source texts know the standard edge positions — what to aim for and what to avoid; knowing them, a strong player can foresee the result by move 30. Aim for edges that give you squares only you can play, and avoid those that open a corner. Now find the good moves on the edge.
learn-edges-done = Take edges that stay safe, open no corners, and build no walls facing empty squares.

learn-centre-title = The fight for the centre
learn-centre-intro = In the opening, fight in the centre and keep the opponent off the edges.
learn-centre-p1 = Experienced players open with a fight in the centre of the board, in the square c3–c6–f6–f3, and try to keep the opponent’s discs off the edges for as long as possible. The square has 16 squares, four of them filled at the start, so the first twelve moves can all be played inside it.
learn-centre-p2 = While the fight is in the centre, both sides have plenty of moves and no dangerous squares. Then the discs reach the edges one by one, and from that moment you must watch that the opponent does not slip into a corner.
learn-centre-p3 = Now find the moves that keep the game inside the centre square.
learn-centre-done = In the opening, fight inside c3–c6–f6–f3 and keep the opponent off the edges as long as you can.

learn-tempo-title = Tempo and reserve squares
learn-tempo-intro = A square only you can play is a spare move: keep it.
learn-tempo-p1 = A reserve square is a square you can play and the opponent cannot. Having one is very important: it is a spare move in hand — in chess terms, it wins a tempo. Don’t hurry to use it; keep it as long as you can, for the moment you need it.
learn-tempo-p2 = In any position a player has many bad moves and a few neutral ones. The aim is to make the opponent use up all the neutral moves and finally play a bad one. The standard technique is handing over the move: play a local fight so that at its end it is the opponent’s turn.
learn-tempo-p3 = Now find the moves that keep your reserve squares and hand the move over to your opponent.
learn-tempo-done = Keep your reserve squares and hand the move over: let the opponent run out of good moves first.

learn-phases-title = The three phases
learn-phases-intro = The opening, the midgame and the endgame call for different play.
learn-phases-p1 = The opening is the fight for the centre, roughly the first 15–20 moves, until the discs reach the edges. The midgame is the fight for edges, mobility and corners: whose good moves run out first.
learn-phases-p2 = In the endgame the variations become few, and the golden rule is not to hurry but to count: strong players and computers calculate the last 10–20 moves exactly, and parity decides who plays last in each region.
learn-phases-p3 = Now look at positions from each phase and find the move that suits it.
learn-phases-done = Opening: the centre; midgame: mobility, edges and corners; endgame: exact counting.

learn-openings-title = Named openings
learn-openings-intro = The first moves of many games have names.
learn-openings-p1 = As in chess, Reversi has named openings: sequences of first moves such as the Tiger, the Rose or the Buffalo. On this site the name of the opening is shown during a game as soon as the position reaches it.
learn-openings-p2 = There are far fewer openings than in chess, and they are easy to remember. Knowing a few lines five or six moves deep saves thinking time and keeps you away from moves known to lose.
learn-openings-p3 = In XOT every game starts from a random balanced opening of 8 moves, so learned openings give no advantage there — understanding does. Now play the first moves of a few named openings.
learn-openings-done = Learn a few opening lines to save time, but understanding counts for more — and in XOT only understanding counts.

## Endgame

learn-parity-title = Parity
learn-parity-intro = Whoever moves last in a region usually gains.
learn-parity-p1 = Near the end the empty squares split into separate regions. The last move in a region cannot be answered there, so whoever plays it usually gains: the discs it turns stay turned.
learn-parity-p2 = Hence the rule of parity: as a rule, play into regions with an odd number of empty squares and leave the even ones. After your move the region is even, and the last move in it tends to be yours.
learn-parity-p3 = Parity is a rule of thumb, not a law: a corner or a pass can upset it. Now find the moves that keep the last move in each region for you.
learn-parity-done = Play into odd regions, leave even ones, and aim to make the last move.

learn-counting-title = Counting the endgame
learn-counting-intro = With few empty squares left, calculate the final score of each move.
learn-counting-p1 = With few empty squares left, everything can be calculated: for each move, play the best replies out to the end and count the final score. Strong players do this over the last 10–20 moves, computers over even more.
learn-counting-p2 = The best move is the one with the best final score, not the one that turns the most discs now: a move that takes many discs can let the opponent turn them all back, or hand them the last move.
learn-counting-p3 = Now count, and find the move with the best final score.
learn-counting-done = In the endgame count the final score: the most discs now is not the best result.

# The pages of /learn: the list, an exercise, the verdicts. `$value`/`$target` are a move's
# measure by the goal and the best any move reaches; `$score`/`$best` the same with a sign.
learn-page-title = Learn Reversi
learn-page-intro = Short lessons, each one idea: read it, then do it on the board until it is right. The site checks every move.
learn-progress = { $done } of { $n } lessons done
learn-start = Start the first lesson
learn-continue = Go on with the next lesson
learn-guest = Your progress is kept in this browser. Sign in to keep it on every device.
learn-finished = finished
learn-all = All lessons
learn-about-link = The history of the game
learn-exercise = Exercise { $n } of { $total }
learn-you-play = You play { $color ->
    [black] black
   *[white] white
  }.
learn-goal-legal = Make a move: put a disc where it turns at least one of your opponent’s discs.
learn-goal-square = Play { $square }.
learn-goal-opening = Go on with the { $opening }: play its next move.
learn-goal-most-directions = Find the move that turns discs in the most directions at once.
learn-goal-most-flips = Find the move that turns the most discs.
learn-goal-corner = Take a corner.
learn-goal-safe-corners = Find the move that gives your opponent no corner to take.
learn-goal-fewest-replies = Leave your opponent as few moves as you can.
learn-goal-opponent-passes = Leave your opponent without a move: they must pass.
learn-goal-wipeout = Wipe your opponent out: leave them no disc at all.
learn-goal-quiet = Play the quietest move: the one that leaves you the fewest frontier discs.
learn-goal-most-stable = Make as many of your discs stable as you can.
learn-goal-exact = Find the best move: count to the end of the game.
learn-goal-exact-line = Play the best moves to the end: { $n } moves of yours; the computer answers each one.
learn-goal-engine = Find a good move: one the engine rates within two discs of its best.
learn-right = Right!
learn-wrong = Not this one.
learn-go-on = { $n ->
    [one] One more move.
   *[other] { $n } more moves.
  }
learn-illegal = { $move } turns no disc: it is not a move. Try another square.
learn-answers = { $n ->
    [one] The right move: { $moves }.
   *[other] The right moves: { $moves }.
  }
learn-restart = Start again
learn-show = Show me
learn-next-exercise = Next exercise
learn-lesson-done = Lesson done
learn-next-lesson = Next: { $title }
learn-puzzles = Puzzles: { $theme }
learn-right-legal = It turns { $flips ->
    [one] one disc
   *[other] { $flips } discs
  }.
learn-right-most-directions = It turns discs in { $value ->
    [one] one direction
   *[other] { $value } directions
  } — no move turns more.
learn-wrong-most-directions = It turns discs in { $value ->
    [one] one direction
   *[other] { $value } directions
  }; one move turns { $target }.
learn-right-most-flips = It turns { $value ->
    [one] one disc
   *[other] { $value } discs
  } — no move turns more.
learn-wrong-most-flips = It turns { $value ->
    [one] one disc
   *[other] { $value } discs
  }; one move turns { $target }.
learn-wrong-square = That is { $move }, not { $square }.
learn-wrong-opening = The opening goes on with another move.
learn-right-corner = A corner can never be turned again.
learn-wrong-corner = { $move } is not a corner: the corners are a1, h1, a8 and h8.
learn-right-safe-corners = Your opponent cannot take a corner now.
learn-wrong-safe-corners = After it your opponent can take { $value ->
    [one] a corner
   *[other] { $value } corners
  }.
learn-right-fewest-replies = Your opponent has { $value ->
    [one] only one move
   *[other] only { $value } moves
  }.
learn-wrong-fewest-replies = It leaves your opponent { $value ->
    [one] one move
   *[other] { $value } moves
  }; the best move leaves { $target }.
learn-right-opponent-passes = Your opponent has no move and must pass.
learn-wrong-opponent-passes = Your opponent still has { $value ->
    [one] a move
   *[other] { $value } moves
  }.
learn-right-wipeout = No disc of your opponent’s is left: the game is over, 64–0.
learn-wrong-wipeout = Your opponent keeps { $value ->
    [one] one disc
   *[other] { $value } discs
  }.
learn-right-quiet = You have { $value ->
    [one] one frontier disc
   *[other] { $value } frontier discs
  } — the fewest any move leaves.
learn-wrong-quiet = It leaves you { $value ->
    [one] one frontier disc
   *[other] { $value } frontier discs
  }; the quietest move leaves { $target }.
learn-right-most-stable = You have { $value ->
    [one] one stable disc
   *[other] { $value } stable discs
  } now.
learn-wrong-most-stable = It gives you { $value ->
    [one] one stable disc
   *[other] { $value } stable discs
  }; the best move gives { $target }.
learn-right-exact = With best play from here the game ends { $score } for you.
learn-wrong-exact = With best play it ends { $score } for you; the best move ends { $best }.
learn-right-engine = The engine rates it { $score } for you.
learn-wrong-engine = The engine rates it { $score } for you; its best move gets { $best }.
learn-openings-table = The named openings ({ $n }): open one on the analysis board
learn-opening-name = Opening
learn-opening-moves = Moves
