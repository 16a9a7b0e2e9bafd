//! A harness for attacks made of many requests at once: a real server on loopback that takes
//! `X-Forwarded-For` from loopback (so that each request may come from an address of its own),
//! a plain HTTP/1.1 client, and [`burst`], which opens every connection, writes every request
//! and only then reads the answers, so that the server has them all in hand together.
#![allow(dead_code)] // each test binary uses its own part of it

use reversi_server::{serve, AppState, Config};
use serde_json::Value;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// A server running on loopback for one test.
pub struct Site {
    /// Where it listens.
    pub addr: SocketAddr,
    /// Its state (for what a test sets up or looks at directly).
    pub state: AppState,
    _stop: tokio::sync::oneshot::Sender<()>,
}

impl Site {
    /// Starts a server with `config`, trusting loopback as a proxy.
    pub async fn start(mut config: Config) -> Site {
        config.trusted_proxies = vec!["127.0.0.1/32".parse().unwrap()];
        let state = AppState::new(config).await.unwrap();
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let (stop, rx) = tokio::sync::oneshot::channel::<()>();
        tokio::spawn(serve(listener, state.clone(), async {
            let _ = rx.await;
        }));
        Site {
            addr,
            state,
            _stop: stop,
        }
    }

    /// Sends one request and reads its answer.
    pub async fn send(&self, req: Req) -> Reply {
        send(self.addr, req).await
    }

    /// Sends every request at once (see [`burst`]).
    pub async fn burst(&self, reqs: Vec<Req>) -> Vec<Reply> {
        burst(self.addr, reqs).await
    }
}

/// A request.
#[derive(Clone, Debug, Default)]
pub struct Req {
    pub method: String,
    pub path: String,
    pub headers: Vec<(String, String)>,
    pub body: Option<String>,
}

impl Req {
    pub fn get(path: &str) -> Req {
        Req {
            method: "GET".into(),
            path: path.into(),
            ..Req::default()
        }
    }

    pub fn post(path: &str, body: Value) -> Req {
        Req {
            method: "POST".into(),
            path: path.into(),
            body: Some(body.to_string()),
            ..Req::default()
        }
    }

    /// As if from `ip` (through the trusted proxy on loopback).
    pub fn from(mut self, ip: IpAddr) -> Req {
        self.headers.push(("X-Forwarded-For".into(), ip.to_string()));
        self
    }

    /// With the cookies of `jar` (`name=value; …`).
    pub fn cookies(mut self, jar: &str) -> Req {
        if !jar.is_empty() {
            self.headers.push(("Cookie".into(), jar.to_string()));
        }
        self
    }

    /// With a header.
    pub fn header(mut self, name: &str, value: &str) -> Req {
        self.headers.push((name.into(), value.into()));
        self
    }

    fn bytes(&self, host: SocketAddr) -> Vec<u8> {
        let mut s = format!(
            "{} {} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n",
            self.method, self.path
        );
        for (k, v) in &self.headers {
            s.push_str(&format!("{k}: {v}\r\n"));
        }
        let body = self.body.clone().unwrap_or_default();
        if self.body.is_some() {
            s.push_str("Content-Type: application/json\r\n");
        }
        s.push_str(&format!("Content-Length: {}\r\n\r\n", body.len()));
        s.push_str(&body);
        s.into_bytes()
    }
}

/// An answer.
#[derive(Clone, Debug)]
pub struct Reply {
    pub status: u16,
    /// Header lines, names lower case, in order.
    pub headers: Vec<(String, String)>,
    pub text: String,
    pub json: Value,
}

impl Reply {
    /// The value the answer sets for cookie `name`, if it sets one.
    pub fn cookie(&self, name: &str) -> Option<String> {
        self.headers
            .iter()
            .filter(|(k, _)| k == "set-cookie")
            .filter_map(|(_, v)| v.split(';').next()?.split_once('='))
            .find(|(k, _)| *k == name)
            .map(|(_, v)| v.to_string())
    }

    /// `name=value` for cookie `name`, to send back.
    pub fn cookie_pair(&self, name: &str) -> String {
        format!(
            "{name}={}",
            self.cookie(name)
                .unwrap_or_else(|| panic!("no {name} cookie: {self:?}"))
        )
    }
}

fn parse(raw: &[u8]) -> Reply {
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .unwrap_or_else(|| panic!("no header end in {:?}", String::from_utf8_lossy(raw)));
    let head = String::from_utf8_lossy(&raw[..split]).to_string();
    let mut body = raw[split + 4..].to_vec();
    let mut lines = head.split("\r\n");
    let status: u16 = lines
        .next()
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status line: {head}"));
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    if headers
        .iter()
        .any(|(k, v)| k == "transfer-encoding" && v.contains("chunked"))
    {
        let mut out = Vec::new();
        let mut rest = &body[..];
        while let Some(end) = rest.windows(2).position(|w| w == b"\r\n") {
            let size = usize::from_str_radix(String::from_utf8_lossy(&rest[..end]).trim(), 16).unwrap_or(0);
            if size == 0 {
                break;
            }
            out.extend_from_slice(&rest[end + 2..end + 2 + size]);
            rest = &rest[end + 2 + size + 2..];
        }
        body = out;
    }
    let text = String::from_utf8_lossy(&body).to_string();
    let json = serde_json::from_str(&text).unwrap_or(Value::Null);
    Reply {
        status,
        headers,
        text,
        json,
    }
}

/// Sends one request on its own connection and reads the answer to the end.
pub async fn send(addr: SocketAddr, req: Req) -> Reply {
    let mut tcp = tokio::net::TcpStream::connect(addr).await.unwrap();
    tcp.write_all(&req.bytes(addr)).await.unwrap();
    let mut raw = Vec::new();
    tcp.read_to_end(&mut raw).await.unwrap();
    parse(&raw)
}

/// Sends every request at once: each on its own connection, all connected first, then all
/// written together (released by one barrier), then every answer read. The answers come back in
/// the order of the requests.
pub async fn burst(addr: SocketAddr, reqs: Vec<Req>) -> Vec<Reply> {
    let barrier = Arc::new(tokio::sync::Barrier::new(reqs.len()));
    let mut tasks = Vec::new();
    for req in reqs {
        let barrier = Arc::clone(&barrier);
        let mut tcp = tokio::net::TcpStream::connect(addr).await.unwrap();
        tasks.push(tokio::spawn(async move {
            let bytes = req.bytes(addr);
            barrier.wait().await;
            tcp.write_all(&bytes).await.unwrap();
            let mut raw = Vec::new();
            tcp.read_to_end(&mut raw).await.unwrap();
            parse(&raw)
        }));
    }
    let mut out = Vec::new();
    for t in tasks {
        out.push(t.await.unwrap());
    }
    out
}

/// The `n`-th test address (203.0.113.0/24 and on: documentation addresses).
pub fn ip(n: usize) -> IpAddr {
    IpAddr::from([203, 0, (113 + n / 250) as u8, (n % 250 + 1) as u8])
}

/// How many answers have status `s`.
pub fn count(replies: &[Reply], s: u16) -> usize {
    replies.iter().filter(|r| r.status == s).count()
}
