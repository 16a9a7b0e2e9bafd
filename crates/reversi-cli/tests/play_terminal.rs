//! `reversi play` scripted through stdin, as a person at a terminal would type.

mod common;

use common::{scratch, Session, SOON};
use reversi_core::format::ggf::parse_ggf;
use reversi_core::{Color, Game, Rules};

/// Asks for the legal moves the way a confused person would — by playing an occupied centre
/// square — and returns them from the message.
fn legal_moves(s: &mut Session) -> Vec<String> {
    s.send("d4");
    let text = s.expect("(or help): ", SOON);
    let line = text
        .lines()
        .find(|l| l.contains("Legal moves: "))
        .unwrap_or_else(|| panic!("no list of legal moves in:\n{text}"));
    assert!(line.contains("d4 is not a legal move."), "{line}");
    let list = line.split("Legal moves: ").nth(1).unwrap().trim_end_matches('.');
    list.split_whitespace().map(str::to_string).collect()
}

#[test]
fn a_full_game_against_a_low_level() {
    let tmp = scratch("play-full");
    let dir = tmp.path();
    let mut s = Session::start(&[
        "play", "--level", "1", "--seed", "5", "--lang", "en", "--hash", "8",
    ]);
    let first = s.expect("(or help): ", SOON);
    assert!(first.contains("    a b c d e f g h"), "{first}");
    assert!(first.contains("Black (X): 2   White (O): 2"), "{first}");
    assert!(first.contains("Black (X) to move"), "{first}");
    let mut moves = 0;
    let end = loop {
        let legal = legal_moves(&mut s);
        assert!(!legal.is_empty());
        s.send(&legal[0]);
        moves += 1;
        // Either the next prompt or the end of the game.
        let (k, text) = s.expect_any(&["(or help): ", "quit.\n> "], SOON);
        assert!(text.contains("Last move: "), "{text}");
        if k == 1 {
            break text;
        }
        assert!(moves < 40, "a game has at most 30-odd moves per side");
    };
    let result_line = end
        .lines()
        .find(|l| l.starts_with("Game over"))
        .unwrap()
        .to_string();
    let path = dir.join("game.ggf");
    s.send(&format!("save {}", path.display()));
    s.expect("Game saved to", SOON);
    let path_txt = dir.join("game.txt");
    s.send(&format!("save {}", path_txt.display()));
    s.expect("Game saved to", SOON);
    s.send("quit");
    let rest = s.finish(SOON);
    assert!(rest.contains("Goodbye!"), "{rest}");
    // The record is a finished legal game whose score is the one announced.
    let g = parse_ggf(&std::fs::read_to_string(&path).unwrap())
        .unwrap()
        .remove(0);
    assert_eq!(
        (g.info.black.as_str(), g.info.white.as_str()),
        ("human", "reversi-level1")
    );
    let game = g.to_game().unwrap();
    assert!(game.is_over());
    let o = game.outcome().unwrap();
    let score = format!("{}–{}", o.black, o.white);
    assert!(result_line.contains(&score), "{result_line} vs {score}");
    let transcript = std::fs::read_to_string(&path_txt).unwrap();
    assert_eq!(transcript.trim(), game.transcript());
    let replay = Game::from_transcript(Rules::othello(), transcript.trim()).unwrap();
    assert_eq!(replay.outcome(), Some(o));
}

#[test]
fn bad_input_gets_a_message_and_the_game_goes_on() {
    let tmp = scratch("play-bad");
    let dir = tmp.path();
    let mut s = Session::start(&["play", "--white", "human", "--lang", "en"]);
    s.expect("(or help): ", SOON);
    for (input, message) in [
        ("z9", "`z9` is neither a square nor a command"),
        ("hello world", "`hello` is neither a square nor a command"),
        ("a1", "a1 is not a legal move. Legal moves: d3 c4 f5 e6."),
        ("i9", "i9 is not a square of this board."),
        ("undo", "There is nothing to undo."),
        ("redo", "There is nothing to redo."),
        ("save", "save needs a file name"),
    ] {
        s.send(input);
        let text = s.expect("(or help): ", SOON);
        assert!(text.contains(message), "{input}: {text}");
    }
    let missing = dir.join("missing.ggf");
    s.send(&format!("load {}", missing.display()));
    assert!(s.expect("(or help): ", SOON).contains("Problem with"));
    s.send("help");
    assert!(s.expect("(or help): ", SOON).contains("hint [N]"));
    // Human against human: both moves are typed; undo takes back one, redo brings it back.
    s.send("f5");
    assert!(s
        .expect("(or help): ", SOON)
        .contains("Last move: Black (X) f5, flipped: e5"));
    s.send("D6");
    let text = s.expect("(or help): ", SOON);
    assert!(text.contains("Last move: White (O) d6, flipped: d5"), "{text}");
    s.send("undo");
    assert!(s.expect("(or help): ", SOON).contains("White (O) to move"));
    s.send("redo");
    assert!(s
        .expect("(or help): ", SOON)
        .contains("Black (X): 3   White (O): 3"));
    s.send("hint 2");
    let text = s.expect("(or help): ", SOON);
    assert!(
        text.contains("Hint (best moves, evaluation in discs): "),
        "{text}"
    );
    // Load a saved game back.
    let path = dir.join("g.txt");
    std::fs::write(&path, "f5d6c3d3c4\n").unwrap();
    s.send(&format!("load {}", path.display()));
    let text = s.expect("(or help): ", SOON);
    assert!(text.contains("Last move: Black (X) c4"), "{text}");
    s.send("quit");
    s.finish(SOON);
}

#[test]
fn russian_messages_and_watching_two_computers() {
    let mut s = Session::start(&["play", "--lang", "ru", "--white", "human"]);
    s.send("z9");
    let text = s.expect("(или help): ", SOON);
    assert!(text.contains("Ход: Чёрные (X)"), "{text}");
    s.send("quit");
    assert!(s.finish(SOON).contains("До свидания!"));
    // The computer against itself needs no input at all.
    let s = Session::start(&[
        "play", "--black", "ai", "--white", "ai", "--level", "1", "--hash", "8", "--lang", "en",
    ]);
    let out = s.finish(SOON);
    assert!(out.contains("Game over"), "{out}");
    let _ = Color::Black;
}

#[test]
fn the_computer_ponders_on_the_person_s_time_and_still_answers_every_line() {
    let mut s = Session::start(&[
        "play", "--time", "0.05", "--ponder", "--book", "off", "--seed", "3", "--lang", "en", "--hash", "8",
    ]);
    s.expect("(or help): ", SOON);
    for _ in 0..3 {
        let legal = legal_moves(&mut s);
        // The computer searches while the person thinks; the move stops it.
        std::thread::sleep(std::time::Duration::from_millis(300));
        s.send(&legal[0]);
        let text = s.expect("(or help): ", SOON);
        assert!(text.contains("Last move: "), "{text}");
    }
    // `quit` stops the pondering: the session ends within the hang guard.
    s.send("quit");
    let rest = s.finish(SOON);
    assert!(rest.contains("Goodbye!"), "{rest}");
}

/// A line of moves on a 4×4 board that ends in an equal count (found by search, first in
/// square order), passes written out.
fn tie_line() -> Vec<String> {
    fn dfs(pos: &reversi_core::AnyPosition, line: &mut Vec<String>) -> bool {
        if pos.is_game_over() {
            return pos.count(Color::Black) + pos.count(Color::White) > 0
                && reversi_core::Bits::count(pos.empties()) == 0
                && pos.count(Color::Black) == pos.count(Color::White);
        }
        if pos.must_pass() {
            let mut next = *pos;
            next.play(reversi_core::Move::Pass).unwrap();
            line.push("pass".into());
            if dfs(&next, line) {
                return true;
            }
            line.pop();
            return false;
        }
        for sq in reversi_core::Bits::squares(pos.legal_moves()) {
            let mut next = *pos;
            next.play(reversi_core::Move::Play(sq)).unwrap();
            line.push(sq.to_string());
            if dfs(&next, line) {
                return true;
            }
            line.pop();
        }
        false
    }
    let rules = Rules::new("nxn:4".parse().unwrap(), 0);
    let mut line = Vec::new();
    assert!(
        dfs(&reversi_core::AnyPosition::start(&rules), &mut line),
        "a 4×4 game can end 8–8"
    );
    line
}

/// The box edition's tie rule (`--tie second-wins`): a game that ends 8–8 on 4×4 is White's,
/// who moved second; without the option it is a draw.
#[test]
fn the_tie_rule_gives_a_tie_to_the_second_player() {
    let line = tie_line();
    for (tie, expected) in [
        (
            "second-wins",
            "Game over: a tie, 8–8; White (O) moved second and wins by the tie rule.",
        ),
        ("draw", "Game over: a draw, 8–8."),
    ] {
        let mut s = Session::start(&[
            "play",
            "--variant",
            "nxn:4",
            "--black",
            "human",
            "--white",
            "human",
            "--tie",
            tie,
            "--lang",
            "en",
        ]);
        s.expect("(or help): ", SOON);
        let mut end = String::new();
        for m in line.iter().filter(|m| *m != "pass") {
            s.send(m);
            let (k, text) = s.expect_any(&["(or help): ", "quit.\n> "], SOON);
            if k == 1 {
                end = text;
                break;
            }
        }
        assert!(end.contains(expected), "{tie}: {end}");
        s.send("quit");
        s.finish(SOON);
    }
    let (ok, _, err) = common::reversi(&["play", "--tie", "sometimes"]);
    assert!(!ok && err.contains("not a tie rule"), "{err}");
}

/// `--lot`: the person playing the computer gets a colour by lot, said before the game; a
/// given seed draws the same colour again.
#[test]
fn colours_by_lot() {
    let mut seen = std::collections::HashSet::new();
    for seed in 0..24u64 {
        let mut s = Session::start(&[
            "play",
            "--lot",
            "--seed",
            &seed.to_string(),
            "--level",
            "1",
            "--lang",
            "en",
            "--hash",
            "8",
        ]);
        let first = s.expect("(or help): ", SOON);
        let said = first
            .lines()
            .find(|l| l.starts_with("By lot you play"))
            .unwrap_or_else(|| panic!("{first}"))
            .to_string();
        s.send("quit");
        s.finish(SOON);
        seen.insert(said);
        if seen.len() == 2 {
            break;
        }
    }
    assert_eq!(seen.len(), 2, "both colours come up: {seen:?}");
}
