//! The game core's tests (moved with it from the server).

use super::online::{Online, SeatInfo, Timing};
use super::presence::{CLAIM_AFTER_LIVE_MS, CLAIM_AFTER_UNTIMED_MS};
use super::*;
use reversi_core::{Color, Move, Square, Variant};
use reversi_site_api::{Ending, GameStatus, Side};

fn record(mode: Mode, players: [PlayerKind; 2]) -> GameRecord {
    GameRecord {
        id: "t".into(),
        variant: Variant::Othello,
        tie: reversi_core::TieRule::Draw,
        mode,
        level: 1,
        players,
        tokens: [Some("a".into()), Some("b".into())],
        resigned: None,
        left: false,
        created_at: 0,
        rematch: None,
        join_token: None,
        void: None,
        online: None,
    }
}

#[test]
fn seats_moves_and_turns() {
    let mut g = LiveGame::new(record(Mode::Friend, [PlayerKind::Human; 2]), 0);
    let black = g.record.seats_of(Some("a"));
    let white = g.record.seats_of(Some("b"));
    assert_eq!(black, vec![Color::Black]);
    assert!(g.record.seats_of(Some("zz")).is_empty());
    assert!(matches!(
        g.play_human(&white, "d3", None, 0),
        Err(GameError::NotYourTurn(_))
    ));
    assert!(matches!(
        g.play_human(&black, "a1", None, 0),
        Err(GameError::IllegalMove(_))
    ));
    assert!(matches!(
        g.play_human(&black, "zz", None, 0),
        Err(GameError::IllegalMove(_))
    ));
    assert!(matches!(
        g.play_human(&black, "d3", Some(3), 0),
        Err(GameError::StalePly { .. })
    ));
    assert_eq!(
        g.play_human(&black, "D3", Some(0), 0).unwrap(),
        vec![Move::Play(Square::parse("d3").unwrap())]
    );
    assert_eq!(g.view(0).to_move, Some(Side::White));
    assert_eq!(g.view(0).flipped, vec!["d4".to_string()]);
    g.resign(Color::White, 0).unwrap();
    let v = g.view(0);
    assert_eq!(v.status, GameStatus::Finished);
    assert_eq!(v.result.unwrap().winner, Some(Side::Black));
    assert!(g.ggf().contains(":r"));
}

#[test]
fn hints_only_for_the_person_playing_the_computer_on_their_turn() {
    // The computer (black) to move: the person (white) gets no hint yet.
    let mut g = LiveGame::new(record(Mode::Ai, [PlayerKind::Ai, PlayerKind::Human]), 0);
    let person = g.record.seats_of(Some("b"));
    assert!(matches!(
        g.hint_position(&person),
        Err(GameError::NotYourTurn("black"))
    ));
    assert!(matches!(g.hint_position(&[]), Err(GameError::NoSeat)));
    g.play_checked(Move::Play(Square::parse("d3").unwrap()), 0)
        .unwrap();
    assert_eq!(g.hint_position(&person).unwrap(), *g.game.position());
    g.resign(Color::White, 0).unwrap();
    assert!(matches!(g.hint_position(&person), Err(GameError::GameOver)));

    let friends = LiveGame::new(record(Mode::Friend, [PlayerKind::Human; 2]), 0);
    let black = friends.record.seats_of(Some("a"));
    assert!(matches!(friends.hint_position(&black), Err(GameError::NoHints)));
}

fn online(control: Option<crate::clock::TimeControl>) -> Online {
    let seat = |k: &str| SeatInfo {
        key: k.into(),
        name: Some(k.into()),
        rating: None,
        provisional: false,
        bot: false,
        diff: None,
        country: None,
    };
    Online {
        seats: [seat("a"), seat("b")],
        rated: false,
        timing: control.map(|c| Timing::new(c, 0)),
        flagged: None,
        tournament: None,
        private: false,
    }
}

#[test]
fn the_claim_of_a_win_waits_the_documented_time() {
    use crate::clock::TimeControl;
    let mut rec = record(Mode::Online, [PlayerKind::Human; 2]);
    rec.online = Some(online(Some(TimeControl::fischer(180, 2).unwrap())));
    let mut g = LiveGame::new(rec, 0);
    let (black, white) = (vec![Color::Black], vec![Color::White]);
    // Before both have moved: abort instead.
    assert_eq!(g.claim_after_ms(), None);
    g.play_human(&black, "d3", None, 0).unwrap();
    assert!(matches!(
        g.claim_win(Color::Black, 0),
        Err(GameError::CannotClaim(_))
    ));
    g.play_human(&white, "c3", None, 0).unwrap();
    assert_eq!(g.claim_after_ms(), Some(CLAIM_AFTER_LIVE_MS));
    // White is connected, then away since t = 1 000.
    g.presence.away_since = [None, None];
    assert!(matches!(
        g.claim_win(Color::Black, 50_000),
        Err(GameError::OpponentHere)
    ));
    g.presence.away_since = [None, Some(1_000)];
    let early = 1_000 + CLAIM_AFTER_LIVE_MS - 1;
    assert!(matches!(
        g.claim_win(Color::Black, early),
        Err(GameError::TooEarly { .. })
    ));
    // White, who is the one away, cannot claim against a Black who is here.
    assert!(matches!(
        g.claim_win(Color::White, early + 10_000),
        Err(GameError::OpponentHere)
    ));
    assert_eq!(
        g.presence_view(early).white_away_ms,
        Some(CLAIM_AFTER_LIVE_MS - 1)
    );
    g.claim_win(Color::Black, early + 1).unwrap();
    let r = g.result().unwrap();
    assert_eq!(
        (r.ending, r.resigned, r.winner),
        (Ending::Left, Some(Side::White), Some(Side::Black))
    );
    assert_eq!(g.claim_after_ms(), None, "over");
    assert!(matches!(
        g.claim_win(Color::Black, early + 2),
        Err(GameError::GameOver)
    ));
}

#[test]
fn which_games_have_a_claim() {
    use crate::clock::TimeControl;
    let both_moved = |rec: GameRecord| {
        let mut g = LiveGame::new(rec, 0);
        g.play_checked(Move::Play(Square::parse("d3").unwrap()), 0)
            .unwrap();
        g.play_checked(Move::Play(Square::parse("c3").unwrap()), 0)
            .unwrap();
        g
    };
    let untimed = both_moved(record(Mode::Friend, [PlayerKind::Human; 2]));
    assert_eq!(untimed.claim_after_ms(), Some(CLAIM_AFTER_UNTIMED_MS));
    let mut rec = record(Mode::Online, [PlayerKind::Human; 2]);
    rec.online = Some(online(Some(TimeControl::correspondence(1).unwrap())));
    assert_eq!(
        both_moved(rec).claim_after_ms(),
        None,
        "correspondence: the clock decides"
    );
    let mut rec = record(Mode::Ai, [PlayerKind::Human, PlayerKind::Ai]);
    rec.tokens[1] = None;
    assert_eq!(
        both_moved(rec).claim_after_ms(),
        None,
        "nobody leaves the computer"
    );
    let local = both_moved(record(Mode::Local, [PlayerKind::Human; 2]));
    assert_eq!(local.claim_after_ms(), None, "one device");
    let mut rec = record(Mode::Friend, [PlayerKind::Human; 2]);
    rec.tokens[1] = None;
    assert_eq!(both_moved(rec).claim_after_ms(), None, "the friend never came");
}

#[test]
fn undo_returns_to_the_humans_turn() {
    let mut rec = record(Mode::Ai, [PlayerKind::Human, PlayerKind::Ai]);
    rec.tokens[1] = None;
    let mut g = LiveGame::new(rec, 0);
    let me = vec![Color::Black];
    assert!(g.undo_for_human(&me, 0).is_err());
    g.play_human(&me, "f5", None, 0).unwrap();
    g.play_checked(Move::Play(Square::parse("d6").unwrap()), 0)
        .unwrap();
    g.play_human(&me, "c3", None, 0).unwrap();
    assert_eq!(g.undo_for_human(&me, 0).unwrap(), 2);
    assert_eq!(g.undo_for_human(&me, 0).unwrap(), 0);
    assert_eq!(g.view(0).cells, LiveGame::new(g.record.clone(), 0).view(0).cells);
}

/// A move of `seat` at `now`, with its clock press (as the game room makes one).
fn timed_move(g: &mut LiveGame, seat: Color, mv: &str, now: u64) {
    g.play_human(&[seat], mv, None, now).unwrap();
    g.press_clock(seat, now, 0).unwrap();
}

#[test]
fn a_takeback_is_asked_then_accepted_declined_or_withdrawn() {
    use crate::clock::TimeControl;
    let (b, w) = (Color::Black, Color::White);
    let mut rec = record(Mode::Online, [PlayerKind::Human; 2]);
    rec.online = Some(online(Some(TimeControl::fischer(300, 0).unwrap())));
    let mut g = LiveGame::new(rec, 0);
    assert!(g.view(0).takebacks);
    assert_eq!(g.ask_takeback(b, 0), Err(GameError::NothingToUndo));
    timed_move(&mut g, b, "f5", 0);
    timed_move(&mut g, w, "d6", 0);
    timed_move(&mut g, b, "c3", 1_000);
    // White thinks from 1 s; at 5 s Black asks to take back c3.
    assert_eq!(g.ask_takeback(b, 5_000), Ok(TakebackAsked::Asked));
    assert_eq!(g.view(5_000).takeback, Some(Side::Black));
    assert_eq!(
        g.answer_takeback(b, true, 5_000),
        Err(GameError::NoTakebackOffer),
        "one's own offer is not accepted by oneself"
    );
    // White declines; Black asks again and withdraws; then asks once more and White accepts.
    assert_eq!(g.answer_takeback(w, false, 6_000), Ok(None));
    assert_eq!(g.view(6_000).takeback, None);
    assert_eq!(
        g.answer_takeback(w, false, 6_000),
        Err(GameError::NoTakebackOffer)
    );
    g.ask_takeback(b, 7_000).unwrap();
    assert_eq!(g.answer_takeback(b, false, 7_000), Ok(None));
    g.ask_takeback(b, 8_000).unwrap();
    let version = g.version;
    assert_eq!(g.answer_takeback(w, true, 9_000), Ok(Some(2)));
    assert!(g.version > version);
    let v = g.view(9_000);
    assert_eq!((v.ply, v.to_move, v.takeback), (2, Some(Side::Black), None));
    // White was charged the 8 s it thought; Black's clock runs from the takeback.
    let clock = g.record.online.as_ref().unwrap().timing.unwrap().clock;
    assert_eq!(clock.remaining(w, 9_000), 292_000);
    assert_eq!(clock.running.map(|r| (r.color, r.since)), Some((b, 9_000)));
    // A move withdraws a waiting offer; an offer when the opponent has asked accepts theirs.
    timed_move(&mut g, b, "c3", 10_000);
    g.ask_takeback(w, 11_000).unwrap();
    timed_move(&mut g, w, "d3", 12_000);
    assert_eq!(g.view(12_000).takeback, None);
    g.ask_takeback(b, 13_000).unwrap();
    assert_eq!(g.ask_takeback(w, 13_500), Ok(TakebackAsked::TakenBack(2)));
}

#[test]
fn takebacks_are_for_casual_games_between_two_people() {
    use crate::clock::TimeControl;
    let b = Color::Black;
    let mut rated = record(Mode::Online, [PlayerKind::Human; 2]);
    let mut o = online(Some(TimeControl::fischer(300, 0).unwrap()));
    o.rated = true;
    rated.online = Some(o.clone());
    let mut arena = rated.clone();
    o.rated = false;
    o.tournament = Some("t1".into());
    arena.online = Some(o);
    let mut ai = record(Mode::Ai, [PlayerKind::Human, PlayerKind::Ai]);
    ai.tokens[1] = None;
    for rec in [rated, arena, ai, record(Mode::Local, [PlayerKind::Human; 2])] {
        let mut g = LiveGame::new(rec, 0);
        g.play_human(&[b], "f5", None, 0).unwrap();
        assert!(!g.view(0).takebacks);
        assert_eq!(g.ask_takeback(b, 0), Err(GameError::TakebackNotAllowed));
    }
    // A flag fallen meanwhile refuses the takeback: the caller applies it.
    let mut rec = record(Mode::Online, [PlayerKind::Human; 2]);
    rec.online = Some(online(Some(TimeControl::fischer(60, 0).unwrap())));
    let mut g = LiveGame::new(rec, 0);
    timed_move(&mut g, b, "f5", 0);
    timed_move(&mut g, Color::White, "d6", 0);
    timed_move(&mut g, b, "c3", 0);
    g.ask_takeback(b, 1_000).unwrap();
    let before = g.view(1_000).ply;
    assert_eq!(
        g.answer_takeback(Color::White, true, 61_000),
        Err(GameError::TimeOut)
    );
    assert_eq!(g.view(61_000).ply, before);
}

#[test]
fn conditional_premoves_answer_for_their_author_while_the_game_follows_a_line() {
    use crate::clock::TimeControl;
    let (b, w) = (Color::Black, Color::White);
    let sq = |s: &str| Move::Play(Square::parse(s).unwrap());
    let mut rec = record(Mode::Online, [PlayerKind::Human; 2]);
    rec.online = Some(online(Some(TimeControl::correspondence(3).unwrap())));
    let mut g = LiveGame::new(rec, 0);
    g.play_human(&[b], "f5", None, 0).unwrap();
    // White is to move: Black leaves answers; White may not (it is White's move).
    let lines = ["d6 c3 d3 c4".to_string(), "f6e6".to_string(), "f4 e3".to_string()];
    g.set_conditional(b, &lines).unwrap();
    assert!(
        matches!(g.set_conditional(w, &lines), Err(GameError::Conditional(m)) if m.contains("your move"))
    );
    let bad = ["d6 a1".to_string()];
    assert!(
        matches!(g.set_conditional(b, &bad), Err(GameError::Conditional(m)) if m.contains("line 1, move 2"))
    );
    let short = ["d6".to_string()];
    assert!(g.set_conditional(b, &short).is_err());
    assert_eq!(
        g.conditional[0].as_ref().unwrap().texts(),
        ["d6 c3 d3 c4", "f6 e6", "f4 e3"]
    );
    // Nothing to answer on the opponent's turn; d6 brings c3, then d3 brings c4.
    assert_eq!(g.conditional_reply(), None);
    g.play_human(&[w], "d6", None, 0).unwrap();
    assert_eq!(g.conditional_reply(), Some(sq("c3")));
    g.play_checked(sq("c3"), 0).unwrap();
    assert_eq!(g.conditional_reply(), None, "White's turn");
    g.play_human(&[w], "d3", None, 0).unwrap();
    assert_eq!(g.conditional_reply(), Some(sq("c4")));
    g.play_checked(sq("c4"), 0).unwrap();
    // The line is played out: no more answers.
    let next = g.view(0).legal_moves[0].clone();
    g.play_human(&[w], &next, None, 0).unwrap();
    assert_eq!(g.conditional_reply(), None);
    // An empty list clears them.
    g.set_conditional(b, &[]).unwrap();
    assert!(g.conditional[0].is_none());

    // Only correspondence games between people have them.
    let mut rec = record(Mode::Online, [PlayerKind::Human; 2]);
    rec.online = Some(online(Some(TimeControl::fischer(300, 0).unwrap())));
    let mut g = LiveGame::new(rec, 0);
    g.play_human(&[b], "f5", None, 0).unwrap();
    assert!(matches!(
        g.set_conditional(b, &lines),
        Err(GameError::Conditional(_))
    ));
}

#[test]
fn an_xot_game_shows_its_preset_line_apart_from_the_moves() {
    let mut rec = record(Mode::Friend, [PlayerKind::Human; 2]);
    rec.variant = Variant::Xot(Some(0));
    let g = LiveGame::new(rec, 0);
    let line: Vec<String> = reversi_core::rules::xot_openings()
        .next()
        .unwrap()
        .as_bytes()
        .chunks(2)
        .map(|c| String::from_utf8(c.to_vec()).unwrap())
        .collect();
    let view = g.view(0);
    assert_eq!(view.preset, line);
    assert_eq!(view.ply, 0);
    assert!(view.moves.is_empty());
    assert_eq!(g.replay().preset, line);
    // Other variants have none, and say nothing of it.
    let plain = LiveGame::new(record(Mode::Friend, [PlayerKind::Human; 2]), 0).view(0);
    assert!(plain.preset.is_empty());
    assert!(!serde_json::to_string(&plain).unwrap().contains("preset"));
}
