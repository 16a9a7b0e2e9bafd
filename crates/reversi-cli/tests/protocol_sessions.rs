//! `reversi gtp` and `reversi nboard` driven through pipes with scripted sessions.

mod common;

use common::{Session, SOON};
use reversi_core::format::ggf::{write_ggf, GameInfo, GgfGame};
use reversi_core::{Bits, Game, Move, Rules, Square};
use std::time::Duration;

/// Sends one GTP command and returns its reply (without the closing empty line).
fn gtp(s: &mut Session, cmd: &str) -> String {
    s.send(cmd);
    let reply = s.expect("\n\n", SOON);
    reply.trim_end_matches('\n').to_string()
}

#[test]
fn gtp_session_plays_a_whole_game() {
    let mut s = Session::start(&["gtp", "--level", "1", "--hash", "8", "--seed", "3"]);
    assert_eq!(gtp(&mut s, "protocol_version"), "= 2");
    assert_eq!(gtp(&mut s, "5 name"), "=5 reversi");
    assert_eq!(gtp(&mut s, "known_command reversi-setboard"), "= true");
    assert_eq!(gtp(&mut s, "known_command go"), "= false");
    assert!(gtp(&mut s, "list_commands").contains("\ngenmove\n"));
    assert_eq!(gtp(&mut s, "boardsize 8"), "=");
    assert_eq!(gtp(&mut s, "clear_board"), "=");
    // Malformed and illegal input: failures, and the session goes on.
    assert_eq!(gtp(&mut s, "frobnicate"), "? unknown command");
    assert!(gtp(&mut s, "play black z9").starts_with("? syntax error"));
    assert!(gtp(&mut s, "play black a1").starts_with("? illegal move"));
    assert!(gtp(&mut s, "play white d3").starts_with("? illegal move"));
    assert_eq!(gtp(&mut s, "boardsize 9"), "? unacceptable size");
    assert_eq!(gtp(&mut s, "final_score"), "? the game is not over");
    // We play black (first legal move each time), the engine white, to the end.
    let mut game = Game::new(Rules::othello());
    let mut turns = 0;
    while !game.is_over() && turns < 130 {
        turns += 1;
        if game.side_to_move() == reversi_core::Color::Black {
            let mv = match game.legal_moves().first() {
                Some(sq) => Move::Play(sq),
                None => Move::Pass,
            };
            assert_eq!(gtp(&mut s, &format!("play b {mv}")), "=", "{}", game.transcript());
            game.play(mv).unwrap();
        } else {
            let reply = gtp(&mut s, "genmove w");
            let v = reply.strip_prefix("= ").expect("a move");
            let mv = if v == "pass" {
                Move::Pass
            } else {
                Move::Play(Square::parse(v).expect("a vertex"))
            };
            game.play(mv)
                .unwrap_or_else(|e| panic!("illegal engine move {v}: {e}"));
        }
    }
    assert!(game.is_over());
    assert_eq!(gtp(&mut s, "reversi-moves"), format!("= {}", game.transcript()));
    let o = game.outcome().unwrap();
    let expect = match o.winner {
        None => "= 0".to_string(),
        Some(c) => format!(
            "= {}+{}",
            if c == reversi_core::Color::Black { "B" } else { "W" },
            o.margin(c)
        ),
    };
    assert_eq!(gtp(&mut s, "final_score"), expect);
    let board = gtp(&mut s, "showboard");
    assert!(board.starts_with("=\n    A B C D E F G H\n"), "{board}");
    assert!(board.ends_with("game over"), "{board}");
    // Undo, then the extensions.
    assert_eq!(gtp(&mut s, "undo"), "=");
    assert_eq!(gtp(&mut s, "reversi-level 2"), "=");
    assert!(gtp(&mut s, "reversi-level 99").starts_with('?'));
    let board = format!("{}XXXXXOX- X", "X".repeat(56));
    assert_eq!(gtp(&mut s, &format!("reversi-setboard {board}")), "=");
    assert_eq!(gtp(&mut s, "genmove b"), "= pass");
    assert_eq!(gtp(&mut s, "genmove w"), "= H8");
    assert_eq!(gtp(&mut s, "final_score"), "= B+58");
    assert_eq!(gtp(&mut s, "quit"), "=");
    s.finish(SOON);
}

fn nboard_game_ggf(transcript: &str) -> String {
    let game = Game::from_transcript(Rules::othello(), transcript).unwrap();
    write_ggf(&GgfGame::from_game(&game, GameInfo::default()))
}

#[test]
fn nboard_session_pings_moves_and_hints() {
    let mut s = Session::start(&["nboard", "--hash", "8", "--seed", "1"]);
    s.send("nboard 2");
    s.send("set depth 3");
    assert_eq!(s.expect("\n", SOON), "set myname reversi3\n");
    s.send(&format!("set game {}", nboard_game_ggf("f5d6c3")));
    s.send("ping 1");
    assert_eq!(s.expect("\n", SOON), "pong 1\n");
    s.send("go");
    let text = s.expect("status reversi is waiting\n", SOON);
    let reply = text.lines().find(|l| l.starts_with("=== ")).expect("a move");
    let mv = reply[4..].split('/').next().unwrap();
    let game = Game::from_transcript(Rules::othello(), "f5d6c3").unwrap();
    let sq = Square::parse(mv).expect("a square");
    assert!(game.legal_moves().has(sq), "{reply}");
    assert!(text.contains("\nnodestats "), "{text}");
    // The GUI then plays a move (the engine did not), and asks for hints.
    s.send("move D3");
    s.send("hint 2");
    let text = s.expect("status\n", SOON);
    let searches: Vec<&str> = text.lines().filter(|l| l.starts_with("search ")).collect();
    assert_eq!(searches.len(), 2, "{text}");
    let after = Game::from_transcript(Rules::othello(), "f5d6c3d3").unwrap();
    for l in &searches {
        let first = Square::parse(&l[7..9]).unwrap();
        assert!(after.legal_moves().has(first), "{l}");
    }
    // Bad input is reported and ignored.
    s.send("move Z9");
    assert_eq!(s.expect("\n", SOON), "status Error: `Z9` is not a move\n");
    s.send("whatever this is");
    s.send("learn");
    assert_eq!(s.expect("\n", SOON), "learned\n");
    s.send("quit");
    assert_eq!(s.finish(SOON), "");
}

#[test]
fn nboard_ping_stops_a_long_search_and_comes_after_its_reply() {
    let mut s = Session::start(&["nboard", "--hash", "8"]);
    s.send("nboard 2");
    s.send("set depth 30");
    s.expect("set myname reversi30\n", SOON);
    s.send(&format!("set game {}", nboard_game_ggf("f5")));
    s.send("go");
    s.expect("status reversi is thinking\n", SOON);
    std::thread::sleep(Duration::from_millis(300));
    // Depth 30 would search for hours: the pong coming at all (within the hang guard) is the
    // ping stopping the search.
    s.send("ping 42");
    let text = s.expect("pong 42\n", SOON);
    let reply = text.find("=== ").expect("the interrupted search still answers");
    assert!(reply < text.find("pong 42").unwrap());
    s.send("quit");
    s.finish(SOON);
}
