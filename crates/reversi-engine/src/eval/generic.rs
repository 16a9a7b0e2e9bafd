//! Evaluation of any variant's position (the wide board and rule options), for the generic search.

use reversi_core::{Bits, Goal, Position};

/// The corners of any geometry: squares with a missing neighbour on every axis, so a disc there
/// can never be flipped (`a1` on 8×8; `c1` and `a3` in Eight-Stars; the squares around a hole
/// are not, since the other side of each line still exists).
pub fn corner_squares<B: Bits>(pos: &Position<B>) -> B {
    let playable = pos.playable();
    let w = pos.width() as i32;
    let h = pos.height() as i32;
    let on = |c: i32, r: i32| -> bool {
        c >= 0
            && r >= 0
            && c < w
            && r < h
            && playable.has(reversi_core::Square::new(c as u8, r as u8).expect("in range"))
    };
    let mut corners = B::EMPTY;
    for sq in playable.squares() {
        let (c, r) = (sq.col() as i32, sq.row() as i32);
        let blocked = |dc: i32, dr: i32| !on(c + dc, r + dr) || !on(c - dc, r - dr);
        if blocked(1, 0) && blocked(0, 1) && blocked(1, 1) && blocked(1, -1) {
            corners |= B::square(sq);
        }
    }
    corners
}

/// A simple evaluation for every variant, from the side to move's view, in discs: mobility and
/// corners (which in anti-reversi become liabilities), discs counted near the end.
pub fn evaluate<B: Bits>(pos: &Position<B>, corners: B) -> i32 {
    let me = pos.side_to_move();
    let (p, o) = (pos.discs(me), pos.discs(!me));
    let mob = pos.moves_of(me).count() as i32 - pos.moves_of(!me).count() as i32;
    let cor = (p & corners).count() as i32 - (o & corners).count() as i32;
    let total = pos.playable().count() as i32;
    let empties = pos.empties().count() as i32;
    let late = 64 * (total - empties) / total.max(1); // 0..64 as the board fills
    let discs = p.count() as i32 - o.count() as i32;
    let v = match pos.goal() {
        Goal::MostDiscs => mob * 128 + cor * 640 + discs * late / 2,
        Goal::FewestDiscs => mob * 128 - cor * 320 - discs * late / 2,
    };
    (v / 64).clamp(-(total - 1), total - 1)
}
