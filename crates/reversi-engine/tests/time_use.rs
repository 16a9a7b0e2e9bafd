//! How a search uses its time: a time per move is spent whole, a search stopped within an
//! iteration plays the move it reported last, legal and consistent, a solve stopped after its
//! selective passes plays their move, and a time per move solves the endgame where it fits.

use reversi_core::bitboard::moves;
use reversi_core::format::obf::parse_obf;
use reversi_core::notation::parse_transcript;
use reversi_core::{AnyPosition, Rules};
use reversi_engine::levels::timed;
use reversi_engine::{Engine, Limits, Progress, SearchKind};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::{Duration, Instant};

/// The discs of the side to move and of the other after `transcript` from the start.
fn after(transcript: &str) -> (u64, u64) {
    let rules = Rules::othello();
    let mut pos = AnyPosition::start(&rules);
    for mv in parse_transcript(transcript).unwrap() {
        pos.play(mv).unwrap();
    }
    sides(&pos)
}

/// The discs of the side to move and of the other in an 8×8 position.
fn sides(pos: &AnyPosition) -> (u64, u64) {
    let AnyPosition::Small(pos) = pos else {
        unreachable!("an 8×8 board")
    };
    let me = pos.side_to_move();
    (pos.discs(me), pos.discs(!me))
}

/// The positions of `data/ffo/FILE` as the discs of the side to move and of the other, with
/// the exact score of each.
fn ffo(file: &str) -> Vec<(u64, u64, i32)> {
    let path = format!("{}/../../data/ffo/{file}", env!("CARGO_MANIFEST_DIR"));
    let entries = parse_obf(&std::fs::read_to_string(path).unwrap()).unwrap();
    entries
        .iter()
        .map(|e| {
            let (p, o) = sides(&e.position);
            (p, o, e.best_score().expect("FFO lines give scores"))
        })
        .collect()
}

/// A midgame position with 44 empties (a WTHOR game after 16 moves).
const MIDGAME: &str = "f5d6c5f4e3c6d3f6e6d7g3c4g5c3f7d2";

#[test]
fn a_time_per_move_is_spent_whole() {
    let (p, o) = after(MIDGAME);
    let engine = Engine::new(4, 1).unwrap();
    let stop = AtomicBool::new(false);
    let time = Duration::from_millis(150);
    let started = Instant::now();
    let r = engine.search(p, o, &timed(time), &stop, &mut |_| {});
    // No depth the search could finish in this time ends it first: only the time does.
    assert!(started.elapsed() >= time, "{:?}", started.elapsed());
    assert!(r.info.depth < 40, "depth {}", r.info.depth);
    let best = r.best.expect("a move");
    assert_ne!(moves(p, o) & (1 << best), 0);
}

#[test]
fn a_search_stopped_within_an_iteration_plays_the_move_it_reported() {
    let (p, o) = after(MIDGAME);
    let engine = Engine::new(4, 1).unwrap();
    let limits = Limits {
        depth: 60,
        selectivity: 2,
        exact_empties: 0,
        wld_empties: 0,
        ..Limits::default()
    };
    // Stops at many points of the search, within its iterations.
    for ms in (2..60).step_by(3) {
        let stop = AtomicBool::new(false);
        let mut reports: Vec<Progress> = Vec::new();
        let r = std::thread::scope(|scope| {
            scope.spawn(|| {
                std::thread::sleep(Duration::from_millis(ms));
                stop.store(true, Relaxed);
            });
            engine.search(p, o, &limits, &stop, &mut |r| reports.push(r.clone()))
        });
        let best = r.best.expect("a move");
        assert_ne!(moves(p, o) & (1 << best), 0, "stopped after {ms} ms: {best}");
        // A machine busy elsewhere may stop the search before its first iteration.
        if let Some(last) = reports.last() {
            assert_eq!(last.pv.first(), Some(&best), "stopped after {ms} ms");
            assert_eq!((r.info.depth, r.info.score), (last.depth, last.score));
        }
        assert!(
            reports.windows(2).all(|w| w[0].depth <= w[1].depth),
            "stopped after {ms} ms: depths go back"
        );
    }
}

#[test]
fn a_solve_out_of_time_plays_the_move_of_its_last_selective_pass() {
    // FFO #45: 24 empties, exact score +6. On a 2-core machine its first selective pass (87 %)
    // takes under 0.1 s, and the exact solve over a second.
    let (p, o, _) = ffo("fforum-40-59.obf")[5];
    let engine = Engine::new(16, 1).unwrap();
    let limits = Limits {
        time: Some(Duration::from_millis(600)),
        ..Limits::default()
    };
    let stop = AtomicBool::new(false);
    let r = engine.search(p, o, &limits, &stop, &mut |_| {});
    let best = r.best.expect("a move");
    assert_ne!(moves(p, o) & (1 << best), 0);
    match r.info.kind {
        // A fast machine solves it.
        SearchKind::Exact => assert_eq!(r.info.score, 6),
        // Otherwise the selective pass answers, searched to the end of the game, not the quick
        // depth-4 search that stands in when no pass finished.
        _ => {
            assert_eq!(r.info.depth, 24, "{:?}", r.info);
            assert!(r.info.selectivity_pct < 100, "{:?}", r.info);
            assert!((r.info.score - 6).abs() <= 6, "{:?}", r.info);
            assert_eq!(r.info.pv.first(), Some(&best));
        }
    }
}

#[test]
fn a_time_per_move_solves_the_endgame_where_the_solver_fits_it() {
    // FFO #1–#4: 14 empties; the solver takes a few milliseconds on each. Until 2026-12-05 a
    // time per move of 0.5 s solved exactly only from 12 empties, and these for win, loss or
    // draw alone.
    let limits = timed(Duration::from_millis(500));
    assert!(limits.exact_empties >= 18, "{limits:?}");
    let engine = Engine::new(4, 1).unwrap();
    for (i, &(p, o, exact)) in ffo("fforum-1-19.obf").iter().take(4).enumerate() {
        assert_eq!((!(p | o)).count_ones(), 14, "FFO #{}", i + 1);
        let stop = AtomicBool::new(false);
        let r = engine.search(p, o, &limits, &stop, &mut |_| {});
        assert_eq!(r.info.kind, SearchKind::Exact, "FFO #{}: {:?}", i + 1, r.info);
        assert_eq!(r.info.score, exact, "FFO #{}", i + 1);
    }
}
