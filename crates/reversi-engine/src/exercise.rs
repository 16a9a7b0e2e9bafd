//! Lesson exercises: which moves of a position reach a goal. A lesson (`/learn`) shows a
//! position and names a goal — take a corner, leave the opponent the fewest moves, make the
//! most discs stable, find the best move to the end — and [`judge`] measures every legal move
//! by it, so that no answer is written down by hand: the answers are the moves whose measure is
//! the goal's target. The measures are the coach's facts ([`crate::coach`]) and the exact
//! solver's scores.
//!
//! Exercises are standard 8×8 positions (`Position<u64>`).

use crate::coach::{frontier_of, CORNERS};
use crate::search::{Engine, Limits};
use crate::stability::stable_discs;
use reversi_core::bitboard::{flips, moves};
use reversi_core::{Bits, Move, Position, Square};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// What the player must do with one move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Goal {
    /// Any legal move: a square that turns at least one disc.
    Legal,
    /// The square the lesson names (notation, a named opening's next move).
    Square(Square),
    /// Turn discs in as many directions as any move can.
    MostDirections,
    /// Turn as many discs as any move can.
    MostFlips,
    /// Take a corner.
    Corner,
    /// Give the opponent no corner to take at once.
    SafeCorners,
    /// Leave the opponent as few moves as any move can.
    FewestReplies,
    /// Leave the opponent no move at all: they must pass.
    OpponentPasses,
    /// Leave the opponent without a disc.
    Wipeout,
    /// Have as few frontier discs (next to an empty square) afterwards as any move allows.
    Quiet,
    /// Have as many stable discs afterwards as any move allows.
    MostStable,
    /// The best final score, played out exactly by the solver (endgames).
    Exact,
    /// A move the engine's search rates within [`ENGINE_MARGIN`] discs of its best.
    Engine,
}

/// Discs within which a move counts as good as the engine's best for [`Goal::Engine`]: a
/// fixed-depth midgame score is an estimate, and moves this close are not told apart.
pub const ENGINE_MARGIN: i32 = 2;
/// Depth of the midgame search of [`Goal::Engine`] (from the position after each move).
pub const ENGINE_DEPTH: u32 = 8;
/// The most empties an [`Goal::Exact`] exercise may have: the solver answers at once.
pub const EXACT_MAX_EMPTIES: u32 = 16;

/// Whether a measure is better high or low, or must equal a fixed value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Aim {
    Max,
    Min,
    /// The value must be this.
    Equal(i32),
}

impl Goal {
    /// The goal's name as lessons write it (`most-flips`), also the suffix of its messages.
    pub fn name(self) -> &'static str {
        match self {
            Goal::Legal => "legal",
            Goal::Square(_) => "square",
            Goal::MostDirections => "most-directions",
            Goal::MostFlips => "most-flips",
            Goal::Corner => "corner",
            Goal::SafeCorners => "safe-corners",
            Goal::FewestReplies => "fewest-replies",
            Goal::OpponentPasses => "opponent-passes",
            Goal::Wipeout => "wipeout",
            Goal::Quiet => "quiet",
            Goal::MostStable => "most-stable",
            Goal::Exact => "exact",
            Goal::Engine => "engine",
        }
    }

    /// The goal of a name written by [`Goal::name`] (`square:d3` for [`Goal::Square`]).
    pub fn parse(s: &str) -> Option<Goal> {
        if let Some(sq) = s.strip_prefix("square:") {
            return Square::parse(sq).map(Goal::Square);
        }
        [
            Goal::Legal,
            Goal::MostDirections,
            Goal::MostFlips,
            Goal::Corner,
            Goal::SafeCorners,
            Goal::FewestReplies,
            Goal::OpponentPasses,
            Goal::Wipeout,
            Goal::Quiet,
            Goal::MostStable,
            Goal::Exact,
            Goal::Engine,
        ]
        .into_iter()
        .find(|g| g.name() == s)
    }

    fn aim(self) -> Aim {
        match self {
            Goal::Legal => Aim::Equal(1),
            Goal::Square(_) | Goal::Corner => Aim::Equal(1),
            Goal::MostDirections | Goal::MostFlips | Goal::MostStable | Goal::Exact | Goal::Engine => {
                Aim::Max
            }
            Goal::FewestReplies | Goal::Quiet => Aim::Min,
            Goal::SafeCorners | Goal::OpponentPasses | Goal::Wipeout => Aim::Equal(0),
        }
    }
}

/// One legal move measured by the goal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mark {
    /// The move.
    pub square: Square,
    /// Its measure: directions, discs turned, the opponent's moves, frontier or stable discs,
    /// the final score… (see [`Goal`]); 1/0 for yes/no goals.
    pub value: i32,
    /// Whether it reaches the goal.
    pub ok: bool,
}

/// Every legal move of a position measured by a goal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Judgement {
    /// The goal.
    pub goal: Goal,
    /// The value a move must have (the best any move reaches, or the fixed one).
    pub target: i32,
    /// The legal moves, in square order.
    pub marks: Vec<Mark>,
}

impl Judgement {
    /// The mark of `square`, `None` when it is not a legal move.
    pub fn mark(&self, square: Square) -> Option<&Mark> {
        self.marks.iter().find(|m| m.square == square)
    }

    /// The moves that reach the goal.
    pub fn answers(&self) -> impl Iterator<Item = Square> + '_ {
        self.marks.iter().filter(|m| m.ok).map(|m| m.square)
    }

    /// Whether the exercise can be done and can be got wrong: some legal move reaches the goal
    /// and some square (a legal move, or for [`Goal::Legal`] any empty square) does not.
    pub fn is_fair(&self) -> bool {
        let right = self.marks.iter().any(|m| m.ok);
        let wrong = self.goal == Goal::Legal || self.marks.iter().any(|m| !m.ok);
        right && wrong
    }
}

/// The eight directions as bit shifts on an 8×8 board with the columns that must not wrap.
const DIRECTIONS: [(i32, u64); 8] = [
    (1, 0xfefe_fefe_fefe_fefe),
    (-1, 0x7f7f_7f7f_7f7f_7f7f),
    (8, u64::MAX),
    (-8, u64::MAX),
    (9, 0xfefe_fefe_fefe_fefe),
    (7, 0x7f7f_7f7f_7f7f_7f7f),
    (-7, 0xfefe_fefe_fefe_fefe),
    (-9, 0x7f7f_7f7f_7f7f_7f7f),
];

/// In how many of the eight directions the discs `turned` by a move on `sq` lie.
fn directions_of(sq: u32, turned: u64) -> i32 {
    DIRECTIONS
        .iter()
        .filter(|&&(shift, keep)| {
            let next = if shift > 0 {
                (1u64 << sq) << shift
            } else {
                (1u64 << sq) >> -shift
            };
            next & keep & turned != 0
        })
        .count() as i32
}

/// The mover's and the opponent's discs of `pos` (8×8 bit order, `row * 8 + col`).
fn sides(pos: &Position<u64>) -> (u64, u64) {
    let me = pos.side_to_move();
    (pos.discs(me), pos.discs(!me))
}

/// The score of a search for the side to move in `(p, o)` (the mover after a move).
fn searched(engine: &Engine, p: u64, o: u64, limits: &Limits) -> i32 {
    engine.clear();
    let stop = AtomicBool::new(false);
    engine.search(p, o, limits, &stop, &mut |_| {}).info.score
}

/// Measures every legal move of `pos` by `goal`. [`Goal::Exact`] solves each move to the end
/// and [`Goal::Engine`] searches each to [`ENGINE_DEPTH`]; the others are counted at once.
pub fn judge(engine: &Engine, pos: &Position<u64>, goal: Goal) -> Judgement {
    let (p, o) = sides(pos);
    let legal = moves(p, o);
    let exact = Limits {
        book_margin: None,
        ..Limits::default()
    };
    let midgame = Limits {
        depth: ENGINE_DEPTH,
        exact_empties: 12,
        wld_empties: 12,
        time: Some(Duration::from_secs(3)),
        book_margin: None,
        ..Limits::default()
    };
    let values: Vec<(Square, i32)> = legal
        .squares()
        .map(|s| {
            let sq = s.bit8().expect("an 8×8 square");
            let turned = flips(p, o, sq);
            let (p2, o2) = (p | turned | (1u64 << sq), o & !turned);
            let value = match goal {
                Goal::Legal => 1,
                Goal::Square(want) => i32::from(s == want),
                Goal::MostDirections => directions_of(sq, turned),
                Goal::MostFlips => turned.count_ones() as i32,
                Goal::Corner => i32::from(CORNERS.contains(&sq)),
                Goal::SafeCorners => CORNERS
                    .iter()
                    .filter(|&&c| moves(o2, p2) & (1u64 << c) != 0)
                    .count() as i32,
                Goal::FewestReplies | Goal::OpponentPasses => moves(o2, p2).count_ones() as i32,
                Goal::Wipeout => o2.count_ones() as i32,
                Goal::Quiet => frontier_of(p2, !(p2 | o2)).count_ones() as i32,
                Goal::MostStable => (stable_discs(p2, o2) & p2).count_ones() as i32,
                Goal::Exact => -searched(engine, o2, p2, &exact),
                Goal::Engine => -searched(engine, o2, p2, &midgame),
            };
            (s, value)
        })
        .collect();
    let best = match goal.aim() {
        Aim::Max => values.iter().map(|v| v.1).max().unwrap_or(0),
        Aim::Min => values.iter().map(|v| v.1).min().unwrap_or(0),
        Aim::Equal(v) => v,
    };
    let marks = values
        .into_iter()
        .map(|(square, value)| Mark {
            square,
            value,
            ok: match goal {
                Goal::Engine => value >= best - ENGINE_MARGIN,
                _ => value == best,
            },
        })
        .collect();
    Judgement {
        goal,
        target: best,
        marks,
    }
}

/// The opponent's reply in an exercise of several moves: the solver's best move (a pass when
/// there is none). Ties go to the first square, so a reply is always the same.
pub fn reply(engine: &Engine, pos: &Position<u64>) -> Move {
    if pos.must_pass() {
        return Move::Pass;
    }
    let j = judge(engine, pos, Goal::Exact);
    j.marks
        .iter()
        .find(|m| m.value == j.target)
        .map_or(Move::Pass, |m| Move::Play(m.square))
}

#[cfg(test)]
mod tests {
    use super::*;
    use reversi_core::{Color, Rules};

    fn start() -> Position<u64> {
        Position::start(&Rules::othello())
    }

    fn engine() -> Engine {
        Engine::new(1, 1).unwrap()
    }

    #[test]
    fn every_goal_name_reads_back() {
        for g in [
            Goal::Legal,
            Goal::Square(Square::parse("d3").unwrap()),
            Goal::Exact,
            Goal::Quiet,
        ] {
            let name = match g {
                Goal::Square(s) => format!("square:{s}"),
                _ => g.name().to_string(),
            };
            assert_eq!(Goal::parse(&name), Some(g));
        }
        assert_eq!(Goal::parse("nonsense"), None);
    }

    #[test]
    fn the_start_moves_turn_one_disc_in_one_direction() {
        let e = engine();
        let j = judge(&e, &start(), Goal::MostDirections);
        assert_eq!(j.marks.len(), 4);
        assert_eq!(j.target, 1);
        assert!(j.marks.iter().all(|m| m.ok));
        assert!(!j.is_fair(), "every move is right: nothing to get wrong");
        let j = judge(&e, &start(), Goal::Square(Square::parse("f5").unwrap()));
        assert_eq!(
            j.answers().collect::<Vec<_>>(),
            vec![Square::parse("f5").unwrap()]
        );
        assert!(j.is_fair());
    }

    #[test]
    fn a_star_position_turns_eight_directions() {
        // d4 empty, ringed by white discs backed by black ones in all eight directions.
        let mut black = 0u64;
        let mut white = 0u64;
        let at = |c: i32, r: i32| 1u64 << (r * 8 + c);
        for (dc, dr) in [
            (1, 0),
            (-1, 0),
            (0, 1),
            (0, -1),
            (1, 1),
            (1, -1),
            (-1, 1),
            (-1, -1),
        ] {
            white |= at(3 + dc, 3 + dr);
            black |= at(3 + 2 * dc, 3 + 2 * dr);
        }
        let pos = Position::with_discs(&Rules::othello(), black, white, Color::Black);
        let j = judge(&engine(), &pos, Goal::MostDirections);
        assert_eq!(j.target, 8);
        assert_eq!(
            j.answers().collect::<Vec<_>>(),
            vec![Square::parse("d4").unwrap()]
        );
    }

    #[test]
    fn exact_scores_agree_with_the_last_move() {
        // One empty square left (h8): black's move there is the only one; its value is the
        // final margin.
        let full = !(1u64 << 63);
        let white = 1u64 << 62 | 1u64 << 54;
        let black = full & !white;
        let pos = Position::with_discs(&Rules::othello(), black, white, Color::Black);
        let j = judge(&engine(), &pos, Goal::Exact);
        assert_eq!(j.marks.len(), 1);
        assert_eq!(j.marks[0].value, 64);
        assert_eq!(reply(&engine(), &pos), Move::Play(Square::parse("h8").unwrap()));
    }
}
