//! The principal-variation move loop, one shape for the midgame root, the midgame nodes and
//! the exact solver: the first move is searched with the whole window, the others with a null
//! window, and searched again with the window that is left when they land inside it.
//!
//! Each caller keeps what differs (how a child is searched, what is stored afterwards); the
//! bookkeeping of the window and the best move lives here once. Everything is inlined, so the
//! node counts and the code the callers compile to are those of the loops written out by hand
//! (`reversi bench` gives the same fingerprint).

use crate::tt::NO_MOVE;

/// A score larger than any real one.
pub const INF: i32 = 100;

/// The window a child is searched with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Probe {
    /// The window `(alpha, beta)` passed with it.
    Full,
    /// The null window `(alpha, alpha + 1)` (the `beta` passed with it is `alpha + 1`).
    Null,
}

/// The state of the loop at one node.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Window {
    alpha: i32,
    beta: i32,
    /// The best score so far (`-INF` before the first child).
    pub best: i32,
    /// The move that gave `best` (`NO_MOVE` before the first child).
    pub best_move: u8,
}

impl Window {
    /// The loop at a node searched in `(alpha, beta)`.
    #[inline(always)]
    pub fn new(alpha: i32, beta: i32) -> Window {
        Window {
            alpha,
            beta,
            best: -INF,
            best_move: NO_MOVE,
        }
    }

    /// Searches the child reached by `sq`: `search(state, probe, alpha, beta)` gives its score
    /// from this node's side. The first child gets the whole window; a later one a null window,
    /// then the rest of the window when it lands inside. Returns the child's score, or `None`
    /// when `aborted(state)` says the search stopped meanwhile (the score means nothing then).
    #[inline(always)]
    pub fn child<S>(
        &mut self,
        state: &mut S,
        first: bool,
        sq: u8,
        aborted: impl Fn(&S) -> bool,
        mut search: impl FnMut(&mut S, Probe, i32, i32) -> i32,
    ) -> Option<i32> {
        let (alpha, beta) = (self.alpha, self.beta);
        let mut v;
        if first {
            v = search(state, Probe::Full, alpha, beta);
        } else {
            v = search(state, Probe::Null, alpha, alpha + 1);
            if v > alpha && v < beta && !aborted(state) {
                v = search(state, Probe::Full, v, beta);
            }
        }
        if aborted(state) {
            return None;
        }
        if v > self.best {
            self.best = v;
            self.best_move = sq;
            if v > self.alpha {
                self.alpha = v;
            }
        }
        Some(v)
    }

    /// Whether a child reached beta: the remaining ones need no search.
    #[inline(always)]
    pub fn cut(&self) -> bool {
        self.best >= self.beta
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A node whose children score `scores` (from its side); records each search made.
    fn run(alpha: i32, beta: i32, scores: &[i32]) -> (Window, Vec<(usize, Probe, i32, i32)>) {
        let mut w = Window::new(alpha, beta);
        let mut log = Vec::new();
        for (i, &s) in scores.iter().enumerate() {
            let v = w.child(
                &mut log,
                i == 0,
                i as u8,
                |_| false,
                |log, probe, a, b| {
                    log.push((i, probe, a, b));
                    // A fail-hard child: its bound when the true score lies outside the window.
                    s.clamp(a, b)
                },
            );
            assert!(v.is_some());
            if w.cut() {
                break;
            }
        }
        (w, log)
    }

    #[test]
    fn first_child_full_then_null_windows_with_research() {
        let (w, log) = run(-10, 10, &[2, 1, 5, -20]);
        assert_eq!((w.best, w.best_move), (5, 2));
        assert_eq!(
            log,
            [
                (0, Probe::Full, -10, 10),
                (1, Probe::Null, 2, 3),
                (2, Probe::Null, 2, 3),
                (2, Probe::Full, 3, 10),
                (3, Probe::Null, 5, 6),
            ]
        );
    }

    #[test]
    fn a_cutoff_ends_the_loop() {
        let (w, log) = run(0, 4, &[1, 9, 3]);
        assert_eq!((w.best, w.best_move), (4, 1));
        assert!(w.cut());
        // The null window failed high, the re-search reached beta: the third child is not searched.
        assert_eq!(
            log,
            [
                (0, Probe::Full, 0, 4),
                (1, Probe::Null, 1, 2),
                (1, Probe::Full, 2, 4)
            ]
        );
    }

    #[test]
    fn an_aborted_search_gives_no_score() {
        let mut w = Window::new(-INF, INF);
        let mut stopped = false;
        let v = w.child(
            &mut stopped,
            true,
            3,
            |s| *s,
            |s, _, _, _| {
                *s = true;
                7
            },
        );
        assert_eq!(v, None);
        assert_eq!((w.best, w.best_move), (-INF, NO_MOVE));
    }
}
