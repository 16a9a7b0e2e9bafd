//! A browser-like client for the online tests: it keeps its cookies (session, guest, seats)
//! and sends requests through the router, no network.
#![allow(dead_code)] // each test binary uses its own part of it

use axum::body::Body;
use axum::http::{header, Method, Request, StatusCode};
use axum::Router;
use http_body_util::BodyExt;
use serde_json::Value;
use std::collections::BTreeMap;
use tower::ServiceExt;

/// The server's settings for these tests: a small engine, no rate limit in the way.
pub fn config(db: &str) -> reversi_server::Config {
    reversi_server::Config {
        database_url: db.to_string(),
        ai_workers: 1,
        hash_mib: 1,
        rate_per_sec: 10_000.0,
        rate_burst: 10_000.0,
        // Tests of clocks and deadlines move it instead of waiting.
        clock: reversi_server::time::Clock::adjustable(),
        ..reversi_server::Config::default()
    }
}

/// One visitor with a cookie jar.
#[derive(Clone)]
pub struct Client {
    pub app: Router,
    pub cookies: BTreeMap<String, String>,
    pub bearer: Option<String>,
    /// Headers sent with every request (a proxy's, say).
    pub headers: Vec<(String, String)>,
}

/// An answer.
pub struct Reply {
    pub status: StatusCode,
    pub json: Value,
    pub text: String,
    pub set_cookies: Vec<String>,
    /// The answer's headers (lower-case names; the last of repeated ones).
    pub headers: BTreeMap<String, String>,
}

impl Client {
    pub fn new(app: &Router) -> Client {
        Client {
            app: app.clone(),
            cookies: BTreeMap::new(),
            bearer: None,
            headers: Vec::new(),
        }
    }

    pub async fn call(&mut self, method: Method, uri: &str, body: Option<Value>) -> Reply {
        let mut req = Request::builder().method(method).uri(uri);
        if !self.cookies.is_empty() {
            let jar: Vec<String> = self.cookies.iter().map(|(k, v)| format!("{k}={v}")).collect();
            req = req.header(header::COOKIE, jar.join("; "));
        }
        if let Some(t) = &self.bearer {
            req = req.header(header::AUTHORIZATION, format!("Bearer {t}"));
        }
        if body.is_some() {
            req = req.header(header::CONTENT_TYPE, "application/json");
        }
        for (k, v) in &self.headers {
            req = req.header(k.as_str(), v.as_str());
        }
        let body = body.map(|b| b.to_string()).unwrap_or_default();
        let resp = self
            .app
            .clone()
            .oneshot(req.body(Body::from(body)).unwrap())
            .await
            .unwrap();
        let status = resp.status();
        let set_cookies: Vec<String> = resp
            .headers()
            .get_all(header::SET_COOKIE)
            .iter()
            .filter_map(|v| v.to_str().ok().map(str::to_string))
            .collect();
        for c in &set_cookies {
            let pair = c.split(';').next().unwrap_or("");
            if let Some((k, v)) = pair.split_once('=') {
                if v.is_empty() || c.contains("Max-Age=0") {
                    self.cookies.remove(k);
                } else {
                    self.cookies.insert(k.to_string(), v.to_string());
                }
            }
        }
        let headers = resp
            .headers()
            .iter()
            .filter_map(|(k, v)| Some((k.as_str().to_string(), v.to_str().ok()?.to_string())))
            .collect();
        let bytes = resp.into_body().collect().await.unwrap().to_bytes();
        let text = String::from_utf8_lossy(&bytes).to_string();
        let json = serde_json::from_str(&text).unwrap_or(Value::Null);
        Reply {
            status,
            json,
            text,
            set_cookies,
            headers,
        }
    }

    pub async fn get(&mut self, uri: &str) -> Reply {
        self.call(Method::GET, uri, None).await
    }

    pub async fn post(&mut self, uri: &str, body: Value) -> Reply {
        self.call(Method::POST, uri, Some(body)).await
    }

    /// Signs up `name` (password `name` + "-secret-pw") and expects success.
    pub async fn signup(&mut self, name: &str) -> Reply {
        let r = self
            .post(
                "/api/account/signup",
                serde_json::json!({ "name": name, "password": format!("{name}-secret-pw") }),
            )
            .await;
        assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
        r
    }

    /// Plays the first legal move of game `id` (this client must be the side to move).
    pub async fn play_first(&mut self, id: &str) -> Reply {
        let g = self.get(&format!("/api/games/{id}")).await;
        let mv = g.json["game"]["legal_moves"][0].as_str().unwrap().to_string();
        let ply = g.json["game"]["ply"].as_u64().unwrap();
        self.post(
            &format!("/api/games/{id}/moves"),
            serde_json::json!({ "move": mv, "ply": ply }),
        )
        .await
    }
}

/// A websocket of the tests' client side.
pub type Ws = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// Serves `state` on a free loopback port; its address.
pub async fn serve_on_loopback(state: reversi_server::AppState) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(reversi_server::serve(listener, state, std::future::pending()));
    addr.to_string()
}

/// Opens the websocket at `path` of the server at `addr` as `client` (its cookies); the
/// handshake's error as text.
pub async fn open_socket(addr: &str, path: &str, client: &Client) -> Result<Ws, String> {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let mut req = format!("ws://{addr}{path}").into_client_request().unwrap();
    let jar: Vec<String> = client.cookies.iter().map(|(k, v)| format!("{k}={v}")).collect();
    req.headers_mut()
        .insert("cookie", jar.join("; ").parse().unwrap());
    tokio_tungstenite::connect_async(req)
        .await
        .map(|(ws, _)| ws)
        .map_err(|e| e.to_string())
}
