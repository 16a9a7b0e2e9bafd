//! The benchmark's node count with one thread is deterministic: a fingerprint of the search.
//! When a change to the search is intended, update `FINGERPRINT` (and say so in the commit).

use reversi_engine::{bench, Engine};

const DEPTH: u32 = 8;
const FINGERPRINT: u64 = 279_746;

#[test]
fn bench_is_deterministic() {
    let engine = Engine::new(16, 1).unwrap();
    let a: u64 = bench::run(&engine, DEPTH, &mut |_| {})
        .iter()
        .map(|l| l.nodes)
        .sum();
    let b: u64 = bench::run(&engine, DEPTH, &mut |_| {})
        .iter()
        .map(|l| l.nodes)
        .sum();
    assert_eq!(a, b);
    println!("fingerprint at depth {DEPTH}: {a}");
    assert_eq!(
        a, FINGERPRINT,
        "the search changed: update FINGERPRINT if that was intended"
    );
}
