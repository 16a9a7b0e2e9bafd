//! The log over a scripted session, written as JSON at the most detailed level: every request
//! has its id (sent back in `X-Request-Id`, a proxy's own kept), and no secret the session
//! handled — password, session cookie, seat token, bot token, invitation secrets — appears in
//! it. (One test in this binary: the subscriber is the whole process's.)

use reversi_server::{app, AppState};
use serde_json::json;
use std::io::Write;
use std::sync::{Arc, Mutex};

mod online_common;
use online_common::{config, Client};

#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

impl Write for Captured {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[tokio::test]
async fn no_secret_is_logged_and_every_request_has_an_id() {
    let log = Captured::default();
    let sink = log.clone();
    tracing_subscriber::fmt()
        .json()
        .with_current_span(true)
        .with_span_list(true)
        .with_max_level(tracing::Level::TRACE)
        .with_writer(move || sink.clone())
        .init();

    let state = AppState::new(config("sqlite::memory:")).await.unwrap();
    let app = app(state);
    let password = "Sessionpw-very-secret-1";
    let mut ann = Client::new(&app);
    let r = ann
        .post(
            "/api/account/signup",
            json!({ "name": "Ann", "password": password }),
        )
        .await;
    assert_eq!(r.status.as_u16(), 201, "{}", r.text);
    let r = ann
        .post(
            "/api/account/login",
            json!({ "name": "Ann", "password": password }),
        )
        .await;
    assert_eq!(r.status.as_u16(), 200, "{}", r.text);
    let session = ann.cookies.get("rv_session").unwrap().clone();
    // A game with a friend: its seat token and invitation secret.
    let r = ann.post("/api/games", json!({ "mode": "friend" })).await;
    let game = r.json["game"]["id"].as_str().unwrap().to_string();
    let seat = r.json["token"].as_str().unwrap().to_string();
    let invite = r.json["invite"].as_str().unwrap().to_string();
    let mut bob = Client::new(&app);
    let r = bob
        .post(&format!("/api/games/{game}/join"), json!({ "invite": invite }))
        .await;
    assert_eq!(r.status.as_u16(), 200, "{}", r.text);
    let bob_seat = r.json["token"].as_str().unwrap().to_string();
    assert_eq!(ann.play_first(&game).await.status.as_u16(), 200);
    // A bot token; an invitation-only tournament's secret, also in a query string.
    let r = ann
        .post("/api/account/bot", json!({ "password": password }))
        .await;
    let bot = r.json["token"].as_str().unwrap().to_string();
    let mut org = Client::new(&app);
    org.signup("Org").await;
    let r = org
        .post(
            "/api/tournaments",
            json!({ "name": "Quiet", "format": "arena", "minutes": 30, "control": "3+0", "invite_only": true }),
        )
        .await;
    let (tid, tinvite) = (
        r.json["id"].as_str().unwrap().to_string(),
        r.json["invite"].as_str().unwrap().to_string(),
    );
    assert_eq!(
        bob.get(&format!("/api/tournaments/{tid}?invite={tinvite}"))
            .await
            .status
            .as_u16(),
        200
    );
    // A request that fails, and one carrying a proxy's request id.
    bob.post(
        "/api/account/login",
        json!({ "name": "Ann", "password": "wrong-Password-9" }),
    )
    .await;
    let mut proxied = Client::new(&app);
    proxied
        .headers
        .push(("x-request-id".into(), "edge-42-abc".into()));
    let r = proxied.get("/api/live").await;
    assert_eq!(
        r.headers.get("x-request-id").map(String::as_str),
        Some("edge-42-abc")
    );
    let r = bob.get("/api/live").await;
    let fresh = r.headers.get("x-request-id").cloned().expect("a request id");
    assert_eq!(fresh.len(), 12);

    let text = String::from_utf8(log.0.lock().unwrap().clone()).unwrap();
    assert!(text.lines().count() > 20, "{text}");
    for line in text.lines() {
        serde_json::from_str::<serde_json::Value>(line).unwrap_or_else(|e| panic!("{e}: {line}"));
    }
    assert!(
        text.contains("edge-42-abc") && text.contains(&fresh),
        "request ids are not logged"
    );
    assert!(text.contains(&format!("/api/tournaments/{tid}")));
    for (what, secret) in [
        ("the password", password),
        ("the session cookie", session.as_str()),
        ("a seat token", seat.as_str()),
        ("a seat token", bob_seat.as_str()),
        ("the invitation secret", invite.as_str()),
        ("the bot token", bot.as_str()),
        ("a tournament's invitation", tinvite.as_str()),
    ] {
        assert!(!text.contains(secret), "{what} is in the log");
    }
}
