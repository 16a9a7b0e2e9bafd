//! Puzzles on the site: reading the shipped puzzle file, checking a player's moves against a
//! puzzle's solution, the Glicko-2 ratings of players and puzzles, and the daily puzzle.
//!
//! A puzzle is a position where one move alone keeps the best result, proved by the exact
//! solver (`reversi puzzle generate`, `data/puzzles/README.md`). The player finds the first
//! move; the site answers with the opponent's best reply; the player finds the next, and so on
//! until the line ends on the player's move. One wrong move fails the puzzle.
//!
//! Ratings follow lichess's puzzles: an attempt is a rated game between the player and the
//! puzzle, won when the player solves it, and both ratings move ([`rate_attempt`]). Only a
//! signed-in player's first attempt at a puzzle counts. A puzzle's rating does not grow
//! uncertain with idle time (it does not forget how hard it is); a player's does, as in games.

use crate::rating::{rate_game, Rating, Score, START_VOLATILITY};
use crate::Millis;
use reversi_core::format::obf::parse_obf_line;
use reversi_core::{AnyPosition, Move, Position};

/// The deviation a puzzle starts with: its starting rating is an estimate from a search
/// (`reversi_train::puzzles::initial_rating`), surer than a new player's 500 but soon
/// corrected by the players' results.
pub const PUZZLE_START_DEVIATION: f64 = 300.0;

/// The name of the players' puzzle rating (beside the game categories in the ratings).
pub const PUZZLE_CATEGORY: &str = "puzzle";

/// The themes a puzzle may have (`data/puzzles/README.md` says what each means), in the order
/// the site lists them.
pub const THEMES: [&str; 6] = ["corner", "x-square", "parity", "tempo", "wipe-out", "endgame"];

/// A puzzle as the site stores it.
#[derive(Clone, Debug, PartialEq)]
pub struct Puzzle {
    /// Its number (1, 2, … in the shipped file).
    pub id: i64,
    /// The position, side to move included.
    pub position: Position<u64>,
    /// The board as the file writes it: 64 squares from a1 (`X`, `O`, `-`), a space, the side
    /// to move.
    pub board: String,
    /// The solution: the player's moves with the opponent's replies between them; it ends on
    /// a move of the player's.
    pub line: Vec<Move>,
    /// The exact best final disc difference for the side to move.
    pub score: i32,
    /// Whether the solution is the only winning move (else the only move to the best score).
    pub win: bool,
    /// Its themes, from [`THEMES`].
    pub themes: Vec<String>,
    /// Where the position comes from (`wthor:YEAR:GAME:PLY`).
    pub source: String,
    /// The starting rating the file gives it.
    pub initial_rating: f64,
}

impl Puzzle {
    /// The moves the player makes in the solution.
    pub fn player_moves(&self) -> usize {
        self.line.len().div_ceil(2)
    }
}

/// Why a line of the puzzle file cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("puzzle file, line {line}: {what}")]
pub struct PuzzleFileError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong.
    pub what: String,
}

/// Reads the puzzle file (`data/puzzles/puzzles.tsv`: a header line starting with `#`, then
/// one puzzle a line, tab-separated: id, board, line, score, kind, themes, source, empties,
/// rating). Every solution is replayed: a line that breaks the rules or does not end on the
/// player's move is an error.
pub fn parse_file(text: &str) -> Result<Vec<Puzzle>, PuzzleFileError> {
    let mut out = Vec::new();
    for (i, l) in text.lines().enumerate() {
        if l.starts_with('#') || l.trim().is_empty() {
            continue;
        }
        let err = |what: String| PuzzleFileError { line: i + 1, what };
        let cols: Vec<&str> = l.split('\t').collect();
        if cols.len() != 9 {
            return Err(err(format!("{} columns, expected 9", cols.len())));
        }
        let id: i64 = cols[0]
            .parse()
            .map_err(|_| err(format!("bad id `{}`", cols[0])))?;
        let position = match parse_obf_line(&format!("{};", cols[1])) {
            Ok(e) => match e.position {
                AnyPosition::Small(p) => p,
                _ => return Err(err("not an 8×8 board".into())),
            },
            Err(e) => return Err(err(format!("bad board: {}", e.kind))),
        };
        let line = cols[2]
            .split(' ')
            .map(|m| reversi_core::notation::parse_move(m).map_err(|e| err(format!("bad move `{m}`: {e}"))))
            .collect::<Result<Vec<Move>, _>>()?;
        let mut p = position;
        let me = position.side_to_move();
        let mut last = me;
        for &m in &line {
            last = p.side_to_move();
            p.play(m).map_err(|e| err(format!("solution move {m}: {e}")))?;
        }
        if line.is_empty() || last != me {
            return Err(err("the solution does not end on the player's move".into()));
        }
        let score: i32 = cols[3]
            .parse()
            .map_err(|_| err(format!("bad score `{}`", cols[3])))?;
        let win = match cols[4] {
            "win" => true,
            "best" => false,
            k => return Err(err(format!("kind `{k}`, expected win or best"))),
        };
        let themes: Vec<String> = cols[5]
            .split(',')
            .filter(|t| !t.is_empty())
            .map(str::to_string)
            .collect();
        if let Some(t) = themes.iter().find(|t| !THEMES.contains(&t.as_str())) {
            return Err(err(format!("unknown theme `{t}`")));
        }
        let initial_rating: f64 = cols[8]
            .parse()
            .map_err(|_| err(format!("bad rating `{}`", cols[8])))?;
        out.push(Puzzle {
            id,
            position,
            board: cols[1].to_string(),
            line,
            score,
            win,
            themes,
            source: cols[6].to_string(),
            initial_rating,
        });
    }
    Ok(out)
}

/// What the player's moves so far come to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// The last move is right and the line goes on: the opponent answers `reply` (a pass when
    /// they have no move), and the player moves again.
    Right {
        /// The opponent's reply.
        reply: Move,
    },
    /// The last move is right and ends the line: solved.
    Solved,
    /// The last move is legal but not the solution: failed.
    Wrong,
}

/// Why a list of moves cannot be checked.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CheckError {
    /// No move was given.
    #[error("no move to check")]
    Empty,
    /// More moves than the solution asks of the player.
    #[error("the solution has {0} moves of the player's; {1} were given")]
    TooMany(usize, usize),
    /// A move before the last differs from the solution: the puzzle had already failed there.
    #[error("move {0} is not the solution's, so the puzzle ended there")]
    AlreadyFailed(usize),
    /// The move breaks the rules in the position where it is played.
    #[error("{0} is not a legal move here")]
    Illegal(String),
}

/// Checks `played`, the player's moves so far (the opponent's replies left out), against
/// `puzzle`: every move but the last must be the solution's (the page stops at the first
/// wrong one); the last decides.
pub fn check(puzzle: &Puzzle, played: &[Move]) -> Result<Step, CheckError> {
    let want = puzzle.player_moves();
    if played.is_empty() {
        return Err(CheckError::Empty);
    }
    if played.len() > want {
        return Err(CheckError::TooMany(want, played.len()));
    }
    let mut p = puzzle.position;
    for (i, &m) in played.iter().enumerate() {
        let solution = puzzle.line[2 * i];
        if m != solution {
            if i + 1 < played.len() {
                return Err(CheckError::AlreadyFailed(i + 1));
            }
            return match p.play(m) {
                Ok(_) if m != Move::Pass => Ok(Step::Wrong),
                _ => Err(CheckError::Illegal(m.to_string())),
            };
        }
        p.play_unchecked(m);
        if let Some(&reply) = puzzle.line.get(2 * i + 1) {
            p.play_unchecked(reply);
        }
    }
    let n = played.len();
    Ok(match puzzle.line.get(2 * n - 1) {
        Some(&reply) => Step::Right { reply },
        None => Step::Solved,
    })
}

/// A puzzle's rating before its first attempt.
pub fn starting_rating(initial: f64) -> Rating {
    Rating {
        rating: initial,
        deviation: PUZZLE_START_DEVIATION,
        volatility: START_VOLATILITY,
        games: 0,
        last_rated: None,
    }
}

/// The player's and the puzzle's ratings after an attempt that ended at `now` (`solved` or
/// not). The player's deviation first grows with their idle time; the puzzle's does not.
pub fn rate_attempt(player: &Rating, puzzle: &Rating, solved: bool, now: Millis) -> (Rating, Rating) {
    let timeless = Rating {
        last_rated: None,
        ..*puzzle
    };
    let score = if solved { Score::Win } else { Score::Loss };
    rate_game(player, &timeless, score, now)
}

/// The index (0-based, below `count`) of the daily puzzle of day `day` (days since the Unix
/// epoch, UTC): a fixed shuffle of the puzzles, so the same day shows the same puzzle on every
/// instance and no puzzle comes back before every other has had its day.
pub fn daily_index(day: u64, count: usize) -> usize {
    if count == 0 {
        return 0;
    }
    // An affine map with a multiplier prime to `count` is a permutation of 0..count.
    let n = count as u64;
    let mut a = 2_654_435_761 % n;
    while a == 0 || gcd(a, n) != 1 {
        a += 1;
    }
    ((day.wrapping_mul(a) + 17) % n) as usize
}

fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

#[cfg(test)]
mod tests {
    use super::*;
    use reversi_core::notation::parse_move;

    const FILE: &str = "# id\tboard\tline\tscore\tkind\tthemes\tsource\tempties\trating\n\
        1\tO-OOOOOOO-OOOOXXOXOOOOXXOOOOOOXXOOOXOXXX-OXXXXXX----XXXX-----X-O O\tb2 b1 e8 d7 g8\t+26\tbest\tendgame\twthor:1992:302:47\t13\t1240\n\
        2\t----XO-----OOO--OOOOOOXOXOOOXXXOXOOXXXXOOOXXXXX--XXXXX-X-XXX-O-- X\tg1\t-10\tbest\tendgame\twthor:2011:745:42\t18\t1080\n";

    fn mv(s: &str) -> Move {
        parse_move(s).unwrap()
    }

    #[test]
    fn the_file_reads_and_its_lines_replay() {
        let ps = parse_file(FILE).unwrap();
        assert_eq!(ps.len(), 2);
        assert_eq!(ps[0].line.len(), 5);
        assert_eq!(ps[0].player_moves(), 3);
        assert_eq!(ps[1].player_moves(), 1);
        assert_eq!(ps[0].initial_rating, 1240.0);
        assert_eq!(ps[0].themes, vec!["endgame".to_string()]);
    }

    #[test]
    fn bad_lines_are_named() {
        let bad = FILE.replace("b2 b1 e8", "b2 b1 a1");
        let e = parse_file(&bad).unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.what.contains("a1"), "{e}");
        let e = parse_file(&FILE.replace("\t13\t1240", "\t13")).unwrap_err();
        assert!(e.what.contains("columns"), "{e}");
        let e = parse_file(&FILE.replace("\tendgame\twthor:1992", "\tmagic\twthor:1992")).unwrap_err();
        assert!(e.what.contains("magic"), "{e}");
        // A line that ends on the opponent's reply.
        let e = parse_file(&FILE.replace("b2 b1 e8 d7 g8", "b2 b1")).unwrap_err();
        assert!(e.what.contains("player's move"), "{e}");
    }

    #[test]
    fn moves_are_checked_one_by_one() {
        let p = &parse_file(FILE).unwrap()[0];
        assert_eq!(check(p, &[mv("b2")]), Ok(Step::Right { reply: mv("b1") }));
        assert_eq!(
            check(p, &[mv("b2"), mv("e8")]),
            Ok(Step::Right { reply: mv("d7") })
        );
        assert_eq!(check(p, &[mv("b2"), mv("e8"), mv("g8")]), Ok(Step::Solved));
        // A legal move that is not the solution fails; an illegal one is refused.
        let legal = reversi_core::Bits::squares(p.position.legal_moves())
            .map(Move::Play)
            .find(|&m| m != mv("b2"))
            .unwrap();
        assert_eq!(check(p, &[legal]), Ok(Step::Wrong));
        assert_eq!(check(p, &[mv("a1")]), Err(CheckError::Illegal("a1".into())));
        assert_eq!(check(p, &[Move::Pass]), Err(CheckError::Illegal("pass".into())));
        // Past a wrong move, or past the end, nothing is checked.
        assert_eq!(check(p, &[legal, mv("e8")]), Err(CheckError::AlreadyFailed(1)));
        assert_eq!(check(p, &[]), Err(CheckError::Empty));
        assert_eq!(
            check(p, &[mv("b2"), mv("e8"), mv("g8"), mv("a1")]),
            Err(CheckError::TooMany(3, 4))
        );
        let one = &parse_file(FILE).unwrap()[1];
        assert_eq!(check(one, &[mv("g1")]), Ok(Step::Solved));
    }

    #[test]
    fn an_attempt_moves_both_ratings_and_the_puzzle_does_not_age() {
        let player = Rating::default();
        let puzzle = starting_rating(1500.0);
        let (p1, z1) = rate_attempt(&player, &puzzle, true, 1_000);
        assert!(p1.rating > 1500.0 && z1.rating < 1500.0);
        let (p2, z2) = rate_attempt(&player, &puzzle, false, 1_000);
        assert!(p2.rating < 1500.0 && z2.rating > 1500.0);
        // Solving a puzzle far above one's rating gains more than one far below.
        let (hard, _) = rate_attempt(&player, &starting_rating(2100.0), true, 0);
        let (easy, _) = rate_attempt(&player, &starting_rating(1000.0), true, 0);
        assert!(hard.rating - 1500.0 > easy.rating - 1500.0);
        // A year later the puzzle's deviation is what it was; a player's has grown.
        let year = 365 * 86_400_000;
        let still = Rating {
            last_rated: None,
            ..p1
        };
        let (_, z_later) = rate_attempt(&still, &z1, true, year);
        let (_, z_now) = rate_attempt(&still, &z1, true, 1_000);
        assert!((z_later.deviation - z_now.deviation).abs() < 1e-9);
        assert!(p1.at(year).deviation > p1.deviation);
    }

    #[test]
    fn every_puzzle_has_its_day_before_one_comes_back() {
        for count in [1usize, 2, 7, 5000, 5003] {
            let seen: std::collections::HashSet<usize> =
                (0..count as u64).map(|d| daily_index(d, count)).collect();
            assert_eq!(seen.len(), count, "{count}");
            assert!(seen.iter().all(|&i| i < count));
        }
        assert_ne!(daily_index(20_000, 5000), daily_index(20_001, 5000));
        assert_eq!(daily_index(3, 0), 0);
    }
}
