//! The benchmark: a fixed set of positions searched at fixed depths with one thread. Its node
//! count is a fingerprint of the search: it changes only when the search does.

use crate::search::{Engine, Limits};
use crate::time::Instant;
use reversi_core::format::obf::parse_obf;
use reversi_core::{AnyPosition, Rules, Variant};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// One benchmark position and how it is searched.
#[derive(Clone, Debug)]
pub struct BenchCase {
    /// A short label.
    pub name: String,
    /// Side to move.
    pub p: u64,
    /// Opponent.
    pub o: u64,
    /// Midgame depth, or `None` for an exact solve.
    pub depth: Option<u32>,
}

/// The result of one case.
#[derive(Clone, Debug)]
pub struct BenchLine {
    /// The case.
    pub name: String,
    /// Score found.
    pub score: i32,
    /// Best move (bit index).
    pub best: Option<u8>,
    /// Nodes searched.
    pub nodes: u64,
    /// Time taken.
    pub time: Duration,
}

fn bits(pos: &AnyPosition) -> (u64, u64) {
    let AnyPosition::Small(p) = pos else {
        unreachable!("8×8")
    };
    (p.discs(p.side_to_move()), p.discs(!p.side_to_move()))
}

/// The cases: four XOT openings at `depth`, four FFO middlegames (#20–#23) at `depth`, and
/// three FFO endgames (#1–#3) solved exactly.
pub fn cases(depth: u32) -> Vec<BenchCase> {
    let mut v = Vec::new();
    for i in 0..4u16 {
        let (p, o) = bits(&AnyPosition::start(&Rules::new(Variant::Xot(Some(i)), 0)));
        v.push(BenchCase {
            name: format!("xot:{}", i + 1),
            p,
            o,
            depth: Some(depth),
        });
    }
    let mid = parse_obf(include_str!("../../../data/ffo/fforum-20-39.obf")).expect("bundled FFO file");
    for (i, e) in mid.iter().take(4).enumerate() {
        let (p, o) = bits(&e.position);
        v.push(BenchCase {
            name: format!("ffo#{}", 20 + i),
            p,
            o,
            depth: Some(depth),
        });
    }
    let end = parse_obf(include_str!("../../../data/ffo/fforum-1-19.obf")).expect("bundled FFO file");
    for (i, e) in end.iter().take(3).enumerate() {
        let (p, o) = bits(&e.position);
        v.push(BenchCase {
            name: format!("ffo#{} exact", 1 + i),
            p,
            o,
            depth: None,
        });
    }
    v
}

/// Runs the benchmark on `engine` (use one thread for a reproducible count), clearing its table
/// before each case.
pub fn run(engine: &Engine, depth: u32, on_line: &mut dyn FnMut(&BenchLine)) -> Vec<BenchLine> {
    let stop = AtomicBool::new(false);
    cases(depth)
        .into_iter()
        .map(|c| {
            engine.clear();
            let t = Instant::now();
            let limits = match c.depth {
                Some(d) => Limits {
                    depth: d,
                    exact_empties: 0,
                    wld_empties: 0,
                    ..Limits::default()
                },
                None => Limits::default(),
            };
            let r = engine.search(c.p, c.o, &limits, &stop, &mut |_| {});
            let line = BenchLine {
                name: c.name,
                score: r.info.score,
                best: r.best,
                nodes: r.info.nodes,
                time: t.elapsed(),
            };
            on_line(&line);
            line
        })
        .collect()
}
