//! The shipped puzzles (`data/puzzles/puzzles.tsv`) hold what their file says: a sample of them
//! is proved again by the exact solver — one move alone keeps the best result, the score is
//! the exact value, the line is legal and ends on the player's move, the themes fit.

use reversi_core::format::obf::parse_obf_line;
use reversi_core::{AnyPosition, Move};
use reversi_train::puzzles::{exact_values, MIN_GAP};

const FILE: &str = include_str!("../../../data/puzzles/puzzles.tsv");

#[test]
fn the_file_has_five_thousand_distinct_puzzles() {
    let lines: Vec<&str> = FILE.lines().filter(|l| !l.starts_with('#')).collect();
    assert!(lines.len() >= 5000, "{}", lines.len());
    let mut sources = std::collections::HashSet::new();
    for (i, l) in lines.iter().enumerate() {
        let cols: Vec<&str> = l.split('\t').collect();
        assert_eq!(cols.len(), 9, "line {}: {l}", i + 2);
        let rating: u32 = cols[8].parse().unwrap();
        assert!((1000..=2120).contains(&rating), "{l}");
        assert_eq!(cols[0], (i + 1).to_string());
        assert!(cols[6].starts_with("wthor:"), "{l}");
        // One puzzle a game.
        let game = cols[6].rsplit_once(':').unwrap().0;
        assert!(sources.insert(game.to_string()), "two puzzles from {game}");
        let empties: u32 = cols[7].parse().unwrap();
        assert!((10..=18).contains(&empties), "{l}");
        assert!(cols[5].split(',').any(|t| t == "endgame"), "{l}");
    }
}

#[test]
fn a_sample_is_proved_again() {
    let engine = reversi_engine::Engine::new(16, 1).unwrap();
    let lines: Vec<&str> = FILE.lines().filter(|l| !l.starts_with('#')).collect();
    // Every 125th puzzle: 40 of them, across the file.
    for l in lines.iter().step_by(125) {
        let cols: Vec<&str> = l.split('\t').collect();
        let AnyPosition::Small(pos) = parse_obf_line(&format!("{};", cols[1])).unwrap().position else {
            panic!("8×8")
        };
        let values = exact_values(&engine, &pos);
        let line: Vec<Move> = cols[2]
            .split(' ')
            .map(|m| reversi_core::notation::parse_move(m).unwrap())
            .collect();
        let score: i32 = cols[3].parse().unwrap();
        assert_eq!(values[0], (line[0], score), "{l}");
        let second = values[1].1;
        match cols[4] {
            "win" => assert!(score > 0 && second <= 0, "{l}: {values:?}"),
            "best" => assert!(score - second >= MIN_GAP, "{l}: {values:?}"),
            k => panic!("kind {k}"),
        }
        // The line is legal and its last move is the player's.
        let mut p = pos;
        let me = pos.side_to_move();
        let mut last_mover = me;
        for &m in &line {
            last_mover = p.side_to_move();
            p.play(m).unwrap_or_else(|e| panic!("{l}: {m} {e:?}"));
        }
        assert_eq!(last_mover, me, "{l}");
        if cols[5].split(',').any(|t| t == "corner") {
            assert!(
                ["a1", "h1", "a8", "h8"].contains(&cols[2].split(' ').next().unwrap()),
                "{l}"
            );
        }
    }
}
