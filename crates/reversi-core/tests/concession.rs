//! The recorded result of a resignation or a time loss (RULES.md §6): the board count with the
//! empties to the winner when that is a win for the winner, else the smallest win.

use reversi_core::{AnyPosition, Color, Game, Rules, Variant};

fn after(variant: Variant, transcript: &str) -> AnyPosition {
    *Game::from_transcript(Rules::new(variant, 0), transcript)
        .unwrap()
        .position()
}

#[test]
fn a_win_on_the_board_is_kept_with_the_empties() {
    // After f5 f6 e6 f4 White leads 5–3; Black resigns: White 61 (the 56 empties with it), Black 3.
    let pos = after(Variant::Othello, "f5f6e6f4");
    assert_eq!((pos.count(Color::Black), pos.count(Color::White)), (3, 5));
    let o = pos.conceded(Color::Black);
    assert_eq!(
        (o.black, o.white, o.winner, o.black_margin),
        (3, 61, Some(Color::White), -58)
    );
}

#[test]
fn otherwise_the_smallest_win() {
    let start = after(Variant::Othello, "");
    let o = start.conceded(Color::Black);
    assert_eq!(
        (o.black, o.white, o.winner, o.black_margin),
        (31, 33, Some(Color::White), -2)
    );
    // Black is ahead after f5 (4–1) and resigns: White wins 33–31, not 1–63.
    let pos = after(Variant::Othello, "f5");
    assert_eq!(pos.count(Color::Black), 4);
    let o = pos.conceded(Color::Black);
    assert_eq!((o.black, o.white, o.black_margin), (31, 33, -2));
    // White resigns there: Black keeps the board count with the empties, 63–1.
    let o = pos.conceded(Color::White);
    assert_eq!(
        (o.black, o.white, o.winner, o.black_margin),
        (63, 1, Some(Color::Black), 62)
    );
}

#[test]
fn other_boards_and_anti_reversi() {
    // 63 squares: the smallest win is 32–31.
    let hole = after(
        Variant::BlackHole(Some(reversi_core::Square::parse("a1").unwrap())),
        "",
    );
    let o = hole.conceded(Color::White);
    assert_eq!((o.black, o.white, o.black_margin), (32, 31, 1));
    // 4×4: 9–7.
    let small = after(Variant::Nxn(4), "");
    assert_eq!(small.conceded(Color::Black).white, 9);
    // Anti-reversi: fewest discs win, so the smallest win leaves the winner 31 discs to 33.
    let anti = after(Variant::Anti, "f5");
    let o = anti.conceded(Color::White);
    assert_eq!(o.winner, Some(Color::Black));
    assert_eq!((o.black, o.white), (31, 33));
    assert!(o.margin(Color::Black) > 0);
}
