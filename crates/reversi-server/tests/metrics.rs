//! The Prometheus metrics: `/metrics` answers only the holder of the metrics token, and a
//! scrape after a scripted session shows its counts. (One test in this binary: the recorder is
//! the whole process's.)

use axum::http::StatusCode;
use reversi_server::{app, AppState};
use serde_json::json;

mod online_common;
use online_common::{config, Client};

/// The value of the sample `name{labels}` in a Prometheus text page (`labels` as written
/// there, in order), if present.
fn sample(page: &str, name_and_labels: &str) -> Option<f64> {
    page.lines()
        .find(|l| l.starts_with(name_and_labels) && l[name_and_labels.len()..].starts_with(' '))
        .and_then(|l| l.rsplit(' ').next())
        .and_then(|v| v.parse().ok())
}

#[tokio::test]
async fn a_scrape_counts_a_scripted_session() {
    // Without a token there are no metrics.
    let plain = AppState::new(config("sqlite::memory:")).await.unwrap();
    let mut c = Client::new(&app(plain));
    assert_eq!(c.get("/metrics").await.status, StatusCode::NOT_FOUND);

    let token = "operator-secret-0123456789";
    let state = AppState::new(reversi_server::Config {
        metrics_token: Some(token.into()),
        ..config("sqlite::memory:")
    })
    .await
    .unwrap();
    let app = app(state);
    let mut c = Client::new(&app);
    assert_eq!(c.get("/metrics").await.status, StatusCode::UNAUTHORIZED);
    c.bearer = Some("wrong-token-0123456789".into());
    assert_eq!(c.get("/metrics").await.status, StatusCode::UNAUTHORIZED);

    // The session: a local game, five moves, three reads, one unknown game.
    let mut p = Client::new(&app);
    let r = p.post("/api/games", json!({ "mode": "local" })).await;
    let id = r.json["game"]["id"].as_str().unwrap().to_string();
    for _ in 0..5 {
        assert_eq!(p.play_first(&id).await.status, StatusCode::OK);
    }
    assert_eq!(p.get("/api/games/nosuchgame").await.status, StatusCode::NOT_FOUND);

    c.bearer = Some(token.into());
    let r = c.get("/metrics").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let page = r.text;
    let moves = r#"reversi_http_requests_total{route="/api/games/{id}/moves",method="POST",status="200"}"#;
    assert_eq!(sample(&page, moves), Some(5.0), "{page}");
    // play_first reads the game before each move: five reads, and one of no game.
    let reads = r#"reversi_http_requests_total{route="/api/games/{id}",method="GET",status="200"}"#;
    assert_eq!(sample(&page, reads), Some(5.0), "{page}");
    let missing = r#"reversi_http_requests_total{route="/api/games/{id}",method="GET",status="404"}"#;
    assert_eq!(sample(&page, missing), Some(1.0), "{page}");
    assert_eq!(sample(&page, "reversi_moves_stored_total"), Some(5.0), "{page}");
    assert_eq!(
        sample(&page, r#"reversi_games_in_progress{mode="local"}"#),
        Some(1.0),
        "{page}"
    );
    assert!(
        page.contains("reversi_http_request_duration_seconds_bucket"),
        "{page}"
    );
    assert!(page.contains("reversi_db_write_seconds_count"), "{page}");
    // No secret in the page.
    assert!(!page.contains(token));
}
