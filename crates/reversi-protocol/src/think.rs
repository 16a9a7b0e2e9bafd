//! What both protocols share: the engine's settings and how a move is chosen.

use reversi_core::{AnyPosition, Bits, Move};
use reversi_engine::clock::{clock_limits, per_move_limits};
use reversi_engine::levels::{Level, MAX_LEVEL, STRONG_LEVEL};
use reversi_engine::Book;
use reversi_engine::{Engine, EvalChoice, Limits, PositionResult, Progress, SearchKind};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

/// How far a move's search went against how deep its limits asked: a search a command cut
/// short (GTP's `quit`, NBoard's `ping`) reached less. Sessions keep the last one, so that a
/// test or a log can tell an interrupted search from a finished one without a clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reach {
    /// Depth reached (plies, or empties for an endgame result).
    pub depth: u32,
    /// Depth the limits asked for.
    pub asked: u32,
    /// Positions visited.
    pub nodes: u64,
}

impl Reach {
    /// The reach of result `r` of a search under `limits`.
    pub fn of(r: &PositionResult, limits: &Limits) -> Reach {
        Reach {
            depth: r.depth,
            asked: limits.depth,
            nodes: r.nodes,
        }
    }

    /// Whether the search stopped before the depth it was asked for.
    pub fn cut_short(&self) -> bool {
        self.depth < self.asked
    }
}

/// How strong the engine plays and what it may use.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineSettings {
    /// Playing level, 1..=[`MAX_LEVEL`] (see `reversi_engine::levels`).
    pub level: u32,
    /// A fixed time per move instead of the level's depth (the level's endgame depths still apply).
    pub time_per_move: Option<Duration>,
    /// Transposition table size in MiB.
    pub hash_mib: usize,
    /// Search threads.
    pub threads: usize,
    /// Seed of the weak levels' random noise.
    pub seed: u64,
    /// The evaluation (8×8 Othello; variants use their own).
    pub eval: EvalChoice,
    /// The opening book (`None`: none); levels from [`reversi_engine::book::MIN_BOOK_LEVEL`]
    /// up play from it.
    pub book: Option<Arc<Book>>,
}

impl Default for EngineSettings {
    fn default() -> EngineSettings {
        EngineSettings {
            level: 12,
            time_per_move: None,
            hash_mib: 64,
            threads: 1,
            seed: 0,
            eval: EvalChoice::Learned,
            book: Some(Book::embedded_shared()),
        }
    }
}

impl EngineSettings {
    /// A new engine with these resources (refused when the table size or thread count is out of
    /// range, or the memory cannot be had).
    pub fn engine(&self) -> Result<Engine, reversi_engine::ResourceError> {
        let mut engine = Engine::with_evaluator(self.hash_mib, self.threads, self.eval.evaluator())?;
        engine.set_book(self.book.clone());
        Ok(engine)
    }

    /// Search limits for one move. `clock` is the time left on the mover's clock and the
    /// increment per move, when a game clock runs; the move then gets its share of that time,
    /// and solves the endgame when that fits it (`reversi_engine::clock`). `lag` is kept back
    /// for what happens outside the search (the network of a remote game).
    pub fn limits(
        &self,
        empties: u32,
        clock: Option<(Duration, Duration)>,
        lag: Duration,
        ply: usize,
    ) -> Limits {
        let level = self.level.clamp(1, MAX_LEVEL);
        let mut limits = Level::new(level).limits(self.seed ^ ply as u64);
        if let Some(t) = self.time_per_move {
            limits = reversi_engine::levels::timed(t);
            limits.seed = self.seed ^ ply as u64;
        }
        if let Some((remaining, increment)) = clock {
            let strong = level >= STRONG_LEVEL || self.time_per_move.is_some();
            limits = clock_limits(limits, strong, remaining, increment, empties, lag);
        }
        limits
    }

    /// Search limits for one move that has `per_move` of its own (byo-yomi): nearly all of it,
    /// and the endgame solved when that fits (`reversi_engine::clock::per_move_limits`).
    pub fn per_move_limits(&self, empties: u32, per_move: Duration, ply: usize) -> Limits {
        let level = self.level.clamp(1, MAX_LEVEL);
        let base = self.limits(empties, None, Duration::ZERO, ply);
        per_move_limits(
            base,
            level >= STRONG_LEVEL || self.time_per_move.is_some(),
            per_move,
            Duration::ZERO,
        )
    }
}

/// One move with its evaluation, as reported by [`best_moves`].
#[derive(Clone, Debug, PartialEq)]
pub struct RankedMove {
    /// The move.
    pub mv: Move,
    /// Score for the side to move, in discs.
    pub score: i32,
    /// Principal variation, starting with `mv`.
    pub pv: Vec<Move>,
    /// Depth searched.
    pub depth: u32,
    /// What the score means.
    pub kind: SearchKind,
    /// Positions visited.
    pub nodes: u64,
}

/// Searches `pos` and returns a result whose move is always legal: a search stopped before it
/// finished its first iteration may not name one, and the first legal move stands in for it.
pub fn think(
    engine: &Engine,
    pos: &AnyPosition,
    limits: &Limits,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(&Progress),
) -> PositionResult {
    let mut r = engine.search_position(pos, limits, stop, progress);
    if pos.is_game_over() {
        r.best = None;
        return r;
    }
    let legal = r.best.is_some_and(|m| pos.check(m).is_ok());
    if !legal {
        let fallback = match pos.legal_moves().first() {
            Some(sq) => Move::Play(sq),
            None => Move::Pass,
        };
        r.best = Some(fallback);
        r.pv = vec![fallback];
    }
    r
}

/// Thinks on the opponent's time (pondering): searches `pos`, the position after the engine's
/// own move, with `limits` but no time limit, on a thread of its own, until `next` returns
/// (`next` waits for the next command); then stops that search and returns what `next` gave.
/// The search's result is thrown away, but the transposition table keeps what it found, so
/// the search of the engine's next move finds the replies it expects already searched.
pub fn ponder<T>(engine: &Engine, pos: &AnyPosition, limits: &Limits, next: impl FnOnce() -> T) -> T {
    if pos.is_game_over() {
        return next();
    }
    let unbounded = Limits {
        time: None,
        soft_time: None,
        ..limits.clone()
    };
    let stop = AtomicBool::new(false);
    std::thread::scope(|scope| {
        scope.spawn(|| engine.search_position(pos, &unbounded, &stop, &mut |_| {}));
        let answer = next();
        stop.store(true, std::sync::atomic::Ordering::SeqCst);
        answer
    })
}

/// The `n` best moves of `pos`, best first. With `n == 1` this is one search; otherwise every
/// legal move is searched one ply shallower from the position after it, each with an equal share
/// of any time limit. A position that must pass gives the single move [`Move::Pass`]; a finished
/// game gives nothing.
pub fn best_moves(
    engine: &Engine,
    pos: &AnyPosition,
    limits: &Limits,
    n: usize,
    stop: &AtomicBool,
) -> Vec<RankedMove> {
    if pos.is_game_over() {
        return Vec::new();
    }
    let moves: Vec<Move> = pos.legal_moves().squares().map(Move::Play).collect();
    if n <= 1 || moves.len() <= 1 {
        let r = think(engine, pos, limits, stop, &mut |_| {});
        let mv = r.best.unwrap_or(Move::Pass);
        let mut pv = r.pv.clone();
        if pv.first() != Some(&mv) {
            pv = vec![mv];
        }
        return vec![RankedMove {
            mv,
            score: r.score,
            pv,
            depth: r.depth,
            kind: r.kind,
            nodes: r.nodes,
        }];
    }
    let mut child_limits = limits.clone();
    child_limits.depth = limits.depth.saturating_sub(1).max(1);
    if let Some(t) = limits.time {
        child_limits.time = Some(t / moves.len() as u32);
    }
    child_limits.soft_time = limits.soft_time.map(|t| t / moves.len() as u32);
    // Each child's value, not a move chosen within a margin: the book's best there.
    child_limits.book_margin = limits.book_margin.map(|_| 0);
    let mut out: Vec<RankedMove> = moves
        .iter()
        .map(|&mv| {
            let mut child = *pos;
            child.play(mv).expect("a legal move");
            let r = engine.search_position(&child, &child_limits, stop, &mut |_| {});
            let mut pv = vec![mv];
            pv.extend(r.pv.iter().copied());
            RankedMove {
                mv,
                score: -r.score,
                pv,
                depth: r.depth + 1,
                kind: r.kind,
                nodes: r.nodes,
            }
        })
        .collect();
    out.sort_by_key(|m| std::cmp::Reverse(m.score));
    out.truncate(n);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use reversi_core::{Game, Rules, Square};

    #[test]
    fn best_moves_ranks_every_legal_move() {
        let settings = EngineSettings {
            level: 2,
            hash_mib: 4,
            ..EngineSettings::default()
        };
        let engine = settings.engine().unwrap();
        let game = Game::new(Rules::othello());
        let stop = AtomicBool::new(false);
        let limits = settings.limits(60, None, Duration::ZERO, 0);
        let ranked = best_moves(&engine, game.position(), &limits, 10, &stop);
        assert_eq!(ranked.len(), 4, "four first moves");
        let mut names: Vec<String> = ranked.iter().map(|m| m.mv.to_string()).collect();
        names.sort();
        assert_eq!(names, ["c4", "d3", "e6", "f5"]);
        assert!(ranked.windows(2).all(|w| w[0].score >= w[1].score));
        assert!(ranked.iter().all(|m| m.pv[0] == m.mv));
    }

    #[test]
    fn a_stopped_search_still_names_a_legal_move() {
        let settings = EngineSettings::default();
        let engine = settings.engine().unwrap();
        let game = Game::from_transcript(Rules::othello(), "f5d6c3d3c4").unwrap();
        let stop = AtomicBool::new(true);
        let r = think(
            &engine,
            game.position(),
            &settings.limits(55, None, Duration::ZERO, 5),
            &stop,
            &mut |_| {},
        );
        let mv = r.best.unwrap();
        assert!(game.position().check(mv).is_ok(), "{mv}");
        assert!(mv.square().is_some_and(|s: Square| game.legal_moves().has(s)));
    }

    #[test]
    fn pondering_fills_the_table_until_the_next_command() {
        let settings = EngineSettings {
            level: 30,
            hash_mib: 4,
            book: None,
            ..EngineSettings::default()
        };
        let engine = settings.engine().unwrap();
        let game = Game::from_transcript(Rules::othello(), "f5d6c3d3c4f4f6f3e6e7").unwrap();
        let pos = game.position();
        let limits = settings.limits(50, None, Duration::ZERO, 10);
        // A fixed-depth search: its node count, not the depth some milliseconds reach, shows
        // what the table holds (a time-limited one depends on the machine's load).
        let nodes_in = |engine: &Engine| {
            let fixed = Limits {
                depth: 10,
                time: None,
                soft_time: None,
                ..limits.clone()
            };
            think(engine, pos, &fixed, &AtomicBool::new(false), &mut |_| {}).nodes
        };
        let cold = nodes_in(&engine);
        engine.clear();
        // The level has no end of its own: the search goes on until the next command comes
        // (that `ponder` returns shows the command ended it).
        let got = ponder(&engine, pos, &limits, || {
            std::thread::sleep(Duration::from_millis(1500));
            "next"
        });
        assert_eq!(got, "next");
        // With what the pondering left in the table, the same search visits fewer nodes (a
        // third to a half, measured).
        let warm = nodes_in(&engine);
        // (The search is deterministic: with an empty table it visits exactly `cold` nodes.)
        assert!(warm < cold, "warm {warm} nodes, cold {cold}");
        // A finished game has nothing to think about.
        let board = format!("{}X", "X".repeat(10) + &"-".repeat(54));
        let over = reversi_core::notation::parse_board(&Rules::othello(), &board).unwrap();
        assert!(over.is_game_over());
        assert_eq!(ponder(&engine, &over, &limits, || 7), 7);
    }

    #[test]
    fn clock_caps_the_time() {
        let s = EngineSettings::default();
        let l = s.limits(
            40,
            Some((Duration::from_secs(10), Duration::ZERO)),
            Duration::ZERO,
            20,
        );
        assert!(l.time.unwrap() <= Duration::from_secs(4));
        assert_eq!(s.limits(40, None, Duration::ZERO, 20).time, None);
        let timed = EngineSettings {
            time_per_move: Some(Duration::from_millis(300)),
            ..EngineSettings::default()
        };
        assert_eq!(
            timed.limits(40, None, Duration::ZERO, 1).time,
            Some(Duration::from_millis(300))
        );
    }
}
