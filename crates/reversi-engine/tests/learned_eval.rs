//! The shipped weights: pinned values (an accidental change of weights or of the feature order
//! fails here), symmetry, and the file format's errors.

use reversi_core::Symmetry;
use reversi_engine::eval::learned::{WeightsError, EMBEDDED};
use reversi_engine::eval::pattern::STAGES;
use reversi_engine::{Evaluator, Learned};

/// Positions (64 squares from a1, `X` black, `O` white; the side to move) with their evaluation
/// in 1/64 disc.
const PINNED: [(&str, char, i32); 4] = [
    // The start position.
    (
        "---------------------------OX------XO---------------------------",
        'X',
        PIN[0],
    ),
    // After f5 d6 (black to move).
    (
        "---------------------------OX------OXX-----O--------------------",
        'X',
        PIN[1],
    ),
    // FFO #40 (20 empties), black to move.
    (
        "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X--------",
        'X',
        PIN[2],
    ),
    // FFO #1 (14 empties), black to move.
    (
        "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO--",
        'X',
        PIN[3],
    ),
];

/// Update with the weights (`cargo test -p reversi-engine --test learned_eval` prints the new values).
const PIN: [i32; 4] = [11, 185, 1743, 890];

fn board(s: &str, side: char) -> (u64, u64) {
    let (mut x, mut o) = (0u64, 0u64);
    for (i, c) in s.chars().enumerate() {
        match c {
            'X' => x |= 1 << i,
            'O' => o |= 1 << i,
            _ => {}
        }
    }
    if side == 'X' {
        (x, o)
    } else {
        (o, x)
    }
}

#[test]
fn pinned_evaluations() {
    let e = Learned::embedded();
    let got: Vec<i32> = PINNED
        .iter()
        .map(|&(b, side, _)| {
            let (p, o) = board(b, side);
            e.eval_fine(p, o)
        })
        .collect();
    assert_eq!(got, PINNED.map(|x| x.2), "evaluations of the pinned positions");
}

#[test]
fn symmetric_positions_evaluate_equal() {
    let e = Learned::embedded();
    let mut seed = 0x1234_5678_9ABC_DEF1u64;
    for _ in 0..2000 {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let a = seed.rotate_left(11);
        let (p, o) = (seed & a, !seed & a & seed.rotate_right(5));
        let v = e.eval_fine(p, o);
        for s in Symmetry::ALL {
            assert_eq!(e.eval_fine(s.apply_u64(p), s.apply_u64(o)), v);
        }
        assert!((-63..=63).contains(&e.eval(p, o)));
    }
}

#[test]
fn the_start_is_close_to_even_and_ffo_signs_are_right() {
    let e = Learned::embedded();
    let start = e.eval(0x0000_0008_1000_0000, 0x0000_0010_0800_0000);
    assert!(start.abs() <= 4, "start {start}");
    // FFO #40 is +38 and FFO #1 +18 for black: the evaluation must at least see a clear win.
    for &(b, side, _) in &PINNED[2..] {
        let (p, o) = board(b, side);
        assert!(e.eval(p, o) >= 8, "{b}");
    }
}

#[test]
fn weights_file_round_trips_and_rejects_garbage() {
    assert!(EMBEDDED.len() <= 16 << 20, "weights must stay within 16 MiB");
    let e = Learned::embedded();
    let raw = e.to_raw();
    let back = Learned::from_raw(&raw).unwrap();
    assert_eq!(back.to_raw(), raw);
    assert_eq!(
        Learned::from_raw(b"RVEVAL02xxxxxxxx").unwrap_err(),
        WeightsError::BadMagic
    );
    let mut wrong = raw[..16].to_vec();
    wrong[8..12].copy_from_slice(&(STAGES as u32 + 1).to_le_bytes());
    assert!(matches!(
        Learned::from_raw(&wrong),
        Err(WeightsError::Layout { .. })
    ));
    assert!(matches!(
        Learned::from_raw(&raw[..raw.len() - 2]),
        Err(WeightsError::Length { .. })
    ));
    assert!(matches!(
        Learned::from_compressed(b"not zstd"),
        Err(WeightsError::Compression(_))
    ));
}
