//! FFO endgame test suite: exact scores and best moves (data/ffo, from the Edax repository,
//! cross-checked against a second answer table).

use reversi_core::format::obf::{parse_obf, ObfEntry};
use reversi_core::{AnyPosition, Move, Square};
use reversi_engine::endgame::{solve_window, Ctx, Kernel, INF};
use reversi_engine::tt::TranspositionTable;
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
    let tt = TranspositionTable::new(64);
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
fn ffo_1_to_19_portable_kernel() {
    let entries = load("fforum-1-19.obf");
    // The same node count: both kernels make the same search.
    let a = check(&entries[..6], 1, Kernel::Portable);
    let b = check(&entries[..6], 1, Kernel::best());
    assert_eq!(a, b);
}

#[test]
#[ignore = "slow: about a minute in release"]
fn ffo_20_to_39() {
    check(&load("fforum-20-39.obf"), 20, Kernel::best());
}
