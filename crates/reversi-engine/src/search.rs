//! The engine API and the midgame search: iterative deepening PVS with aspiration windows, a
//! shared transposition table, Multi-ProbCut, Lazy-SMP threads, time limits and progress
//! reports. Positions at or below the exact-endgame depth go to [`crate::endgame`].

use crate::book::Book;
use crate::busy::Busy;
use crate::endgame::{self, Ctx, Kernel, INF};
use crate::eval::pattern::Indices;
use crate::eval::{Children, Evaluator, Learned};
use crate::probcut::{self, CONFIDENCE, CONFIDENCE_PCT};
use crate::pvs::Window;
use crate::time::Instant;
use crate::tt::{hash, TranspositionTable, TtData, NO_MOVE};
use reversi_core::bitboard::{around, flips, moves};
use reversi_core::Symmetry;
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering::Relaxed};
use std::sync::Arc;
use std::time::Duration;

/// What a search may do.
#[derive(Clone, Debug, PartialEq)]
pub struct Limits {
    /// Deepest midgame search, in plies.
    pub depth: u32,
    /// Multi-ProbCut selectivity: an index into [`probcut::CONFIDENCE`] (0 = none).
    pub selectivity: usize,
    /// Solve exactly at or below this many empties.
    pub exact_empties: u32,
    /// Solve for win/loss/draw at or below this many empties (when above `exact_empties`).
    pub wld_empties: u32,
    /// Time budget for this move; the search stops and answers when it runs out.
    pub time: Option<Duration>,
    /// No new iteration starts once this much time has gone (the one running goes on until
    /// `time`, and a move it has already shown to be better is played). `None`: a third of
    /// `time`, for budgets that are a cap or a share of a clock, where time not spent is kept.
    /// A time that is lost when unused (a time per move) sets it to `time`: every iteration
    /// that may still find a better move is started. See [`Limits::spend_all`].
    pub soft_time: Option<Duration>,
    /// Random error added to root move scores, in discs (weak levels make human mistakes).
    pub noise: i32,
    /// Seed of that noise (and of the book's choice).
    pub seed: u64,
    /// Play from the opening book (when the engine has one and knows the position), choosing
    /// among the moves within this many discs of the best; `None`: search every position.
    pub book_margin: Option<i32>,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            depth: 60,
            selectivity: 0,
            exact_empties: 60,
            wld_empties: 60,
            time: None,
            soft_time: None,
            noise: 0,
            seed: 0,
            book_margin: None,
        }
    }
}

impl Limits {
    /// These limits with a time budget that is lost when unused (a time per move): the search
    /// thinks until `time` runs out, or to its depth.
    pub fn spend_all(mut self) -> Limits {
        self.soft_time = self.time;
        self
    }

    /// When the search stops starting iterations (see [`Limits::soft_time`]).
    fn soft_deadline(&self) -> Option<Duration> {
        self.soft_time.or(self.time.map(|t| t / 3))
    }
}

/// What kind of answer a search gave.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchKind {
    /// A depth-limited estimate.
    Midgame,
    /// The exact final disc difference.
    Exact,
    /// Only the sign is exact: win (> 0), draw (0) or loss (< 0).
    WinLossDraw,
    /// The opening book's value (a negamax over its positions, scored at its level).
    Book,
}

impl SearchKind {
    /// Its name in JSON output and on the site: `estimate`, `exact`, `wld` or `book`.
    pub fn name(self) -> &'static str {
        match self {
            SearchKind::Midgame => "estimate",
            SearchKind::Exact => "exact",
            SearchKind::WinLossDraw => "wld",
            SearchKind::Book => "book",
        }
    }
}

/// A report during or at the end of a search.
#[derive(Clone, Debug, PartialEq)]
pub struct Progress {
    /// Depth finished (empties for an endgame result).
    pub depth: u32,
    /// Confidence of the selective search, in percent (100 = no pruning).
    pub selectivity_pct: u32,
    /// Score for the side to move, in discs.
    pub score: i32,
    /// Principal variation: bit indices (`row * 8 + col`), [`NO_MOVE`] for a pass.
    pub pv: Vec<u8>,
    /// Positions visited so far, all threads.
    pub nodes: u64,
    /// Time since the search began.
    pub elapsed: Duration,
    /// The kind of score.
    pub kind: SearchKind,
}

/// The answer of a search: the best move (as a bit index; `None` when the side must pass or the
/// game is over) and the last [`Progress`].
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    /// The move to play.
    pub best: Option<u8>,
    /// The final report.
    pub info: Progress,
}

/// Runs `search` with a flag that rises once `stop` does or `time` (from `start`) runs out: a
/// watchdog thread joins the two into the one flag the search polls. The watchdog ends with the
/// search, also when the search panics (the panic then reaches the caller instead of the thread
/// scope waiting on the watchdog for ever).
#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn watched<R>(
    stop: &AtomicBool,
    time: Option<Duration>,
    start: Instant,
    search: impl FnOnce(&AtomicBool) -> R,
) -> R {
    let internal = AtomicBool::new(false);
    let done = AtomicBool::new(false);
    std::thread::scope(|scope| {
        scope.spawn(|| {
            while !done.load(Relaxed) {
                if stop.load(Relaxed) || time.is_some_and(|t| start.elapsed() >= t) {
                    internal.store(true, Relaxed);
                    return;
                }
                std::thread::sleep(Duration::from_millis(1));
            }
        });
        let _finished = SetOnDrop(&done);
        search(&internal)
    })
}

/// In the browser there are no threads: the deadline is kept by [`crate::time`] and read where
/// the search polls its flag, and `stop` can only have risen before the search began (the
/// worker that runs it hears nothing until it returns).
#[cfg(target_arch = "wasm32")]
pub(crate) fn watched<R>(
    stop: &AtomicBool,
    time: Option<Duration>,
    start: Instant,
    search: impl FnOnce(&AtomicBool) -> R,
) -> R {
    let internal = AtomicBool::new(stop.load(Relaxed));
    // A search inside another keeps the outer one's deadline when that comes first.
    let outer = crate::time::set_deadline(None);
    let mine = time.map(|t| start + t);
    crate::time::set_deadline(match (outer, mine) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    });
    let r = search(&internal);
    crate::time::set_deadline(outer);
    r
}

/// Sets its flag when dropped, panicking or not.
#[cfg(not(target_arch = "wasm32"))]
struct SetOnDrop<'a>(&'a AtomicBool);

#[cfg(not(target_arch = "wasm32"))]
impl Drop for SetOnDrop<'_> {
    fn drop(&mut self) {
        self.0.store(true, Relaxed);
    }
}

/// An engine: a transposition table, an evaluation and a number of threads.
pub struct Engine {
    tt: TranspositionTable,
    eval: Box<dyn Evaluator>,
    threads: usize,
    kernel: Kernel,
    book: Option<Arc<Book>>,
}

impl Engine {
    /// An engine with a `hash_mib` MiB table, `threads` search threads, and the learned
    /// evaluation and opening book shipped in the binary. Fails when the table size or thread count is out of
    /// range (see [`crate::tt::MAX_HASH_MIB`], [`crate::MAX_THREADS`]) or the memory cannot be had.
    pub fn new(hash_mib: usize, threads: usize) -> Result<Engine, crate::ResourceError> {
        Engine::with_evaluator(hash_mib, threads, Box::new(Learned::embedded()))
    }

    /// An engine with another evaluation.
    pub fn with_evaluator(
        hash_mib: usize,
        threads: usize,
        eval: Box<dyn Evaluator>,
    ) -> Result<Engine, crate::ResourceError> {
        if !(1..=crate::MAX_THREADS).contains(&threads) {
            return Err(crate::ResourceError::Threads(threads));
        }
        Ok(Engine {
            tt: TranspositionTable::new(hash_mib)?,
            eval,
            threads,
            kernel: Kernel::best(),
            book: Some(Book::embedded_shared()),
        })
    }

    /// Replaces the opening book (`None`: no book). The book is used by searches whose
    /// [`Limits::book_margin`] is set.
    pub fn set_book(&mut self, book: Option<Arc<Book>>) {
        self.book = book;
    }

    /// The opening book in use.
    pub fn book(&self) -> Option<&Book> {
        self.book.as_deref()
    }

    /// Forces a move-generation kernel (to test or compare them).
    pub fn set_kernel(&mut self, kernel: Kernel) {
        self.kernel = if kernel.available() {
            kernel
        } else {
            Kernel::best()
        };
    }

    /// The evaluation in use.
    pub fn evaluator(&self) -> &dyn Evaluator {
        &*self.eval
    }

    /// Forgets everything learned in earlier searches.
    pub fn clear(&self) {
        self.tt.clear();
    }

    /// The transposition table (shared with the variant search).
    pub(crate) fn table(&self) -> &TranspositionTable {
        &self.tt
    }

    /// The size of the transposition table in bytes.
    pub fn hash_bytes(&self) -> usize {
        self.tt.bytes()
    }

    /// Searches `p` (to move) against `o` within `limits`. `stop` ends the search early from
    /// another thread (the best move found so far is returned); `progress` hears of each
    /// finished iteration.
    pub fn search(
        &self,
        p: u64,
        o: u64,
        limits: &Limits,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&Progress),
    ) -> SearchResult {
        self.tt.new_search();
        let start = Instant::now();
        watched(stop, limits.time, start, |internal| {
            if moves(p, o) == 0 {
                self.pass_or_end(p, o, limits, internal, start, progress)
            } else {
                self.search_inner(p, o, limits, internal, start, progress)
            }
        })
    }

    /// Solves exactly (or for win/loss/draw), whatever the number of empties.
    pub fn solve(
        &self,
        p: u64,
        o: u64,
        wld: bool,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&Progress),
    ) -> SearchResult {
        let limits = Limits {
            exact_empties: if wld { 0 } else { 64 },
            wld_empties: 64,
            ..Limits::default()
        };
        self.search(p, o, &limits, stop, progress)
    }

    /// Solves exactly (or for win/loss/draw) a position on a board made of the squares in `mask`
    /// (the smaller boards, a black hole): the fast solver with moves kept inside the mask.
    pub fn solve_masked(&self, p: u64, o: u64, mask: u64, wld: bool, stop: &AtomicBool) -> SearchResult {
        if mask == u64::MAX {
            return self.solve(p, o, wld, stop, &mut |_| {});
        }
        let start = Instant::now();
        // Boards of different shapes share bit patterns: start from an empty table.
        self.tt.clear();
        let n = (!(p | o) & mask).count_ones();
        let m = moves(p, o) & mask;
        if m == 0 {
            if moves(o, p) & mask == 0 {
                let info = Progress {
                    depth: 0,
                    selectivity_pct: 100,
                    score: endgame::final_score_on(p, o, mask.count_ones() as i32),
                    pv: Vec::new(),
                    nodes: 1,
                    elapsed: start.elapsed(),
                    kind: SearchKind::Exact,
                };
                return SearchResult { best: None, info };
            }
            let mut r = self.solve_masked(o, p, mask, wld, stop);
            r.info.score = -r.info.score;
            r.info.pv.insert(0, NO_MOVE);
            return SearchResult {
                best: None,
                info: r.info,
            };
        }
        let mut root: Vec<RootMove> = (0..64u32)
            .filter(|&sq| m >> sq & 1 == 1)
            .map(|sq| RootMove {
                sq: sq as u8,
                flips: flips(p, o, sq),
                score: -INF,
            })
            .collect();
        // Moves to positions that are images of each other score the same: search one of each
        // (the four first moves of a game are one).
        let symmetries = board_symmetries(mask);
        if symmetries.len() > 1 {
            let n = side(mask);
            let mut seen = Vec::new();
            root.retain(|rm| {
                let (np, no) = (o ^ rm.flips, p ^ rm.flips ^ (1u64 << rm.sq));
                let image = symmetries
                    .iter()
                    .map(|s| (s.apply_set(np, n), s.apply_set(no, n)))
                    .min()
                    .expect("the identity is a symmetry");
                let new = !seen.contains(&image);
                seen.push(image);
                new
            });
        }
        let mut root_search = RootEnd {
            tt: &self.tt,
            stop,
            eval: None,
            mask,
            kernel: self.kernel,
            threads: self.threads,
            busy: (self.threads > 1).then(Busy::new),
            nodes: 0,
            aborted: false,
            sel: 0,
        };
        let (score, best) = if wld {
            root_search.run(p, o, -1, 1, &root)
        } else {
            // Most games end near a draw: a narrow window around 0 first.
            root_search.aspirated(p, o, 0, &root)
        };
        let info = Progress {
            depth: n,
            selectivity_pct: 100,
            score: if wld { score.signum() } else { score },
            pv: vec![best],
            nodes: root_search.nodes,
            elapsed: start.elapsed(),
            kind: if wld {
                SearchKind::WinLossDraw
            } else {
                SearchKind::Exact
            },
        };
        SearchResult {
            best: (!root_search.aborted).then_some(best),
            info,
        }
    }

    fn pass_or_end(
        &self,
        p: u64,
        o: u64,
        limits: &Limits,
        stop: &AtomicBool,
        start: Instant,
        progress: &mut dyn FnMut(&Progress),
    ) -> SearchResult {
        if moves(o, p) == 0 {
            let info = Progress {
                depth: 0,
                selectivity_pct: 100,
                score: endgame::final_score(p, o),
                pv: Vec::new(),
                nodes: 1,
                elapsed: start.elapsed(),
                kind: SearchKind::Exact,
            };
            progress(&info);
            return SearchResult { best: None, info };
        }
        let mut r = self.search_inner(o, p, limits, stop, start, progress);
        r.info.score = -r.info.score;
        r.info.pv.insert(0, NO_MOVE);
        SearchResult {
            best: None,
            info: r.info,
        }
    }

    fn search_inner(
        &self,
        p: u64,
        o: u64,
        limits: &Limits,
        stop: &AtomicBool,
        start: Instant,
        progress: &mut dyn FnMut(&Progress),
    ) -> SearchResult {
        let n = (!(p | o)).count_ones();
        if n <= limits.exact_empties || n <= limits.wld_empties {
            self.endgame(p, o, n > limits.exact_empties, limits, stop, start, progress)
        } else {
            self.midgame(p, o, limits, stop, start, progress)
        }
    }

    fn root_moves(&self, p: u64, o: u64) -> Vec<RootMove> {
        let mut m = moves(p, o);
        let mut v = Vec::new();
        while m != 0 {
            let sq = m.trailing_zeros();
            m &= m - 1;
            v.push(RootMove {
                sq: sq as u8,
                flips: flips(p, o, sq),
                score: -INF,
            });
        }
        v
    }

    /// Orders root moves by a shallow midgame search; returns its score as a guess and the nodes
    /// it took.
    fn presort(&self, p: u64, o: u64, root: &mut [RootMove], stop: &AtomicBool) -> (i32, u64) {
        let n = (!(p | o)).count_ones();
        let depth = (n.saturating_sub(12) / 2).clamp(1, 10).min(n - 1);
        let mut s = Mid::new(&self.tt, &*self.eval, stop, self.kernel, 0);
        // The solver follows the table moves this search leaves: sorted by evaluation at every
        // node, they are better guides (see `EVAL_ORDER_DEPTH`).
        s.eval_order_depth = 0;
        let mut guess = 0;
        for d in 1..=depth {
            let (v, _) = s.root(p, o, root, d, -INF, INF);
            if s.aborted {
                break;
            }
            guess = v;
        }
        (guess, s.nodes)
    }

    #[allow(clippy::too_many_arguments)]
    fn endgame(
        &self,
        p: u64,
        o: u64,
        wld: bool,
        limits: &Limits,
        stop: &AtomicBool,
        start: Instant,
        progress: &mut dyn FnMut(&Progress),
    ) -> SearchResult {
        let n = (!(p | o)).count_ones();
        let mut root = self.root_moves(p, o);
        let (guess, pre_nodes) = if n >= 14 {
            self.presort(p, o, &mut root, stop)
        } else {
            (0, 0)
        };
        let (alpha, beta) = if wld { (-1, 1) } else { (-INF, INF) };
        let mut root_search = RootEnd {
            tt: &self.tt,
            stop,
            eval: Some(&*self.eval),
            mask: u64::MAX,
            kernel: self.kernel,
            threads: self.threads,
            busy: (self.threads > 1).then(Busy::new),
            nodes: 0,
            aborted: false,
            sel: 0,
        };
        // The last selective pass that finished: its move and score, and its selectivity.
        let mut settled = None;
        let (score, best) = if wld || n < 14 {
            root_search.run(p, o, alpha, beta, &root)
        } else {
            let mut guess = guess;
            let passes: &[usize] = if n >= SELECTIVE_EMPTIES {
                &SELECTIVE_PASSES
            } else {
                &[]
            };
            for &sel in passes {
                root_search.sel = sel;
                let (v, b) = root_search.aspirated(p, o, guess, &root);
                if root_search.aborted {
                    break;
                }
                guess = v;
                settled = Some((b, v, sel));
                if let Some(i) = root.iter().position(|r| r.sq == b) {
                    root[..=i].rotate_right(1);
                }
            }
            root_search.sel = 0;
            root_search.aspirated(p, o, guess, &root)
        };
        let nodes = root_search.nodes + pre_nodes;
        let answer = if !root_search.aborted {
            let kind = if wld {
                SearchKind::WinLossDraw
            } else {
                SearchKind::Exact
            };
            let score = if wld { score.signum() } else { score };
            Some((best, score, 100, kind))
        } else {
            // Out of time after a selective pass: a search to the end of the game that
            // trusted its cuts with this confidence, far better than a quick midgame one.
            settled.map(|(best, score, sel)| (best, score, CONFIDENCE_PCT[sel], SearchKind::Midgame))
        };
        match answer {
            Some((best, score, selectivity_pct, kind)) => {
                let info = Progress {
                    depth: n,
                    selectivity_pct,
                    score,
                    pv: self.pv(p, o, best, n as usize),
                    nodes,
                    elapsed: start.elapsed(),
                    kind,
                };
                progress(&info);
                SearchResult {
                    best: Some(best),
                    info,
                }
            }
            None => {
                // Out of time: fall back on a quick midgame answer.
                let quick = AtomicBool::new(false);
                let l = Limits {
                    depth: 4,
                    time: None,
                    exact_empties: 0,
                    wld_empties: 0,
                    ..limits.clone()
                };
                let mut r = self.midgame(p, o, &l, &quick, start, &mut |_| {});
                r.info.nodes += nodes;
                r
            }
        }
    }

    fn midgame(
        &self,
        p: u64,
        o: u64,
        limits: &Limits,
        stop: &AtomicBool,
        start: Instant,
        progress: &mut dyn FnMut(&Progress),
    ) -> SearchResult {
        let n = (!(p | o)).count_ones();
        let max_depth = limits.depth.clamp(1, n.saturating_sub(1).max(1));
        let sel = limits.selectivity.min(CONFIDENCE.len() - 1);
        let mut root = self.root_moves(p, o);
        let helpers_stop = AtomicBool::new(false);
        std::thread::scope(|scope| {
            let handles: Vec<_> = (1..self.threads)
                .map(|i| {
                    let mut order = root.clone();
                    let hs = &helpers_stop;
                    scope.spawn(move || {
                        let mut s = Mid::new(&self.tt, &*self.eval, hs, self.kernel, sel);
                        // Lazy SMP: helpers run the same iterations a ply ahead every other
                        // thread, filling the shared table for the main thread.
                        let mut d = 1 + (i as u32 % 2);
                        while d <= max_depth && !s.aborted {
                            s.root(p, o, &mut order, d, -INF, INF);
                            d += 1;
                        }
                        s.nodes
                    })
                })
                .collect();
            let mut s = Mid::new(&self.tt, &*self.eval, stop, self.kernel, sel);
            let mut best = root[0].sq;
            let mut score = self.eval.eval(p, o);
            let mut info = None;
            for d in 1..=max_depth {
                let (mut lo, mut hi) = if d >= 3 {
                    (score - 4, score + 4)
                } else {
                    (-INF, INF)
                };
                // The last iteration's best, searched first.
                let first = root[0].sq;
                let mut failed_low = false;
                // The score of a move this iteration has shown to be better than `first`, and
                // the move.
                let mut better = None;
                let (v, b) = loop {
                    let (v, b) = s.root(p, o, &mut root, d, lo, hi);
                    // `b` differs from the first move only when its search finished with a
                    // higher score (a stopped one counts for nothing). After a fail low every
                    // score is a bound, and nothing is learnt.
                    if b != first && !failed_low && v > -INF {
                        better = Some((v, b));
                    }
                    if s.aborted {
                        break (v, b);
                    }
                    if v <= lo && lo > -INF {
                        lo = -INF;
                        failed_low = true;
                    } else if v >= hi && hi < INF {
                        hi = INF;
                    } else {
                        break (v, b);
                    }
                };
                // Stopped within the iteration: a move it found better is played.
                (score, best) = match (s.aborted, better) {
                    (false, _) => (v, b),
                    (true, Some(found)) => found,
                    (true, None) => break,
                };
                let rep = Progress {
                    depth: d,
                    selectivity_pct: CONFIDENCE_PCT[sel],
                    score,
                    pv: self.pv(p, o, best, d as usize),
                    nodes: s.nodes,
                    elapsed: start.elapsed(),
                    kind: SearchKind::Midgame,
                };
                progress(&rep);
                info = Some(rep);
                if s.aborted || limits.soft_deadline().is_some_and(|t| start.elapsed() > t) {
                    break;
                }
            }
            if limits.noise > 0 && !s.aborted {
                // Weak levels: score every move, add noise, play the best-looking one.
                let d = info.as_ref().map_or(1, |i| i.depth);
                let mut rng = limits.seed ^ hash(p, o);
                let mut best_noisy = -INF * 2;
                for rm in root.clone() {
                    let (np, no) = (o ^ rm.flips, p ^ rm.flips ^ (1u64 << rm.sq));
                    let v = -s.pvs(np, no, -INF, INF, d.saturating_sub(1), None);
                    rng = rng
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    let noisy = v + ((rng >> 33) % (2 * limits.noise as u64 + 1)) as i32 - limits.noise;
                    if noisy > best_noisy {
                        best_noisy = noisy;
                        best = rm.sq;
                        score = v;
                    }
                }
                if let Some(i) = info.as_mut() {
                    i.score = score;
                    i.pv = self.pv(p, o, best, 1);
                }
            }
            helpers_stop.store(true, Relaxed);
            let helper_nodes: u64 = handles.into_iter().map(|h| h.join().unwrap_or(0)).sum();
            let mut info = info.unwrap_or(Progress {
                depth: 0,
                selectivity_pct: CONFIDENCE_PCT[sel],
                score,
                pv: vec![best],
                nodes: 0,
                elapsed: start.elapsed(),
                kind: SearchKind::Midgame,
            });
            info.nodes = s.nodes + helper_nodes;
            info.elapsed = start.elapsed();
            SearchResult {
                best: Some(best),
                info,
            }
        })
    }

    /// The principal variation: `first`, then best moves from the table.
    fn pv(&self, p: u64, o: u64, first: u8, max: usize) -> Vec<u8> {
        let mut pv = vec![first];
        let f = flips(p, o, first as u32);
        let (mut p, mut o) = (o ^ f, p ^ f ^ (1u64 << first));
        while pv.len() < max {
            let m = moves(p, o);
            if m == 0 {
                if moves(o, p) == 0 {
                    break;
                }
                pv.push(NO_MOVE);
                std::mem::swap(&mut p, &mut o);
                continue;
            }
            let Some(d) = self.tt.probe(hash(p, o)) else { break };
            if d.best == NO_MOVE || m & (1u64 << d.best) == 0 {
                break;
            }
            pv.push(d.best);
            let f = flips(p, o, d.best as u32);
            (p, o) = (o ^ f, p ^ f ^ (1u64 << d.best));
        }
        pv
    }
}

/// From this many empties an exact solve first runs selective passes (endgame Multi-ProbCut at
/// these confidence indices: 87 %, then 98 %), as Edax does: each is far cheaper than the exact
/// search, and leaves in the table the best moves and a score to aspirate around, so the exact
/// pass that follows (which trusts none of their bounds) searches a better-ordered tree.
/// Measured (nodes, 1 thread, all passes counted), with the final ProbCut settings: FFO #40–49
/// 2,552 M → 1,849 M, #20–39 201 M → 174 M. While tuning (ProbCut from 16 empties, FFO #40–47,
/// no passes 1,055 M): 87 % alone 819 M, 87 %/98 % 796 M, 80 %/95 % 774 M; with σ 4.0, 95 %
/// alone 1,025 M, 87 %/95 %/99 % 1,017 M, 87 %/98 % 960 M; from 14 empties, 87 %/98 % 717 M
/// and 80 %/91 %/98 % 800 M. Re-measured with the second weights and their retuned move ordering
/// (FFO #40–49, #20–39, `data/evaltest/e20.obf`): 87 %/98 % 473 M, 71.5 M, 477 M; 80 %/98 % 509 M,
/// 71.3 M, 470 M; 91 %/98 % 495 M; 87 %/95 % 494 M; 80 %/95 % 511 M, 66.4 M, 483 M; 87 % alone
/// 520 M, 74.0 M, 515 M; from 16 or 20 empties within 1 % on #20–39 (the same elsewhere).
const SELECTIVE_EMPTIES: u32 = 18;
/// The selective passes, least exact first (indices into [`CONFIDENCE`]).
const SELECTIVE_PASSES: [usize; 2] = [5, 2];

/// A root move and its score from the last iteration.
#[derive(Clone, Copy, Debug)]
struct RootMove {
    sq: u8,
    flips: u64,
    score: i32,
}

/// The side of the smallest square, from `a1`, that holds the board `mask`.
fn side(mask: u64) -> u8 {
    let (cols, rows) = (0..64)
        .filter(|sq| mask >> sq & 1 == 1)
        .fold((0, 0), |(c, r), sq| (c.max(sq % 8), r.max(sq / 8)));
    cols.max(rows) as u8 + 1
}

/// The symmetries of that square that map the board `mask` onto itself (a hole off the centre
/// breaks some), the identity first.
fn board_symmetries(mask: u64) -> Vec<Symmetry> {
    let n = side(mask);
    Symmetry::ALL
        .into_iter()
        .filter(|s| s.apply_set(mask, n) == mask)
        .collect()
}

/// With several threads, the first move of the endgame root and of each first move after it is
/// split between them down to this many empties (below, one thread searches a subtree alone).
/// Measured with 2 threads on FFO #50 and #53: no split 33.8 s + 112.7 s; from 16 empties
/// 28.2 s + 78.6 s; from 12 empties 30.1 s + 79.5 s. Once a thread with no move left helped with
/// another's (see [`endgame::SHARE_EMPTIES`]), FFO #40–59: from 14, 16 and 20 empties 210.7 s,
/// 212.0 s and 210.5 s, within the runs' noise (sharing from 14 empties instead of 12: 213.0 s).
const PV_SPLIT_EMPTIES: u32 = 16;

/// The endgame root. The first move is searched with the full window (split the same way one
/// level down, see [`PV_SPLIT_EMPTIES`]); the others are shared among the threads (each takes
/// the next move, tests it against the best score so far with a null window, and re-searches it
/// when it does better; a thread with no move left helps with one still being searched, see
/// [`endgame::SHARE_EMPTIES`]).
struct RootEnd<'a> {
    tt: &'a TranspositionTable,
    stop: &'a AtomicBool,
    /// Sorts moves near the root (full 8×8 board only).
    eval: Option<&'a dyn Evaluator>,
    mask: u64,
    kernel: Kernel,
    threads: usize,
    /// The positions each thread is searching (with two threads or more).
    busy: Option<Busy>,
    nodes: u64,
    aborted: bool,
    /// Multi-ProbCut selectivity of this pass (0: exact).
    sel: usize,
}

impl RootEnd<'_> {
    /// First a narrow window around `guess` (a midgame estimate), then a re-search on the side
    /// it failed.
    fn aspirated(&mut self, p: u64, o: u64, guess: i32, order: &[RootMove]) -> (i32, u8) {
        let w = 5;
        // Final scores on a full 8×8 board are even: odd bounds waste no window.
        let g = guess.clamp(-64, 64) & !1;
        let (mut lo, mut hi) = (g - w, g + w);
        let mut tries = 0;
        loop {
            tries += 1;
            let (v, b) = self.run(p, o, lo, hi, order);
            if self.aborted {
                return (v, b);
            }
            if tries >= 2 && self.sel > 0 && (v <= lo || v >= hi) {
                // A selective search need not agree with itself from one window to the next:
                // settle with the full window rather than chase it.
                (lo, hi) = (-INF, INF);
            } else if v <= lo && lo > -INF {
                hi = v + 1;
                lo = -INF;
            } else if v >= hi && hi < INF {
                lo = v - 1;
                hi = INF;
            } else {
                return (v, b);
            }
        }
    }

    /// The moves of a position on the principal variation worth splitting between threads, in
    /// search order (the table's move first, then fewest replies): empty when one thread runs,
    /// with few empties left, or with fewer than two moves.
    fn split_moves(&self, p: u64, o: u64) -> Vec<RootMove> {
        let n = (!(p | o) & self.mask).count_ones();
        if self.threads < 2 || n < PV_SPLIT_EMPTIES {
            return Vec::new();
        }
        let mut m = moves(p, o) & self.mask;
        if m.count_ones() < 2 {
            return Vec::new();
        }
        let tt_move = self.tt.probe(hash(p, o)).map_or(NO_MOVE, |d| d.best);
        let mut list = Vec::new();
        while m != 0 {
            let sq = m.trailing_zeros();
            m &= m - 1;
            let f = flips(p, o, sq);
            let replies = (moves(o ^ f, p ^ f ^ (1u64 << sq)) & self.mask).count_ones() as i32;
            let key = if sq as u8 == tt_move { -1 } else { replies };
            list.push((
                key,
                RootMove {
                    sq: sq as u8,
                    flips: f,
                    score: -INF,
                },
            ));
        }
        list.sort_by_key(|e| e.0);
        list.into_iter().map(|e| e.1).collect()
    }

    /// Searches the root moves in `order` within `(alpha, beta)`.
    fn run(&mut self, p: u64, o: u64, alpha: i32, beta: i32, order: &[RootMove]) -> (i32, u8) {
        let child = |rm: &RootMove| (o ^ rm.flips, p ^ rm.flips ^ (1u64 << rm.sq));
        let mut c = Ctx::with_mask(self.tt, self.stop, self.mask);
        c.eval = self.eval;
        c.sel = self.sel;
        let (np, no) = child(&order[0]);
        let replies = self.split_moves(np, no);
        let first = if replies.len() > 1 {
            // Split along the principal variation (PVSplit): the first move's own moves are
            // searched the same way, so the other threads get work at every level of it
            // instead of waiting for its whole subtree.
            let (v, best) = self.run(np, no, -beta, -alpha, &replies);
            if !self.aborted {
                let n = (!(np | no) & self.mask).count_ones();
                let data = TtData::from_window(v, -beta, -alpha, n, self.sel, best);
                self.tt.store(hash(np, no), data);
            }
            -v
        } else {
            -endgame::solve_window(&mut c, self.kernel, np, no, -beta, -alpha).0
        };
        self.nodes += c.nodes;
        if c.aborted || self.aborted {
            self.aborted = true;
            return (first, order[0].sq);
        }
        // (best score, best move, alpha)
        let shared = std::sync::Mutex::new((first, order[0].sq, alpha.max(first)));
        let next = std::sync::atomic::AtomicUsize::new(1);
        let cut = AtomicBool::new(first >= beta);
        // Per move: the alpha its null-window test used, and whether its search has ended (a
        // thread helping with it stops then).
        let tested_alpha: Vec<AtomicI32> = order.iter().map(|_| AtomicI32::new(-INF)).collect();
        let ended: Vec<AtomicBool> = order.iter().map(|_| AtomicBool::new(false)).collect();
        let busy = self.busy.as_ref();
        let worker = || -> (u64, bool) {
            let mut c = Ctx::with_mask(self.tt, self.stop, self.mask);
            c.eval = self.eval;
            c.sel = self.sel;
            c.busy = busy;
            loop {
                let i = next.fetch_add(1, Relaxed);
                if i >= order.len() || cut.load(Relaxed) {
                    break;
                }
                let (np, no) = child(&order[i]);
                let a = shared.lock().expect("no panics under the lock").2;
                tested_alpha[i].store(a, Relaxed);
                let mut v = -endgame::solve_nws(&mut c, self.kernel, np, no, -a - 1);
                if !c.aborted && v > a {
                    let a2 = shared.lock().expect("no panics under the lock").2.max(a);
                    v = -endgame::solve_window(&mut c, self.kernel, np, no, -beta, -a2).0;
                }
                ended[i].store(true, Relaxed);
                if c.aborted {
                    break;
                }
                let mut s = shared.lock().expect("no panics under the lock");
                if v > s.0 {
                    s.0 = v;
                    s.1 = order[i].sq;
                }
                if v > s.2 {
                    s.2 = v;
                    if v >= beta {
                        cut.store(true, Relaxed);
                    }
                }
            }
            // No move left to take: rather than wait, help with the moves other threads are
            // still searching (the last one of a node is often the largest). The helper runs the
            // same null-window test; the table carries what it finds to the thread that owns
            // the move, and the marks in `busy` keep the two on different moves below it. Its
            // own result is not used: it stops when the owner's search ends.
            if let Some(busy) = busy.filter(|_| !c.aborted) {
                for j in 1..order.len() {
                    let a = tested_alpha[j].load(Relaxed);
                    if cut.load(Relaxed) || self.stop.load(Relaxed) {
                        break;
                    }
                    if a == -INF || ended[j].load(Relaxed) {
                        continue;
                    }
                    let mut h = Ctx::with_mask(self.tt, &ended[j], self.mask);
                    h.eval = self.eval;
                    h.sel = self.sel;
                    h.busy = Some(busy);
                    let (np, no) = child(&order[j]);
                    busy.helping(|| endgame::solve_nws(&mut h, self.kernel, np, no, -a - 1));
                    c.nodes += h.nodes;
                }
            }
            (c.nodes, c.aborted)
        };
        let results: Vec<(u64, bool)> = std::thread::scope(|scope| {
            let handles: Vec<_> = (1..self.threads).map(|_| scope.spawn(worker)).collect();
            let mut r = vec![worker()];
            r.extend(handles.into_iter().map(|h| h.join().unwrap_or((0, true))));
            r
        });
        for (n, aborted) in results {
            self.nodes += n;
            self.aborted |= aborted;
        }
        let (best, best_move, _) = *shared.lock().expect("no panics under the lock");
        (best, best_move)
    }
}

/// The midgame search sorts a node's moves by their children's evaluations only this many
/// plies or more from its horizon; nearer, by the solver's fastest-first key (the opponent's
/// replies, its potential mobility, corners: [`endgame::fastest_first_key`]), which needs no
/// weights read.
///
/// Near the horizon the evaluation cost more than it saved: 58 table reads per child, mostly
/// cache misses (perf put 53 % of the midgame's time in the children's evaluations), to sort
/// moves that the fastest-first key sorts nearly as well. Measured 2026-12-05 on one thread
/// (the same best moves and scores on the test sets); the levels are the sums over six
/// positions with 40 empties (the first six WTHOR 2019 games after 20 moves, `reversi best
/// --level L --book off`):
///
/// | evaluation from | `bench 16` | `evaltest e24 --depth 14` | `--depth 12` | level 14 | level 16 | level 18 |
/// |---|---:|---:|---:|---:|---:|---:|
/// | 2 plies (before) | 294.2 M nodes, 60.2 s | 48.1 M, 6.2 s | 19.1 M, 2.6 s | 0.60 s | 1.96 s | 5.94 s |
/// | 3 plies | 202.9 M, 34.2 s | 51.5 M, 5.4 s | 20.4 M, 2.3 s | 0.54 s | 1.49 s | 5.50 s |
/// | **4 plies** | **197.6 M, 28.8 s** | **52.5 M, 5.2 s** | **20.9 M, 2.2 s** | **0.59 s** | **1.52 s** | **5.66 s** |
/// | 6 plies | 194.2 M, 26.4 s | 55.4 M, 5.4 s | 22.0 M, 2.4 s | 0.64 s | 1.69 s | 6.08 s |
///
/// 4 is never far from the best: 3 is a little faster at the selective levels, 6 on the
/// benchmark's full-width searches. (Fewest replies alone, without the corners and potential
/// mobility, took 265 M nodes on `bench 16` from 5 plies.) The solver's root sort
/// (`Engine::presort`) keeps the evaluation at every depth: the table moves it leaves behind
/// guide the solver, and with this key FFO #40–49 took 4 % more nodes (494 M against 473 M).
pub(crate) const EVAL_ORDER_DEPTH: u32 = 4;

/// The four corners of the 8×8 board.
const CORNERS: u64 = 0x8100_0000_0000_0081;

/// One thread's midgame search.
struct Mid<'a> {
    tt: &'a TranspositionTable,
    eval: &'a dyn Evaluator,
    stop: &'a AtomicBool,
    kernel: Kernel,
    sel: usize,
    /// Nodes at least this many plies from the horizon sort by evaluation
    /// ([`EVAL_ORDER_DEPTH`]).
    eval_order_depth: u32,
    nodes: u64,
    aborted: bool,
}

impl<'a> Mid<'a> {
    fn new(
        tt: &'a TranspositionTable,
        eval: &'a dyn Evaluator,
        stop: &'a AtomicBool,
        kernel: Kernel,
        sel: usize,
    ) -> Mid<'a> {
        Mid {
            tt,
            eval,
            stop,
            kernel,
            sel,
            eval_order_depth: EVAL_ORDER_DEPTH,
            nodes: 0,
            aborted: false,
        }
    }

    /// One iteration at the root; sorts the root moves by their scores for the next one.
    fn root(
        &mut self,
        p: u64,
        o: u64,
        root: &mut [RootMove],
        depth: u32,
        alpha: i32,
        beta: i32,
    ) -> (i32, u8) {
        let mut w = Window::new(alpha, beta);
        w.best_move = root[0].sq;
        for (i, slot) in root.iter_mut().enumerate() {
            let rm = *slot;
            let (np, no) = (o ^ rm.flips, p ^ rm.flips ^ (1u64 << rm.sq));
            let Some(v) = w.child(
                self,
                i == 0,
                rm.sq,
                |s| s.aborted,
                |s, _, a, b| -s.pvs(np, no, -b, -a, depth - 1, None),
            ) else {
                break;
            };
            slot.score = v;
            if w.cut() {
                break;
            }
        }
        if !self.aborted {
            // Best first; the rest by their (bound) scores.
            root.sort_by_key(|r| if r.sq == w.best_move { -1000 } else { -r.score });
        }
        (w.best, w.best_move)
    }

    /// Principal-variation search of `p` against `o` to `depth` plies in `(alpha, beta)`.
    /// `idx`: the pattern indices of `(p, o)` when the parent had them (see [`Children`]).
    fn pvs(&mut self, p: u64, o: u64, alpha: i32, beta: i32, depth: u32, idx: Option<&Indices>) -> i32 {
        let empties = (!(p | o)).count_ones();
        if depth >= empties {
            let mut c = Ctx::new(self.tt, self.stop);
            c.eval = Some(self.eval);
            let (v, _) = endgame::solve_window(&mut c, self.kernel, p, o, alpha, beta);
            self.nodes += c.nodes;
            self.aborted |= c.aborted;
            return v;
        }
        self.nodes += 1;
        if depth == 0 {
            return self.eval.eval(p, o);
        }
        if self.nodes & 0x3FF == 0 && crate::time::halted(self.stop) {
            self.aborted = true;
        }
        if self.aborted {
            return 0;
        }
        if depth == 1 {
            return self.depth_one(p, o, alpha, beta, idx);
        }
        let pv_node = beta - alpha > 1;
        let key = hash(p, o);
        let mut tt_move = NO_MOVE;
        if let Some(d) = self.tt.probe(key) {
            if d.depth as u32 >= depth && d.selectivity as usize <= self.sel {
                let (lo, up) = (d.lower as i32, d.upper as i32);
                if lo >= beta || (lo == up && !pv_node) {
                    return lo;
                }
                if up <= alpha {
                    return up;
                }
            }
            tt_move = d.best;
        }
        let m = moves(p, o);
        if m == 0 {
            if moves(o, p) == 0 {
                return endgame::final_score(p, o);
            }
            return -self.pvs(o, p, -beta, -alpha, depth, idx.map(Indices::swapped).as_ref());
        }
        if self.sel > 0 && !pv_node && depth >= 3 {
            if let Some(v) = self.probcut(p, o, alpha, beta, depth, idx) {
                return v;
            }
        }
        let mut list = [(0i32, 0u32, 0u64); endgame::MAX_MOVES];
        let children = Children::new(self.eval, p, o, m & (m - 1) != 0, idx);
        let count = self.order(
            p,
            o,
            m,
            tt_move,
            &mut list,
            &children,
            depth >= self.eval_order_depth,
        );
        let mut w = Window::new(alpha, beta);
        for (i, &(_, sq, f)) in list[..count].iter().enumerate() {
            let (np, no) = (o ^ f, p ^ f ^ (1u64 << sq));
            // The child's indices, from this node's: cheaper than reading its board.
            let child = children.after(sq, f);
            let ci = child.as_ref();
            if w.child(
                self,
                i == 0,
                sq as u8,
                |s| s.aborted,
                |s, _, a, b| -s.pvs(np, no, -b, -a, depth - 1, ci),
            )
            .is_none()
            {
                return 0;
            }
            if w.cut() {
                break;
            }
        }
        self.tt.store(
            key,
            TtData::from_window(w.best, alpha, beta, depth, self.sel, w.best_move),
        );
        w.best
    }

    /// The last ply: the best child evaluation, without sorting or the table (sorting would
    /// evaluate every child twice).
    fn depth_one(&mut self, p: u64, o: u64, alpha: i32, beta: i32, idx: Option<&Indices>) -> i32 {
        let m = moves(p, o);
        if m == 0 {
            if moves(o, p) == 0 {
                return endgame::final_score(p, o);
            }
            return -self.depth_one(o, p, -beta, -alpha, idx.map(Indices::swapped).as_ref());
        }
        let mut best = -INF;
        let mut mm = m;
        let children = Children::new(self.eval, p, o, m & (m - 1) != 0, idx);
        while mm != 0 {
            let sq = mm.trailing_zeros();
            mm &= mm - 1;
            let f = flips(p, o, sq);
            let (np, no) = (o ^ f, p ^ f ^ (1u64 << sq));
            self.nodes += 1;
            let v = if np | no == u64::MAX {
                -endgame::final_score(np, no)
            } else {
                -children.eval(sq, f, np, no)
            };
            if v > best {
                best = v;
                if v >= beta {
                    break;
                }
            }
        }
        best
    }

    /// Multi-ProbCut: a shallow search far outside the window decides the node.
    fn probcut(
        &mut self,
        p: u64,
        o: u64,
        alpha: i32,
        beta: i32,
        depth: u32,
        idx: Option<&Indices>,
    ) -> Option<i32> {
        let f = probcut::fit(depth)?;
        let t = CONFIDENCE[self.sel] as f64 / 100.0;
        let high = ((beta as f64 + t * f.sigma - f.b) / f.a).ceil() as i32;
        if high < 64 {
            let v = self.pvs(p, o, high - 1, high, f.shallow, idx);
            if self.aborted || v >= high {
                return Some(beta);
            }
        }
        let low = ((alpha as f64 - t * f.sigma - f.b) / f.a).floor() as i32;
        if low > -64 {
            let v = self.pvs(p, o, low, low + 1, f.shallow, idx);
            if self.aborted || v <= low {
                return Some(alpha);
            }
        }
        None
    }

    /// Moves sorted best first: the table move, then by evaluation and the opponent's mobility
    /// (`by_eval`), or by the solver's fastest-first key.
    #[allow(clippy::too_many_arguments)]
    fn order(
        &mut self,
        p: u64,
        o: u64,
        m: u64,
        tt_move: u8,
        list: &mut [(i32, u32, u64); endgame::MAX_MOVES],
        children: &Children,
        by_eval: bool,
    ) -> usize {
        let mut n = 0;
        let mut mm = m;
        while mm != 0 {
            let sq = mm.trailing_zeros();
            mm &= mm - 1;
            let f = flips(p, o, sq);
            let (np, no) = (o ^ f, p ^ f ^ (1u64 << sq));
            let key = if sq as u8 == tt_move {
                i32::MIN
            } else if by_eval {
                // The child is scored from the opponent's side: lower is better for us.
                children.eval(sq, f, np, no) * 16 + moves(np, no).count_ones() as i32 * 8
            } else {
                endgame::fastest_first_key(
                    moves(np, no),
                    CORNERS,
                    around(no) & !(np | no),
                    (1u64 << sq) & CORNERS != 0,
                )
            };
            crate::endgame::insert_sorted(list, n, (key, sq, f));
            n += 1;
        }
        n
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panicking_search_still_ends_its_watchdog() {
        // Without the guard the scope waits on the watchdog for ever and this test never ends.
        let stop = AtomicBool::new(false);
        let r = std::panic::catch_unwind(|| {
            watched(&stop, None, Instant::now(), |_| -> () {
                panic!("the search failed")
            })
        });
        assert!(r.is_err());
    }

    #[test]
    fn resources_out_of_range_are_refused() {
        use crate::ResourceError;
        assert_eq!(Engine::new(1, 0).err(), Some(ResourceError::Threads(0)));
        assert_eq!(Engine::new(1, 257).err(), Some(ResourceError::Threads(257)));
        assert_eq!(Engine::new(0, 1).err(), Some(ResourceError::HashSize(0)));
        assert_eq!(
            Engine::new(usize::MAX, 1).err(),
            Some(ResourceError::HashSize(usize::MAX))
        );
        assert!(Engine::new(1, crate::MAX_THREADS).is_ok());
    }

    #[test]
    fn the_watchdog_raises_the_flag_on_stop_and_on_time() {
        let stop = AtomicBool::new(true);
        let seen = watched(&stop, None, Instant::now(), |flag| {
            while !flag.load(Relaxed) {
                std::thread::sleep(Duration::from_millis(1));
            }
            true
        });
        assert!(seen);
        let stop = AtomicBool::new(false);
        let seen = watched(&stop, Some(Duration::from_millis(5)), Instant::now(), |flag| {
            while !flag.load(Relaxed) {
                std::thread::sleep(Duration::from_millis(1));
            }
            true
        });
        assert!(seen);
    }

    #[test]
    fn board_symmetries_keep_the_board() {
        let six: u64 = (0..6).map(|r| 0x3Fu64 << (8 * r)).fold(0, |a, b| a | b);
        assert_eq!(side(six), 6);
        assert_eq!(board_symmetries(six).len(), 8);
        assert_eq!(board_symmetries(u64::MAX).len(), 8);
        // A hole on a1 leaves the two mirrors in the a1–h8 diagonal's group.
        assert_eq!(
            board_symmetries(!1),
            vec![Symmetry::Identity, Symmetry::FlipDiagonal]
        );
        // A hole on b1: only the identity.
        assert_eq!(board_symmetries(!2), vec![Symmetry::Identity]);
    }

    #[test]
    fn symmetric_first_moves_are_searched_once_and_score_the_same() {
        // 4×4 from the start: the four first moves are one; perfect play gives −10 (RULES.md §5).
        let four: u64 = (0..4).map(|r| 0xFu64 << (8 * r)).fold(0, |a, b| a | b);
        // White on b2 and c3, black on c2 and b3, as d4 e5 / e4 d5 on 8×8.
        let (black, white) = (1u64 << 10 | 1 << 17, 1u64 << 9 | 1 << 18);
        let engine = Engine::new(16, 1).unwrap();
        let r = engine.solve_masked(black, white, four, false, &AtomicBool::new(false));
        assert_eq!(r.info.score, -10);
        assert!(moves(black, white) & four & (1u64 << r.best.expect("a move")) != 0);
    }
}
