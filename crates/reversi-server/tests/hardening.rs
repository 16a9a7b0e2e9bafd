//! The server under hostile clients (issue 27): slow and idle connections are closed, one
//! address cannot hold more than its share, requests from foreign pages are refused, bodies
//! must be JSON objects, errors never name the server's internals, and a game's `version`
//! never goes back, across a restart too.

use axum::body::Body;
use axum::http::{header, Method, Request, StatusCode};
use futures_util::{SinkExt, StreamExt};
use http_body_util::BodyExt;
use reversi_server::round::NewGame;
use reversi_server::{app, serve, AppState, Config};
use reversi_site::game::Mode;
use serde_json::{json, Value};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;
use tower::ServiceExt;

fn config(db: &str) -> Config {
    Config {
        database_url: db.to_string(),
        ai_workers: 1,
        hash_mib: 1,
        ai_time_scale: 0.25,
        rate_per_sec: 10_000.0,
        rate_burst: 10_000.0,
        ..Config::default()
    }
}

async fn start(state: AppState) -> (String, tokio::sync::oneshot::Sender<()>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    tokio::spawn(serve(listener, state, async {
        let _ = rx.await;
    }));
    (addr.to_string(), tx)
}

/// Waits until the server closes `tcp` (a read returns nothing or fails); how long it took.
async fn closed_within(tcp: &mut tokio::net::TcpStream, limit: Duration) -> Option<Duration> {
    let start = std::time::Instant::now();
    let mut buf = [0u8; 1024];
    loop {
        match tokio::time::timeout(limit.saturating_sub(start.elapsed()), tcp.read(&mut buf)).await {
            Err(_) => return None,
            Ok(Ok(0)) | Ok(Err(_)) => return Some(start.elapsed()),
            Ok(Ok(_)) => continue, // a 408 or the like before the close
        }
    }
}

#[tokio::test]
async fn slow_and_idle_connections_are_closed_and_capped_per_address() {
    let state = AppState::new(Config {
        header_timeout: Duration::from_secs(3),
        max_connections_per_ip: 8,
        uncapped_loopback: false,
        ..config("sqlite::memory:")
    })
    .await
    .unwrap();
    let (addr, _stop) = start(state).await;
    // A bounded slow client: 12 connections that send half a request line and then nothing.
    let mut slow = Vec::new();
    for _ in 0..12 {
        let mut tcp = tokio::net::TcpStream::connect(&addr).await.unwrap();
        tcp.write_all(b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            .await
            .unwrap();
        slow.push(tokio::spawn(async move {
            closed_within(&mut tcp, Duration::from_secs(20)).await
        }));
    }
    // The four past the cap are closed at once; the eight admitted ones only when their
    // headers are late, which cannot be before the 3 s timeout (a timer never fires early,
    // so a slow machine cannot blur the two groups; it could only delay the refusals).
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let refused = slow.iter().filter(|t| t.is_finished()).count();
    assert_eq!(
        refused, 4,
        "the connections past the cap of 8 are refused at once"
    );
    for t in slow {
        assert!(t.await.unwrap().is_some(), "every slow connection is closed");
    }
    // An idle keep-alive connection is closed too, after a request was answered.
    let mut tcp = tokio::net::TcpStream::connect(&addr).await.unwrap();
    tcp.write_all(b"GET /api/rules/othello HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        .await
        .unwrap();
    let mut buf = vec![0u8; 65536];
    let n = tcp.read(&mut buf).await.unwrap();
    assert!(String::from_utf8_lossy(&buf[..n]).starts_with("HTTP/1.1 200"));
    assert!(
        closed_within(&mut tcp, Duration::from_secs(10)).await.is_some(),
        "idle keep-alive closed"
    );
    // And the server still answers.
    let mut tcp = tokio::net::TcpStream::connect(&addr).await.unwrap();
    tcp.write_all(b"GET /api/rules/othello HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        .await
        .unwrap();
    let mut text = String::new();
    tcp.read_to_string(&mut text).await.unwrap();
    assert!(text.starts_with("HTTP/1.1 200"), "{text}");
}

#[tokio::test]
async fn a_silent_websocket_is_closed() {
    let state = AppState::new(Config {
        ws_idle: Duration::from_millis(600),
        ..config("sqlite::memory:")
    })
    .await
    .unwrap();
    let seated = state
        .rounds()
        .create(NewGame {
            mode: Mode::Local,
            variant: "othello".into(),
            level: 1,
            color: None,
            tie: Default::default(),
        })
        .await
        .unwrap();
    let (addr, _stop) = start(state).await;
    let req = format!("ws://{addr}/api/games/{}/ws", seated.view.id)
        .into_client_request()
        .unwrap();
    let (mut ws, _) = tokio_tungstenite::connect_async(req).await.unwrap();
    // Not reading means not answering the server's pings.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let mut close = None;
    while let Ok(Some(Ok(msg))) = tokio::time::timeout(Duration::from_secs(5), ws.next()).await {
        if let Message::Close(frame) = msg {
            close = frame;
            break;
        }
    }
    assert_eq!(close.expect("a close frame").code, 1001u16.into());
    // A client that answers (tungstenite answers pings while it reads) stays connected.
    let req = format!("ws://{addr}/api/games/{}/ws", seated.view.id)
        .into_client_request()
        .unwrap();
    let (mut ws, _) = tokio_tungstenite::connect_async(req).await.unwrap();
    let deadline = tokio::time::Instant::now() + Duration::from_millis(1500);
    while let Ok(Some(msg)) = tokio::time::timeout_at(deadline, ws.next()).await {
        assert!(!matches!(msg, Ok(Message::Close(_))), "{msg:?}");
    }
    ws.send(Message::Text(json!({"type": "ping"}).to_string().into()))
        .await
        .unwrap();
}

struct Reply {
    status: StatusCode,
    headers: axum::http::HeaderMap,
    json: Value,
    text: String,
}

async fn call(app: &axum::Router, req: Request<Body>) -> Reply {
    let resp = app.clone().oneshot(req).await.unwrap();
    let status = resp.status();
    let headers = resp.headers().clone();
    let bytes = resp.into_body().collect().await.unwrap().to_bytes();
    let text = String::from_utf8_lossy(&bytes).to_string();
    Reply {
        status,
        headers,
        json: serde_json::from_str(&text).unwrap_or(Value::Null),
        text,
    }
}

fn post(uri: &str, body: &str) -> axum::http::request::Builder {
    let _ = body;
    Request::builder()
        .method(Method::POST)
        .uri(uri)
        .header(header::HOST, "127.0.0.1:8080")
}

#[tokio::test]
async fn foreign_pages_and_non_json_bodies_are_refused() {
    let state = AppState::new(config("sqlite::memory:")).await.unwrap();
    let app = app(state.clone());
    let body = r#"{"mode":"local"}"#;
    // A page of another site, and a sandboxed frame, may not create or act.
    for origin in ["http://evil.example", "null", "http://127.0.0.1:9999"] {
        let req = post("/api/games", body)
            .header(header::ORIGIN, origin)
            .header(header::CONTENT_TYPE, "application/json")
            .body(Body::from(body))
            .unwrap();
        let r = call(&app, req).await;
        assert_eq!(r.status, StatusCode::FORBIDDEN, "{origin}: {}", r.text);
        assert_eq!(r.json["code"], "foreign_origin");
    }
    let cross = post("/api/games", body)
        .header("sec-fetch-site", "cross-site")
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(body))
        .unwrap();
    assert_eq!(call(&app, cross).await.status, StatusCode::FORBIDDEN);
    // The same page passes.
    let req = post("/api/games", body)
        .header(header::ORIGIN, "http://127.0.0.1:8080")
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(body))
        .unwrap();
    let r = call(&app, req).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let id = r.json["game"]["id"].as_str().unwrap().to_string();
    let token = r.json["token"].as_str().unwrap().to_string();
    let cookie = r.headers[header::SET_COOKIE].to_str().unwrap().to_string();
    assert!(
        cookie.contains("Max-Age=2592000") && !cookie.contains("Secure"),
        "{cookie}"
    );
    // Body-less actions from a foreign page too (resign, undo, join, rematch, analysis).
    for action in ["resign", "undo", "join", "rematch", "analysis"] {
        let req = post(&format!("/api/games/{id}/{action}"), "")
            .header(header::ORIGIN, "http://evil.example")
            .header(header::COOKIE, format!("rv_{id}={token}"))
            .body(Body::empty())
            .unwrap();
        assert_eq!(call(&app, req).await.status, StatusCode::FORBIDDEN, "{action}");
    }
    // The websocket upgrade from a foreign page.
    let req = Request::get(format!("/api/games/{id}/ws"))
        .header(header::HOST, "127.0.0.1:8080")
        .header(header::ORIGIN, "http://evil.example")
        .header(header::UPGRADE, "websocket")
        .header(header::CONNECTION, "upgrade")
        .header("sec-websocket-version", "13")
        .header("sec-websocket-key", "dGhlIHNhbXBsZSBub25jZQ==")
        .body(Body::empty())
        .unwrap();
    assert_eq!(call(&app, req).await.status, StatusCode::FORBIDDEN);
    // A move sent as text/plain (what a foreign form can send without asking) is not played.
    let moves = format!("/api/games/{id}/moves");
    for ct in [
        None,
        Some("text/plain"),
        Some("application/x-www-form-urlencoded"),
    ] {
        let mut req = post(&moves, "").header(header::AUTHORIZATION, format!("Bearer {token}"));
        if let Some(ct) = ct {
            req = req.header(header::CONTENT_TYPE, ct);
        }
        let r = call(&app, req.body(Body::from(r#"{"move":"d3"}"#)).unwrap()).await;
        assert_eq!(r.status, StatusCode::UNSUPPORTED_MEDIA_TYPE, "{ct:?}: {}", r.text);
        assert_eq!(r.json["code"], "unsupported_media_type");
    }
    let (view, _) = state.rounds().view(&id, None).await.unwrap();
    assert_eq!(view.ply, 0, "nothing was played");
    // Bodies that are JSON but not an object, and errors in JSON's words.
    for (bad, want) in [
        ("[]", "the body must be a JSON object"),
        ("\"x\"", "the body must be a JSON object"),
        ("{\"level\": \"five\"}", "expected a whole number"),
        ("{\"level\": 1", "malformed JSON"),
    ] {
        let req = post("/api/games", bad)
            .header(header::CONTENT_TYPE, "application/json")
            .body(Body::from(bad))
            .unwrap();
        let r = call(&app, req).await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST, "{bad}");
        let e = r.json["error"].as_str().unwrap();
        assert!(e.contains(want), "{bad}: {e}");
        assert!(
            !e.contains("struct") && !e.contains("Body") && !e.contains("u32"),
            "{e}"
        );
    }
}

#[tokio::test]
async fn every_answer_has_its_shape_and_its_headers() {
    let state = AppState::new(Config {
        rate_per_sec: 1.0,
        rate_burst: 2.0,
        secure_cookies: true,
        ..config("sqlite::memory:")
    })
    .await
    .unwrap();
    let app = app(state);
    // 405 in the API is JSON; outside it, a page or plain text.
    let r = call(&app, Request::delete("/api/games").body(Body::empty()).unwrap()).await;
    assert_eq!(r.status, StatusCode::METHOD_NOT_ALLOWED);
    assert_eq!(r.json["code"], "method_not_allowed");
    let r = call(&app, Request::get("/no/such/page").body(Body::empty()).unwrap()).await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
    assert!(
        r.text.contains("Page not found") && r.text.contains("Такой страницы нет"),
        "{}",
        r.text
    );
    assert!(r.headers[header::CONTENT_TYPE]
        .to_str()
        .unwrap()
        .starts_with("text/html"));
    let r = call(&app, Request::post("/archive").body(Body::empty()).unwrap()).await;
    assert_eq!(r.status, StatusCode::METHOD_NOT_ALLOWED);
    assert!(!r.text.is_empty());
    // Security headers on pages and on the API.
    for uri in ["/", "/api/rules/othello", "/static/app.js"] {
        let r = call(&app, Request::get(uri).body(Body::empty()).unwrap()).await;
        let csp = r.headers["content-security-policy"].to_str().unwrap();
        assert!(
            csp.contains("script-src 'self'") && csp.contains("frame-ancestors 'none'"),
            "{uri}: {csp}"
        );
        assert_eq!(r.headers["x-frame-options"], "DENY");
        assert_eq!(r.headers["referrer-policy"], "same-origin");
        assert_eq!(r.headers["x-content-type-options"], "nosniff");
    }
    // Over the rate limit: 429 with Retry-After.
    let mut limited = None;
    for _ in 0..10 {
        let r = call(
            &app,
            Request::get("/api/rules/othello").body(Body::empty()).unwrap(),
        )
        .await;
        if r.status == StatusCode::TOO_MANY_REQUESTS {
            limited = Some(r);
            break;
        }
    }
    let r = limited.expect("the limit is reached");
    assert_eq!(r.headers[header::RETRY_AFTER], "1");
    assert_eq!(r.json["code"], "rate_limited");
}

#[tokio::test]
async fn secure_cookies_when_asked() {
    let state = AppState::new(Config {
        secure_cookies: true,
        ..config("sqlite::memory:")
    })
    .await
    .unwrap();
    let app = app(state);
    let r = call(&app, post("/api/games", "").body(Body::empty()).unwrap()).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let cookie = r.headers[header::SET_COOKIE].to_str().unwrap();
    assert!(
        cookie.contains("; Secure") && cookie.contains("HttpOnly"),
        "{cookie}"
    );
}

#[tokio::test]
async fn the_version_never_goes_back_across_a_restart() {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    let file = std::env::temp_dir().join(format!("reversi-version-{}-{nanos}.db", std::process::id()));
    let db = file.display().to_string();
    // Versions order the states of one game: each game's own last version is the bound.
    let mut last = std::collections::HashMap::<String, u64>::new();
    let mut ids = Vec::new();
    for round in 0..3 {
        let state = AppState::new(config(&db)).await.unwrap();
        if round == 0 {
            for _ in 0..5 {
                let s = state
                    .rounds()
                    .create(NewGame {
                        mode: Mode::Ai,
                        variant: "othello".into(),
                        level: 1,
                        color: Some(reversi_core::Color::Black),
                        tie: Default::default(),
                    })
                    .await
                    .unwrap();
                ids.push((s.view.id.clone(), s.token.clone()));
            }
        }
        for (id, token) in &ids {
            let (before, _) = state.rounds().view(id, None).await.unwrap();
            let last_here = last.get(id).copied().unwrap_or(0);
            assert!(
                before.version > last_here || round == 0,
                "round {round}: {} after {last_here}",
                before.version
            );
            // A move and the computer's reply: several changes in memory, a few stored.
            if let Some(mv) = before.legal_moves.first() {
                state
                    .rounds()
                    .play(id, Some(token), mv, None, true)
                    .await
                    .unwrap();
            }
            let (after, _) = state.rounds().view(id, None).await.unwrap();
            assert!(after.version > before.version);
            last.insert(id.clone(), after.version);
        }
        state.db().close().await;
    }
    let _ = std::fs::remove_file(&file);
    for ext in ["-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{db}{ext}"));
    }
}
