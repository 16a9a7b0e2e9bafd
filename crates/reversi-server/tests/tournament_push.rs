//! The tournaments' websockets (`/api/tournaments/ws`, `/api/tournaments/{id}/ws`): a
//! tournament made, entered, talked about and cancelled at one instance reaches the list and
//! the page open at another at once, without polling — on SQLite with one instance, and on
//! PostgreSQL with two.

use futures_util::StreamExt;
use reversi_server::{app, AppState};
use serde_json::{json, Value};
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;

mod common;
mod online_common;
use online_common::{config, open_socket as socket, serve_on_loopback as start, Client, Ws};

/// The next message of type `kind` whose body satisfies `want` (panics after 5 s: polling is
/// not what brings it).
async fn pushed(ws: &mut Ws, kind: &str, what: &str, want: impl Fn(&Value) -> bool) -> Value {
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(5), ws.next())
            .await
            .unwrap_or_else(|_| panic!("no {kind} with {what} pushed in time"))
            .expect("socket open")
            .expect("no socket error");
        if let Message::Text(t) = msg {
            let v: Value = serde_json::from_str(&t).unwrap();
            assert_eq!(v["type"], kind, "{v}");
            common::round_trip::<reversi_site_api::PageEvent>(&v);
            if want(&v[kind]) {
                return v[kind].clone();
            }
        }
    }
}

async fn tournaments_are_pushed(a: AppState, b: AppState) {
    let (addr_a, addr_b) = (start(a.clone()).await, start(b.clone()).await);
    let (app_a, app_b) = (app(a), app(b));
    let mut ann = Client::new(&app_a);
    let mut bob = Client::new(&app_b);
    let mut cyd = Client::new(&app_a);
    ann.signup("ann").await;
    bob.signup("bob").await;
    cyd.signup("cyd").await;

    // Bob's list at B hears of Ann's new tournament at A.
    let mut list = socket(&addr_b, "/api/tournaments/ws", &bob).await.unwrap();
    pushed(&mut list, "tournaments", "nothing upcoming", |l| {
        l["upcoming"] == json!([])
    })
    .await;
    let r = ann
        .post(
            "/api/tournaments",
            json!({ "name": "Friday Swiss", "format": "swiss", "rounds": 2, "control": "3+2",
                    "starts_in_minutes": 5 }),
        )
        .await;
    assert_eq!(r.status.as_u16(), 201, "{}", r.text);
    let id = r.json["id"].as_str().unwrap().to_string();
    let seen = pushed(&mut list, "tournaments", "Ann's tournament", |l| {
        l["upcoming"][0]["id"] == id.as_str()
    })
    .await;
    assert_eq!(seen["upcoming"][0]["players"], 0);

    // Bob's page of it at B follows an entry, a chat line and the cancellation made at A.
    let mut page = socket(&addr_b, &format!("/api/tournaments/{id}/ws"), &bob)
        .await
        .unwrap();
    let first = pushed(&mut page, "tournament", "the page", |_| true).await;
    assert_eq!(first["standings"], json!([]));
    assert_eq!(first["me"]["signed_in"], true);
    // Ann's own page, at the instance where the changes are made, follows them too.
    let mut own = socket(&addr_a, &format!("/api/tournaments/{id}/ws"), &ann)
        .await
        .unwrap();
    let mine = pushed(&mut own, "tournament", "Ann's page", |_| true).await;
    assert_eq!(mine["me"]["organiser"], true);
    let r = cyd.post(&format!("/api/tournaments/{id}/join"), json!({})).await;
    assert!(r.status.is_success(), "{}", r.text);
    let v = pushed(&mut page, "tournament", "Cyd entered", |v| {
        v["standings"].as_array().is_some_and(|s| s.len() == 1)
    })
    .await;
    assert_eq!(v["standings"][0]["name"], "cyd");
    pushed(&mut own, "tournament", "Cyd entered", |v| {
        v["standings"].as_array().is_some_and(|s| s.len() == 1)
    })
    .await;
    pushed(&mut list, "tournaments", "one player", |l| {
        l["upcoming"][0]["players"] == 1
    })
    .await;
    let r = ann
        .post(
            &format!("/api/tournaments/{id}/chat"),
            json!({ "text": "welcome" }),
        )
        .await;
    assert!(r.status.is_success(), "{}", r.text);
    pushed(&mut page, "tournament", "the chat line", |v| {
        v["chat"][0]["text"] == "welcome"
    })
    .await;
    let r = ann
        .post(&format!("/api/tournaments/{id}/cancel"), json!({}))
        .await;
    assert!(r.status.is_success(), "{}", r.text);
    pushed(&mut page, "tournament", "the cancellation", |v| {
        v["status"] == "cancelled"
    })
    .await;
    pushed(&mut list, "tournaments", "nothing upcoming again", |l| {
        l["upcoming"] == json!([])
    })
    .await;

    // A tournament nobody may see is refused before the upgrade, as its GET is.
    let e = socket(&addr_b, "/api/tournaments/nosuchid/ws", &bob)
        .await
        .unwrap_err();
    assert!(e.contains("404"), "{e}");
}

#[tokio::test]
async fn tournaments_are_pushed_to_their_pages() {
    let a = AppState::new(config(common::SQLITE)).await.unwrap();
    tournaments_are_pushed(a.clone(), a).await;
    if let Some(url) = common::pg_url().await {
        let a = AppState::new(config(&url)).await.unwrap();
        let b = AppState::new(config(&url)).await.unwrap();
        tournaments_are_pushed(a, b).await;
    }
}
