//! People (issue 53): following a player (their games and presence in the follower's list),
//! blocking one (no challenges, no seeks taken, no pairing, no chat from them), reporting one,
//! and the moderators who read the reports and act: mute, disable, close a game or a
//! tournament, every action logged. Both databases.

use axum::http::{Method, StatusCode};
use reversi_server::db::moderation::AccountAction;
use reversi_server::{app, AppState};
use serde_json::{json, Value};

#[macro_use]
mod common;
mod online_common;

use common::round_trip;
use online_common::{config, Client};

async fn new_app(db: &str) -> (axum::Router, AppState) {
    let state = AppState::new(config(db)).await.unwrap();
    (app(state.clone()), state)
}

/// Makes account `name` a moderator, as `reversi db moderator` does.
async fn grant(state: &AppState, name: &str) {
    let (u, _) = state
        .db()
        .accounts()
        .user_named(&reversi_site::account::skeleton(name), name)
        .await
        .unwrap()
        .unwrap();
    let now = state.clock().now_ms();
    state
        .db()
        .moderation()
        .act_on_account(&u.id, AccountAction::Grant, None, None, "test", now)
        .await
        .unwrap();
}

/// A casual 3+2 game between `a` (who challenges) and `b` (who accepts); its id.
async fn challenge(a: &mut Client, b: &mut Client, b_name: &str) -> String {
    let r = a
        .post("/api/seeks", json!({ "control": "3+2", "to": b_name }))
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let seek = r.json["id"].as_str().unwrap().to_string();
    let r = b.post(&format!("/api/seeks/{seek}/accept"), json!({})).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    r.json["game"]["id"].as_str().unwrap().to_string()
}

async fn following_shows_games_and_presence(db: String) {
    let (app, _) = new_app(&db).await;
    let (mut ann, mut bob, mut cat) = (Client::new(&app), Client::new(&app), Client::new(&app));
    ann.signup("Ann").await;
    bob.signup("Bob").await;
    cat.signup("Cat").await;

    // Nobody is followed yet; a guest has no list.
    let r = ann.get("/api/account/people").await;
    assert_eq!(r.json, json!({ "following": [], "blocked": [] }), "{}", r.text);
    let mut guest = Client::new(&app);
    assert_eq!(
        guest.get("/api/account/people").await.status,
        StatusCode::UNAUTHORIZED
    );

    // Following is by name, any case; twice is once; oneself and nobody are refused.
    assert_eq!(
        ann.post("/api/users/bob/follow", json!({})).await.status,
        StatusCode::NO_CONTENT
    );
    assert_eq!(
        ann.post("/api/users/BOB/follow", json!({})).await.status,
        StatusCode::NO_CONTENT
    );
    let r = ann.post("/api/users/ann/follow", json!({})).await;
    assert_eq!(
        (r.status, r.json["code"].as_str()),
        (StatusCode::BAD_REQUEST, Some("yourself"))
    );
    let r = ann.post("/api/users/nobody-here/follow", json!({})).await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);

    // Bob is online (he signed in a moment ago) and his game appears in Ann's list.
    let game = challenge(&mut bob, &mut cat, "cat").await;
    let r = ann.get("/api/account/people").await;
    let typed: reversi_site_api::MyPeople = serde_json::from_value(r.json.clone()).unwrap();
    assert_eq!(serde_json::to_value(&typed).unwrap(), r.json);
    let f = &r.json["following"];
    assert_eq!(f.as_array().unwrap().len(), 1, "{}", r.text);
    assert_eq!(f[0]["name"], "Bob");
    assert_eq!(f[0]["online"], true);
    assert_eq!(f[0]["playing"], json!([game]));
    // The three were on the site a moment ago; a guest is not counted.
    assert_eq!(guest.get("/api/live").await.json["players_online"], 3);

    // The profile counts followers and tells the signed-in reader what they do.
    let r = cat.get("/api/users/bob").await;
    assert_eq!(r.json["followers"], 1, "{}", r.text);
    assert_eq!(
        r.json["relation"],
        json!({ "following": false, "blocking": false })
    );
    let r = ann.get("/api/users/bob").await;
    assert_eq!(
        r.json["relation"],
        json!({ "following": true, "blocking": false })
    );
    assert_eq!(r.json["online"], true);
    assert_eq!(guest.get("/api/users/bob").await.json["relation"], Value::Null);

    // Unfollowing.
    let r = ann.call(Method::DELETE, "/api/users/bob/follow", None).await;
    assert_eq!(r.status, StatusCode::NO_CONTENT);
    assert_eq!(ann.get("/api/account/people").await.json["following"], json!([]));
    assert_eq!(cat.get("/api/users/bob").await.json["followers"], 0);
}

async fn a_block_stops_challenges_seeks_pairing_and_chat(db: String) {
    let (app, state) = new_app(&db).await;
    let (mut ann, mut bob, mut cat) = (Client::new(&app), Client::new(&app), Client::new(&app));
    ann.signup("Ann").await;
    bob.signup("Bob").await;
    cat.signup("Cat").await;
    // A game started before the block: the players' room is open.
    let game = challenge(&mut ann, &mut bob, "bob").await;
    let chat = format!("/api/games/{game}/chat");
    let r = bob.post(&chat, json!({ "text": "good luck" })).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);

    // Bob follows Ann; Ann blocks Bob: the follow ends, and Ann's list names him.
    bob.post("/api/users/ann/follow", json!({})).await;
    assert_eq!(
        ann.post("/api/users/bob/block", json!({})).await.status,
        StatusCode::NO_CONTENT
    );
    assert_eq!(bob.get("/api/account/people").await.json["following"], json!([]));
    assert_eq!(
        ann.get("/api/account/people").await.json["blocked"],
        json!(["Bob"])
    );
    let r = bob.post("/api/users/ann/follow", json!({})).await;
    assert_eq!(
        (r.status, r.json["code"].as_str()),
        (StatusCode::FORBIDDEN, Some("blocked"))
    );

    // Bob cannot talk to Ann in their game, and his earlier line is gone from what she reads.
    let r = bob.post(&chat, json!({ "text": "hello?" })).await;
    assert_eq!(
        (r.status, r.json["code"].as_str()),
        (StatusCode::FORBIDDEN, Some("blocked"))
    );
    let r = ann.get(&chat).await;
    assert_eq!(r.json["lines"], json!([]), "{}", r.text);
    assert_eq!(bob.get(&chat).await.json["lines"].as_array().unwrap().len(), 1);

    // Bob cannot challenge Ann, nor see or take her open seek; Cat can.
    let r = bob
        .post("/api/seeks", json!({ "control": "5+3", "to": "ann" }))
        .await;
    assert_eq!(
        (r.status, r.json["code"].as_str()),
        (StatusCode::FORBIDDEN, Some("blocked"))
    );
    let r = ann.post("/api/seeks", json!({ "control": "5+3" })).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let seek = r.json["id"].as_str().unwrap().to_string();
    assert_eq!(bob.get("/api/lobby").await.json["seeks"], json!([]));
    assert_eq!(cat.get("/api/lobby").await.json["seeks"][0]["id"], seek.as_str());
    let r = bob.post(&format!("/api/seeks/{seek}/accept"), json!({})).await;
    assert_eq!(
        (r.status, r.json["code"].as_str()),
        (StatusCode::FORBIDDEN, Some("blocked"))
    );
    ann.call(Method::DELETE, &format!("/api/seeks/{seek}"), None)
        .await;

    // The pools never pair them; a third player is paired with one of them.
    ann.post("/api/pools/3+2", json!({})).await;
    bob.post("/api/pools/3+2", json!({})).await;
    assert_eq!(state.pair_pools().await.unwrap(), 0);
    cat.post("/api/pools/3+2", json!({})).await;
    assert_eq!(state.pair_pools().await.unwrap(), 1);

    // Unblocked, Bob may challenge again.
    ann.call(Method::DELETE, "/api/users/bob/block", None).await;
    ann.call(Method::DELETE, "/api/pools", None).await;
    bob.call(Method::DELETE, "/api/pools", None).await;
    let r = bob
        .post("/api/seeks", json!({ "control": "5+3", "to": "ann" }))
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
}

async fn reports_reach_moderators_who_act_and_are_logged(db: String) {
    let (app, state) = new_app(&db).await;
    let (mut ann, mut bob, mut mia) = (Client::new(&app), Client::new(&app), Client::new(&app));
    ann.signup("Ann").await;
    bob.signup("Bob").await;
    mia.signup("Mia").await;
    let game = challenge(&mut ann, &mut bob, "bob").await;

    // A report is checked: a reason from the list, a text not too long.
    let url = "/api/users/bob/report";
    let r = ann.post(url, json!({ "reason": "rude", "text": "x" })).await;
    assert_eq!(r.json["code"], "report_reason", "{}", r.text);
    let r = ann
        .post(url, json!({ "reason": "abuse", "text": "x".repeat(501) }))
        .await;
    assert_eq!(r.json["code"], "report_text");
    let r = ann
        .post(
            url,
            json!({ "reason": "abuse", "text": "insults in chat", "game": game }),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let report = serde_json::from_value::<reversi_site_api::ReportFiled>(r.json.clone())
        .unwrap()
        .id;

    // Only a moderator reads the queue.
    let r = mia.get("/api/mod/reports").await;
    assert_eq!(
        (r.status, r.json["code"].as_str()),
        (StatusCode::FORBIDDEN, Some("not_moderator"))
    );
    grant(&state, "Mia").await;
    assert_eq!(mia.get("/api/account").await.json["user"]["moderator"], true);
    let r = mia.get("/api/mod/reports").await;
    round_trip::<reversi_site_api::ModReports>(&r.json);
    let q = &r.json["reports"];
    assert_eq!(q.as_array().unwrap().len(), 1, "{}", r.text);
    assert_eq!(q[0]["id"], report);
    assert_eq!(q[0]["reporter"], "Ann");
    assert_eq!(q[0]["target"], "Bob");
    assert_eq!(q[0]["reason"], "abuse");
    assert_eq!(q[0]["game_id"], game.as_str());

    // Every action needs a note. A mute for an hour: Bob cannot chat until it ends; the report
    // it answers is closed.
    let act = "/api/mod/users/bob";
    let r = mia.post(act, json!({ "action": "mute", "note": " " })).await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    let r = mia
        .post(
            act,
            json!({ "action": "mute", "hours": 1, "note": "insults", "report": report }),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let chat = format!("/api/games/{game}/chat");
    let r = bob.post(&chat, json!({ "text": "sorry" })).await;
    assert_eq!(
        (r.status, r.json["code"].as_str()),
        (StatusCode::FORBIDDEN, Some("muted"))
    );
    assert_eq!(mia.get("/api/mod/reports").await.json["reports"], json!([]));
    let closed = mia.get("/api/mod/reports?status=closed").await;
    assert_eq!(closed.json["reports"][0]["closed_by"], "Mia", "{}", closed.text);
    assert_eq!(closed.json["reports"][0]["resolution"], "insults");
    round_trip::<reversi_site_api::ModReports>(&closed.json);
    // A moderator closes the game: no result.
    let r = mia
        .post(
            &format!("/api/mod/games/{game}/close"),
            json!({ "note": "abusive game" }),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(
        round_trip::<reversi_site_api::Closed>(&r.json).status,
        Some(reversi_site_api::GameStatus::Closed)
    );
    let g = ann.get(&format!("/api/games/{game}")).await;
    assert_eq!(g.json["game"]["status"], "closed", "{}", g.text);
    assert_eq!(g.json["game"]["result"], Value::Null);
    state.clock().advance(3_600_001);
    let r = bob.post(&chat, json!({ "text": "sorry" })).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);

    // Disabled, Bob is signed out and cannot sign in again; enabled, he can.
    let r = mia
        .post(act, json!({ "action": "disable", "note": "repeat offender" }))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let acted = round_trip::<reversi_site_api::AccountActed>(&r.json);
    assert_eq!((acted.done.as_str(), acted.user.as_str()), ("disable", "Bob"));
    assert_eq!(bob.get("/api/account").await.json["user"], Value::Null);
    let login = json!({ "name": "Bob", "password": "Bob-secret-pw" });
    let r = bob.post("/api/account/login", login.clone()).await;
    assert_eq!(
        (r.status, r.json["code"].as_str()),
        (StatusCode::FORBIDDEN, Some("account_disabled"))
    );
    let r = mia
        .post(act, json!({ "action": "enable", "note": "appeal heard" }))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(bob.post("/api/account/login", login).await.status, StatusCode::OK);

    // A moderator is not moderated through the desk, nor himself.
    let r = mia
        .post("/api/mod/users/mia", json!({ "action": "mute", "note": "x" }))
        .await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);

    // A report closed without action; a tournament closed.
    let r = bob
        .post("/api/users/ann/report", json!({ "reason": "other", "text": "" }))
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let second = r.json["id"].as_i64().unwrap();
    let r = mia
        .post(
            &format!("/api/mod/reports/{second}/close"),
            json!({ "note": "nothing wrong" }),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(
        round_trip::<reversi_site_api::ReportClosed>(&r.json).closed,
        second
    );
    let r = mia
        .post(
            &format!("/api/mod/reports/{second}/close"),
            json!({ "note": "again" }),
        )
        .await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
    let r = ann
        .post(
            "/api/tournaments",
            json!({ "name": "Spam cup", "format": "swiss", "control": "3+2", "rounds": 3,
                    "starts_in_minutes": 30 }),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let tid = r.json["id"].as_str().unwrap().to_string();
    let r = mia
        .post(
            &format!("/api/mod/tournaments/{tid}/close"),
            json!({ "note": "spam" }),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(
        ann.get(&format!("/api/tournaments/{tid}")).await.json["status"],
        "cancelled"
    );

    // The log holds every action, the newest first, with names instead of ids.
    let r = mia.get("/api/mod/log").await;
    round_trip::<reversi_site_api::ModLog>(&r.json);
    let actions: Vec<(&str, &str)> = r.json["log"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| (l["action"].as_str().unwrap(), l["target"].as_str().unwrap()))
        .collect();
    assert_eq!(
        actions,
        vec![
            ("close-tournament", tid.as_str()),
            ("close-report", second.to_string().as_str()),
            ("enable", "Bob"),
            ("disable", "Bob"),
            ("close-game", game.as_str()),
            ("close-report", report.to_string().as_str()),
            ("mute", "Bob"),
            ("grant", "Mia"),
        ],
        "{}",
        r.text
    );
    assert_eq!(r.json["log"][0]["moderator"], "Mia");
    assert_eq!(r.json["log"][7]["moderator"], Value::Null);
}

async fn reports_are_limited_per_day(db: String) {
    let (app, state) = new_app(&db).await;
    let (mut ann, mut bob) = (Client::new(&app), Client::new(&app));
    ann.signup("Ann").await;
    bob.signup("Bob").await;
    let body = json!({ "reason": "spam", "text": "again" });
    for _ in 0..reversi_server::people::REPORTS_PER_DAY {
        let r = ann.post("/api/users/bob/report", body.clone()).await;
        assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    }
    let r = ann.post("/api/users/bob/report", body.clone()).await;
    assert_eq!(
        (r.status, r.json["code"].as_str()),
        (StatusCode::TOO_MANY_REQUESTS, Some("report_throttled"))
    );
    state
        .clock()
        .advance(reversi_server::people::REPORT_WINDOW_MS + 1);
    let r = ann.post("/api/users/bob/report", body).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
}

on_both_databases!(
    following_shows_games_and_presence,
    a_block_stops_challenges_seeks_pairing_and_chat,
    reports_reach_moderators_who_act_and_are_logged,
    reports_are_limited_per_day,
);
