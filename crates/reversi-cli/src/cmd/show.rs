//! `reversi show`: draw a position.

use crate::out::{out, outln};
use crate::setup::PositionArgs;
use anyhow::Result;
use reversi_core::{AnyPosition, Bits, Color, Game, Square};
use serde::Serialize;

/// Arguments of `reversi show`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pos: PositionArgs,
    /// Print one JSON object instead of a drawing.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct Shown {
    variant: String,
    board: Vec<String>,
    to_move: Option<&'static str>,
    legal_moves: Vec<String>,
    black: u32,
    white: u32,
    empty: u32,
    game_over: bool,
    must_pass: bool,
    /// Discs left in each player's supply (black, white), in variants that have one.
    supply: Option<[u8; 2]>,
    /// Once the game is over, Black's result as a number (RULES.md §1: the disc difference with
    /// the empties given to the winner); `null` before.
    score: Option<i32>,
    /// Once the game is over, the final count (empties included) and the winner.
    result: Option<Final>,
    moves: String,
    /// The named opening the game went through last (`null` for none).
    opening: Option<OpeningJson>,
}

/// A named opening: both names, its moves, and the ply where the game stood in it.
#[derive(Serialize)]
pub struct OpeningJson {
    english: &'static str,
    russian: &'static str,
    moves: &'static str,
    ply: usize,
}

/// The opening of `game`, for JSON output.
pub fn opening_json(game: &Game) -> Option<OpeningJson> {
    reversi_core::openings::of_game(game, None).map(|(ply, o)| OpeningJson {
        english: o.english,
        russian: o.russian,
        moves: o.moves,
        ply,
    })
}

#[derive(Serialize)]
struct Final {
    black: u32,
    white: u32,
    winner: Option<&'static str>,
}

/// Runs the command.
pub fn run(a: Args) -> Result<()> {
    let game = a.pos.game()?;
    if a.json {
        outln!("{}", serde_json::to_string_pretty(&to_json(&game))?)?;
    } else {
        out!("{}", draw(&game))?;
    }
    Ok(())
}

fn to_json(game: &Game) -> Shown {
    let pos = game.position();
    let over = pos.is_game_over();
    Shown {
        variant: game.rules().variant.to_string(),
        board: rows(pos),
        to_move: (!over).then(|| pos.side_to_move().name()),
        legal_moves: pos.legal_moves().squares().map(|s| s.to_string()).collect(),
        black: pos.count(Color::Black),
        white: pos.count(Color::White),
        empty: pos.empties().count(),
        game_over: over,
        must_pass: pos.must_pass(),
        supply: pos
            .supply(Color::Black)
            .zip(pos.supply(Color::White))
            .map(|(b, w)| [b, w]),
        score: pos.outcome().map(|o| o.margin(Color::Black)),
        result: pos.outcome().map(|o| Final {
            black: o.black,
            white: o.white,
            winner: o.winner.map(Color::name),
        }),
        moves: game.transcript(),
        opening: opening_json(game),
    }
}

/// Rows as strings: `X` black, `O` white, `-` empty, `#` a square the board does not have.
fn rows(pos: &AnyPosition) -> Vec<String> {
    let playable = pos.playable();
    (0..pos.height())
        .map(|r| {
            (0..pos.width())
                .map(|c| {
                    let sq = Square::new(c, r).expect("on grid");
                    match pos.disc(sq) {
                        Some(col) => col.to_char(),
                        None if playable.has(sq) => '-',
                        None => '#',
                    }
                })
                .collect()
        })
        .collect()
}

fn draw(game: &Game) -> String {
    let pos = game.position();
    let legal = pos.legal_moves();
    let playable = pos.playable();
    let mut s = String::new();
    let header: String = (0..pos.width())
        .map(|c| format!(" {}", (b'a' + c) as char))
        .collect();
    s += &format!("   {header}\n");
    for r in 0..pos.height() {
        s += &format!("{:>2} ", r + 1);
        for c in 0..pos.width() {
            let sq = Square::new(c, r).expect("on grid");
            let ch = match pos.disc(sq) {
                Some(Color::Black) => '●',
                Some(Color::White) => '○',
                None if legal.has(sq) => '*',
                None if playable.has(sq) => '·',
                None => ' ',
            };
            s += &format!(" {ch}");
        }
        s += &format!("  {}\n", r + 1);
    }
    s += &format!("   {header}\n");
    let (b, w) = (pos.count(Color::Black), pos.count(Color::White));
    s += &format!("Black ● {b}   White ○ {w}   Empty {}\n", pos.empties().count());
    if let Some((ply, o)) = reversi_core::openings::of_game(game, None) {
        s += &format!("Opening: {} ({}, ply {ply})\n", o.english, o.moves);
    }
    if let Some(o) = pos.outcome() {
        let result = match o.winner {
            Some(c) => format!("{c} wins"),
            None => "draw".to_string(),
        };
        s += &format!(
            "Game over: {}–{} ({result}, {:+} for black)\n",
            o.black,
            o.white,
            o.margin(Color::Black)
        );
    } else if pos.must_pass() {
        s += &format!(
            "{} to move: no legal move, must pass\n",
            side_name(pos.side_to_move())
        );
    } else {
        let list: Vec<String> = legal.squares().map(|q| q.to_string()).collect();
        s += &format!(
            "{} to move; legal moves (*): {}\n",
            side_name(pos.side_to_move()),
            list.join(" ")
        );
    }
    s
}

fn side_name(c: Color) -> &'static str {
    match c {
        Color::Black => "Black ●",
        Color::White => "White ○",
    }
}
