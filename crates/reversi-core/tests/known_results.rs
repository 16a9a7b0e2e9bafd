//! Perft vectors, symmetries, hashing and the known results of RULES.md §5 that a rules library
//! can check.

use reversi_core::notation::parse_board;
use reversi_core::perft::{perft, perft_8x8, perft_8x8_scalar, perft_generic};
use reversi_core::{AnyPosition, Bits, Color, Game, Move, Rules, Square, Symmetry, Variant};
use std::collections::{HashMap, HashSet};

fn vectors(text: &str) -> Vec<Vec<String>> {
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.split_whitespace().map(str::to_string).collect())
        .collect()
}

fn start_bits() -> (u64, u64) {
    let AnyPosition::Small(p) = AnyPosition::start(&Rules::othello()) else {
        unreachable!()
    };
    (p.black(), p.white())
}

/// RULES.md §3: perft from the standard start, depths 1–9, with every kernel and the generic path.
#[test]
fn perft_standard_start() {
    let (b, w) = start_bits();
    let start = AnyPosition::start(&Rules::othello());
    let AnyPosition::Small(p) = start else {
        unreachable!()
    };
    for v in vectors(include_str!("data/perft_othello.txt")) {
        let (d, n): (u32, u64) = (v[0].parse().unwrap(), v[1].parse().unwrap());
        if d > 9 {
            continue; // deeper depths are a benchmark: `reversi perft 12`
        }
        assert_eq!(perft_8x8(b, w, d), n, "fastest kernel, depth {d}");
        assert_eq!(perft_8x8_scalar(b, w, d), n, "portable kernel, depth {d}");
        assert_eq!(perft(&start, d), n, "dispatch, depth {d}");
        if d <= 7 {
            assert_eq!(perft_generic(&p, d), n, "generic path, depth {d}");
        }
    }
}

/// RULES.md §4: pinned perft values of every preset.
#[test]
fn perft_variants() {
    for v in vectors(include_str!("data/perft_variants.txt")) {
        let variant: Variant = v[0].parse().unwrap();
        let (d, n): (u32, u64) = (v[1].parse().unwrap(), v[2].parse().unwrap());
        let pos = AnyPosition::start(&Rules::new(variant, 0));
        assert_eq!(perft(&pos, d), n, "{variant} depth {d}");
    }
}

/// Perft (a full count of the tree) is the same from all eight images of a position, on every
/// square board, holes included.
#[test]
fn perft_is_invariant_under_symmetry() {
    let cases = [
        (Variant::Othello, 6),
        (Variant::Nxn(6), 3),
        (Variant::Nxn(10), 3),
        (Variant::EightStars, 2),
        (Variant::BlackHole(Some(Square::parse("b7").unwrap())), 3),
        (Variant::Reversi1880(Color::White), 2),
    ];
    for (v, plies) in cases {
        let mut g = Game::new(Rules::new(v, 0));
        for k in 0..plies {
            let moves: Vec<Square> = g.legal_moves().squares().collect();
            g.play(Move::Play(moves[(k * 7 + 3) % moves.len()])).unwrap();
        }
        let pos = *g.position();
        let want = perft(&pos, 4);
        let (canon, _) = pos.canonical();
        for s in Symmetry::ALL {
            let img = pos.transformed(s);
            assert_eq!(perft(&img, 4), want, "{v} {s:?}");
            assert_eq!(img.transformed(s.inverse()), pos);
            assert_eq!(img.canonical().0, canon, "{v} {s:?}: canonical form");
            let n = pos.width();
            let mapped: Vec<Square> = {
                let mut m: Vec<Square> = pos.legal_moves().squares().map(|q| s.apply(q, n)).collect();
                m.sort();
                m
            };
            assert_eq!(img.legal_moves().squares().collect::<Vec<_>>(), mapped);
        }
    }
}

/// The hash agrees with equality on every distinct position of the first six plies, and does not
/// collide.
#[test]
fn hash_separates_positions() {
    fn walk(pos: AnyPosition, d: u32, seen: &mut HashMap<u64, AnyPosition>) {
        if let Some(prev) = seen.insert(pos.hash(), pos) {
            assert_eq!(prev, pos, "hash collision");
        }
        if d == 0 || pos.is_game_over() {
            return;
        }
        if pos.must_pass() {
            let mut n = pos;
            n.play(Move::Pass).unwrap();
            return walk(n, d - 1, seen);
        }
        for sq in pos.legal_moves().squares() {
            let mut n = pos;
            n.play(Move::Play(sq)).unwrap();
            walk(n, d - 1, seen);
        }
    }
    let mut seen = HashMap::new();
    walk(AnyPosition::start(&Rules::othello()), 6, &mut seen);
    assert!(seen.len() > 5000, "{} positions", seen.len());
    // Whole endgame subtrees, where positions differ by a disc and the side to move (a side bit
    // that cancelled the a1 bit once made such pairs collide).
    let mut seed = 0x5EED_u64;
    for v in [Variant::Othello, Variant::NxnParallel(8), Variant::Grand] {
        for _ in 0..6 {
            let mut pos = AnyPosition::start(&Rules::new(v, 0));
            while pos.empties().count() > 8 && !pos.is_game_over() {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let moves: Vec<Square> = pos.legal_moves().squares().collect();
                let mv = if moves.is_empty() {
                    Move::Pass
                } else {
                    Move::Play(moves[(seed % moves.len() as u64) as usize])
                };
                pos.play(mv).unwrap();
            }
            let mut sub = HashMap::new();
            walk(pos, 12, &mut sub);
        }
    }
    // Same discs, other side to move: another position, another hash.
    let start = AnyPosition::start(&Rules::othello());
    assert_ne!(start.hash(), start.with_side(Color::White).hash());
}

/// RULES.md §5: the shortest game is 9 moves, a wipe-out by black (13–0 on the board, 64–0).
#[test]
fn shortest_game_is_a_nine_move_wipe_out() {
    fn search(g: &mut Game, depth: usize, found: &mut Vec<(usize, String, u32, u32)>) {
        if g.is_over() {
            let o = g.outcome().unwrap();
            let p = g.position();
            found.push((g.ply(), g.transcript(), p.count(Color::Black), o.black));
            return;
        }
        if depth == 0 {
            return;
        }
        let moves: Vec<Square> = g.legal_moves().squares().collect();
        if moves.is_empty() {
            g.play(Move::Pass).unwrap();
            search(g, depth - 1, found);
            g.undo();
            return;
        }
        for sq in moves {
            g.play(Move::Play(sq)).unwrap();
            search(g, depth - 1, found);
            g.undo();
        }
    }
    let mut g = Game::new(Rules::othello());
    let mut found = Vec::new();
    search(&mut g, 9, &mut found);
    assert!(!found.is_empty());
    assert!(found.iter().all(|f| f.0 == 9), "no game ends before move 9");
    for (_, transcript, on_board, scored) in &found {
        assert_eq!((*on_board, *scored), (13, 64), "{transcript}");
    }
    let lines: Vec<&str> = found.iter().map(|f| f.1.as_str()).collect();
    // The classic example, and its images: the four first moves give four equal families.
    assert!(lines.contains(&"f5d6c5f4e3f6g5e6e7"));
    assert_eq!(found.len(), 228);
    for first in ["d3", "c4", "f5", "e6"] {
        assert_eq!(lines.iter().filter(|l| l.starts_with(first)).count(), 57);
    }
}

/// RULES.md §5 (seed 000, figure 2): a8 flips 18 discs in three lines on the last move and the
/// game ends in a 32–32 draw.
#[test]
fn eighteen_disc_flip() {
    let mut board = ['O'; 64];
    let set = |b: &mut [char; 64], names: &str, c: char| {
        for n in names.split_whitespace() {
            b[Square::parse(n).unwrap().bit8().unwrap() as usize] = c;
        }
    };
    set(&mut board, "a8", '-');
    set(&mut board, "a1 h1 h8", 'X');
    // Ten more black discs away from the three lines, so that the count ends level.
    set(&mut board, "c1 d1 e1 f1 c3 d3 e3 e5 f5 f6", 'X');
    let s: String = board.iter().collect::<String>() + " X";
    let rules = Rules::othello();
    let mut game = Game::from_position(rules.clone(), parse_board(&rules, &s).unwrap());
    let pos = *game.position();
    assert_eq!(pos.count(Color::Black), 13);
    let a8 = Square::parse("a8").unwrap();
    let flips = pos.flips(a8);
    assert_eq!(flips.count(), 18);
    let expect: HashSet<Square> = "a2 a3 a4 a5 a6 a7 b8 c8 d8 e8 f8 g8 b7 c6 d5 e4 f3 g2"
        .split_whitespace()
        .map(|n| Square::parse(n).unwrap())
        .collect();
    assert_eq!(flips.squares().collect::<HashSet<_>>(), expect);
    game.play(Move::Play(a8)).unwrap();
    let o = game.outcome().expect("the board is full");
    assert_eq!(
        (o.black, o.white, o.winner, o.margin(Color::Black)),
        (32, 32, None, 0)
    );
}

/// RULES.md §1: Black's four first moves.
#[test]
fn first_moves() {
    let g = Game::new(Rules::othello());
    let first: Vec<String> = g.legal_moves().squares().map(|s| s.to_string()).collect();
    assert_eq!(first, ["d3", "c4", "f5", "e6"]);
}

/// RULES.md §2: compact transcripts leave passes out; replaying one puts them back where the
/// position forces them.
#[test]
fn implied_passes_are_restored() {
    let mut seed = 0x1234_5678_9ABC_DEF1u64;
    let mut with_pass = 0;
    for _ in 0..400 {
        let mut g = Game::new(Rules::othello());
        while !g.is_over() {
            if g.position().must_pass() {
                g.play(Move::Pass).unwrap();
                continue;
            }
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let moves: Vec<Square> = g.legal_moves().squares().collect();
            g.play(Move::Play(moves[(seed % moves.len() as u64) as usize]))
                .unwrap();
        }
        let replayed = Game::from_transcript(Rules::othello(), &g.transcript()).unwrap();
        assert_eq!(replayed.moves(), g.moves());
        assert_eq!(replayed.outcome(), g.outcome());
        if g.moves().contains(&Move::Pass) {
            with_pass += 1;
            assert!(!g.transcript().contains("pass"));
        }
    }
    assert!(with_pass > 0, "some random games have a pass");
}

/// Undo and redo walk the recorded game; a new move drops the redo tail.
#[test]
fn undo_redo() {
    let mut g = Game::from_transcript(Rules::othello(), "f5d6c3d3c4").unwrap();
    let after5 = *g.position();
    assert!(g.undo() && g.undo());
    assert_eq!(g.transcript(), "f5d6c3");
    assert!(g.redo());
    assert_eq!(g.transcript(), "f5d6c3d3");
    assert!(g.redo() && !g.redo());
    assert_eq!(*g.position(), after5);
    g.goto(1).unwrap();
    assert_eq!(g.recorded_moves().len(), 5);
    g.play(Move::Play(Square::parse("d6").unwrap())).unwrap(); // the recorded move: tail kept
    assert_eq!(g.recorded_moves().len(), 5);
    let other = g.legal_moves().squares().find(|s| s.to_string() != "c3").unwrap();
    g.play(Move::Play(other)).unwrap(); // c3 was recorded: a new branch
    assert_eq!(g.transcript(), format!("f5d6{other}"));
    assert_eq!(g.recorded_moves().len(), 3);
    assert!(!g.redo());
    assert!(g.goto(9).is_err());
    g.goto(0).unwrap();
    assert!(!g.undo());
}

/// RULES.md §1 and §5: the shortest game, a wipe-out on Black's ninth move, is 64–0 in
/// Othello; in `anti`, where fewer discs win, it is White's win written 13–51 (the empties to
/// the winner), and the margin is the difference of the written score there too.
#[test]
fn the_nine_move_wipe_out_in_othello_and_anti() {
    let line = ["d3", "c3", "b3", "d2", "e1", "d6", "d7", "e3", "f4"];
    for (variant, black, white, winner, margin) in [
        ("othello", 64, 0, Color::Black, 64),
        ("anti", 13, 51, Color::White, 38),
    ] {
        let rules = Rules::new(variant.parse::<Variant>().unwrap(), 0);
        let mut pos = AnyPosition::start(&rules);
        for m in line {
            pos.play(Move::Play(Square::parse(m).unwrap())).unwrap();
        }
        assert!(pos.is_game_over(), "{variant}");
        let AnyPosition::Small(p) = pos else {
            unreachable!()
        };
        let o = p.outcome().unwrap();
        assert_eq!(
            (o.black, o.white, o.winner),
            (black, white, Some(winner)),
            "{variant}"
        );
        assert_eq!(o.margin(winner), margin, "{variant}");
        assert_eq!(
            o.margin(winner),
            o.black.abs_diff(o.white) as i32,
            "{variant}: the written difference"
        );
    }
}

/// RULES.md §1: a draw on a board with an odd number of squares (`black-hole`, 63) leaves the
/// square that cannot be split uncounted: 31–31 with an odd number of empties.
#[test]
fn an_odd_draw_is_written_without_the_odd_square() {
    let rules = Rules::new("black-hole".parse::<Variant>().unwrap(), 7);
    let AnyPosition::Small(start) = AnyPosition::start(&rules) else {
        unreachable!()
    };
    // Equal discs, and an odd number of playable empties: the score splits them evenly.
    let playable = start.playable();
    let squares: Vec<u64> = (0..64).map(|i| 1u64 << i).filter(|b| playable & b != 0).collect();
    let black: u64 = squares.iter().step_by(2).take(20).fold(0, |a, b| a | b);
    let white: u64 = squares.iter().skip(1).step_by(2).take(20).fold(0, |a, b| a | b);
    let p = reversi_core::Position::with_discs(&rules, black, white, Color::Black);
    let o = p.score();
    assert_eq!(playable.count_ones() - 40, 23, "an odd number of empties");
    assert_eq!(
        (o.black, o.white, o.winner, o.margin(Color::Black)),
        (31, 31, None, 0)
    );
}
