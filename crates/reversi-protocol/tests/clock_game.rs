//! A whole game at 1 minute + 1 second a side, timed by the wall clock as a game server would:
//! the strongest level, which would think for ever if let, never runs out of time, and it does
//! use its time (a player that answers at once would pass this test without managing anything).
//!
//! Its opponent plays quickly at a low level, so the test lasts about as long as the clocked
//! player's own minute and a half.

use reversi_core::{Bits, Game, Move, Rules};
use reversi_protocol::{think, EngineSettings};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

#[test]
fn a_game_at_one_minute_plus_one_second_never_flags() {
    let initial = Duration::from_secs(60);
    let increment = Duration::from_secs(1);
    let strong = EngineSettings {
        level: 30,
        hash_mib: 32,
        ..EngineSettings::default()
    };
    let quick = EngineSettings {
        level: 6,
        hash_mib: 8,
        ..EngineSettings::default()
    };
    let engines = [strong.engine().unwrap(), quick.engine().unwrap()];
    let mut game = Game::new(Rules::othello());
    let stop = AtomicBool::new(false);
    let mut remaining = initial;
    let (mut thought, mut moves, mut longest) = (Duration::ZERO, 0, Duration::ZERO);
    while !game.is_over() {
        let pos = *game.position();
        let ply = game.ply();
        if pos.must_pass() {
            game.play(Move::Pass).unwrap();
            continue;
        }
        if game.position().side_to_move() == reversi_core::Color::Black {
            let start = Instant::now();
            let limits = strong.limits(
                pos.empties().count(),
                Some((remaining, increment)),
                Duration::ZERO,
                ply,
            );
            let r = think(&engines[0], &pos, &limits, &stop, &mut |_| {});
            let used = start.elapsed();
            assert!(
                used < remaining,
                "flagged at ply {ply}: {used:?} used with {remaining:?} left ({} empties, limits {limits:?})",
                pos.empties().count()
            );
            remaining = remaining - used + increment;
            thought += used;
            longest = longest.max(used);
            moves += 1;
            game.play(r.best.unwrap()).unwrap();
        } else {
            let limits = quick.limits(pos.empties().count(), None, Duration::ZERO, ply);
            let r = think(&engines[1], &pos, &limits, &stop, &mut |_| {});
            game.play(r.best.unwrap()).unwrap();
        }
    }
    eprintln!(
        "{moves} moves in {thought:?} (longest {longest:?}), {remaining:?} left of {:?}",
        initial + increment * moves
    );
    // It used a fair part of its time, and kept some.
    assert!(
        thought > Duration::from_secs(20),
        "thought only {thought:?} in all"
    );
    assert!(remaining > Duration::from_secs(1), "{remaining:?} left");
}
