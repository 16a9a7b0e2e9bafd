//! Online play through the API, on SQLite and PostgreSQL: accounts and sessions, the lobby's
//! seeks and challenges, quick pairing, rated games and ratings, profiles and leaderboards,
//! chat. (Clocks that run out are tested in `clocks.rs`, which moves the server's time.)

use axum::http::StatusCode;
use axum::Router;
use reversi_server::{app, AppState};
use serde_json::{json, Value};

#[macro_use]
mod common;
mod online_common;
use online_common::{config, Client};

async fn new_app(db: &str) -> (Router, AppState) {
    let state = AppState::new(config(db)).await.unwrap();
    (app(state.clone()), state)
}

async fn accounts_sessions_and_no_enumeration(db: String) {
    let (app, _) = new_app(&db).await;
    let mut ann = Client::new(&app);
    assert_eq!(ann.get("/api/account").await.json, json!({ "user": null }));
    let r = ann.signup("Ann").await;
    assert_eq!(r.json["user"]["name"], "Ann");
    let cookie = r
        .set_cookies
        .iter()
        .find(|c| c.starts_with("rv_session="))
        .unwrap();
    assert!(
        cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax"),
        "{cookie}"
    );
    assert_eq!(ann.get("/api/account").await.json["user"]["name"], "Ann");

    // Names: unique without regard to case or look-alikes; bad ones refused with their reason.
    let mut other = Client::new(&app);
    for (name, code) in [
        ("ann", "name_taken"),
        ("ANN", "name_taken"),
        ("a", "username_length"),
        ("an\u{7}n", "username_character"),
        ("ann\u{202e}", "username_character"),
        ("admin", "username_reserved"),
    ] {
        let r = other
            .post(
                "/api/account/signup",
                json!({ "name": name, "password": "long enough pw" }),
            )
            .await;
        assert_eq!(r.json["code"], code, "{name:?}: {}", r.text);
        assert!(r.status.is_client_error());
    }
    let r = other
        .post(
            "/api/account/signup",
            json!({ "name": "Bea", "password": "short" }),
        )
        .await;
    assert_eq!(r.json["code"], "password_short");

    // A wrong password and an unknown name get the same answer.
    let wrong_pw = other
        .post(
            "/api/account/login",
            json!({ "name": "Ann", "password": "not her password" }),
        )
        .await;
    let no_user = other
        .post(
            "/api/account/login",
            json!({ "name": "Nobody", "password": "not her password" }),
        )
        .await;
    assert_eq!(wrong_pw.status, StatusCode::UNAUTHORIZED);
    assert_eq!((wrong_pw.status, &wrong_pw.json), (no_user.status, &no_user.json));

    // Signing in rotates the session: the cookie held before stops working.
    let before = ann.cookies["rv_session"].clone();
    let r = ann
        .post(
            "/api/account/login",
            json!({ "name": "ann", "password": "Ann-secret-pw" }),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_ne!(ann.cookies["rv_session"], before);
    let mut stale = Client::new(&app);
    stale.cookies.insert("rv_session".into(), before);
    assert_eq!(stale.get("/api/account").await.json, json!({ "user": null }));
    // A forged session is nobody.
    stale.cookies.insert("rv_session".into(), "x".repeat(32));
    assert_eq!(stale.get("/api/account").await.json, json!({ "user": null }));
    stale
        .cookies
        .insert("rv_session".into(), "';DROP TABLE users;--".into());
    assert_eq!(stale.get("/api/account").await.json, json!({ "user": null }));

    // A password change signs out every other session.
    let mut phone = Client::new(&app);
    phone
        .post(
            "/api/account/login",
            json!({ "name": "Ann", "password": "Ann-secret-pw" }),
        )
        .await;
    assert_eq!(phone.get("/api/account").await.json["user"]["name"], "Ann");
    let r = ann
        .post(
            "/api/account/password",
            json!({ "current": "Ann-secret-pw", "new": "a new secret pw" }),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(phone.get("/api/account").await.json, json!({ "user": null }));
    assert_eq!(ann.get("/api/account").await.json["user"]["name"], "Ann");
    let r = phone
        .post(
            "/api/account/login",
            json!({ "name": "Ann", "password": "Ann-secret-pw" }),
        )
        .await;
    assert_eq!(r.json["code"], "wrong_credentials");

    // Logging out ends the session.
    ann.post("/api/account/logout", json!({})).await;
    assert_eq!(ann.get("/api/account").await.json, json!({ "user": null }));

    // Sign-ins are throttled per account: after five failures even the right password waits.
    Client::new(&app).signup("Zed").await;
    let mut guesser = Client::new(&app);
    for _ in 0..5 {
        let r = guesser
            .post(
                "/api/account/login",
                json!({ "name": "Zed", "password": "guess guess" }),
            )
            .await;
        assert_eq!(r.json["code"], "wrong_credentials");
    }
    let r = guesser
        .post(
            "/api/account/login",
            json!({ "name": "zed", "password": "Zed-secret-pw" }),
        )
        .await;
    assert_eq!(r.status, StatusCode::TOO_MANY_REQUESTS, "{}", r.text);
    assert_eq!(r.json["code"], "login_throttled");
}

/// Two accounts meet through a seek and play a rated game to the end.
async fn seek_accept_play_and_ratings(db: String) {
    let (app, _) = new_app(&db).await;
    let mut ann = Client::new(&app);
    let mut bob = Client::new(&app);
    ann.signup("Ann").await;
    bob.signup("Bob").await;

    // A guest may not seek a rated game; bad controls are refused.
    let mut guest = Client::new(&app);
    let r = guest
        .post("/api/seeks", json!({ "control": "5+3", "rated": true }))
        .await;
    assert_eq!(r.json["code"], "seek_rated_needs_account", "{}", r.text);
    let r = ann.post("/api/seeks", json!({ "control": "5+x" })).await;
    assert_eq!(r.json["code"], "bad_control", "{}", r.text);
    let r = ann
        .post(
            "/api/seeks",
            json!({ "control": "10+0", "rated": true, "variant": "black-hole" }),
        )
        .await;
    assert_eq!(r.json["code"], "seek_not_rated_variant", "{}", r.text);

    let r = ann
        .post(
            "/api/seeks",
            json!({ "control": "10+5", "rated": true, "colour": "black" }),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let seek = r.json["id"].as_str().unwrap().to_string();
    let lobby = bob.get("/api/lobby").await;
    let listed = &lobby.json["seeks"][0];
    assert_eq!(
        (
            listed["name"].clone(),
            listed["control"].clone(),
            listed["speed"].clone()
        ),
        (json!("Ann"), json!("10+5"), json!("rapid"))
    );
    assert_eq!(listed["mine"], false);
    assert_eq!(ann.get("/api/lobby").await.json["seeks"][0]["mine"], true);

    // Accepting one's own seek is refused.
    let r = ann.post(&format!("/api/seeks/{seek}/accept"), json!({})).await;
    assert_eq!(r.json["code"], "seek_own");

    // Two accepts at once: one gets the game, the other `seek_gone`.
    let mut cat = Client::new(&app);
    cat.signup("Cat").await;
    let accept = format!("/api/seeks/{seek}/accept");
    let (r1, r2) = tokio::join!(bob.post(&accept, json!({})), cat.post(&accept, json!({})));
    let (won, lost) = if r1.status == StatusCode::CREATED {
        (r1, r2)
    } else {
        (r2, r1)
    };
    assert_eq!(won.status, StatusCode::CREATED, "{}", won.text);
    assert_eq!(lost.json["code"], "seek_gone", "{}", lost.text);
    let bob_won = won.json["game"]["online"]["white"]["name"] == "Bob";
    let mut white = if bob_won { bob } else { cat };
    let white_name = if bob_won { "Bob" } else { "Cat" };
    let id = won.json["game"]["id"].as_str().unwrap().to_string();
    assert_eq!(won.json["you"], json!(["white"]));
    let online = &won.json["game"]["online"];
    assert_eq!(online["black"]["name"], "Ann");
    assert_eq!(online["black"]["rating"], 1500);
    assert_eq!(online["black"]["provisional"], true);
    assert_eq!(online["rated"], true);
    assert_eq!(online["category"], "rapid");
    assert_eq!(online["clock"]["black_ms"], 600_000);
    assert_eq!(online["clock"]["running"], Value::Null);

    // The seek's owner finds the game from the lobby, and is seated by her session.
    let lobby = ann.get("/api/lobby").await;
    assert_eq!(lobby.json["started"][0]["game"], id.as_str(), "{}", lobby.text);
    let g = ann.get(&format!("/api/games/{id}")).await;
    assert_eq!(g.json["you"], json!(["black"]), "{}", g.text);
    assert!(g.json["token"].is_string());
    // A spectator holds no seat.
    assert_eq!(
        guest.get(&format!("/api/games/{id}")).await.json["you"],
        json!([])
    );

    // Play it out, both sides by their sessions; the clock runs after both first moves.
    let mut turn = 0;
    loop {
        let g = ann.get(&format!("/api/games/{id}")).await;
        if g.json["game"]["status"] != "playing" {
            break;
        }
        let mover = if g.json["game"]["to_move"] == "black" {
            &mut ann
        } else {
            &mut white
        };
        let r = mover.play_first(&id).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        turn += 1;
        if turn == 2 {
            assert_eq!(
                r.json["game"]["online"]["clock"]["running"], "black",
                "{}",
                r.text
            );
        }
    }
    let g = ann.get(&format!("/api/games/{id}")).await;
    let result = &g.json["game"]["result"];
    let online = &g.json["game"]["online"];
    let (bd, wd) = (
        online["black"]["diff"].as_i64().unwrap(),
        online["white"]["diff"].as_i64().unwrap(),
    );
    match result["winner"].as_str() {
        Some("black") => assert!(bd > 0 && wd < 0, "{online}"),
        Some("white") => assert!(bd < 0 && wd > 0, "{online}"),
        _ => assert!(bd.abs() < 5 && wd.abs() < 5),
    }
    assert_eq!(online["clock"]["running"], Value::Null);

    // Both profiles show the new rating, provisional, and the game.
    let p = guest.get("/api/users/ann").await;
    assert_eq!(p.json["name"], "Ann");
    let rapid = &p.json["ratings"][0];
    assert_eq!(rapid["category"], "rapid");
    assert_eq!(rapid["rating"], 1500 + bd);
    assert_eq!(rapid["games"], 1);
    assert_eq!(rapid["provisional"], true);
    assert_eq!(p.json["history"].as_array().unwrap().len(), 1);
    // The profile is the documented type, no field more or less.
    let typed: reversi_site_api::Profile = serde_json::from_value(p.json.clone()).unwrap();
    assert_eq!(serde_json::to_value(&typed).unwrap(), p.json);
    assert_eq!(
        typed.results.black.wins + typed.results.black.losses + typed.results.black.draws,
        1
    );
    // Her list shows the game from her side: opponent and ratings, the control, her result
    // and rating change.
    let games = guest.get("/api/users/Ann/games?colour=black").await;
    assert_eq!(games.json["total"], 1);
    let row: reversi_site_api::ProfileGame = serde_json::from_value(games.json["games"][0].clone()).unwrap();
    assert_eq!(row.color, reversi_site_api::Side::Black);
    assert_eq!(row.opponent.name.as_deref(), Some(white_name));
    assert_eq!(row.opponent.rating, Some(1500));
    assert!(row.opponent.provisional);
    assert_eq!(row.rating, Some(1500));
    assert_eq!(row.diff, Some(bd as i32));
    assert!(row.control.is_some(), "{}", games.text);
    let expected = match result["winner"].as_str() {
        Some("black") => reversi_site_api::Outcome::Win,
        Some("white") => reversi_site_api::Outcome::Loss,
        _ => reversi_site_api::Outcome::Draw,
    };
    assert_eq!(row.outcome, Some(expected));
    assert_eq!(
        guest.get("/api/users/Ann/games?colour=white").await.json["total"],
        0
    );
    let p = guest.get(&format!("/api/users/{white_name}")).await;
    assert_eq!(p.json["ratings"][0]["rating"], 1500 + wd);
    // Provisional players are not on the leaderboard proper, but listed apart, best first.
    let board = guest.get("/api/leaderboard/rapid").await;
    assert_eq!(board.json["players"], json!([]));
    let apart: Vec<(&str, i64)> = board.json["provisional"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| (l["name"].as_str().unwrap(), l["rating"].as_i64().unwrap()))
        .collect();
    let mut want = vec![("Ann", 1500 + bd), (white_name, 1500 + wd)];
    want.sort_by_key(|w| (-w.1, w.0));
    assert_eq!(apart, want, "{}", board.text);
    assert_eq!(
        guest.get("/api/leaderboard/nonsense").await.status,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        guest.get("/api/users/nobody-here").await.status,
        StatusCode::NOT_FOUND
    );

    // Ratings are applied once: the rematch is another game.
    let r = ann.post(&format!("/api/games/{id}/rematch"), json!({})).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    assert_eq!(r.json["you"], json!(["white"]));
    assert_eq!(r.json["game"]["online"]["white"]["name"], "Ann");
    assert_eq!(r.json["game"]["online"]["white"]["rating"], 1500 + bd);

    // A deleted account's games stay, without its name.
    let r = ann
        .post("/api/account/delete", json!({ "password": "Ann-secret-pw" }))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(guest.get("/api/users/Ann").await.status, StatusCode::NOT_FOUND);
    let g = guest.get(&format!("/api/games/{id}")).await;
    assert_eq!(
        g.json["game"]["online"]["black"]["name"],
        Value::Null,
        "{}",
        g.text
    );
    assert_eq!(g.json["game"]["online"]["black"]["guest"], false);
    // And the name stays taken.
    let r = Client::new(&app)
        .post(
            "/api/account/signup",
            json!({ "name": "Ann", "password": "anything long" }),
        )
        .await;
    assert_eq!(r.json["code"], "name_taken");
}

/// Challenges, guests' casual games, abort, resign and the pools.
async fn challenges_pools_and_guests(db: String) {
    let (app, _) = new_app(&db).await;
    let mut ann = Client::new(&app);
    let mut bob = Client::new(&app);
    let mut cat = Client::new(&app);
    ann.signup("Ann").await;
    bob.signup("Bob").await;
    cat.signup("Cat").await;

    // A challenge is for its addressee only.
    let r = ann
        .post("/api/seeks", json!({ "control": "3+2", "to": "bob" }))
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let ch = r.json["id"].as_str().unwrap().to_string();
    assert_eq!(cat.get("/api/lobby").await.json["seeks"], json!([]));
    assert_eq!(bob.get("/api/lobby").await.json["seeks"][0]["for_you"], true);
    let r = cat.post(&format!("/api/seeks/{ch}/accept"), json!({})).await;
    assert_eq!(r.json["code"], "not_for_you");
    let r = ann
        .post("/api/seeks", json!({ "control": "3+2", "to": "nobody-at-all" }))
        .await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
    // The challenged player's account sees it on every page (its games' list brings it), and
    // Ann learns that it was taken.
    let mine = bob.get("/api/account/games").await.json;
    assert_eq!(mine["challenges"][0]["id"], ch.as_str(), "{mine}");
    assert_eq!(mine["challenges"][0]["name"], "Ann");
    assert_eq!(cat.get("/api/account/games").await.json["challenges"], json!([]));
    let r = bob.post(&format!("/api/seeks/{ch}/accept"), json!({})).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let id = r.json["game"]["id"].as_str().unwrap().to_string();
    let anns = ann.get("/api/account/games").await.json;
    assert_eq!(anns["started"][0]["game"], id.as_str(), "{anns}");
    assert_eq!(bob.get("/api/account/games").await.json["challenges"], json!([]));

    // A challenge declined: only by its addressee, once; Ann is told who declined it.
    let r = ann
        .post("/api/seeks", json!({ "control": "10+5", "to": "Bob" }))
        .await;
    let ch2 = r.json["id"].as_str().unwrap().to_string();
    let decline = format!("/api/seeks/{ch2}/decline");
    assert_eq!(cat.post(&decline, json!({})).await.json["code"], "not_for_you");
    assert_eq!(
        Client::new(&app).post(&decline, json!({})).await.status,
        StatusCode::UNAUTHORIZED
    );
    let r = bob.post(&decline, json!({})).await;
    assert_eq!(r.status, StatusCode::NO_CONTENT, "{}", r.text);
    assert_eq!(bob.post(&decline, json!({})).await.json["code"], "seek_gone");
    let r = bob.post(&format!("/api/seeks/{ch2}/accept"), json!({})).await;
    assert_eq!(r.json["code"], "seek_gone");
    let lobby = ann.get("/api/lobby").await.json;
    assert_eq!(
        lobby["declined"],
        json!([{ "seek": ch2, "by": "Bob" }]),
        "{lobby}"
    );
    assert_eq!(
        ann.get("/api/account/games").await.json["declined"][0]["by"],
        "Bob"
    );
    assert_eq!(bob.get("/api/lobby").await.json["seeks"], json!([]));
    // A seek open to all is not declined.
    let r = ann.post("/api/seeks", json!({ "control": "1d" })).await;
    let open = r.json["id"].as_str().unwrap().to_string();
    let r = bob.post(&format!("/api/seeks/{open}/decline"), json!({})).await;
    assert_eq!(r.json["code"], "not_for_you");
    ann.call(axum::http::Method::DELETE, &format!("/api/seeks/{open}"), None)
        .await;

    // Before both have moved the game can be aborted: no result.
    let r = bob.post(&format!("/api/games/{id}/abort"), json!({})).await;
    assert_eq!(r.json["game"]["status"], "aborted", "{}", r.text);

    // Cancelling a seek; someone else's cannot be cancelled.
    let r = ann.post("/api/seeks", json!({ "control": "1d" })).await;
    let sid = r.json["id"].as_str().unwrap().to_string();
    assert_eq!(
        bob.call(axum::http::Method::DELETE, &format!("/api/seeks/{sid}"), None)
            .await
            .status,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        ann.call(axum::http::Method::DELETE, &format!("/api/seeks/{sid}"), None)
            .await
            .status,
        StatusCode::NO_CONTENT
    );

    // Guests play casual games: a guest cookie is their identity.
    let mut g1 = Client::new(&app);
    let mut g2 = Client::new(&app);
    let r = g1.post("/api/seeks", json!({ "control": "5+0" })).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    assert!(g1.cookies.contains_key("rv_guest"));
    let sid = r.json["id"].as_str().unwrap().to_string();
    let r = g2.post(&format!("/api/seeks/{sid}/accept"), json!({})).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let gid = r.json["game"]["id"].as_str().unwrap().to_string();
    assert_eq!(r.json["game"]["online"]["black"]["guest"], true);
    assert_eq!(r.json["game"]["online"]["rated"], false);
    let g = g1.get(&format!("/api/games/{gid}")).await;
    assert_eq!(g.json["you"].as_array().unwrap().len(), 1, "{}", g.text);
    // Each plays a move, then one resigns: casual, no rating anywhere.
    for _ in 0..2 {
        let g = g1.get(&format!("/api/games/{gid}")).await;
        let me = g.json["you"][0].clone();
        let c = if g.json["game"]["to_move"] == me {
            &mut g1
        } else {
            &mut g2
        };
        assert_eq!(c.play_first(&gid).await.status, StatusCode::OK);
    }
    let r = g1.post(&format!("/api/games/{gid}/resign"), json!({})).await;
    assert_eq!(r.json["game"]["result"]["ending"], "resigned", "{}", r.text);
    assert_eq!(r.json["game"]["online"]["black"]["diff"], Value::Null);

    // The pools: two players waiting in 3+2 are paired (rated: both have accounts).
    let r = ann.post("/api/pools/3+2", json!({})).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    assert_eq!(ann.get("/api/lobby").await.json["waiting_in"], "3+2");
    let r = ann.post("/api/pools/2+2", json!({})).await;
    assert_eq!(r.json["code"], "bad_control");
    cat.post("/api/pools/3+2", json!({})).await;
    let mut found = None;
    for _ in 0..40 {
        let l = cat.get("/api/lobby").await;
        if let Some(g) = l.json["started"][0]["game"].as_str() {
            found = Some(g.to_string());
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    let pid = found.expect("paired within 4 s");
    let g = ann.get(&format!("/api/games/{pid}")).await;
    assert_eq!(g.json["game"]["online"]["rated"], true, "{}", g.text);
    assert_eq!(g.json["game"]["online"]["clock"]["control"], "3+2");
    assert_eq!(g.json["game"]["online"]["category"], "blitz");
    // Its record carries the control and the ratings the players had.
    let ggf = ann.get(&format!("/api/games/{pid}/ggf")).await.text;
    assert!(
        ggf.contains("TI[03:00/00:02]") && ggf.contains("RB[1500"),
        "{ggf}"
    );
    assert_eq!(ann.get("/api/lobby").await.json["waiting_in"], Value::Null);
    let live = cat.get("/api/live").await;
    assert!(
        live.json["games"]
            .as_array()
            .unwrap()
            .iter()
            .any(|g| g["id"] == pid.as_str()),
        "{}",
        live.text
    );
    assert_eq!(
        cat.get("/api/users/Cat").await.json["playing"][0]["id"],
        pid.as_str()
    );
}

async fn chat_rooms_and_limits(db: String) {
    let (app, _) = new_app(&db).await;
    let mut ann = Client::new(&app);
    let mut bob = Client::new(&app);
    let mut fan = Client::new(&app);
    ann.signup("Ann").await;
    bob.signup("Bob").await;
    fan.signup("Fan").await;
    let r = ann.post("/api/seeks", json!({ "control": "10+5" })).await;
    let sid = r.json["id"].as_str().unwrap().to_string();
    let r = bob.post(&format!("/api/seeks/{sid}/accept"), json!({})).await;
    let id = r.json["game"]["id"].as_str().unwrap().to_string();
    let chat = format!("/api/games/{id}/chat");

    let r = ann
        .post(&chat, json!({ "text": "  good   luck <b>!</b> " }))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.json["text"], "good luck <b>!</b>");
    assert_eq!(r.json["room"], "players");
    assert_eq!(r.json["author"], "Ann");
    let r = fan.post(&chat, json!({ "text": "go Bob" })).await;
    assert_eq!(r.json["room"], "spectators", "{}", r.text);
    // Spectators cannot write to, or read, the players' room; players not the spectators'.
    assert_eq!(
        fan.post(&chat, json!({ "text": "psst", "room": "players" }))
            .await
            .json["code"],
        "chat_closed"
    );
    assert_eq!(
        ann.get(&format!("{chat}?room=spectators")).await.json["code"],
        "chat_closed"
    );
    let history = bob.get(&chat).await.json;
    let typed: reversi_site_api::ChatHistory = serde_json::from_value(history.clone()).unwrap();
    assert_eq!(serde_json::to_value(&typed).unwrap(), history);
    assert_eq!(typed.room, "players");
    let lines = history["lines"].clone();
    assert_eq!(lines.as_array().unwrap().len(), 1);
    assert_eq!(lines[0]["author"], "Ann");
    let lines = Client::new(&app).get(&chat).await.json["lines"].clone();
    assert_eq!(lines[0]["text"], "go Bob");

    // Bad text and floods.
    assert_eq!(
        bob.post(&chat, json!({ "text": "   " })).await.json["code"],
        "chat_empty"
    );
    assert_eq!(
        bob.post(&chat, json!({ "text": "x".repeat(141) })).await.json["code"],
        "chat_long"
    );
    assert_eq!(
        bob.post(&chat, json!({ "text": "hi\u{202e}" })).await.json["code"],
        "chat_character"
    );
    assert_eq!(
        bob.post(&chat, json!({ "text": "same" })).await.status,
        StatusCode::OK
    );
    assert_eq!(
        bob.post(&chat, json!({ "text": "same" })).await.json["code"],
        "chat_repeat"
    );
    let mut codes = Vec::new();
    for i in 0..6 {
        codes.push(bob.post(&chat, json!({ "text": format!("line {i}") })).await.json["code"].clone());
    }
    assert!(codes.contains(&json!("chat_flood")), "{codes:?}");

    // A player who turns chat off closes the players' room.
    ann.post("/api/account/chat", json!({ "off": true })).await;
    assert_eq!(ann.get("/api/account").await.json["user"]["chat_off"], true);
    assert_eq!(
        ann.post(&chat, json!({ "text": "hello?" })).await.json["code"],
        "chat_closed"
    );
}

/// Every device of an account sees its games in progress, those waiting for its move first;
/// the turn moves with each move; a finished game leaves the list; nobody signed in is refused.
async fn an_account_sees_its_games_and_whose_move(db: String) {
    let (app, _) = new_app(&db).await;
    let mut ann = Client::new(&app);
    let mut bob = Client::new(&app);
    ann.signup("Ann").await;
    bob.signup("Bob").await;
    let nobody = Client::new(&app).get("/api/account/games").await;
    assert_eq!(nobody.status, StatusCode::UNAUTHORIZED, "{}", nobody.text);
    let empty = ann.get("/api/account/games").await.json;
    assert_eq!(
        (&empty["games"], &empty["your_turn"], &empty["challenges"]),
        (&json!([]), &json!(0), &json!([])),
        "{empty}"
    );

    // Two games: Ann is Black in the first (so to move), White in the second.
    let mut ids = Vec::new();
    for colour in ["black", "white"] {
        let r = ann
            .post(
                "/api/seeks",
                json!({ "control": "10+5", "colour": colour, "rated": true }),
            )
            .await;
        let sid = r.json["id"].as_str().unwrap().to_string();
        let r = bob.post(&format!("/api/seeks/{sid}/accept"), json!({})).await;
        ids.push(r.json["game"]["id"].as_str().unwrap().to_string());
    }
    // Ann on another device (a fresh sign-in) sees the same list.
    let mut phone = Client::new(&app);
    phone
        .post(
            "/api/account/login",
            json!({ "name": "Ann", "password": "Ann-secret-pw" }),
        )
        .await;
    let list = phone.get("/api/account/games").await.json;
    assert_eq!(list["your_turn"], 1, "{list}");
    let games = list["games"].as_array().unwrap();
    assert_eq!(games.len(), 2, "{list}");
    assert_eq!(
        games[0]["id"],
        ids[0].as_str(),
        "the game waiting for her comes first"
    );
    assert_eq!(games[0]["your_turn"], true);
    assert_eq!(games[0]["color"], "black");
    assert_eq!(games[0]["opponent"], "Bob");
    assert_eq!(games[0]["control"], "10+5");
    assert_eq!(games[0]["time_left_ms"], 600_000);
    assert_eq!(games[1]["your_turn"], false);
    assert_eq!(games[1]["color"], "white");
    let bobs = bob.get("/api/account/games").await.json;
    assert_eq!(bobs["your_turn"], 1, "Bob is Black in the second: {bobs}");

    // Ann moves in the first: now both wait for Bob.
    let r = ann.play_first(&ids[0]).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(phone.get("/api/account/games").await.json["your_turn"], 0);
    let bobs = bob.get("/api/account/games").await.json;
    assert_eq!(bobs["your_turn"], 2, "{bobs}");
    // Bob resigns the first: it leaves both lists.
    bob.post(&format!("/api/games/{}/resign", ids[0]), json!({}))
        .await;
    let list = ann.get("/api/account/games").await.json;
    assert_eq!(list["games"].as_array().unwrap().len(), 1, "{list}");
    assert_eq!(list["games"][0]["id"], ids[1].as_str());
}

/// Conditional premoves in a correspondence game: left while the opponent thinks, played for
/// their author when the game follows a line (stored: a restarted server still has them), kept
/// from the opponent, refused with the line at fault.
async fn conditional_premoves_answer_in_correspondence(db: String) {
    let dir = tempfile::tempdir().unwrap();
    let db = if db == common::SQLITE {
        format!(
            "sqlite://{}?mode=rwc",
            dir.path().join("conditional.db").display()
        )
    } else {
        db
    };
    let (app, _) = new_app(&db).await;
    let mut ann = Client::new(&app);
    let mut bob = Client::new(&app);
    ann.signup("Ann").await;
    bob.signup("Bob").await;
    let r = ann
        .post("/api/seeks", json!({ "control": "3d", "colour": "black" }))
        .await;
    let sid = r.json["id"].as_str().unwrap().to_string();
    let r = bob.post(&format!("/api/seeks/{sid}/accept"), json!({})).await;
    let id = r.json["game"]["id"].as_str().unwrap().to_string();
    let path = format!("/api/games/{id}/conditional");
    let put = |c: &mut Client, lines: Value| {
        let path = path.clone();
        let mut c = c.clone();
        async move {
            c.call(axum::http::Method::PUT, &path, Some(json!({ "lines": lines })))
                .await
        }
    };
    // On her own move, Ann plays; lines wait for Bob's.
    let r = put(&mut ann, json!(["d6 c3"])).await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.text);
    assert_eq!(r.json["code"], "conditional");
    let r = ann
        .post(&format!("/api/games/{id}/moves"), json!({ "move": "f5" }))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let r = put(&mut ann, json!(["d6 a1"])).await;
    assert!(
        r.json["error"].as_str().unwrap().contains("line 1, move 2"),
        "{}",
        r.text
    );
    let r = put(&mut ann, json!(["d6 c3 d3 c4", "", "f6 e6"])).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.json["lines"], json!(["d6 c3 d3 c4", "f6 e6"]));
    // Bob does not see them; a spectator has no seat to ask with.
    assert_eq!(bob.get(&path).await.json["lines"], json!([]));
    assert_eq!(
        Client::new(&app).get(&path).await.status,
        StatusCode::UNAUTHORIZED
    );
    // A restart keeps them; Bob's d6 is answered by c3 at once, his d3 by c4.
    let (app, _) = new_app(&db).await;
    ann.app = app.clone();
    bob.app = app.clone();
    assert_eq!(ann.get(&path).await.json["lines"].as_array().unwrap().len(), 2);
    let r = bob
        .post(&format!("/api/games/{id}/moves"), json!({ "move": "d6" }))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.json["game"]["moves"], json!(["f5", "d6", "c3"]), "{}", r.text);
    assert_eq!(r.json["game"]["to_move"], "white");
    let r = bob
        .post(&format!("/api/games/{id}/moves"), json!({ "move": "d3" }))
        .await;
    assert_eq!(
        r.json["game"]["moves"],
        json!(["f5", "d6", "c3", "d3", "c4"]),
        "{}",
        r.text
    );
    // Played out: Bob's next move is Ann's to answer, and her lines are gone.
    let r = bob.play_first(&id).await;
    assert_eq!(r.json["game"]["to_move"], "black", "{}", r.text);
    assert_eq!(ann.get(&path).await.json["lines"], json!([]));
}

on_both_databases!(
    conditional_premoves_answer_in_correspondence,
    accounts_sessions_and_no_enumeration,
    an_account_sees_its_games_and_whose_move,
    seek_accept_play_and_ratings,
    challenges_pools_and_guests,
    chat_rooms_and_limits,
);
