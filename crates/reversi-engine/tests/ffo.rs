//! FFO endgame test suite: exact scores and best moves (data/ffo, from the Edax repository,
//! cross-checked against a second answer table).

use reversi_core::bitboard::{flips, moves};
use reversi_core::format::obf::{parse_obf, ObfEntry};
use reversi_core::{AnyPosition, Move, Square};
use reversi_engine::busy::Busy;
use reversi_engine::endgame::{solve_window, Ctx, Kernel, INF};
use reversi_engine::tt::{hash, TranspositionTable};
use std::sync::atomic::AtomicBool;

fn load(name: &str) -> Vec<ObfEntry> {
    let path = format!("{}/../../data/ffo/{name}", env!("CARGO_MANIFEST_DIR"));
    parse_obf(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn bits(pos: &AnyPosition) -> (u64, u64) {
    let AnyPosition::Small(p) = pos else {
        panic!("8×8")
    };
    (p.discs(p.side_to_move()), p.discs(!p.side_to_move()))
}

fn check(entries: &[ObfEntry], first_id: usize, kernel: Kernel) -> u64 {
    let tt = TranspositionTable::new(64).unwrap();
    let stop = AtomicBool::new(false);
    let mut total = 0;
    for (i, e) in entries.iter().enumerate() {
        let (p, o) = bits(&e.position);
        tt.clear();
        let mut c = Ctx::new(&tt, &stop);
        let (score, best) = solve_window(&mut c, kernel, p, o, -INF, INF);
        let id = first_id + i;
        assert_eq!(Some(score), e.best_score(), "FFO #{id}");
        let best = Move::Play(Square::from_bit8(best as u32));
        assert!(
            e.best_moves().contains(&best),
            "FFO #{id}: {best} is not among the best moves"
        );
        total += c.nodes;
    }
    total
}

#[test]
fn ffo_1_to_19() {
    let n = check(&load("fforum-1-19.obf"), 1, Kernel::best());
    println!("FFO #1-19: {n} nodes");
}

#[test]
fn ffo_1_to_19_every_kernel() {
    let entries = load("fforum-1-19.obf");
    // The same node count: every kernel makes the same search.
    let portable = check(&entries[..6], 1, Kernel::Portable);
    for kernel in [Kernel::Avx2, Kernel::Avx512] {
        if kernel.available() {
            assert_eq!(check(&entries[..6], 1, kernel), portable, "{kernel:?}");
        }
    }
}

/// The children of `(p, o)`, from the side that moves next in each.
fn children(p: u64, o: u64) -> Vec<(u64, u64)> {
    let mut m = moves(p, o);
    let mut out = Vec::new();
    while m != 0 {
        let sq = m.trailing_zeros();
        m &= m - 1;
        let f = flips(p, o, sq);
        out.push((o ^ f, p ^ f ^ (1u64 << sq)));
    }
    out
}

/// A thread that shares its tree puts off the moves into positions another thread is searching
/// and searches them last: with every grandchild of the root marked as searched elsewhere, each
/// child searches its first move, then all the others in a second pass, and the score and best
/// move stay exact (a move skipped instead of put off would change some of them).
#[test]
fn moves_put_off_for_another_thread_are_still_searched() {
    let tt = TranspositionTable::new(16).unwrap();
    let stop = AtomicBool::new(false);
    for (i, e) in load("fforum-1-19.obf").iter().enumerate() {
        let (p, o) = bits(&e.position);
        let busy = Busy::new();
        for (cp, co) in children(p, o) {
            for (gp, go) in children(cp, co) {
                busy.enter(hash(gp, go));
            }
        }
        tt.clear();
        let mut c = Ctx::new(&tt, &stop);
        c.busy = Some(&busy);
        let (score, best) = busy.helping(|| solve_window(&mut c, Kernel::best(), p, o, -INF, INF));
        assert_eq!(Some(score), e.best_score(), "FFO #{}", i + 1);
        let best = Move::Play(Square::from_bit8(best as u32));
        assert!(e.best_moves().contains(&best), "FFO #{}: {best}", i + 1);
    }
}

#[test]
#[ignore = "slow: about a minute in release"]
fn ffo_20_to_39() {
    check(&load("fforum-20-39.obf"), 20, Kernel::best());
}

/// The engine's whole solve (selective ProbCut passes from 18 empties, then the exact pass) on
/// the positions of #20–39 with 18 to 26 empties that solve quickly: the exact score and a best
/// move, with 1 and 2 threads.
#[test]
fn engine_solve_with_selective_passes() {
    let entries = load("fforum-20-39.obf");
    for threads in [1, 2] {
        let engine = reversi_engine::Engine::new(16, threads).unwrap();
        for i in [3, 9, 19] {
            let e = &entries[i];
            let (p, o) = bits(&e.position);
            assert!(
                (!(p | o)).count_ones() >= 18,
                "FFO #{}: the passes need 18 empties",
                20 + i
            );
            engine.clear();
            let r = engine.solve(p, o, false, &AtomicBool::new(false), &mut |_| {});
            assert_eq!(
                Some(r.info.score),
                e.best_score(),
                "FFO #{}, {threads} threads",
                20 + i
            );
            let best = Move::Play(Square::from_bit8(r.best.expect("a move") as u32));
            assert!(e.best_moves().contains(&best), "FFO #{}: {best}", 20 + i);
        }
    }
}
