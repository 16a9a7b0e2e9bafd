//! Puzzles on SQLite and PostgreSQL: the page gets the position and never the solution before
//! the end; each move is checked and the reply played; a solved puzzle raises an account's
//! puzzle rating and lowers the puzzle's, once; a wrong move is explained from exact values;
//! guests are not rated; two players finishing the same puzzle at once are both counted; the
//! next puzzle leaves out what the player has tried; bad requests get a 4xx.

use axum::http::StatusCode;
use reversi_server::{app, AppState};
use serde_json::{json, Value};

#[macro_use]
mod common;
mod online_common;
use common::round_trip;
use online_common::{config, Client};
use reversi_site_api as wire;

/// The first shipped puzzle whose solution has three moves of the player's.
fn three_mover() -> &'static reversi_site::puzzle::Puzzle {
    reversi_server::puzzles::all()
        .iter()
        .find(|p| p.player_moves() == 3)
        .expect("a three-move puzzle")
}

fn moves_of(p: &reversi_site::puzzle::Puzzle, n: usize) -> Value {
    json!((0..n).map(|i| p.line[2 * i].to_string()).collect::<Vec<_>>())
}

async fn puzzles_are_checked_rated_and_explained(db: String) {
    let state = AppState::new(config(&db)).await.unwrap();
    let app = app(state.clone());
    let p = three_mover();
    let url = format!("/api/puzzles/{}/moves", p.id);

    // A guest: the overview, the puzzle without its solution, three right moves, unrated.
    let mut guest = Client::new(&app);
    let o = guest.get("/api/puzzles").await;
    assert_eq!(o.status, StatusCode::OK, "{}", o.text);
    assert_eq!(
        o.json["count"].as_u64(),
        Some(reversi_server::puzzles::all().len() as u64)
    );
    assert!(o.json["me"].is_null());
    round_trip::<wire::PuzzleOverview>(&o.json);
    let themes: Vec<&str> = o.json["themes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["theme"].as_str().unwrap())
        .collect();
    assert_eq!(themes, reversi_site::puzzle::THEMES.to_vec());
    let endgame = o.json["themes"][5]["count"].as_u64().unwrap();
    assert_eq!(
        endgame,
        o.json["count"].as_u64().unwrap(),
        "every puzzle is an endgame"
    );
    let daily = guest.get("/api/puzzles/daily").await;
    assert_eq!(daily.json["puzzle"]["id"], o.json["daily"]);
    round_trip::<wire::PuzzleAnswer>(&daily.json);
    // The pack for play without a network: positions, never a solution (the round trip
    // allows no field the type does not have).
    let pack = round_trip::<wire::PuzzlePack>(&guest.get("/api/puzzles/pack").await.json);
    assert_eq!(pack.puzzles.len(), 200);
    assert_eq!(pack.puzzles[0].board, reversi_server::puzzles::all()[0].board);

    let v = guest.get(&format!("/api/puzzles/{}", p.id)).await;
    assert_eq!(v.status, StatusCode::OK, "{}", v.text);
    let initial = v.json["puzzle"]["rating"].as_i64().unwrap();
    assert_eq!(initial, p.initial_rating as i64);
    assert_eq!(v.json["puzzle"]["player_moves"], 3);
    round_trip::<wire::PuzzleAnswer>(&v.json);
    assert!(
        v.json["puzzle"].get("line").is_none() && v.json["puzzle"].get("score").is_none(),
        "{}",
        v.text
    );
    assert_eq!(
        v.json["puzzle"]["board"]["legal_moves"].as_array().unwrap().len() as u32,
        p.position.legal_moves().count_ones()
    );

    let r = guest.post(&url, json!({ "moves": moves_of(p, 1) })).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.json["step"], "right");
    assert_eq!(r.json["reply"], p.line[1].to_string());
    assert!(
        r.json.get("solution").is_none(),
        "no solution while the puzzle goes on"
    );
    assert_eq!(r.json["reply_board"]["to_move"], p.position.side_to_move().name());
    round_trip::<wire::PuzzleResult>(&r.json);
    let r = guest.post(&url, json!({ "moves": moves_of(p, 2) })).await;
    assert_eq!(r.json["step"], "right", "{}", r.text);
    let r = guest.post(&url, json!({ "moves": moves_of(p, 3) })).await;
    assert_eq!(r.json["step"], "solved", "{}", r.text);
    assert_eq!(r.json["rated"], false);
    assert_eq!(r.json["score"], p.score);
    assert_eq!(r.json["solution"].as_array().unwrap().len(), p.line.len());
    assert_eq!(r.json["solution_boards"].as_array().unwrap().len(), p.line.len());
    round_trip::<wire::PuzzleResult>(&r.json);

    // An account solves it: its rating goes up, the puzzle's down; a second try is not rated.
    let mut ann = Client::new(&app);
    ann.signup("ann").await;
    for n in 1..3 {
        ann.post(&url, json!({ "moves": moves_of(p, n) })).await;
    }
    let r = ann.post(&url, json!({ "moves": moves_of(p, 3) })).await;
    assert_eq!(
        (r.json["step"].as_str(), r.json["rated"].as_bool()),
        (Some("solved"), Some(true)),
        "{}",
        r.text
    );
    assert!(r.json["rating"]["diff"].as_i64().unwrap() > 0, "{}", r.text);
    assert!(r.json["rating"]["after"]["provisional"].as_bool().unwrap());
    let after_ann = r.json["puzzle_rating"].as_i64().unwrap();
    round_trip::<wire::PuzzleResult>(&r.json);
    assert!(after_ann < initial, "{after_ann} < {initial}");
    let again = ann.post(&url, json!({ "moves": moves_of(p, 3) })).await;
    assert_eq!(again.json["rated"], false, "{}", again.text);
    let overview = ann.get("/api/puzzles").await.json;
    round_trip::<wire::PuzzleOverview>(&overview);
    let me = overview["me"].clone();
    assert_eq!(
        (me["attempts"].as_i64(), me["solved"].as_i64()),
        (Some(1), Some(1)),
        "{me}"
    );
    assert_eq!(me["recent"][0]["puzzle"], p.id);
    assert!(me["rating"]["rating"].as_i64().unwrap() > 1500);
    let profile = ann.get("/api/users/ann").await.json;
    assert_eq!(profile["puzzle"]["attempts"], 1, "{profile}");
    assert_eq!(profile["puzzle"]["rating"], me["rating"]["rating"]);
    assert!(
        profile["ratings"].as_array().unwrap().is_empty(),
        "no game rating from a puzzle"
    );

    // Another gets it wrong: the reason, from exact values, and the ratings move the other way.
    let mut bob = Client::new(&app);
    bob.signup("bob").await;
    let wrong = reversi_core::Bits::squares(p.position.legal_moves())
        .map(|s| s.to_string())
        .find(|s| *s != p.line[0].to_string())
        .unwrap();
    let r = bob.post(&url, json!({ "moves": [wrong] })).await;
    assert_eq!(r.json["step"], "wrong", "{}", r.text);
    assert_eq!(r.json["best_score"], p.score);
    assert!(
        r.json["played_score"].as_i64().unwrap() < p.score as i64,
        "{}",
        r.text
    );
    assert_eq!(r.json["exact"], true);
    assert_eq!(r.json["facts"][0]["id"], "coach-loss", "{}", r.text);
    round_trip::<wire::PuzzleResult>(&r.json);
    assert!(r.json["rating"]["diff"].as_i64().unwrap() < 0);
    assert!(r.json["puzzle_rating"].as_i64().unwrap() > after_ann);
    // Nothing is checked past the wrong move.
    let past = bob
        .post(&url, json!({ "moves": [wrong, p.line[2].to_string()] }))
        .await;
    assert_eq!(past.status, StatusCode::BAD_REQUEST, "{}", past.text);
    let v = bob.get(&format!("/api/puzzles/{}", p.id)).await.json;
    assert_eq!(
        (
            v["puzzle"]["attempts"].as_i64(),
            v["puzzle"]["solutions"].as_i64()
        ),
        (Some(2), Some(1))
    );

    // The next puzzle leaves out what the account tried.
    let ann_id = state
        .db()
        .accounts()
        .user_by_key(&reversi_site::account::skeleton("ann"))
        .await
        .unwrap()
        .unwrap()
        .0
        .id;
    let rating = state
        .db()
        .puzzles()
        .puzzle_standing(p.id)
        .await
        .unwrap()
        .unwrap()
        .rating
        .rating;
    assert_eq!(
        state
            .db()
            .puzzles()
            .puzzles_near(rating, None, None, &[], 1)
            .await
            .unwrap(),
        vec![p.id]
    );
    assert!(!state
        .db()
        .puzzles()
        .puzzles_near(rating, None, Some(&ann_id), &[], 5)
        .await
        .unwrap()
        .contains(&p.id));
    assert!(!state
        .db()
        .puzzles()
        .puzzles_near(rating, None, None, &[p.id], 5)
        .await
        .unwrap()
        .contains(&p.id));
    let corner = ann.get("/api/puzzles/next?theme=corner").await;
    assert_eq!(corner.status, StatusCode::OK, "{}", corner.text);
    assert!(corner.json["puzzle"]["themes"]
        .as_array()
        .unwrap()
        .iter()
        .any(|t| t == "corner"));

    // Two players finish the same puzzle at once: both attempts count.
    let q = reversi_server::puzzles::all()
        .iter()
        .find(|q| q.player_moves() == 1)
        .unwrap();
    let (mut c1, mut c2) = (Client::new(&app), Client::new(&app));
    c1.signup("cid").await;
    c2.signup("dee").await;
    let body = json!({ "moves": [q.line[0].to_string()] });
    let qurl = format!("/api/puzzles/{}/moves", q.id);
    let (a, b) = tokio::join!(c1.post(&qurl, body.clone()), c2.post(&qurl, body.clone()));
    assert_eq!(
        (a.json["rated"].as_bool(), b.json["rated"].as_bool()),
        (Some(true), Some(true))
    );
    let standing = state.db().puzzles().puzzle_standing(q.id).await.unwrap().unwrap();
    assert_eq!((standing.attempts, standing.solutions), (2, 2));

    // Bad requests.
    for (uri, body, status) in [
        (
            format!("/api/puzzles/{}/moves", 999_999),
            json!({ "moves": ["a1"] }),
            StatusCode::NOT_FOUND,
        ),
        (url.clone(), json!({ "moves": [] }), StatusCode::BAD_REQUEST),
        (
            url.clone(),
            json!({ "moves": ["zz"] }),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (
            url.clone(),
            json!({ "moves": ["a1", "a2", "a3", "a4"] }),
            StatusCode::BAD_REQUEST,
        ),
        (url.clone(), json!({ "moves": "b2" }), StatusCode::BAD_REQUEST),
    ] {
        let r = guest.post(&uri, body.clone()).await;
        assert_eq!(r.status, status, "{uri} {body}: {}", r.text);
    }
    let occupied = reversi_core::Bits::squares(p.position.black())
        .next()
        .unwrap()
        .to_string();
    let r = guest.post(&url, json!({ "moves": [occupied] })).await;
    assert_eq!(r.status.as_u16() / 100, 4, "{}", r.text);
    assert_eq!(r.json["code"], "illegal_move", "{}", r.text);
    for uri in [
        "/api/puzzles/next?theme=magic",
        "/api/puzzles/next?except=1,x",
        "/api/puzzles/abc",
        "/api/puzzles/0",
    ] {
        let r = guest.get(uri).await;
        assert_eq!(r.status.as_u16() / 100, 4, "{uri}: {}", r.text);
    }
}

on_both_databases!(puzzles_are_checked_rated_and_explained);
