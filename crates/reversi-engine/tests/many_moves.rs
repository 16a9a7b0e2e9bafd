//! Positions with more than 32 legal moves: the searches' move lists must hold them all (lists
//! of 32 overflowed and panicked on such a position set up by hand).

use reversi_core::bitboard::{flips, moves};
use reversi_core::notation::parse_board;
use reversi_core::{AnyPosition, Rules};
use reversi_engine::endgame::{self, Ctx, Kernel};
use reversi_engine::tt::TranspositionTable;
use reversi_engine::{Engine, Learned, Limits};
use std::sync::atomic::AtomicBool;

/// X to move with 34 legal moves (found by a hill climb on move counts).
const X_HAS_34: &str = "-OXXO---XOOO--OX-----XO---X--OX-XO-O--O--XXX-XO--OOOOXO---------";
/// X to move; after one of its moves, O has 34.
const O_GETS_34: &str = "------O--X-XXOX--OO-OO-O-OO-XO-------OX--O-X-OO---XXOXX--XO-----";

/// The discs of the side to move (X) and of the other of a board written from a1 to h8.
fn discs(board: &str) -> (u64, u64) {
    let AnyPosition::Small(pos) = parse_board(&Rules::othello(), &format!("{board} X")).unwrap() else {
        unreachable!("an 8×8 board")
    };
    let me = pos.side_to_move();
    (pos.discs(me), pos.discs(!me))
}

/// The most moves the opponent has after one of the mover's moves.
fn most_replies(p: u64, o: u64) -> u32 {
    let mut m = moves(p, o);
    let mut most = 0;
    while m != 0 {
        let sq = m.trailing_zeros();
        m &= m - 1;
        let f = flips(p, o, sq);
        most = most.max(moves(o ^ f, p ^ f ^ (1 << sq)).count_ones());
    }
    most
}

#[test]
fn the_positions_have_34_moves() {
    let (x, o) = discs(X_HAS_34);
    assert_eq!(moves(x, o).count_ones(), 34);
    let (x, o) = discs(O_GETS_34);
    assert_eq!(most_replies(x, o), 34);
}

#[test]
fn midgame_search_plays_a_legal_move() {
    let engine = Engine::new(4, 1).unwrap();
    let stop = AtomicBool::new(false);
    for board in [X_HAS_34, O_GETS_34] {
        let (x, o) = discs(board);
        let limits = Limits {
            depth: 4,
            exact_empties: 0,
            wld_empties: 0,
            ..Limits::default()
        };
        let r = engine.search(x, o, &limits, &stop, &mut |_| {});
        let best = r.best.expect("X has moves");
        assert_ne!(moves(x, o) & (1 << best), 0, "{board}: {best} is not legal");
        assert_eq!(r.info.depth, 4);
    }
}

#[test]
fn endgame_solver_takes_every_move() {
    // The exact solver from the root (the evaluation ranks the moves with short searches at this
    // many empties), stopped after its first few thousand nodes: far more than the root and
    // its children, where the long lists are.
    let tt = TranspositionTable::new(4).unwrap();
    let stop = AtomicBool::new(true);
    for board in [X_HAS_34, O_GETS_34] {
        let (x, o) = discs(board);
        for kernel in [Kernel::Portable, Kernel::best()] {
            let mut c = Ctx::new(&tt, &stop);
            c.eval = Some(Learned::embedded());
            endgame::solve_window(&mut c, kernel, x, o, -64, 64);
            assert!(c.aborted, "{board}: the solve should have been stopped");
            assert!(c.nodes >= 4096, "{board}: {} nodes", c.nodes);
            let mut c = Ctx::new(&tt, &stop);
            c.eval = Some(Learned::embedded());
            c.sel = 1;
            // With Multi-ProbCut the root may be cut at once: either way, a score in range.
            let v = endgame::solve_nws(&mut c, kernel, x, o, 0);
            assert!((-64..=64).contains(&v), "{board}: selective score {v}");
        }
    }
}
