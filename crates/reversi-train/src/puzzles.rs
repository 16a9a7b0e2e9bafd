//! Puzzles from real games, proved by the exact solver: a position right after a mistake
//! (the move that led to it lost discs) where exactly one move keeps the best result — the only
//! winning move, or the only move to the exact best score by at least [`MIN_GAP`] discs. The
//! solution goes on while the player's move stays the only best one (up to
//! [`MAX_SOLUTION_MOVES`] moves of the player), with the opponent's best replies between.
//!
//! Every value is exact, so the generator stays within [`MAX_EMPTIES`] empties (the solver
//! proves a position there in milliseconds on one core).
//!
//! The file format (`data/puzzles/puzzles.tsv`, one puzzle a line, tab-separated): id, the
//! board (64 squares from a1, `X` black, `O` white, `-` empty, then a space and the side to
//! move), the solution line (the player's moves and the replies, passes written `pass`), the
//! best score for the side to move, `win` or `best`, the themes (comma-separated), the source
//! (`wthor:YEAR:GAME:PLY`), the empties, and the starting rating ([`initial_rating`]).

use reversi_core::format::wthor;
use reversi_core::{Color, Game, Move, Position};
use reversi_engine::Engine;
use std::path::Path;
use std::sync::atomic::AtomicBool;

/// Empties from which puzzles are taken, at most: exact values stay cheap.
pub const MAX_EMPTIES: u32 = 20;

/// A best move that is not a win must beat the second best by this many discs.
pub const MIN_GAP: i32 = 2;

/// The player's moves a solution line holds at most.
pub const MAX_SOLUTION_MOVES: usize = 3;

/// The discs the move that led to the puzzle lost, at least.
pub const MIN_MISTAKE: i32 = 2;

/// A puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    /// The position, side to move included.
    pub position: Position<u64>,
    /// The player's moves and the opponent's replies between them.
    pub line: Vec<Move>,
    /// The exact best score for the side to move.
    pub score: i32,
    /// Whether the solution is the only winning move (else: the only move to the best score).
    pub win: bool,
    /// Themes computed from the position and the line.
    pub themes: Vec<&'static str>,
    /// Where the position comes from.
    pub source: String,
    /// The shallowest search that finds the first move and keeps it ([`finding_depth`]).
    pub depth: u32,
}

impl Puzzle {
    /// The empty squares.
    pub fn empties(&self) -> u32 {
        (!(self.position.black() | self.position.white())).count_ones()
    }

    /// The board string: 64 squares from a1, then the side to move.
    pub fn board(&self) -> String {
        let mut s = String::with_capacity(66);
        for bit in 0..64 {
            let m = 1u64 << bit;
            s.push(if self.position.black() & m != 0 {
                'X'
            } else if self.position.white() & m != 0 {
                'O'
            } else {
                '-'
            });
        }
        s.push(' ');
        s.push(if self.position.side_to_move() == Color::Black {
            'X'
        } else {
            'O'
        });
        s
    }

    /// The player's moves in the solution.
    pub fn player_moves(&self) -> usize {
        self.line.len().div_ceil(2)
    }

    /// One line of the data file, numbered `id`.
    pub fn tsv(&self, id: usize) -> String {
        let line: Vec<String> = self.line.iter().map(|m| m.to_string()).collect();
        format!(
            "{id}\t{}\t{}\t{:+}\t{}\t{}\t{}\t{}\t{}",
            self.board(),
            line.join(" "),
            self.score,
            if self.win { "win" } else { "best" },
            self.themes.join(","),
            self.source,
            self.empties(),
            initial_rating(self.depth, self.player_moves())
        )
    }
}

/// The exact value of every legal move of `pos` for its side to move, best first (a position
/// whose side must pass has none).
pub fn exact_values(engine: &Engine, pos: &Position<u64>) -> Vec<(Move, i32)> {
    let stop = AtomicBool::new(false);
    move_values(pos, |p, o| {
        engine.solve(p, o, false, &stop, &mut |_| {}).info.score
    })
}

/// Every legal move of `pos` with its value for `pos`'s side to move, best first (ties in
/// move order): `value(p, o)` values each position after a move for the side to move there.
pub fn move_values(pos: &Position<u64>, mut value: impl FnMut(u64, u64) -> i32) -> Vec<(Move, i32)> {
    let me = pos.side_to_move();
    let mut out: Vec<(Move, i32)> = reversi_core::Bits::squares(pos.legal_moves())
        .map(|sq| {
            let mut child = *pos;
            child.play_unchecked(Move::Play(sq));
            let them = child.side_to_move();
            let v = value(child.discs(them), child.discs(!them));
            // The child's side is the opponent unless they had to pass.
            (Move::Play(sq), if them == me { v } else { -v })
        })
        .collect();
    out.sort_by_key(|&(m, v)| (-v, m.to_string()));
    out
}

/// The exact value of `pos` for its side to move.
fn exact_value(engine: &Engine, pos: &Position<u64>) -> i32 {
    let stop = AtomicBool::new(false);
    let me = pos.side_to_move();
    engine
        .solve(pos.discs(me), pos.discs(!me), false, &stop, &mut |_| {})
        .info
        .score
}

/// Whether `values` (best first) make a puzzle: one winning move, or one best by [`MIN_GAP`].
fn unique(values: &[(Move, i32)]) -> Option<bool> {
    let (&(_, best), second) = (values.first()?, values.get(1)?.1);
    if best > 0 && second <= 0 {
        Some(true)
    } else if best - second >= MIN_GAP {
        Some(false)
    } else {
        None
    }
}

/// The puzzle at `pos`, reached from `before` by the opponent's `mistake`, if it is one.
pub fn puzzle_at(
    engine: &Engine,
    before: &Position<u64>,
    pos: &Position<u64>,
    source: String,
) -> Option<Puzzle> {
    let empties = (!(pos.black() | pos.white())).count_ones();
    if empties > MAX_EMPTIES
        || pos.legal_moves().count_ones() < 2
        || before.side_to_move() == pos.side_to_move()
    {
        return None;
    }
    let values = exact_values(engine, pos);
    let win = unique(&values)?;
    let best = values[0].1;
    // The opponent's move lost discs: their best was better than what they got (-best).
    let theirs = exact_value(engine, before);
    if theirs - (-best) < MIN_MISTAKE {
        return None;
    }
    let me = pos.side_to_move();
    let mut line = vec![values[0].0];
    let mut p = *pos;
    p.play_unchecked(values[0].0);
    let mut player_moves = 1;
    while player_moves < MAX_SOLUTION_MOVES && !p.is_game_over() {
        if p.side_to_move() != me {
            // The opponent's best reply (or its pass).
            let reply = if p.must_pass() {
                Move::Pass
            } else {
                exact_values(engine, &p).first()?.0
            };
            p.play_unchecked(reply);
            line.push(reply);
            continue;
        }
        if p.must_pass() {
            break;
        }
        let v = exact_values(engine, &p);
        if unique(&v).is_none() || v.len() < 2 {
            break;
        }
        p.play_unchecked(v[0].0);
        line.push(v[0].0);
        player_moves += 1;
    }
    // The line ends on the player's move.
    while line.len() > 1
        && position_after(pos, &line[..line.len() - 1]).is_some_and(|q| q.side_to_move() != me)
    {
        line.pop();
    }
    let themes = themes(pos, &line, &values);
    let depth = finding_depth(engine, pos, values[0].0);
    Some(Puzzle {
        position: *pos,
        line,
        score: best,
        win,
        themes,
        source,
        depth,
    })
}

/// The deepest search [`finding_depth`] tries.
pub const MAX_FINDING_DEPTH: u32 = 10;

/// How hard the first move is to find, as the shallowest depth `d` (1 to
/// [`MAX_FINDING_DEPTH`]) from which a midgame search — the learned evaluation, no exact
/// solving, a cleared table — answers `solution` at `d` and at every depth above it up to
/// [`MAX_FINDING_DEPTH`]; one more than that when it never settles on it. A move that a
/// one-ply look finds (a corner that simply wins discs) scores 1; a quiet move whose point
/// shows only at the end scores high.
pub fn finding_depth(engine: &Engine, pos: &Position<u64>, solution: Move) -> u32 {
    let stop = AtomicBool::new(false);
    let me = pos.side_to_move();
    let want = match solution {
        Move::Play(s) => s.bit8(),
        Move::Pass => None,
    };
    let mut from = MAX_FINDING_DEPTH + 1;
    for depth in (1..=MAX_FINDING_DEPTH).rev() {
        engine.clear();
        let limits = reversi_engine::Limits {
            depth,
            exact_empties: 0,
            wld_empties: 0,
            ..Default::default()
        };
        let r = engine.search(pos.discs(me), pos.discs(!me), &limits, &stop, &mut |_| {});
        if want.is_none() || r.best.map(u32::from) != want {
            break;
        }
        from = depth;
    }
    from
}

/// A puzzle's starting rating, before anyone has played it: 1000 for a first move that a
/// one-ply search finds, 80 more for each ply of search it needs ([`finding_depth`]), and 120
/// more for each further move of the player's in the solution — so from 1000 to 2120. The site
/// starts each puzzle there with a deviation of 300 and lets the players' results move it
/// (Glicko-2, as their own ratings).
pub fn initial_rating(depth: u32, player_moves: usize) -> u32 {
    1000 + 80 * (depth.clamp(1, MAX_FINDING_DEPTH + 1) - 1) + 120 * (player_moves.clamp(1, 3) as u32 - 1)
}

fn position_after(pos: &Position<u64>, moves: &[Move]) -> Option<Position<u64>> {
    let mut p = *pos;
    for &m in moves {
        p.play(m).ok()?;
    }
    Some(p)
}

const CORNERS: u64 = 0x8100_0000_0000_0081;
/// X-squares, each with its corner.
const X_SQUARES: [(u32, u32); 4] = [(9, 0), (14, 7), (49, 56), (54, 63)];

/// The themes of a puzzle: `corner` (the solution takes one), `x-square` (the solution is an
/// X-square next to an empty corner: a sacrifice), `wipe-out` (the line leaves the opponent
/// without a disc), `tempo` (a move of the line makes the opponent pass), `parity` (the
/// solution plays into an odd region of empties where the second best plays into an even
/// one), `endgame` (all: the values are exact).
pub fn themes(pos: &Position<u64>, line: &[Move], values: &[(Move, i32)]) -> Vec<&'static str> {
    let mut out = Vec::new();
    let bit = |m: Move| match m {
        Move::Play(s) => s.bit8(),
        Move::Pass => None,
    };
    let first = bit(line[0]);
    let empty = !(pos.black() | pos.white());
    if first.is_some_and(|b| CORNERS & (1 << b) != 0) {
        out.push("corner");
    }
    if first.is_some_and(|b| X_SQUARES.iter().any(|&(x, c)| x == b && empty & (1 << c) != 0)) {
        out.push("x-square");
    }
    let me = pos.side_to_move();
    let mut p = *pos;
    let mut tempo = false;
    for &m in line {
        let mover = p.side_to_move();
        if p.play(m).is_err() {
            break;
        }
        if mover == me && p.must_pass() && !p.is_game_over() {
            tempo = true;
        }
    }
    if p.discs(!me) == 0 {
        out.push("wipe-out");
    }
    if tempo {
        out.push("tempo");
    }
    let region = |b: u32| {
        let mut r = 1u64 << b;
        loop {
            let next = (r | neighbours(r)) & empty;
            if next == r {
                return r.count_ones();
            }
            r = next;
        }
    };
    if let (Some(a), Some(b)) = (first, values.get(1).and_then(|v| bit(v.0))) {
        if region(a) % 2 == 1 && region(b) % 2 == 0 {
            out.push("parity");
        }
    }
    out.push("endgame");
    out
}

fn neighbours(b: u64) -> u64 {
    let e = (b << 1) & 0xfefe_fefe_fefe_fefe;
    let w = (b >> 1) & 0x7f7f_7f7f_7f7f_7f7f;
    let row = b | e | w;
    e | w | (row << 8) | (row >> 8)
}

/// A WTHOR game ready to search for a puzzle.
pub struct SourceGame {
    /// `wthor:YEAR:INDEX`.
    pub label: String,
    /// The game.
    pub game: Game,
}

/// Every standard game of the `.wtb` files in `dir`, in file order (years ascending).
pub fn wthor_games(dir: &Path) -> std::io::Result<Vec<SourceGame>> {
    let mut files: Vec<_> = std::fs::read_dir(dir)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("wtb")))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for f in files {
        let bytes = std::fs::read(&f)?;
        let Ok(parsed) = wthor::parse_games(&bytes) else {
            continue;
        };
        let year = parsed.header.year;
        for (i, g) in parsed.games.iter().enumerate().filter(|(_, g)| g.side == 8) {
            if let Ok(game) = g.to_game() {
                out.push(SourceGame {
                    label: format!("wthor:{year}:{i}"),
                    game,
                });
            }
        }
    }
    Ok(out)
}

/// The first puzzle of `g` (from the most empties down to `min_empties`), if any.
pub fn first_puzzle(engine: &Engine, g: &SourceGame, min_empties: u32, max_empties: u32) -> Option<Puzzle> {
    let moves = g.game.moves();
    for ply in 1..moves.len() {
        let (Some(reversi_core::AnyPosition::Small(before)), Some(reversi_core::AnyPosition::Small(pos))) =
            (g.game.position_at(ply - 1), g.game.position_at(ply))
        else {
            continue;
        };
        let empties = (!(pos.black() | pos.white())).count_ones();
        if empties > max_empties {
            continue;
        }
        if empties < min_empties {
            break;
        }
        engine.clear();
        if let Some(p) = puzzle_at(engine, before, pos, format!("{}:{ply}", g.label)) {
            return Some(p);
        }
    }
    None
}
