//! Swiss and round-robin pairings, shared by the engine runner and the game site's tournaments.
//!
//! The Swiss pairer ranks the players still in the tournament by points, then by seed (a rating,
//! higher first), then by entry order, and pairs them from the top: each player with the nearest
//! player in score who satisfies the constraints, backtracking when the rest cannot be paired.
//! When that search runs out of steps without proving a level impossible, a second one pairs
//! the most constrained player first (the one with the fewest allowed opponents left), which
//! finds the rare pairings the top-down order misses in late rounds of a large field.
//! Constraints are relaxed in steps only when no pairing satisfies them:
//!
//! 1. no repeat pairing, and no player's colour difference (blacks − whites) beyond ±1;
//! 2. no repeat pairing, colour differences within ±2;
//! 3. no repeat pairing;
//! 4. repeats allowed, fewest meetings first.
//!
//! As in FIDE's Swiss rules, meeting an opponent twice is worse than an unbalanced colour: a
//! repeat comes only when no repeat-free round exists at all.
//!
//! With an odd count the lowest-ranked player who has not had a pairing bye sits out (a
//! late-join half-point bye does not count as one); only when all have had one does it go to
//! someone a second time. The search is bounded ([`SEARCH_BUDGET`] steps per step of
//! relaxation), so a pathological history costs milliseconds, never minutes.

use serde::{Deserialize, Serialize};

/// The most search steps one level of constraints may take before the next level is tried. A
/// 200-player round without conflicts takes about as many steps as players; 100 000 leaves room
/// for the backtracking late rounds need.
pub const SEARCH_BUDGET: usize = 100_000;

/// One player's history, as the Swiss pairer sees it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SwissPlayer {
    /// Points so far, byes included.
    pub points: f64,
    /// The seed: higher is ranked first among equal points (a rating, or 0).
    pub seed: f64,
    /// Opponents met, once per meeting.
    pub opponents: Vec<usize>,
    /// Games with black.
    pub blacks: u32,
    /// Games with white.
    pub whites: u32,
    /// The colour of the last game: `Some(true)` black, `Some(false)` white.
    pub last_black: Option<bool>,
    /// Whether the player has had a pairing bye.
    pub had_bye: bool,
    /// Whether the player is still in (not withdrawn or removed).
    pub active: bool,
}

impl SwissPlayer {
    /// A player with no history who is in.
    pub fn new(seed: f64) -> SwissPlayer {
        SwissPlayer {
            seed,
            active: true,
            ..SwissPlayer::default()
        }
    }

    fn diff(&self) -> i64 {
        self.blacks as i64 - self.whites as i64
    }

    fn met(&self, other: usize) -> usize {
        self.opponents.iter().filter(|&&o| o == other).count()
    }

    /// Records a game against `opponent` with `black` or white, worth `points` to this player.
    pub fn record(&mut self, opponent: usize, black: bool, points: f64) {
        self.opponents.push(opponent);
        if black {
            self.blacks += 1;
        } else {
            self.whites += 1;
        }
        self.last_black = Some(black);
        self.points += points;
    }
}

/// One round's pairings: `(black, white)` by board, best-placed board first, and who sits out.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Round {
    /// The games: black's and white's index.
    pub pairs: Vec<(usize, usize)>,
    /// The player with the bye, if the count of active players is odd.
    pub bye: Option<usize>,
}

/// Pairs the next Swiss round of `players` (indices into the slice; inactive players are left
/// out).
pub fn swiss(players: &[SwissPlayer]) -> Round {
    let mut order: Vec<usize> = (0..players.len()).filter(|&i| players[i].active).collect();
    order.sort_by(|&a, &b| {
        let (x, y) = (&players[a], &players[b]);
        y.points
            .total_cmp(&x.points)
            .then(y.seed.total_cmp(&x.seed))
            .then(a.cmp(&b))
    });
    if order.is_empty() {
        return Round::default();
    }
    // Bye candidates: lowest ranked first, those without a bye before those with one.
    let mut bye_candidates: Vec<Option<usize>> = vec![None];
    if order.len() % 2 == 1 {
        let mut c: Vec<usize> = order.iter().rev().copied().collect();
        c.sort_by_key(|&p| players[p].had_bye);
        bye_candidates = c.into_iter().map(Some).collect();
    }
    for level in [
        Level::NoRepeats(1),
        Level::NoRepeats(2),
        Level::NoRepeats(i64::MAX),
        Level::Any,
    ] {
        // A bye further up the table is tried only if the pairing without it fails.
        for &bye in bye_candidates
            .iter()
            .take(if level == Level::Any { 1 } else { 8 })
        {
            let rest: Vec<usize> = order.iter().copied().filter(|&p| Some(p) != bye).collect();
            // From the top of the table first; when that runs out of steps without proving
            // the level impossible, once more pairing the most constrained player first.
            for most_constrained_first in [false, true] {
                if most_constrained_first && level == Level::Any {
                    break;
                }
                let mut search = Search {
                    players,
                    level,
                    steps: 0,
                    paired: Vec::with_capacity(rest.len() / 2),
                    most_constrained_first,
                };
                let mut free = vec![true; rest.len()];
                if search.solve(&rest, &mut free) {
                    // Best-placed board first (the top-down search pairs in that order).
                    let mut paired = search.paired;
                    paired.sort_by_key(|&(a, _)| rest.iter().position(|&p| p == a));
                    let pairs = paired.into_iter().map(|(a, b)| colours(players, a, b)).collect();
                    return Round { pairs, bye };
                }
                if search.steps <= SEARCH_BUDGET {
                    // The whole level was searched: no pairing exists at it.
                    break;
                }
            }
        }
    }
    unreachable!("the last level pairs anyone with anyone")
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Level {
    /// No repeat, and no colour difference beyond this after the game.
    NoRepeats(i64),
    /// Anyone with anyone.
    Any,
}

struct Search<'a> {
    players: &'a [SwissPlayer],
    level: Level,
    steps: usize,
    /// Pairs as `(better placed, other)`.
    paired: Vec<(usize, usize)>,
    /// Pair first the free player with the fewest allowed opponents left (instead of the best
    /// placed one): slower per step, but it finds a pairing where the top-down order backtracks
    /// without end (late rounds of a large field where several players need one colour).
    most_constrained_first: bool,
}

impl Search<'_> {
    /// The free entry of `rest` with the fewest allowed free opponents (the best placed among
    /// equals), with that count. Each check counts as a step of the budget.
    fn most_constrained(&mut self, rest: &[usize], free: &[bool]) -> Option<(usize, usize)> {
        let mut best: Option<(usize, usize)> = None;
        for i in (0..rest.len()).filter(|&i| free[i]) {
            let mut n = 0;
            for j in (0..rest.len()).filter(|&j| j != i && free[j]) {
                self.steps += 1;
                n += self.allowed(rest[i], rest[j]) as usize;
            }
            if best.is_none_or(|(_, m)| n < m) {
                best = Some((i, n));
            }
        }
        best
    }

    /// Pairs every free entry of `rest` (ranked order), or says it cannot within the budget.
    fn solve(&mut self, rest: &[usize], free: &mut [bool]) -> bool {
        let first = if self.most_constrained_first {
            match self.most_constrained(rest, free) {
                None => None,
                Some((_, 0)) => return false,
                Some((i, _)) => Some(i),
            }
        } else {
            free.iter().position(|&f| f)
        };
        let Some(i) = first else {
            return true;
        };
        if self.steps > SEARCH_BUDGET && self.level != Level::Any {
            return false;
        }
        free[i] = false;
        let a = rest[i];
        let pa = &self.players[a];
        // Candidates: the nearest in points first, then the nearest in rank. (Top-down, every
        // entry above `i` is paired already.)
        let mut cands: Vec<usize> = (0..rest.len()).filter(|&j| free[j]).collect();
        cands.sort_by(|&x, &y| {
            let dx = (pa.points - self.players[rest[x]].points).abs();
            let dy = (pa.points - self.players[rest[y]].points).abs();
            let mx = pa.met(rest[x]);
            let my = pa.met(rest[y]);
            let by_meetings = if self.level == Level::Any {
                mx.cmp(&my)
            } else {
                std::cmp::Ordering::Equal
            };
            by_meetings
                .then(dx.total_cmp(&dy))
                .then(x.abs_diff(i).cmp(&y.abs_diff(i)))
                .then(x.cmp(&y))
        });
        for j in cands {
            self.steps += 1;
            if self.steps > SEARCH_BUDGET && self.level != Level::Any {
                free[i] = true;
                return false;
            }
            let b = rest[j];
            if !self.allowed(a, b) {
                continue;
            }
            free[j] = false;
            self.paired.push(if i < j { (a, b) } else { (b, a) });
            // At the last level the first choice stands: anyone may meet anyone.
            if self.solve(rest, free) || self.level == Level::Any {
                return true;
            }
            self.paired.pop();
            free[j] = true;
        }
        free[i] = true;
        false
    }

    fn allowed(&self, a: usize, b: usize) -> bool {
        let (pa, pb) = (&self.players[a], &self.players[b]);
        match self.level {
            Level::Any => true,
            Level::NoRepeats(max) => {
                // The one with the lower difference takes black (see `colours`).
                let (lo, hi) = (pa.diff().min(pb.diff()), pa.diff().max(pb.diff()));
                pa.met(b) == 0 && (lo + 1).abs() <= max && (hi - 1).abs() <= max
            }
        }
    }
}

/// Who of `a` (the better placed) and `b` takes black: the one with fewer blacks than whites;
/// then the one who had white last; then the better placed one alternates from its last game.
fn colours(players: &[SwissPlayer], a: usize, b: usize) -> (usize, usize) {
    let (pa, pb) = (&players[a], &players[b]);
    let a_black = match pa.diff().cmp(&pb.diff()) {
        std::cmp::Ordering::Less => true,
        std::cmp::Ordering::Greater => false,
        std::cmp::Ordering::Equal => match (pa.last_black, pb.last_black) {
            (Some(x), Some(y)) if x != y => !x,
            (Some(x), _) => !x,
            (None, Some(y)) => y,
            (None, None) => true,
        },
    };
    if a_black {
        (a, b)
    } else {
        (b, a)
    }
}

/// A round-robin schedule of `players` by the circle method (Berger tables): `players − 1`
/// rounds per cycle (`players` when odd: each round one player sits out), every pair once per
/// cycle, colours alternating for each player as far as the method allows; the second cycle of a
/// double round robin repeats the first with the colours swapped. Each round lists its games as
/// `(black, white)` and its bye.
pub fn round_robin(players: usize, cycles: usize) -> Vec<Round> {
    if players < 2 {
        return Vec::new();
    }
    // With an odd count a phantom player (index `n - 1`) gives the bye.
    let n = players + players % 2;
    let phantom = (players % 2 == 1).then_some(n - 1);
    let mut first = Vec::with_capacity(n - 1);
    for r in 0..n - 1 {
        // The last entry stays; the others rotate one place per round.
        let at = |k: usize| -> usize {
            if k == n - 1 {
                n - 1
            } else {
                (k + r) % (n - 1)
            }
        };
        let mut round = Round::default();
        for k in 0..n / 2 {
            let (x, y) = (at(k), at(n - 1 - k));
            // The fixed player alternates colour by round; the others by board parity.
            let x_black = if k == 0 { r % 2 == 0 } else { k % 2 == 1 };
            let (b, w) = if x_black { (x, y) } else { (y, x) };
            if Some(b) == phantom {
                round.bye = Some(w);
            } else if Some(w) == phantom {
                round.bye = Some(b);
            } else {
                round.pairs.push((b, w));
            }
        }
        first.push(round);
    }
    let mut out = Vec::with_capacity(first.len() * cycles);
    for c in 0..cycles {
        for r in &first {
            let mut r = r.clone();
            if c % 2 == 1 {
                r.pairs = r.pairs.iter().map(|&(b, w)| (w, b)).collect();
            }
            out.push(r);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::HashSet;

    /// Plays `rounds` Swiss rounds of `n` players with results from `results` (black's points
    /// per game, cycled), withdrawing players at the given rounds; returns the players and the
    /// rounds.
    fn simulate(
        n: usize,
        rounds: usize,
        results: &[u8],
        withdraw: &[(usize, usize)],
    ) -> (Vec<SwissPlayer>, Vec<Round>) {
        let mut ps: Vec<SwissPlayer> = (0..n).map(|i| SwissPlayer::new((n - i) as f64)).collect();
        let mut out = Vec::new();
        let mut k = 0;
        for r in 0..rounds {
            for &(p, at) in withdraw {
                if at == r && p < n {
                    ps[p].active = false;
                }
            }
            let round = swiss(&ps);
            for &(b, w) in &round.pairs {
                let bp = [1.0, 0.5, 0.0][results[k % results.len()] as usize % 3];
                k += 1;
                ps[b].record(w, true, bp);
                ps[w].record(b, false, 1.0 - bp);
            }
            if let Some(p) = round.bye {
                ps[p].had_bye = true;
                ps[p].points += 1.0;
            }
            out.push(round);
        }
        (ps, out)
    }

    proptest! {
        #[test]
        fn swiss_properties(
            n in 2usize..40,
            extra in 0usize..3,
            results in proptest::collection::vec(0u8..3, 1..64),
        ) {
            // At most n/2 rounds: a repeat-free round always exists then (Dirac's theorem).
            let rounds = (n / 2).clamp(1, 9).min(1 + extra + (n as f64).log2() as usize);
            let (ps, rs) = simulate(n, rounds, &results, &[]);
            let mut met = HashSet::new();
            let mut byes = HashSet::new();
            for r in &rs {
                let mut seen = HashSet::new();
                for &(b, w) in &r.pairs {
                    prop_assert!(b != w);
                    prop_assert!(seen.insert(b) && seen.insert(w), "twice in a round: {r:?}");
                    prop_assert!(met.insert((b.min(w), b.max(w))), "a repeat pairing {b}-{w}");
                }
                prop_assert_eq!(r.bye.is_some(), n % 2 == 1);
                if let Some(p) = r.bye {
                    prop_assert!(!seen.contains(&p));
                    prop_assert!(byes.insert(p), "a second bye for {}", p);
                }
                prop_assert_eq!(seen.len() + r.bye.is_some() as usize, n);
            }
            for p in &ps {
                prop_assert!(p.diff().abs() <= 2, "colour difference {} in {rs:?}", p.diff());
            }
        }

        /// Whenever a round with no repeat and every colour difference within one exists (an
        /// exhaustive search over all pairings of up to 12 players), the pairer finds one.
        #[test]
        fn colours_within_one_whenever_possible(
            half in 2usize..7,
            rounds in 1usize..6,
            results in proptest::collection::vec(0u8..3, 1..64),
        ) {
            let n = 2 * half;
            let (ps, _) = simulate(n, rounds.min(half), &results, &[]);
            let round = swiss(&ps);
            let strict = |ps: &[SwissPlayer], pairs: &[(usize, usize)]| {
                pairs.iter().all(|&(b, w)| {
                    ps[b].met(w) == 0 && (ps[b].diff() + 1).abs() <= 1 && (ps[w].diff() - 1).abs() <= 1
                })
            };
            if !strict(&ps, &round.pairs) {
                prop_assert!(!exists_strict(&ps, &(0..n).collect::<Vec<_>>()), "missed one: {round:?}");
            }
        }

        #[test]
        fn withdrawn_players_are_not_paired(
            n in 4usize..24,
            who in proptest::collection::vec((0usize..24, 0usize..5), 0..5),
            results in proptest::collection::vec(0u8..3, 1..32),
        ) {
            let (ps, rs) = simulate(n, 5, &results, &who);
            for (r, round) in rs.iter().enumerate() {
                let gone: HashSet<usize> =
                    who.iter().filter(|&&(p, at)| at <= r && p < n).map(|&(p, _)| p).collect();
                for &(b, w) in &round.pairs {
                    prop_assert!(!gone.contains(&b) && !gone.contains(&w));
                }
                prop_assert!(round.bye.is_none_or(|p| !gone.contains(&p)));
                let active = n - gone.len();
                prop_assert_eq!(round.pairs.len(), active / 2);
            }
            prop_assert_eq!(ps.len(), n);
        }

        #[test]
        fn round_robin_meets_everyone_once(n in 2usize..21, cycles in 1usize..3) {
            let rs = round_robin(n, cycles);
            let per = if n % 2 == 0 { n - 1 } else { n };
            prop_assert_eq!(rs.len(), per * cycles);
            let mut games = std::collections::HashMap::new();
            let mut diff = vec![0i64; n];
            for r in &rs {
                let mut seen = HashSet::new();
                for &(b, w) in &r.pairs {
                    prop_assert!(seen.insert(b) && seen.insert(w));
                    *games.entry((b, w)).or_insert(0) += 1;
                    diff[b] += 1;
                    diff[w] -= 1;
                }
                prop_assert_eq!(r.bye.is_some(), n % 2 == 1);
                prop_assert_eq!(seen.len() + r.bye.is_some() as usize, n);
            }
            for a in 0..n {
                for b in a + 1..n {
                    let ab = games.get(&(a, b)).copied().unwrap_or(0);
                    let ba = games.get(&(b, a)).copied().unwrap_or(0);
                    prop_assert_eq!(ab + ba, cycles);
                    if cycles == 2 {
                        prop_assert_eq!((ab, ba), (1, 1), "each colour once in a double round robin");
                    }
                }
            }
            for d in diff {
                prop_assert!(d.abs() <= cycles as i64, "colour difference {}", d);
            }
        }
    }

    /// Whether `left` can be paired with no repeat and every difference within one.
    fn exists_strict(ps: &[SwissPlayer], left: &[usize]) -> bool {
        let Some((&a, rest)) = left.split_first() else {
            return true;
        };
        rest.iter().enumerate().any(|(j, &b)| {
            let (lo, hi) = (ps[a].diff().min(ps[b].diff()), ps[a].diff().max(ps[b].diff()));
            let ok = ps[a].met(b) == 0 && (lo + 1).abs() <= 1 && (hi - 1).abs() <= 1;
            let others: Vec<usize> = rest
                .iter()
                .enumerate()
                .filter(|&(k, _)| k != j)
                .map(|(_, &p)| p)
                .collect();
            ok && exists_strict(ps, &others)
        })
    }

    #[test]
    fn leaders_meet_and_the_last_sits_out() {
        let mut ps: Vec<SwissPlayer> = (0..5).map(|i| SwissPlayer::new(-(i as f64))).collect();
        let r1 = swiss(&ps);
        assert_eq!(r1.bye, Some(4));
        assert_eq!(r1.pairs, [(0, 1), (2, 3)]);
        // 1 and 3 win; 4 had the bye.
        ps[0].record(1, true, 0.0);
        ps[1].record(0, false, 1.0);
        ps[2].record(3, true, 0.0);
        ps[3].record(2, false, 1.0);
        ps[4].had_bye = true;
        ps[4].points = 1.0;
        let r2 = swiss(&ps);
        // The bye goes to the lowest ranked without one. The leaders (1, 3, 4 on a point) meet
        // among themselves as far as colours allow: 1 and 3 both had white and both owe black,
        // so 1 meets 4 and takes black, and 3 takes black against 0, who had black.
        assert_eq!(r2.bye, Some(2));
        assert_eq!(r2.pairs, [(1, 4), (3, 0)]);
    }

    #[test]
    fn a_late_joiner_half_point_is_not_a_bye() {
        let mut ps: Vec<SwissPlayer> = (0..3).map(|_| SwissPlayer::new(0.0)).collect();
        ps[2].points = 0.5; // joined late, got a half-point bye
        let r = swiss(&ps);
        assert_eq!(r.pairs.len(), 1);
        // Lowest ranked without a pairing bye: 1 (0 points, seeded below 0).
        assert_eq!(r.bye, Some(1));
    }
}
