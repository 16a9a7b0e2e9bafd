//! The solvers against a naive minimax, perfect play on small boards (RULES.md §5), symmetry.

use proptest::prelude::*;
use reversi_core::{AnyPosition, Bits, Move, Position, Rules, Symmetry, Variant};
use reversi_engine::tt::TranspositionTable;
use reversi_engine::variant::VariantSearch;
use reversi_engine::Engine;
use std::sync::atomic::AtomicBool;

/// Plain minimax to the end of the game, no pruning, no table: the final margin (RULES.md §1)
/// for the side to move.
fn minimax<B: Bits>(pos: &Position<B>) -> i32 {
    if pos.is_game_over() {
        return pos.score().margin(pos.side_to_move());
    }
    let moves = pos.legal_moves();
    if moves.is_empty() {
        let mut n = *pos;
        n.play_unchecked(Move::Pass);
        return -minimax(&n);
    }
    moves
        .squares()
        .map(|sq| {
            let mut n = *pos;
            n.play_unchecked(Move::Play(sq));
            -minimax(&n)
        })
        .max()
        .unwrap()
}

fn exact_variant<B: Bits>(pos: &Position<B>) -> i32 {
    let tt = TranspositionTable::new(4).unwrap();
    let stop = AtomicBool::new(false);
    let r = VariantSearch::new(pos, &tt, &stop).search(pos, 200);
    assert!(r.exact);
    r.score
}

fn exact_8x8(pos: &Position<u64>) -> i32 {
    let engine = Engine::new(4, 1).unwrap();
    let me = pos.side_to_move();
    let r = engine.solve(
        pos.discs(me),
        pos.discs(!me),
        false,
        &AtomicBool::new(false),
        &mut |_| {},
    );
    r.info.score
}

/// The fast solver restricted to the board's squares (small boards, holes).
fn exact_masked(pos: &Position<u64>, threads: usize) -> i32 {
    let engine = Engine::new(4, threads).unwrap();
    let me = pos.side_to_move();
    engine
        .solve_masked(
            pos.discs(me),
            pos.discs(!me),
            pos.playable(),
            false,
            &AtomicBool::new(false),
        )
        .info
        .score
}

/// Plays random moves until at most `empties` squares are left (or the game ends).
fn random_position(variant: Variant, choices: &[u16], empties: u32) -> AnyPosition {
    let rules = Rules::new(variant, 7);
    let mut pos = AnyPosition::start(&rules);
    let mut k = 0;
    while pos.empties().count() > empties && !pos.is_game_over() {
        let moves: Vec<_> = pos.legal_moves().squares().collect();
        let mv = if moves.is_empty() {
            Move::Pass
        } else {
            k += 1;
            Move::Play(moves[choices[k % choices.len()] as usize % moves.len()])
        };
        pos.play(mv).unwrap();
    }
    pos
}

fn presets() -> Vec<Variant> {
    let mut v = Variant::examples();
    v.push(Variant::BlackHole(Some(
        reversi_core::Square::parse("e7").unwrap(),
    )));
    v
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]
    /// Every preset: the variant search at full depth equals minimax; on the plain 8×8 board the
    /// endgame solver does too; and all eight images of a square board score the same.
    #[test]
    fn solvers_equal_minimax(choices in proptest::collection::vec(any::<u16>(), 1..80), e in 4u32..=9) {
        for v in presets() {
            let pos = random_position(v, &choices, e);
            let (want, got) = match &pos {
                AnyPosition::Small(p) => (minimax(p), exact_variant(p)),
                AnyPosition::Wide(p) => (minimax(p), exact_variant(p)),
            };
            prop_assert_eq!(got, want, "{} {:?}", v, pos);
            if let AnyPosition::Small(p) = &pos {
                if p.playable() == u64::MAX && p.supply(p.side_to_move()).is_none() && v != Variant::Anti {
                    prop_assert_eq!(exact_8x8(p), want);
                }
                if reversi_engine::position_search::fast_solvable(p) {
                    prop_assert_eq!(exact_masked(p, 1), want, "{} masked", v);
                    prop_assert_eq!(exact_masked(p, 2), want, "{} masked, 2 threads", v);
                }
            }
            if pos.width() == pos.height() && pos.width() <= 10 {
                for s in Symmetry::ALL {
                    let img = pos.transformed(s);
                    let got = match &img {
                        AnyPosition::Small(p) => exact_variant(p),
                        AnyPosition::Wide(p) => exact_variant(p),
                    };
                    prop_assert_eq!(got, want, "{} {:?}", v, s);
                }
            }
        }
    }
}

/// RULES.md §5: 4×4 perfect play: white wins by 10; by 4 with the side-by-side start.
#[test]
fn four_by_four_perfect_play() {
    for (v, want) in [(Variant::Nxn(4), -10), (Variant::NxnParallel(4), -4)] {
        let AnyPosition::Small(pos) = AnyPosition::start(&Rules::new(v, 0)) else {
            unreachable!()
        };
        assert_eq!(minimax(&pos), want, "{v} by minimax");
        assert_eq!(exact_variant(&pos), want, "{v}");
        assert_eq!(exact_masked(&pos, 1), want, "{v} by the fast solver");
    }
}

/// Solves a small board from its start with the fast solver and prints the time and node count.
fn solve_start(v: Variant) -> i32 {
    let AnyPosition::Small(pos) = AnyPosition::start(&Rules::new(v, 0)) else {
        unreachable!()
    };
    let engine = Engine::new(1024, 1).unwrap();
    let me = pos.side_to_move();
    let t = std::time::Instant::now();
    let r = engine.solve_masked(
        pos.discs(me),
        pos.discs(!me),
        pos.playable(),
        false,
        &AtomicBool::new(false),
    );
    println!(
        "{v}: {} in {:.1?}, {} nodes",
        r.info.score,
        t.elapsed(),
        r.info.nodes
    );
    r.info.score
}

/// RULES.md §5: 6×6 perfect play (Feinstein 1993): −4 for black. Run with
/// `cargo test --release -p reversi-engine --test solver -- --ignored --nocapture six` to see the
/// time and node count (measured: 9.06 G nodes, 301 s on one thread).
#[test]
#[ignore = "slow: about 5 minutes in release"]
fn six_by_six_perfect_play() {
    assert_eq!(solve_start(Variant::Nxn(6)), -4);
}

/// RULES.md §5: 6×6 with the side-by-side start: −2 for black. Slower than the standard start:
/// its first moves are not all symmetric (measured: 43.4 G nodes, about 30 minutes on one thread).
#[test]
#[ignore = "slow: about 30 minutes in release"]
fn six_by_six_side_by_side_perfect_play() {
    assert_eq!(solve_start(Variant::NxnParallel(6)), -2);
}
