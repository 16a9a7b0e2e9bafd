//! `reversi bot` against a real server: a person challenges the bot by name, the bot accepts
//! and plays the built-in engine's moves until the game ends, then stops (`--games 1`); a token
//! that is not a bot's is refused with a clear error.

use serde_json::{json, Value};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A client with one session cookie.
struct Person {
    base: String,
    cookie: String,
}

impl Person {
    fn call(&self, method: &str, path: &str, body: Option<Value>) -> (u16, Value) {
        let req = ureq::request(method, &format!("{}{path}", self.base)).set("Cookie", &self.cookie);
        let resp = match body {
            Some(b) => req.send_json(b),
            None => req.call(),
        };
        match resp {
            Ok(r) => (r.status(), r.into_json().unwrap_or(Value::Null)),
            Err(ureq::Error::Status(s, r)) => (s, r.into_json().unwrap_or(Value::Null)),
            Err(e) => panic!("{method} {path}: {e}"),
        }
    }
}

fn sign_up(base: &str, name: &str) -> Person {
    let resp = ureq::post(&format!("{base}/api/account/signup"))
        .send_json(json!({ "name": name, "password": format!("{name}-password-1") }))
        .expect("sign up");
    let cookie = resp
        .all("set-cookie")
        .into_iter()
        .find(|c| c.starts_with("rv_session="))
        .and_then(|c| c.split(';').next())
        .expect("a session cookie")
        .to_string();
    Person {
        base: base.to_string(),
        cookie,
    }
}

#[test]
fn a_bot_accepts_a_challenge_and_plays_it_out() {
    let dir = tempfile::tempdir().unwrap();
    let rt = tokio::runtime::Runtime::new().unwrap();
    let config = reversi_server::Config {
        database_url: dir.path().join("bot.db").display().to_string(),
        ai_workers: 1,
        hash_mib: 1,
        rate_per_sec: 10_000.0,
        rate_burst: 10_000.0,
        ..reversi_server::Config::default()
    };
    let state = rt.block_on(reversi_server::AppState::new(config)).unwrap();
    let listener = rt.block_on(tokio::net::TcpListener::bind("127.0.0.1:0")).unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    rt.spawn(reversi_server::serve(listener, state, std::future::pending()));

    let owner = sign_up(&base, "Robo");
    let (status, v) = owner.call(
        "POST",
        "/api/account/bot",
        Some(json!({ "password": "Robo-password-1" })),
    );
    assert_eq!(status, 200, "{v}");
    let token = v["token"].as_str().unwrap().to_string();
    assert!(token.starts_with("bot_"));

    // A person's session is not a bot token.
    let out = Command::new(env!("CARGO_BIN_EXE_reversi"))
        .args([
            "bot",
            "--server",
            &base,
            "--token",
            "bot_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
            "--games",
            "1",
        ])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("bot token"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    let mut bot = Command::new(env!("CARGO_BIN_EXE_reversi"))
        .args([
            "bot", "--server", &base, "--token", &token, "--level", "1", "--hash", "1", "--games", "1",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let ann = sign_up(&base, "Ann");
    let (status, v) = ann.call(
        "POST",
        "/api/seeks",
        Some(json!({ "control": "5+3", "to": "robo", "colour": "black" })),
    );
    assert_eq!(status, 201, "{v}");
    let end = Instant::now() + Duration::from_secs(120);
    let id = loop {
        assert!(Instant::now() < end, "the bot did not accept");
        let (_, l) = ann.call("GET", "/api/lobby", None);
        if let Some(g) = l["started"][0]["game"].as_str() {
            break g.to_string();
        }
        std::thread::sleep(Duration::from_millis(200));
    };
    // Ann plays her first legal move whenever it is her turn; the bot answers.
    loop {
        assert!(Instant::now() < end, "the game did not end");
        let (_, g) = ann.call("GET", &format!("/api/games/{id}"), None);
        let game = &g["game"];
        if game["status"] != "playing" {
            assert_eq!(game["status"], "finished", "{game}");
            assert_eq!(game["online"]["white"]["name"], "Robo");
            assert_eq!(game["online"]["white"]["bot"], true);
            assert!(game["moves"].as_array().unwrap().len() > 20, "{game}");
            break;
        }
        if game["to_move"] == "black" {
            let mv = game["legal_moves"][0].as_str().unwrap();
            ann.call(
                "POST",
                &format!("/api/games/{id}/moves"),
                Some(json!({ "move": mv, "ply": game["ply"] })),
            );
        } else {
            std::thread::sleep(Duration::from_millis(50));
        }
    }
    // With its one game played, the bot stops by itself.
    let stop = Instant::now() + Duration::from_secs(20);
    loop {
        if let Some(code) = bot.try_wait().unwrap() {
            assert!(code.success(), "the bot failed: {code}");
            break;
        }
        assert!(Instant::now() < stop, "the bot did not stop after its game");
        std::thread::sleep(Duration::from_millis(100));
    }
}
