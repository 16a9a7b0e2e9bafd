# The words of Reversi in English. One file per language: ru.ftl has the same messages.
# Sections: shared words; variants; the printed sheets and pictures (reversi-render); the
# terminal game (reversi play); the web app's server pages; the web app (web-*).

## Shared words

-brand = Reversi
color-black = Black
color-white = White
discs-count = { $n ->
    [one] { $n } disc
   *[other] { $n } discs
}
squares-count = { $n ->
    [one] { $n } square
   *[other] { $n } squares
}

## Variants (RULES.md §4)

variant-othello = Othello
variant-nxn = Othello { $n }×{ $n }
variant-nxn-parallel = Othello { $n }×{ $n }, side-by-side start
variant-grand = Grand Othello (10×10)
variant-eight-stars = Eight Stars
variant-black-hole = Black Hole
variant-black-hole-at = Black Hole (hole at { $square })
variant-anti = Anti-Othello
variant-xot = XOT
variant-xot-line = XOT, opening No. { $line }
variant-reversi-1880 = Reversi (1880)
variant-reversi-1880-white = Reversi (1880), White first

## Rules sheets (the printed kit and the web app's rules page)

rules-equipment = You need: the board of { $width }×{ $height } ({ squares-count }) and { discs-count }, black on one side and white on the other. Two players: one plays Black, the other White.
rules-eight-stars = The board is 10×10 with three squares cut from each corner. The missing squares are not part of the board: no line runs through them, so the squares next to the cuts (c1, a3 and the like) can never be turned over.
rules-black-hole = Square { $square } is a black hole (marked on the board). Nobody may play there, and it breaks every line through it: discs on one side of it cannot flank discs on the other.
rules-free-centre = Start: the board is empty. { $color ->
    [black] Black moves first.
   *[white] White moves first.
} The first four moves (two each, in turn) go on the four centre squares ({ $squares }) and turn nothing over. Each player has a supply of 32 discs; a player who has none left passes.
rules-start = Start: black discs on { $black }, white discs on { $white }.
rules-start-xot = This is the position after the XOT opening { $line } from the usual start.
rules-start-first = { $color ->
    [black] Black moves first.
   *[white] White moves first.
}
rules-move = A move: put a disc with your colour up on an empty square so that, in at least one straight line (across, up and down, or diagonal), one or more of your opponent's discs lie between it and another disc of yours, with no gaps. Every such line in all eight directions is turned over to your colour. A square that turns nothing over is not a move.
rules-pass = If you can move, you must. If you cannot, you pass and your opponent moves again. The game ends when neither player can move, usually when the board is full.
rules-goal-most = Count the discs: the player with more discs wins. Empty squares are added to the winner's count; equal counts are a draw.
rules-goal-fewest = Count the discs: the player with FEWER discs wins. Empty squares are added to the winner's count; equal counts are a draw.
rules-notation = Squares are named by column letter and row number: a1 is the top-left corner. Write a game down as its moves in order, e.g. f5 d6 c3.

## Print-and-play kit, diagrams and charts

kit-board-square = Board square: { $mm } mm
kit-rules = Rules
kit-start-position = Start position
kit-discs-black = Discs: black faces (front)
kit-discs-black-note = Print two-sided, flipping on the long edge (or glue this page back to back with the next one), then cut along the dashed lines.
kit-discs-white = Discs: white faces (back, mirrored)
kit-discs-white-note = This page is the back of the previous one: its discs are mirrored so they line up.
kit-discs-on-page = Discs on this page: { $n }
diagram-side = { $color ->
    [black] Black
   *[white] White
}
diagram-title-record = { $variant } — game record
diagram-title-start = { $variant } — start
diagram-title-after = { $variant } — after move { $n }
diagram-result = Result: { $black }–{ $white }
diagram-result-text = Result: { $result }
diagram-to-move = To move: { $color ->
    [black] black
   *[white] white
}
diagram-ending = { $margin }{ $ending ->
    [resigned] {" "}(resigned)
    [time] {" "}(time)
    [agreed] {" "}(agreed)
   *[normal] {""}
}
diagram-no-passes = No passes.
diagram-passes = Passes: { $list }.
diagram-pass-item = after move { $n } ({ $color ->
    [black] black
   *[white] white
})
chart-title = Evaluation after each move (discs, Black's view)
chart-move = move
chart-black-ahead = Black ahead
chart-white-ahead = White ahead

## The terminal game (reversi play)

play-color = { $color ->
    [black] Black (X)
   *[white] White (O)
}
play-counts = Black (X): { $black }   White (O): { $white }
play-to-move = { play-color } to move
play-prompt = Your move, { play-color } (or help):{" "}
play-last-move = Last move: { play-color } { $square }, flipped: { $flipped }
play-pass = { play-color } has no legal move and passes.
play-ai-move = The computer, { play-color }, plays { $square } (evaluation { $score }).
play-thinking = The computer is thinking…
play-result-draw = Game over: a draw, { $black }–{ $white }.
play-result-tie-win = Game over: a tie, { $black }–{ $white }; { play-color } moved second and wins by the tie rule.
play-lot = By lot you play { $color ->
    [black] black (X)
   *[white] white (O)
}.
play-result-win = Game over: { play-color } wins { $black }–{ $white } (+{ $margin }).
play-after-end = You can: undo, save FILE, load FILE, quit.
play-unreadable = That line could not be read (not UTF-8 text, or far too long). Type a square such as d3, or help.
play-not-understood = `{ $input }` is neither a square nor a command. Type a square such as d3, or help.
play-off-board = { $square } is not a square of this board.
play-illegal = { $square } is not a legal move. Legal moves: { $legal }.
play-nothing-to-undo = There is nothing to undo.
play-nothing-to-redo = There is nothing to redo.
play-needs-file = { $command } needs a file name: { $command } FILE.
play-saved = Game saved to { $path }.
play-loaded = Game loaded from { $path }.
play-file-error = Problem with { $path }: { $error }
play-hints = Hint (best moves, evaluation in discs): { $list }
play-bye = Goodbye!
play-help =
    Commands:
      d3          play a move (column a-h, row 1-8)
      hint [N]    the best moves with evaluations
      undo        take back a move (to your previous turn)
      redo        replay an undone move
      save FILE   save the game (.ggf: GGF, otherwise a transcript)
      load FILE   load a game (GGF or a transcript)
      board       show the board
      quit        leave
      help        this list
    On the board: X black, O white, * a legal move, [X] the last move, x/o the discs it flipped.

## Server pages

page-not-found-title = Page not found
page-not-found = There is no page at this address.
page-go-home = Go to the home page
page-method-not-allowed = This address is a page: it can only be read (GET).

## The web app: page frame and home

web-title = Reversi
web-nav-play = Play
web-nav-archive = Archive
web-nav-rules = Rules
web-nav-learn = Learn
web-answer-square = the right move
web-better-square = a better move was here
web-coach-lesson = Lesson
web-close = Close
web-theme-auto = Colours: as the system (click for light)
web-theme-light = Colours: light (click for dark)
web-theme-dark = Colours: dark (click to follow the system)
web-sound-on = Move sounds on (click to turn off)
web-sound-off = Move sounds off (click to turn on)
web-hero-title = Play Reversi
web-hero-play = Play the first move: you are Black against the computer, { $strength }
web-featured-game = Featured game
web-hero-lead = The classic game of Othello, with every variant: against the computer at the strength you like, with a friend by link, or face to face.
web-play-computer = Play the computer
web-more-options = Colour, variant and exact level
web-your-color = Your colour
web-color-black = Black
web-color-white = White
web-color-random = Random
web-variant = Variant
web-rules-of-variant = Rules of this variant
web-exact-level = Level
web-play-level = Play at this level
web-strength-beginner = Beginner
web-strength-novice = Novice
web-strength-casual = Casual
web-strength-club = Club player
web-strength-strong = Strong
web-strength-expert = Expert
web-strength-master = Master
web-strength-champion = Champion
web-strength-level = { $strength } (level { $level })
web-level-n = level { $level }
web-play-friend = Play a friend
web-play-friend-lead = Get a link to send; the game starts when your friend opens it and takes the seat.
web-create-invite = Create an invite link
web-play-local = Two players, one device
web-play-local-lead = Take turns on this screen.
web-start-local = Start
web-your-games = Your games
web-no-games-yet = No games yet: start one above.
web-recent-finished = Just finished
web-to-archive = All finished games →
web-start-position = Start position
web-opening = Opening: { $name }
web-go-home = Home page

## Players and results

web-player-you = You
web-player-friend = Your friend
web-player-invited = Waiting for your friend
web-player-you-invited = You (invited)
web-player-free-seat = Free seat
web-friend-waits-for-you = Your friend is waiting for you.
web-player-person = Player
web-player-computer = Computer · { $strength }
web-status-playing = in progress
web-status-aborted = aborted
web-status-abandoned = abandoned
web-status-closed = closed by a moderator

## The game page

web-board = Board
web-game-panel = Game
web-disc-black = black
web-disc-white = white
web-square-missing = not part of the board
web-legal-square = you can play here
web-last-move = last move
web-hint-value = hint { $score }
web-hint-best = the best move
web-discs-of = { $color ->
    [black] Black
   *[white] White
}: { discs-count }
web-supply = { $n } left
web-supply-title = Discs left in the supply
web-mode-ai = Against the computer: { $strength }
web-mode-friend = Against a friend
web-mode-local = Two players on this device
web-rules = Rules
web-game-not-found = Game not found
web-game-over = Game over
web-game-aborted = The game was aborted: no result.
web-game-abandoned = Nobody moved for a week: the game was closed without a result.
web-game-closed = A moderator closed this game: it has no result.
web-computer-thinking = The computer is thinking…
web-waiting-friend = Waiting for your friend to open the invite link…
web-waiting-seat = Waiting for the second player.
web-your-turn = Your move
web-turn-of = { $color ->
    [black] Black to move
   *[white] White to move
}
web-passed = { $color ->
    [black] Black had no legal move and passed.
   *[white] White had no legal move and passed.
}
web-reconnecting = Reconnecting…
web-live = live
web-invite-text = Send this link to your friend; the game starts when they open it and take their seat:
web-invite-link = Invite link
web-invite-copied = The invite link was copied.
web-invited = You are invited to play this game as { $color ->
    [black] Black
   *[white] White
}.
web-join = Play as { $color ->
    [black] Black
   *[white] White
}
web-invite-only = This game waits for the friend who has its invite link. You can watch.
web-pass = pass
web-no-moves-yet = No moves yet.
web-preset-moves = XOT opening (played before the game)
web-viewing-start = You are looking at the start position.
web-viewing-move = You are looking at move { $n } of { $total }.
web-back-to-game = Back to the game
web-hint = Hint
web-undo = Take back
web-abort = Abort
web-resign = Resign
web-confirm-resign = Resign this game?
web-resign-yes = Yes, resign
web-resign-no = Keep playing
web-rematch = Rematch (colours swapped)
web-play-rematch = Play the rematch
web-rematch-offer = Your opponent started a rematch with the colours swapped.
web-new-game = New game
web-review = Replay and analyse
web-watch-rematch = Watch the rematch
web-download-ggf = Download (GGF)
web-copy-moves = Copy the moves
web-copy = Copy
web-copied = Copied.
web-keys-game = Keys: Tab to the board, arrows between squares, Enter to play (or type a move in the box); ← → elsewhere look back through the moves; H hint, U take back.
web-keys-history = Keys: ← → look back through the moves, Home and End jump to the start and the end.

## Archive and replay

web-archive = Archive
web-archive-title = Finished games
web-archive-empty = No finished games yet.
web-col-date = Date
web-col-variant = Variant
web-col-players = Players
web-col-result = Result
web-col-moves = Moves
web-col-analysis = Analysis
web-analysis-state-none = —
web-analysis-state-queued = queued
web-analysis-state-running = running
web-analysis-state-done = done
web-analysis-state-failed = failed
web-newer = ← Newer
web-older = Older →
web-page-of = { $first }–{ $last } of { $total }
web-replay = Replay
web-step-first = Start position
web-step-prev = Previous move
web-step-next = Next move
web-step-last = Last position
web-move-of = Move { $n } of { $total }
web-keys-replay = Keys: ← → step through the moves, Home and End jump to the start and the end.
web-analysis = Analysis
web-analyse = Analyse this game
web-analysis-none-yet = Not analysed yet.
web-analysis-queued = The analysis is queued…
web-analysis-running = Analysing… { $done } of { $total } moves
web-analysis-tab-engine = Engine
web-analysis-tab-db = Database
web-explorer-open = Database
web-explorer-standard-only = The database holds standard Othello games from the start position.
web-explorer-player = Player
web-explorer-tournament = Tournament
web-explorer-from = From year
web-explorer-to = To year
web-explorer-source = Source
web-explorer-source-all = All sources
web-explorer-source-wthor = WTHOR
web-explorer-source-ggf = GGF files
web-explorer-source-site = This site
web-explorer-total = { $n ->
    [one] One game reached this position.
   *[other] { $n } games reached this position.
}
web-explorer-none = No game of the database reached this position.
web-explorer-empty = The game database is empty. Load the WTHOR games (137,548 tournament games, in data/wthor) with: reversi db import data/wthor
web-explorer-move = Move
web-explorer-count = Games
web-explorer-share = Share
web-explorer-results = Black wins · draws · losses
web-explorer-results-short = Black W·D·L
web-explorer-wdl = Black won { $w }, drew { $d }, lost { $l }
web-explorer-mean = Mean
web-explorer-players = Played by
web-explorer-games = Games
web-explorer-more = More games
web-coach = Why
web-analysis-done = Analysed by the engine (level { $level })
web-analysis-failed = The analysis failed; ask for it again.
web-chart-alt = Evaluation after each move, from Black's side
web-total-loss = Total loss
web-mistakes = Mistakes
web-largest = Largest mistakes
web-verdict-loss = { $move } ({ $color ->
    [black] Black
   *[white] White
}) scores { $score }; the engine's { $best } scores { $bestScore }: { discs-count } lost.
web-verdict-best = { $move } ({ $color ->
    [black] Black
   *[white] White
}) scores { $score }: the best move.
web-rules-example-hole = Each new game of this variant picks its own hole; the rules below show one example.
web-rules-example-opening = Each new game of this variant picks its own opening; the rules below show one example.

## Errors (by the code the server answers with)

error-generic = Something went wrong; please try again.
error-engine-failed = The engine on this device stopped. It starts again by itself: try once more, or choose the server's engine.
error-engine-unavailable = This browser cannot run the engine (it needs WebAssembly and workers): the server's engine does the work while there is a connection.
error-offline = The server cannot be reached. Check your connection; the page tries again by itself.
error-bad-request = The request was not understood.
error-no-seat = Only the players can do this.
error-not-your-seat = Only the players can do this.
error-not-your-turn = It is not your turn.
error-illegal-move = That move is not allowed.
error-game-over = The game is over.
error-stale-ply = The game moved on meanwhile; try again.
error-not-finished = The game is not finished yet.
error-not-found = There is no such game.
error-rate-limited = Too many requests; wait a moment.
error-too-large = That is too long.
error-unsupported-media-type = The request was not understood.
error-foreign-origin = Requests from other sites are not accepted.
error-method-not-allowed = The request was not understood.
error-internal = The server had a problem; please try again.
error-database = The server had a problem; please try again.
error-seats-taken = Both seats are taken; you can watch.
error-waiting-for-friend = Your friend has not joined yet: the game starts when they open the invite link.
error-abort-instead = Nobody has joined yet: abort the game instead.
error-cannot-abort = Both players have moved: the game can no longer be aborted.
error-nothing-to-undo = There is nothing of yours to take back.
error-undo-vs-computer-only = Moves can be taken back only against the computer.
error-no-hints = Hints are for games against the computer.
error-analysis-not-done = The analysis is not done yet.
error-game-changed = The game changed meanwhile; try again.
error-time-out = Your time ran out before the move arrived.
error-not-signed-in = Sign in first.
error-wrong-credentials = Wrong username or password.
error-login-throttled = Too many failed sign-ins; wait a few minutes.
error-signup-throttled = Too many accounts made from here; try again later.
error-name-taken = This name, or one that looks the same, is taken.
error-username-length = A username has 2 to 20 characters.
error-username-character = A username uses Latin letters, digits, “-” and “_” only.
error-username-start = A username starts with a letter or a digit.
error-username-end = A username ends with a letter or a digit.
error-username-separators = A username cannot have two “-” or “_” in a row.
error-username-reserved = This name is reserved.
error-password-short = A password has at least 8 characters.
error-password-long = That password is too long.
error-password-is-username = The password cannot be the username.
error-seek-rated-needs-account = Rated games need an account: sign in, or make the game casual.
error-seek-correspondence-needs-account = Correspondence games need an account: sign in, or choose a real-time control.
error-seek-not-rated-variant = This variant is played casual only.
error-seek-bots-only = Two bots cannot play a rated game.
error-seek-range = The rating range is not valid.
error-seek-own = That is your own seek.
error-seek-out-of-range = Your rating is outside the range this player asked for.
error-seek-gone = This seek is gone: someone accepted it first, or it was cancelled.
error-seek-limit = You have the most open seeks already: cancel one first.
error-unknown-host = This server does not serve that address.
error-email-invalid = This is not an e-mail address (name@example.org).
error-email-taken = Another account has this e-mail address: give another, or reset that account’s password.
error-email-throttled = Too many letters asked for; wait a few minutes.
error-link-expired = This link has expired or has been used; ask for a new one.
error-mail-unavailable = This site sends no mail; ask the site’s host for help.
error-reset-throttled = Too many password resets asked for; wait a few minutes.
error-account-disabled = This account was disabled by a moderator.
error-muted = A moderator has muted you: you cannot chat for now.
error-blocked = This player does not take challenges or messages from you.
error-not-moderator = Only a moderator may do this.
error-report-reason = Choose why you report this player.
error-report-text = Say in at most 500 characters what happened.
error-report-throttled = You have sent many reports lately; wait before the next.
error-people-limit = You follow or block as many players as one account may (1,000).
error-yourself = You cannot do this to yourself.
error-game-quota = Too many new games from your network this hour; try again later.
error-analysis-limit = You have the most analyses waiting already: ask again when one is done.
error-analysis-busy = The analysis queue is full; try again in a few minutes.
error-import-quota = The daily quota of imported games is used up; try again tomorrow.
error-body-timeout = The request took too long to arrive; try again.
error-bad-control = That time control is not valid.
error-not-for-you = This challenge is for another player.
error-chat-empty = The message is empty.
error-chat-long = A message has at most 140 characters.
error-chat-character = The message has characters that are not allowed.
error-chat-flood = You are sending messages too fast.
error-chat-repeat = You have just sent that.
error-chat-closed = The chat is closed here.
error-guests-no-chat = Sign in to chat.

## Online play: accounts, lobby, clocks, chat, profiles

web-nav-lobby = Lobby
web-nav-players = Players
web-sign-in = Sign in
web-sign-up = Sign up
web-sign-out = Sign out
web-settings = Settings
web-username = Username
web-password = Password
web-username-rules = 2 to 20 Latin letters, digits, “-” or “_”; it cannot be changed later.
web-password-rules = At least 8 characters.
web-have-account = Have an account? Sign in
web-no-account = New here? Make an account
web-play-online = Play people online
web-to-lobby = Open the lobby: seeks, challenges and games being played
web-lobby = Lobby
web-quick-pairing = Quick pairing
web-pool-waiting = { $n ->
    [0] nobody waiting
    [one] { $n } player waiting
   *[other] { $n } players waiting
}
web-pool-searching = Looking for an opponent… (click to stop)
web-pool-range = your rating ±{ $gap }, widening
web-pool-anyone = any rating now
web-speed-bullet = Bullet
web-speed-blitz = Blitz
web-speed-rapid = Rapid
web-speed-classical = Classical
web-speed-correspondence = Correspondence
web-category-bullet = Bullet
web-category-blitz = Blitz
web-category-rapid = Rapid
web-category-classical = Classical
web-category-correspondence = Correspondence
web-category-xot = XOT
web-category-grand = Grand Othello
web-category-anti = Anti-Othello
web-create-seek = Make a seek
web-create-seek-button = Seek a game
web-time-control = Time
web-rated = Rated
web-casual = Casual
web-rated-needs-account = Rated (sign in to play rated games)
web-challenge-player = Challenge a player (optional)
web-challenge-placeholder = username
web-open-seeks = Open seeks
web-no-seeks = No open seeks: make one, or wait in a pool.
web-player = Player
web-mode = Game
web-their-color = Their colour
web-accept = Play
web-cancel = Cancel
web-live-games = Games being played
web-no-live-games = Nobody is playing right now.
web-watchers = { $n ->
    [one] { $n } watching
   *[other] { $n } watching
}
web-bot = BOT
web-player-guest = Guest
web-player-deleted = Deleted player
web-clock-of = { $color ->
    [black] Black's clock
   *[white] White's clock
}
web-connected = Connected
web-not-connected = Not connected
web-opponent-left = Your opponent has left the game.
web-opponent-left-wait = The game waits for them; their clock decides.
web-claim-in = You can claim the win in { $s } s, or wait.
web-claim-or-wait = You can claim the win, or wait for them.
web-claim-win = Claim the win
web-spectators = { $n ->
    [one] { $n } spectator
   *[other] { $n } spectators
}
web-first-move-in = { $color ->
    [black] Black
   *[white] White
} must make a first move within { $time }, or the game is aborted.
web-chat = Chat
web-chat-players = Players' chat
web-chat-spectators = Spectators' chat
web-chat-say = Write a message
web-chat-send = Send
web-no-such-player = No such player
web-member-since = Playing here since { $date }
web-ratings = Ratings
web-no-rated-games = No rated games yet.
web-rated-games = { $n ->
    [one] { $n } rated game
   *[other] { $n } rated games
}
web-rating-chart = Rating after each rated game
web-results-by-color = Results by colour
web-with-color = { $color ->
    [black] With Black
   *[white] With White
}
web-wins = Wins
web-draws = Draws
web-losses = Losses
web-playing-now = Playing now
web-games = Games
web-all-results = All results
web-both-colors = Both colours
web-with-black = With Black
web-with-white = With White
web-no-games-found = No games.
web-leaderboard = Leaderboard
web-categories = Categories
web-leaderboard-empty = Nobody is established in this category yet (a rating stops being provisional after a few rated games).
web-rating = Rating
web-change-password = Change the password
web-current-password = Current password
web-new-password = New password
web-password-changed = Password changed; your other sessions are signed out.
web-chat-off = Turn chat off (no messages to or from you)
web-country = Country
web-country-none = Not shown
web-country-lead = Its flag is shown beside your name on your profile, on the leaderboards and in the games you begin from now on.
web-saved = Saved.
web-bot-account = Bot account
web-bot-lead = Make this account a bot: an engine then plays for it through the API (`reversi bot`). Bots are marked as such everywhere. This cannot be undone.
web-make-bot = Make it a bot and show its token
web-bot-token = The bot's token (shown once):
web-bot-howto = Run: reversi bot --server URL --token TOKEN
web-delete-account = Delete the account
web-delete-lead = Your games stay, shown as a deleted player; the name stays taken.

## Tournaments
web-nav-tournaments = Tournaments
web-tournaments = Tournaments
web-tournament = Tournament
web-t-running = Running now
web-t-upcoming = Upcoming
web-t-finished = Finished
web-t-none = None.
web-t-private = BY INVITATION
web-t-players = { $n ->
    [one] { $n } player
   *[other] { $n } players
}
web-t-swiss-rounds = { $n ->
    [one] Swiss · { $n } round
   *[other] Swiss · { $n } rounds
}
web-t-arena-minutes = Arena · { $n } min
web-t-round-robin = Round robin
web-t-double-round-robin = Double round robin
web-t-create = Hold a tournament
web-t-sign-in-to-create = sign in to hold a tournament.
web-t-default-name = { $name }'s tournament
web-t-name = Name
web-t-format = Format
web-t-format-swiss = Swiss
web-t-format-round_robin = Round robin
web-t-format-arena = Arena
web-t-rounds = Rounds
web-t-minutes = Minutes
web-t-cycles = Cycles (1 single, 2 double)
web-t-starts-in = Starts in (minutes)
web-t-min-rating = Lowest rating
web-t-allow-bots = Bots may enter
web-t-invite-only = By invitation link only
web-t-create-button = Create the tournament
web-t-by = organised by { $name }
web-t-round-of = Round { $n } of { $total }
web-t-round = Round { $n }
web-t-status-upcoming = Not started
web-t-status-running = Running
web-t-status-paused = Paused by the organiser
web-t-status-finished = Finished
web-t-status-cancelled = Cancelled
web-t-status-aborted = Aborted
web-t-status-abandoned = Abandoned
web-t-join = Join
web-t-rejoin = Come back
web-t-withdraw = Withdraw
web-t-sign-in-to-join = Sign in to join
web-t-your-game = Your game
web-t-pause = Pause
web-t-resume = Resume
web-t-cancel = Cancel the tournament
web-t-cancel-confirm = Cancel this tournament for everyone?
web-t-remove = Remove
web-t-remove-confirm = Remove { $name } from the tournament?
web-t-invite-link = Invitation link
web-t-download = Download { $what }
web-t-standings = Standings
web-t-points = Points
web-t-bq = BQ
web-t-discs = Discs
web-t-on-fire = On fire: wins score double
web-t-withdrawn = (withdrawn)
web-t-no-players = Nobody has joined yet.
web-t-recent-games = Latest games
web-t-round-games = Round { $n }
web-t-not-started = The pairings appear when the tournament starts.
web-t-no-games = No games yet.
web-t-playing = playing…
web-t-forfeit = (forfeit)
web-t-bye = Bye: { $names }
web-t-all-rounds = Every round
web-t-crosstable = Crosstable
web-t-crosstable-note = Each cell: the row player's points against the column player, and the discs of each. BQ (Brightwell quotient) = discs + 6 × the opponents' points; ties are broken by points, then BQ, then discs.
web-t-back = ← The tournament
web-t-games-of = Games of { $name }
error-no-rematch = Tournament games have no rematch: the tournament pairs the next game.
error-account-required = Sign in to enter a tournament.
error-not-rated-variant = Games of this variant are casual only.
error-tournament-name = A tournament's name has 3 to 60 characters.
error-tournament-rounds = A Swiss has 1 to 15 rounds.
error-tournament-cycles = A round robin is single (1) or double (2).
error-tournament-minutes = An arena lasts 5 to 360 minutes.
error-tournament-correspondence = Tournament games are played live: choose a clock in minutes and seconds.
error-tournament-start = A tournament starts between now and 30 days from now.
error-tournament-max-players = A tournament takes 2 to 1000 players.
error-tournament-closed = Entries to this tournament are closed.
error-tournament-full = The tournament is full.
error-tournament-rating = Your rating is below this tournament's lowest.
error-tournament-invite-only = This tournament is by invitation: use the link the organiser shared.
error-tournament-no-bots = This tournament does not take bots.
error-tournament-not-organiser = Only the organiser may do this.
error-tournament-state = This cannot be done at this stage of the tournament.
error-tournament-removed = The organiser took you out of this tournament.
error-tournament-limit = You organise five tournaments that are not over yet: wait for one to end.
error-database-in-use = The database is in use: stop the server first.

## The analysis board
web-nav-analysis = Analysis
web-analysis-board = Analysis board
web-analysis-open = Analyse
web-analysis-kind-book = book
web-analysis-kind-exact = exact
web-analysis-kind-wld = win/loss/draw
web-analysis-depth = depth { $n }
web-analysis-thinking = Thinking… depth { $n }
web-analysis-settled = Done
web-analysis-where = Engine
web-analysis-on-device = on this device
web-analysis-on-server = on the server
web-analysis-to-move = { $color ->
    [black] Black to move
   *[white] White to move
}
web-analysis-must-pass = { $color ->
    [black] Black must pass
   *[white] White must pass
}
web-analysis-game-over = Game over: { $score } for Black
web-analysis-delete = Delete variation
web-analysis-paste = Paste a game or a position
web-analysis-paste-hint = A transcript (f5d6c3…), a board string (64 squares and X or O), or GGF
web-analysis-load = Load
web-analysis-edit = Set up a position
web-analysis-edit-hint = Click a square: empty → black → white → empty.
web-analysis-side = Side to move
web-analysis-clear = Clear the board
web-analysis-edit-done = Analyse this position
web-analysis-graph = Evaluation along the line, for Black
web-analysis-keys = Keys: ← → along the line, ↑ ↓ between variations, Home to the start, Delete removes a variation.
web-analysis-import = Open as replays
web-analysis-imported-game = Game { $n } ({ $moves ->
    [one] { $moves } move
   *[other] { $moves } moves
})

## The coach (reversi_engine::coach): one sentence per computed fact
coach-loss = This move loses { $discs ->
    [one] one disc
   *[other] { $discs } discs
} against the best move, { $best }.
coach-best = This is the best move.
coach-as-good = As good as the engine's move, { $best }.
coach-own-mobility = { $color ->
    [black] Black
   *[white] White
} then has { $after ->
    [one] one move
   *[other] { $after } moves
} of its own; after { $best } it would have { $best_after }.
coach-line = The line the engine expects: { $line }.
coach-takes-corner = It takes the corner { $corner }: a disc in a corner can never be flipped.
coach-misses-corner = The best move takes the corner { $corner }.
coach-gives-corner = { $color ->
    [black] Black
   *[white] White
} takes { $corner } { $moves ->
    [one] at once
   *[other] in { $moves } moves
}: { $line }.
coach-opens-corner = It opens the corner { $corner } to { $color ->
    [black] Black
   *[white] White
}.
coach-x-square = { $square } is an X-square: next to the empty corner { $corner }, it can give that corner away.
coach-c-square = { $square } is a C-square next to the empty corner { $corner }: risky while the corner is empty.
coach-mobility = { $color ->
    [black] Black
   *[white] White
} then has { $after ->
    [one] one move
   *[other] { $after } moves
}; after { $best } { $best_after ->
    [0] they would have to pass
    [one] only one
   *[other] only { $best_after }
}.
coach-restricts = It cuts { $color ->
    [black] Black's
   *[white] White's
} moves from { $before } to { $after }.
coach-pass = { $color ->
    [black] Black has
   *[white] White has
} no move after it and must pass.
coach-wipeout = It leaves { $color ->
    [black] Black
   *[white] White
} without a single disc.
coach-frontier = It leaves the mover { $discs ->
    [one] one frontier disc
   *[other] { $discs } frontier discs
} (next to empty squares: moves for the opponent); { $best } leaves { $best_discs }.
coach-stable = It makes { $discs ->
    [one] one disc
   *[other] { $discs } discs
} stable: they can never be flipped.
coach-best-stable = { $best } would make { $discs ->
    [one] one disc
   *[other] { $discs } discs
} stable.
coach-parity = It is played in an odd region of { $size ->
    [one] one empty square
   *[other] { $size } empty squares
}: the region is left even, and the mover can keep its last move.
coach-breaks-parity = It plays into an even region of { $size } empty squares: left odd, its last move may go to the opponent.
coach-wall = It builds a wall of { $discs } discs from { $from } to { $to }, facing empty squares: moves for the opponent all along it.
coach-quiet = A quiet move: it flips only { $flips ->
    [one] one disc
   *[other] { $flips } discs
} and adds no frontier disc.
coach-spends-reserve = It spends a reserve square: only the mover could play { $square }, a spare move to keep for later; { $best } keeps it.
coach-leaves-centre = In the opening keep to the centre (c3–f6): { $square } goes out of it, { $best } stays in.
# Puzzles
web-nav-puzzles = Puzzles
web-puzzles = Puzzles
web-puzzle-n = Puzzle { $n }
web-puzzle-rating = rated { $rating }
web-puzzle-from-game = from a game of { $year }
web-puzzle-empties = { $n ->
    [one] one empty square
   *[other] { $n } empty squares
}
web-puzzle-played = tried { $n ->
    [one] once
   *[other] { $n } times
}, solved { $pct } %
web-puzzle-find-win = { $color ->
    [black] Black
   *[white] White
} to play: find the only winning move{ $n ->
    [one] .
   *[other] , then keep finding the best ({ $n } moves).
}
web-puzzle-find-best = { $color ->
    [black] Black
   *[white] White
} to play: find the only move to the best score{ $n ->
    [one] .
   *[other] , then keep finding the best ({ $n } moves).
}
web-puzzle-right = Right! { $n ->
    [one] One more move to find.
   *[other] { $n } more moves to find.
}
web-puzzle-solved = Solved!
web-puzzle-wrong = Not this one.
web-puzzle-wrong-why = { $move } ends { $score } with best play; { $best } ends { $bestScore }.
web-puzzle-score = With best play on both sides the game ends { $score } for { $color ->
    [black] Black
   *[white] White
} (proved by the exact solver).
web-puzzle-rating-change = Your puzzle rating: { $rating } ({ $diff }).
web-puzzle-next = Next puzzle
web-puzzle-solution = Solution:
web-puzzle-themes = Themes
web-puzzle-theme-any = Any
web-puzzle-theme-corner = Corner
web-puzzle-theme-x-square = X-square sacrifice
web-puzzle-theme-parity = Parity
web-puzzle-theme-tempo = Tempo
web-puzzle-theme-wipe-out = Wipe-out
web-puzzle-theme-endgame = Endgame
web-puzzle-guest = Guests play unrated puzzles. Sign in to get a puzzle rating.
web-puzzle-your-rating = Your puzzle rating
web-puzzle-record = Solved { $solved } of { $n ->
    [one] { $n } puzzle
   *[other] { $n } puzzles
}
web-puzzle-solved-short = solved
web-puzzle-failed-short = failed
web-puzzle-daily = Puzzle of the day
web-puzzle-more = More puzzles
web-category-puzzle = Puzzles
web-puzzles-tried = { $n ->
    [one] { $n } puzzle
   *[other] { $n } puzzles
}

## The living site: results said personally, your turn, keyboard play, the phone's menu

web-outcome = { $who ->
    [you-won] You won
    [you-lost] You lost
    [black] Black won
    [white] White won
   *[draw] Draw
}{ $how ->
    [time] { " " }on time
    [resigned] { " " }by resignation
    [left] { " " }by forfeit
    [tie] { " " }on a tie: the player who moved second wins
   *[none] {""}
}
web-result-score = Black { $black } – { $white } White
web-result-convention = When a game ends by time, resignation or leaving, the empty squares go to the winner, and the winner scores at least 33–31 (the World Othello Federation's rule).
web-board-look = The board
web-discs = Discs
web-discs-classic = Black and white
web-discs-gold = Black and gold
web-board-cloth = Colour
web-board-cloth-green = Green felt
web-board-cloth-blue = Blue
web-board-cloth-wood = Wood
web-coords = Letters and numbers around the board
web-anim = Animation
web-anim-off = None
web-anim-fast = Fast
web-anim-normal = Normal
web-anim-slow = Slow
web-sounds = Sounds (moves, the end of a game, your turn)
web-tick = A tick every second when your clock runs low
web-zen = Zen mode: in a game, only the board, the clocks and the buttons
web-prefs-account = These settings follow your account to every browser you sign in on.
web-prefs-browser = These settings are kept in this browser; sign in to have them follow you.
web-settings-guest = Sign in to change your account’s settings.
web-tie = On a tie
web-tie-draw = it is a draw
web-tie-second-wins = the player who moved second wins
web-tie-second-wins-note = On a tie the player who moved second wins (the box edition’s rule).
web-menu = Menu
web-turn-count = { $n ->
    [one] { $n } game waits for your move
   *[other] { $n } games wait for your move
}
web-your-turn-notice = Your move against { $name }
web-your-games-turn = Your move
web-their-turn = Their move
web-versus = vs { $name }
web-time-left = { $time } left
web-notify = Tell me when it is my move while the site is in a background tab (a browser notification)
web-notify-denied = This browser does not allow notifications from this site; allow them in its settings.
web-move-input = Type a move
web-move-input-placeholder = e.g. d3
web-move-not-legal = { $move } is not a legal move here.
web-move-queued = No connection to the server: your move { $move } waits and is sent the moment the game is live again.
web-queued-dropped = Your move { $move }, made while the server could not be reached, no longer fits the game: make your move again.
web-offline = No connection to the server: the board waits until it is back.
web-chat-sign-in = Sign in to chat
web-rating-range = Opponents' rating
web-rating-from = from
web-rating-to = to
web-challenge-from = { $name } challenges you: { $what }
web-decline = Decline
web-challenge-declined = { $name } declined your challenge.
# `reversi analyze`
analyze-opening = opening: { $name } ({ $moves }, through ply { $ply })
analyze-col-ply = ply
analyze-col-player = player
analyze-col-played = played
analyze-col-best = best
analyze-col-played-score = played
analyze-col-best-score = best
analyze-col-loss = loss
analyze-exact = exact
analyze-worst-move = move { $ply } (−{ $loss })
analyze-summary = { $color }: total loss { $loss } over { $moves ->
    [one] one move
   *[other] { $moves } moves
}, { $mistakes ->
    [one] one mistake
   *[other] { $mistakes } mistakes
}
analyze-largest = ; largest: { $list }
analyze-result = result { $black }–{ $white } ({ $margin } for black)
analyze-chart = chart: { $path }

# Mail: the address of an account, a forgotten password (/reset, /reset/SECRET, /verify/SECRET).
web-forgot-password = Forgot your password?
web-reset-title = Set a new password
web-reset-lead = Type the e-mail address confirmed on your account: we will mail it a link to set a new password.
web-email = E-mail address
web-reset-send = Send the link
web-reset-sent = If an account has this address, a link is on its way to it. It works for an hour; look in the spam folder too.
web-reset-unavailable = This site sends no mail, so a forgotten password cannot be reset here. Ask the site's host for help.
web-reset-new = New password
web-reset-save = Set the password
web-reset-done = Your password is set and you are signed in; every other device was signed out.
web-verify-title = Confirm your e-mail address
web-verify-working = Confirming…
web-verify-done = { $email } is now your account's address.
web-email-card = E-mail
web-email-lead = With a confirmed address you can set a new password when you forget yours. Nobody else sees it.
web-email-current = Your address: { $email }
web-email-none = No address yet.
web-email-pending = A link was mailed to { $email }: open it to confirm the address.
web-email-new = New address
web-email-send = Send a confirmation link
web-email-remove = Remove the address
web-email-removed = The address is removed.
web-email-unavailable = This site sends no mail, so an address cannot be confirmed here.

## Games on this device, without a connection (/offline)

web-offline-title = Play on this device
web-offline-lead = No connection needed: the computer plays in your browser, and your games are kept on this device. Signed in, you can add a finished game to your archive.
web-offline-unsupported = This browser cannot run the engine (it needs WebAssembly and workers).
web-offline-notice = The server cannot be reached. Online play, the lobby, tournaments and rated puzzles wait for it; meanwhile you can play and solve puzzles on this device, analyse a position and read the rules.
web-offline-link = Play on this device, without a connection
web-offline-analyse = Analyse
web-offline-kept = Games on this device
web-offline-none = No games on this device yet.
web-offline-opponent = Opponent
web-offline-start = Start
web-offline-vs-computer = against the computer, level { $level }, you play { $color ->
    [black] black
   *[white] white
}
web-offline-view = View
web-offline-continue = Continue
web-offline-forget = Forget
web-offline-upload = Add to my archive
web-offline-uploaded = In your archive
web-offline-puzzles = Puzzles on this device
web-offline-puzzles-lead = Endgames from real games, judged move by move by the engine in your browser (not rated).
web-offline-puzzles-count = { $solved } of { $total } solved on this device
web-offline-no-puzzles = The puzzles are not on this device yet: open this page once with a connection.
web-offline-retry = Try again

## People: following, blocking, reporting (issue 53)
web-online = Online
web-offline-player = Offline
web-followers = { $n ->
    [one] { $n } follower
   *[other] { $n } followers
}
web-account-disabled = A moderator has disabled this account.
web-follow = Follow
web-unfollow = Unfollow
web-block = Block
web-unblock = Unblock
web-relation-follow-done = You follow { $name }: their games appear on your home page.
web-relation-follow-undone = You no longer follow { $name }.
web-relation-block-done = { $name } is blocked: no challenges or messages from them.
web-relation-block-undone = { $name } is no longer blocked.
web-report = Report
web-report-title = Report { $name } to the moderators
web-report-why = Why
web-report-choose = Choose a reason…
web-report-reason-cheating = Cheating (engine help)
web-report-reason-abuse = Insults or harassment
web-report-reason-spam = Spam
web-report-reason-name = Offensive name
web-report-reason-other = Something else
web-report-text = What happened (at most 500 characters)
web-report-game = The game's link or id (if it is about a game)
web-report-send = Send the report
web-report-sent = Thank you: the moderators will look at your report.
web-following = Players you follow
web-following-none = Follow players from their profiles: their games will appear here.
web-watch-game = Watch

## The moderators' desk
web-mod-title = Moderation
web-mod-open = Open reports
web-mod-closed = Closed
web-mod-log = Log
web-mod-none-open = No report waits. Well done.
web-mod-none-closed = No report has been closed yet.
web-mod-reported = { $target }, reported by { $reporter }
web-mod-open-on-target = { $n ->
    [one] { $n } open report on this player
   *[other] { $n } open reports on this player
}
web-mod-disabled = disabled
web-mod-muted = muted
web-mod-game = game { $id }
web-mod-closed-by = Closed by { $name } on { $date }
web-mod-note = Note for the log (required)
web-mod-note-needed = Write a note first: every action is logged with its reason.
web-mod-done = Done, and logged.
web-mod-mute-day = Mute for a day
web-mod-disable = Disable the account
web-mod-close-game = Close the game
web-mod-dismiss = Close without action
web-mod-log-empty = Nothing has been done yet.
web-mod-when = When
web-mod-who = Moderator
web-mod-action = Action
web-mod-target = On
web-mod-command-line = (command line)
web-mod-action-mute = muted
web-mod-action-unmute = unmuted
web-mod-action-disable = disabled
web-mod-action-enable = enabled
web-mod-action-close-game = closed a game
web-mod-action-close-tournament = closed a tournament
web-mod-action-close-report = closed a report
web-mod-action-grant = made moderator
web-mod-action-revoke = no longer moderator

## Letters about play
web-notify-mail = Mail me when it is my move in a correspondence game, and when someone challenges me to one
web-notify-on = You will get letters about your correspondence games (not while you are on the site).
web-notify-off = No more letters about your games.
web-players-online = { $n ->
    [one] { $n } player online
   *[other] { $n } players online
}
web-control-days = { $n ->
    [one] { $n } day
   *[other] { $n } days
}
web-play-again = Play again

## Profiles and leaderboards
web-outcome-win = Won
web-outcome-loss = Lost
web-outcome-draw = Draw
web-rating-change = Rating change
web-leaderboard-provisional = Provisional ratings
web-leaderboard-provisional-lead = Players with only a few rated games here, or back after a long pause: their ratings (marked “?”) are not settled yet.

## Premoves and confirming moves
web-pref-premove = Premoves: in a game against a person, choose your move while they think; it is played when your turn comes, if it is legal then
web-pref-confirm = On a touch screen, confirm each move before it is sent
web-premove-set = Premove { $move }: played when your turn comes, if legal then. Tap it again (or Escape) to cancel.
web-premove-cleared = Premove cancelled.
web-premove-dropped = Your premove { $move } was not legal after your opponent's move: make your move.
web-premove-square = your premove
web-pending-square = your move, waiting for confirmation
web-queued-square = your move, waiting for the connection
web-confirm-move = Play { $move }
web-cancel-move = Cancel

## Takebacks between people
web-takeback = Takeback
web-takeback-title = Ask your opponent to take back your last move
web-takeback-asked = You asked to take back your last move; waiting for your opponent.
web-takeback-withdraw = Cancel the request
web-takeback-offer = { $name } asks to take back their last move.
web-takeback-accept = Accept
web-takeback-decline = Decline
error-takeback-not-allowed = Moves can be taken back only in casual games between two people.
error-no-takeback-offer = Nobody has asked to take a move back.

## Tournaments: the countdown, starting early, the podium
web-t-hours-minutes = { $h } h { $m } min
web-t-starts-countdown = Starts in { $left } ({ $when })
web-t-ends-countdown = Ends in { $left } ({ $when })
web-t-pairings = Pairings
web-t-start-now = Start now
web-t-podium = The podium
web-t-winner = { $name } wins the tournament
web-t-points-n = Points: { $points }
error-tournament-too-few = A tournament needs at least two players to start.

## Conditional premoves (correspondence)
web-conditional = Conditional premoves
web-conditional-count = { $n ->
    [0] (none)
    [one] ({ $n } line)
   *[other] ({ $n } lines)
}
web-conditional-lead = While your opponent is to move, write lines, one per row: their move, then your answer, and so on (“e6 f4 c3 c4”: if they play e6, you play f4; then if c3, c4). When the game follows a line, your answer is played for you. Nobody else sees them.
web-conditional-placeholder = e6 f4 c3 c4
web-conditional-save = Keep these lines
web-conditional-saved = { $n ->
    [one] One line kept: it answers for you while the game follows it.
   *[other] { $n } lines kept: they answer for you while the game follows one.
}
web-conditional-cleared = No conditional premoves.
web-conditional-bad-move = Line { $line }: move { $move } cannot be played there.
web-conditional-bad-line = Line { $line } does not fit: your opponent's move first, then your answer, in moves (at most 20) that can be played from here.
error-conditional = These lines do not fit: conditional premoves are written while your opponent is to move in a correspondence game, at most 20 lines.
web-seconds-short = { $n } s
