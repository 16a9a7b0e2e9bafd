//! `reversi bot` against a real server: a person challenges the bot by name, the bot accepts
//! and plays the built-in engine's moves until the game ends, then stops (`--games 1`); a token
//! that is not a bot's is refused with a clear error; a bot enters a round robin that takes
//! bots (`--tournament ID`) and plays its game there when the round starts.

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

/// One test at a time: the tournament test moves the process's clock, which would run out the
/// other's first-move deadline.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// A server on a free loopback port, in this process; its address and its clock (which the test
/// moves on).
fn server(dir: &std::path::Path, rt: &tokio::runtime::Runtime) -> (String, reversi_server::time::Clock) {
    let config = reversi_server::Config {
        database_url: dir.join("bot.db").display().to_string(),
        ai_workers: 1,
        hash_mib: 1,
        rate_per_sec: 10_000.0,
        rate_burst: 10_000.0,
        clock: reversi_server::time::Clock::adjustable(),
        ..reversi_server::Config::default()
    };
    let clock = config.clock.clone();
    let state = rt.block_on(reversi_server::AppState::new(config)).unwrap();
    let listener = rt.block_on(tokio::net::TcpListener::bind("127.0.0.1:0")).unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    rt.spawn(reversi_server::serve(listener, state, std::future::pending()));
    (base, clock)
}

/// Makes `name` a bot account; its token.
fn bot_token(base: &str, name: &str) -> String {
    let owner = sign_up(base, name);
    let (status, v) = owner.call(
        "POST",
        "/api/account/bot",
        Some(json!({ "password": format!("{name}-password-1") })),
    );
    assert_eq!(status, 200, "{v}");
    let token = v["token"].as_str().unwrap().to_string();
    assert!(token.starts_with("bot_"));
    token
}

/// Plays `colour`'s first legal move whenever it is its turn in game `id`, until it ends.
fn play_as(ann: &Person, id: &str, colour: &str, end: Instant) -> Value {
    loop {
        assert!(Instant::now() < end, "the game did not end");
        let (_, g) = ann.call("GET", &format!("/api/games/{id}"), None);
        let game = &g["game"];
        if game["status"] != "playing" {
            return game.clone();
        }
        if game["to_move"] == colour {
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
}

/// Waits (up to 20 s) for the bot to stop by itself, successfully.
fn stops(bot: &mut std::process::Child) {
    let stop = Instant::now() + Duration::from_secs(20);
    loop {
        if let Some(code) = bot.try_wait().unwrap() {
            assert!(code.success(), "the bot failed: {code}");
            return;
        }
        assert!(Instant::now() < stop, "the bot did not stop after its game");
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn a_bot_enters_a_tournament_and_plays_its_game() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir().unwrap();
    let rt = tokio::runtime::Runtime::new().unwrap();
    let (base, clock) = server(dir.path(), &rt);
    let token = bot_token(&base, "Tourbot");
    let ann = sign_up(&base, "Ann");
    let (status, t) = ann.call(
        "POST",
        "/api/tournaments",
        Some(
            json!({ "name": "Bots welcome", "format": "round_robin", "control": "5+3",
                     "bots": true, "starts_in_minutes": 1 }),
        ),
    );
    assert_eq!(status, 201, "{t}");
    let tid = t["id"].as_str().unwrap().to_string();
    assert_eq!(
        ann.call("POST", &format!("/api/tournaments/{tid}/join"), Some(json!({})))
            .0,
        204
    );
    let mut bot = Command::new(env!("CARGO_BIN_EXE_reversi"))
        .args([
            "bot",
            "--server",
            &base,
            "--token",
            &token,
            "--level",
            "1",
            "--hash",
            "1",
            "--games",
            "1",
            "--tournament",
            &tid,
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let end = Instant::now() + Duration::from_secs(120);
    loop {
        assert!(Instant::now() < end, "the bot did not enter");
        let (_, v) = ann.call("GET", &format!("/api/tournaments/{tid}"), None);
        if v["players"] == 2 {
            break;
        }
        std::thread::sleep(Duration::from_millis(200));
    }
    // The start comes (the server's clock, in this process, moves on a minute).
    clock.advance(61_000);
    let id = loop {
        assert!(Instant::now() < end, "the round did not start");
        let (_, v) = ann.call("GET", &format!("/api/tournaments/{tid}"), None);
        if let Some(g) = v["me"]["game"].as_str() {
            break g.to_string();
        }
        std::thread::sleep(Duration::from_millis(200));
    };
    let (_, g) = ann.call("GET", &format!("/api/games/{id}"), None);
    let black = g["game"]["online"]["black"]["name"].as_str().unwrap().to_string();
    // Ann plays her first legal move at each of her turns; the bot answers.
    let colour = if black == "Ann" { "black" } else { "white" };
    let game = play_as(&ann, &id, colour, end);
    assert_eq!(game["status"], "finished", "{game}");
    assert!(game["moves"].as_array().unwrap().len() > 20, "{game}");
    stops(&mut bot);
    let end = Instant::now() + Duration::from_secs(30);
    loop {
        let (_, v) = ann.call("GET", &format!("/api/tournaments/{tid}"), None);
        if v["status"] == "finished" {
            let games: u64 = v["standings"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s["games"].as_u64().unwrap())
                .sum();
            assert_eq!(games, 2, "{v}");
            break;
        }
        assert!(Instant::now() < end, "the tournament did not finish: {v}");
        std::thread::sleep(Duration::from_millis(200));
    }
}

#[test]
fn a_bot_accepts_a_challenge_and_plays_it_out() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir().unwrap();
    let rt = tokio::runtime::Runtime::new().unwrap();
    let (base, _clock) = server(dir.path(), &rt);
    let token = bot_token(&base, "Robo");

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
    let game = play_as(&ann, &id, "black", end);
    assert_eq!(game["status"], "finished", "{game}");
    assert_eq!(game["online"]["white"]["name"], "Robo");
    assert_eq!(game["online"]["white"]["bot"], true);
    assert!(game["moves"].as_array().unwrap().len() > 20, "{game}");
    // With its one game played, the bot stops by itself.
    stops(&mut bot);
}
