//! Every legal move of a position evaluated, deeper and deeper (as Othello Sensei's evaluate
//! mode): the core of `reversi eval` and of the site's analysis board. Book moves take the
//! book's value; the others are searched one iteration at a time, all moves at one depth before
//! any at the next, until each is exact, the depth limit is reached, time runs out or the caller
//! stops it. Each finished iteration is reported, so a client sees values arrive and refine.

use crate::book::BookValueKind;
use crate::search::{Engine, Limits, SearchKind};
use crate::time::Instant;
use reversi_core::{AnyPosition, Bits, Move, Square};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::Duration;

/// What an evaluation may do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EvalOptions {
    /// The deepest search of a move (plies after it).
    pub max_depth: u32,
    /// Moves whose position has at most this many empties are solved exactly.
    pub exact_empties: u32,
    /// Time for the whole evaluation.
    pub time: Option<Duration>,
    /// Whether book moves take the book's value.
    pub book: bool,
}

impl Default for EvalOptions {
    fn default() -> EvalOptions {
        EvalOptions {
            max_depth: 14,
            exact_empties: 18,
            time: None,
            book: true,
        }
    }
}

/// One move's value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveValue {
    /// The move.
    pub mv: Move,
    /// Value for the side to move, in discs.
    pub score: i32,
    /// What the value is: book, exact, win/loss/draw, or a midgame estimate.
    pub kind: SearchKind,
    /// Plies searched after the move (empties for an exact value; the book's level for a
    /// book value).
    pub depth: u32,
    /// The line: the move, then the best replies found.
    pub pv: Vec<Move>,
    /// Positions visited for this move, all iterations.
    pub nodes: u64,
}

impl MoveValue {
    /// Whether deeper searches cannot change it.
    pub fn settled(&self) -> bool {
        matches!(self.kind, SearchKind::Book | SearchKind::Exact)
    }
}

/// Sorts best first (ties by square, so that reports are stable).
fn sort(values: &mut [MoveValue]) {
    values.sort_by(|a, b| {
        b.score
            .cmp(&a.score)
            .then_with(|| a.mv.to_string().cmp(&b.mv.to_string()))
    });
}

/// An evaluation in progress: its values so far and the next depth. It can be advanced a
/// little at a time ([`Evaluation::step`]) by whichever engine is free (the site runs it in
/// slices on its shared pool).
#[derive(Clone, Debug)]
pub struct Evaluation {
    pos: AnyPosition,
    moves: Vec<Move>,
    values: Vec<Option<MoveValue>>,
    depth: u32,
    /// Moves still to search at `depth` (indices into `moves`), next last.
    pending: Vec<usize>,
}

impl Evaluation {
    /// A new evaluation of `pos`; with `book`, the book's moves take its values (settled from
    /// the start).
    pub fn new(pos: &AnyPosition, book: Option<&crate::Book>) -> Evaluation {
        let moves: Vec<Move> = if pos.is_game_over() {
            Vec::new()
        } else if pos.must_pass() {
            vec![Move::Pass]
        } else {
            pos.legal_moves().squares().map(Move::Play).collect()
        };
        let mut values: Vec<Option<MoveValue>> = vec![None; moves.len()];
        if let (Some(book), AnyPosition::Small(p)) = (book, pos) {
            if crate::position_search::is_plain_8x8(p) {
                let (me, them) = (p.discs(p.side_to_move()), p.discs(!p.side_to_move()));
                let level = book.get(me, them).map_or(0, |e| e.level as u32);
                for bm in book.moves(me, them) {
                    let mv = Move::Play(Square::from_bit8(bm.square as u32));
                    let Some(i) = moves.iter().position(|&m| m == mv) else {
                        continue;
                    };
                    let (kind, depth) = match bm.kind {
                        BookValueKind::Final => (SearchKind::Exact, 0),
                        _ => (SearchKind::Book, level),
                    };
                    let pv = book
                        .line(me, them, bm.square, 16)
                        .into_iter()
                        .map(|m| m.map_or(Move::Pass, |sq| Move::Play(Square::from_bit8(sq as u32))))
                        .collect();
                    values[i] = Some(MoveValue {
                        mv,
                        score: bm.value,
                        kind,
                        depth,
                        pv,
                        nodes: 0,
                    });
                }
            }
        }
        let mut e = Evaluation {
            pos: *pos,
            moves,
            values,
            depth: 1,
            pending: Vec::new(),
        };
        e.refill();
        e
    }

    /// The unsettled moves, to search at the current depth.
    fn refill(&mut self) {
        self.pending = (0..self.moves.len())
            .rev()
            .filter(|&i| !self.values[i].as_ref().is_some_and(MoveValue::settled))
            .collect();
    }

    /// The values so far, best first.
    pub fn values(&self) -> Vec<MoveValue> {
        let mut now: Vec<MoveValue> = self.values.iter().flatten().cloned().collect();
        sort(&mut now);
        now
    }

    /// The depth being searched.
    pub fn depth(&self) -> u32 {
        self.depth
    }

    /// Whether nothing is left to do within `max_depth`: every move settled, or searched to it.
    pub fn finished(&self, max_depth: u32) -> bool {
        self.pending.is_empty() || self.depth > max_depth
    }

    /// Searches the unsettled moves one iteration deeper, until the iteration is done or
    /// `pause` comes (checked between moves: the next call goes on from there). `deadline` (the
    /// whole evaluation's) and `stop` also cut a search short; a move whose search was cut keeps
    /// its last full value. Returns whether any value changed.
    pub fn step(
        &mut self,
        engine: &Engine,
        exact_empties: u32,
        pause: Option<Instant>,
        deadline: Option<Instant>,
        stop: &AtomicBool,
    ) -> bool {
        let out_of_time = || stop.load(Relaxed) || deadline.is_some_and(|d| Instant::now() >= d);
        let mut changed = false;
        while let Some(&i) = self.pending.last() {
            if out_of_time() || pause.is_some_and(|p| Instant::now() >= p) {
                return changed;
            }
            let mv = self.moves[i];
            let mut child = self.pos;
            child.play(mv).expect("a legal move");
            let nodes_before = self.values[i].as_ref().map_or(0, |v| v.nodes);
            let (score, kind, depth, pv, nodes) = if child.is_game_over() {
                (
                    child.score().margin(self.pos.side_to_move()),
                    SearchKind::Exact,
                    0,
                    Vec::new(),
                    0,
                )
            } else {
                let limits = Limits {
                    depth: self.depth.saturating_sub(1).max(1),
                    selectivity: 0,
                    exact_empties,
                    wld_empties: exact_empties,
                    time: deadline.map(|d| d.saturating_duration_since(Instant::now())),
                    soft_time: None,
                    noise: 0,
                    seed: 0,
                    book_margin: None,
                };
                let r = engine.search_position(&child, &limits, stop, &mut |_| {});
                let sign = if child.side_to_move() == self.pos.side_to_move() {
                    1
                } else {
                    -1
                };
                let depth = if r.kind == SearchKind::Midgame {
                    r.depth + 1
                } else {
                    r.depth
                };
                (sign * r.score, r.kind, depth, r.pv, r.nodes)
            };
            // A search cut short keeps the last full value (a first one is better than none).
            if out_of_time() && self.values[i].is_some() {
                return changed;
            }
            self.pending.pop();
            let mut line = vec![mv];
            line.extend(pv);
            self.values[i] = Some(MoveValue {
                mv,
                score,
                kind,
                depth,
                pv: line,
                nodes: nodes_before + nodes,
            });
            changed = true;
        }
        self.depth += 1;
        self.refill();
        changed
    }
}

/// Evaluates every legal move of `pos` deeper and deeper (the engine's own book when
/// `opts.book`); `report` hears of each finished iteration (all moves, best first). Returns the
/// last values. A finished game gives nothing; a forced pass gives [`Move::Pass`] with the
/// position's value after it.
pub fn evaluate_moves(
    engine: &Engine,
    pos: &AnyPosition,
    opts: &EvalOptions,
    stop: &AtomicBool,
    report: &mut dyn FnMut(&[MoveValue]),
) -> Vec<MoveValue> {
    let deadline = opts.time.map(|t| Instant::now() + t);
    let mut e = Evaluation::new(pos, if opts.book { engine.book() } else { None });
    if e.moves.is_empty() {
        return Vec::new();
    }
    let mut first = true;
    while !e.finished(opts.max_depth) {
        let changed = e.step(engine, opts.exact_empties, None, deadline, stop);
        if changed || first {
            report(&e.values());
        }
        first = false;
        if stop.load(Relaxed) || deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
    }
    if first {
        report(&e.values());
    }
    e.values()
}

#[cfg(test)]
mod tests {
    use super::*;
    use reversi_core::{Game, Rules};

    fn engine() -> Engine {
        let mut e = Engine::new(4, 1).unwrap();
        e.set_book(None);
        e
    }

    #[test]
    fn every_move_refines_to_the_limit() {
        let g = Game::from_transcript(Rules::othello(), "f5d6c3d3c4").unwrap();
        let mut reports = Vec::new();
        let stop = AtomicBool::new(false);
        let opts = EvalOptions {
            max_depth: 4,
            book: false,
            ..EvalOptions::default()
        };
        let last = evaluate_moves(&engine(), g.position(), &opts, &stop, &mut |v| {
            reports.push(v.to_vec())
        });
        assert_eq!(last.len(), g.legal_moves().count() as usize);
        assert_eq!(reports.len(), 4, "one report per depth");
        assert!(reports.iter().all(|r| r.len() == last.len()));
        assert!(last
            .iter()
            .all(|m| m.kind == SearchKind::Midgame && m.depth == 4 && m.pv[0] == m.mv));
        assert!(last.windows(2).all(|w| w[0].score >= w[1].score));
    }

    #[test]
    fn small_endgames_are_exact_and_stop_early() {
        // The first legal move each turn, down to 12 empties.
        let mut g = Game::new(Rules::othello());
        while g.position().empties().count() > 12 && !g.is_over() {
            if g.pass_if_forced() {
                continue;
            }
            let m = g.legal_moves().squares().next().unwrap();
            g.play(Move::Play(m)).unwrap();
        }
        let stop = AtomicBool::new(false);
        let mut n = 0;
        let opts = EvalOptions {
            max_depth: 30,
            exact_empties: 30,
            book: false,
            ..EvalOptions::default()
        };
        let last = evaluate_moves(&engine(), g.position(), &opts, &stop, &mut |_| n += 1);
        assert!(last.iter().all(|m| m.kind == SearchKind::Exact), "{last:?}");
        assert_eq!(n, 1);
    }

    #[test]
    fn slices_go_on_where_they_paused() {
        let g = Game::from_transcript(Rules::othello(), "f5d6c3d3c4").unwrap();
        let mut e = Evaluation::new(g.position(), None);
        let stop = AtomicBool::new(false);
        let past = Some(Instant::now());
        assert!(
            !e.step(&engine(), 0, past, None, &stop),
            "a pause already due does nothing"
        );
        assert!(e.values().is_empty() && e.depth() == 1);
        assert!(e.step(&engine(), 0, None, None, &stop));
        assert_eq!(
            (e.values().len(), e.depth()),
            (g.legal_moves().count() as usize, 2)
        );
        assert!(!e.finished(2) && e.finished(1));
    }

    #[test]
    fn a_stop_ends_it() {
        let stop = AtomicBool::new(true);
        let g = Game::new(Rules::othello());
        let last = evaluate_moves(
            &engine(),
            g.position(),
            &EvalOptions::default(),
            &stop,
            &mut |_| {},
        );
        assert!(last.is_empty());
    }
}
