//! Lessons on SQLite and PostgreSQL: the page gets each exercise's position and goal, never an
//! answer; the server judges each move (a wrong one says what it did, a square that turns
//! nothing is refused), plays the solver's replies in an exercise of several moves, refuses a
//! line whose earlier move was wrong, and shows the answers when asked; an account keeps its
//! finished lessons (a guest cannot store any); the lessons' texts are a part of the messages of
//! their own; `/api/about` gives the champions and the book's value of the start.

use axum::http::StatusCode;
use reversi_server::learn::catalog;
use reversi_server::{app, AppState};
use serde_json::json;

#[macro_use]
mod common;
mod online_common;
use online_common::{config, Client};

async fn lessons_are_judged_and_remembered(db: String) {
    let state = AppState::new(config(&db)).await.unwrap();
    let app = app(state.clone());
    let mut guest = Client::new(&app);

    let list = guest.get("/api/learn").await;
    assert_eq!(list.status, StatusCode::OK, "{}", list.text);
    let lessons = list.json["lessons"].as_array().unwrap();
    assert_eq!(lessons.len(), catalog::all().len());
    assert_eq!(lessons[0]["id"], "place");
    assert_eq!(list.json["signed_in"], false);
    assert!(lessons.iter().all(|l| l["finished"] == false));

    // A lesson: positions and goals, no answers.
    let v = guest.get("/api/learn/corners").await;
    assert_eq!(v.status, StatusCode::OK, "{}", v.text);
    assert_eq!(v.json["exercises"][0]["goal"], "corner");
    assert_eq!(v.json["next"], "x-c-squares");
    assert!(
        !v.text.contains("answer") && !v.text.contains("wrong"),
        "{}",
        v.text
    );
    let corners = &catalog::find("corners").unwrap().exercises[0];

    // A wrong move says what it did; the answer is right and ends a one-move exercise.
    let r = guest
        .post(
            "/api/learn/corners/0",
            json!({ "moves": [corners.wrong.to_string()] }),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(
        (
            r.json["step"].as_str(),
            r.json["value"].as_i64(),
            r.json["target"].as_i64()
        ),
        (Some("wrong"), Some(0), Some(1))
    );
    assert_eq!(r.json["board"]["last_move"], corners.wrong.to_string());
    let r = guest
        .post(
            "/api/learn/corners/0",
            json!({ "moves": [corners.answer.to_string()] }),
        )
        .await;
    assert_eq!(r.json["step"], "done", "{}", r.text);

    // An exercise of two moves: the solver replies to the first.
    let parity = &catalog::find("parity").unwrap().exercises[0];
    assert_eq!(parity.moves, 2);
    let first = parity.answer.to_string();
    let r = guest
        .post("/api/learn/parity/0", json!({ "moves": [first] }))
        .await;
    assert_eq!(r.json["step"], "right", "{}", r.text);
    let reply_board = &r.json["reply_board"];
    assert!(r.json["reply"].is_string(), "{}", r.text);
    assert_eq!(
        reply_board["to_move"],
        r.json["board"]["to_move"]
            .as_str()
            .map(|c| if c == "white" { "black" } else { "white" })
            .unwrap()
    );
    // Asking for the answers of the second step, then playing one of them.
    let r = guest
        .post("/api/learn/parity/0", json!({ "moves": [first], "reveal": true }))
        .await;
    assert_eq!(r.json["step"], "revealed", "{}", r.text);
    let second = r.json["answers"][0].as_str().unwrap().to_string();
    let legal: Vec<&str> = reply_board["legal_moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    assert!(legal.contains(&second.as_str()), "{second} in {legal:?}");
    let r = guest
        .post("/api/learn/parity/0", json!({ "moves": [first, second] }))
        .await;
    assert_eq!(r.json["step"], "done", "{}", r.text);

    // Bad requests.
    let wrong_first = parity.wrong.to_string();
    for (uri, body, status) in [
        (
            "/api/learn/nonsense/0",
            json!({ "moves": ["a1"] }),
            StatusCode::NOT_FOUND,
        ),
        (
            "/api/learn/corners/9",
            json!({ "moves": ["a1"] }),
            StatusCode::NOT_FOUND,
        ),
        (
            "/api/learn/corners/x",
            json!({ "moves": ["a1"] }),
            StatusCode::NOT_FOUND,
        ),
        (
            "/api/learn/corners/0",
            json!({ "moves": [] }),
            StatusCode::BAD_REQUEST,
        ),
        (
            "/api/learn/corners/0",
            json!({ "moves": ["a1", "b1"] }),
            StatusCode::BAD_REQUEST,
        ),
        (
            "/api/learn/corners/0",
            json!({ "moves": ["zz"] }),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (
            "/api/learn/corners/0",
            json!({ "moves": "a1" }),
            StatusCode::BAD_REQUEST,
        ),
        // A line whose first move was wrong.
        (
            "/api/learn/parity/0",
            json!({ "moves": [wrong_first, "a1"] }),
            StatusCode::BAD_REQUEST,
        ),
    ] {
        let r = guest.post(uri, body.clone()).await;
        assert_eq!(r.status, status, "{uri} {body}: {}", r.text);
    }
    // A square that turns nothing.
    let r = guest.post("/api/learn/place/0", json!({ "moves": ["a1"] })).await;
    assert_eq!(r.json["code"], "illegal_move", "{}", r.text);
    assert_eq!(
        guest.get("/api/learn/nonsense").await.status,
        StatusCode::NOT_FOUND
    );

    // A guest cannot store progress; an account can, and sees it in the list and the lesson.
    let r = guest
        .post("/api/learn/finished", json!({ "lessons": ["place"] }))
        .await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED, "{}", r.text);
    let mut ann = Client::new(&app);
    ann.signup("ann").await;
    let r = ann
        .post(
            "/api/learn/finished",
            json!({ "lessons": ["place", "corners", "place"] }),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let finished: Vec<&str> = r.json["lessons"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|l| l["finished"] == true)
        .map(|l| l["id"].as_str().unwrap())
        .collect();
    assert_eq!(finished, ["place", "corners"]);
    assert_eq!(
        ann.get("/api/learn/corners").await.json["lesson"]["finished"],
        true
    );
    assert_eq!(ann.get("/api/learn").await.json["signed_in"], true);
    let r = ann
        .post("/api/learn/finished", json!({ "lessons": ["nonsense"] }))
        .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST, "{}", r.text);
    // Another account's progress is its own.
    let mut bob = Client::new(&app);
    bob.signup("bob").await;
    let r = bob.get("/api/learn").await;
    assert!(r.json["lessons"]
        .as_array()
        .unwrap()
        .iter()
        .all(|l| l["finished"] == false));

    // The texts: a part of the messages of their own, in both languages.
    for lang in ["en", "ru"] {
        let r = guest.get(&format!("/api/i18n/{lang}/learn")).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        assert!(r.json["ftl"].as_str().unwrap().contains("learn-corners-title"));
        let main = guest.get(&format!("/api/i18n/{lang}")).await;
        assert!(
            !main.json["ftl"].as_str().unwrap().contains("learn-corners-title"),
            "the lessons' text is not on every page"
        );
        let r = guest.get(&format!("/api/i18n/{lang}/about")).await;
        assert!(r.json["ftl"].as_str().unwrap().contains("about-champions-title"));
    }
    assert_eq!(
        guest.get("/api/i18n/en/secrets").await.status,
        StatusCode::NOT_FOUND
    );

    let o = guest.get("/api/openings").await;
    assert_eq!(o.status, StatusCode::OK, "{}", o.text);
    let tiger = o.json["openings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["english"] == "Tiger")
        .unwrap();
    assert_eq!(
        (tiger["moves"].as_str(), tiger["russian"].as_str()),
        (Some("f5d6c3d3c4"), Some("Тигр"))
    );

    let about = guest.get("/api/about").await;
    assert_eq!(about.status, StatusCode::OK, "{}", about.text);
    assert_eq!(about.json["champions"][0]["year"], 1977);
    assert_eq!(about.json["champions"][0]["champion"], "Sylvain Perez");
    assert_eq!(about.json["champions"][0]["place"], "Monte Carlo");
    let ru = guest.get("/api/about?lang=ru").await;
    assert_eq!(
        (
            ru.json["champions"][0]["place"].as_str(),
            ru.json["champions"][0]["country"].as_str()
        ),
        (Some("Монте-Карло"), Some("Франция"))
    );
    assert_eq!(
        ru.json["champions"][0]["champion"], "Sylvain Perez",
        "names stay as the source writes them"
    );
    assert!(
        about.json["book_value"].is_i64(),
        "the shipped book knows the start: {}",
        about.text
    );
}

on_both_databases!(lessons_are_judged_and_remembered);
