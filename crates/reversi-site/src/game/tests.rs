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
