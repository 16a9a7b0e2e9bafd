//! How a search uses its time: a time per move is spent whole, and a search stopped within an
//! iteration plays the move it reported last, legal and consistent.

use reversi_core::bitboard::moves;
use reversi_core::notation::parse_transcript;
use reversi_core::{AnyPosition, Rules};
use reversi_engine::levels::timed;
use reversi_engine::{Engine, Limits, Progress};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::{Duration, Instant};

/// The discs of the side to move and of the other after `transcript` from the start.
fn after(transcript: &str) -> (u64, u64) {
    let rules = Rules::othello();
    let mut pos = AnyPosition::start(&rules);
    for mv in parse_transcript(transcript).unwrap() {
        pos.play(mv).unwrap();
    }
    let AnyPosition::Small(pos) = pos else {
        unreachable!("an 8×8 board")
    };
    let me = pos.side_to_move();
    (pos.discs(me), pos.discs(!me))
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
