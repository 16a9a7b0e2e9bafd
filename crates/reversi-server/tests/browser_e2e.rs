//! End-to-end test in a real headless Chromium, driven through ChromeDriver (W3C WebDriver over
//! plain HTTP): open the home page, start a game against the computer (level 1), play it to the
//! end by clicking legal-move squares, check the result shown, and switch the language; then
//! find the game in the archive, step through its replay with the buttons, the arrow keys and
//! the move list, have it analysed and see the chart, and read the rules of a variant.
//!
//! Needs `REVERSI_TEST_CHROMIUM` (the browser binary) and `REVERSI_TEST_CHROMEDRIVER`; without
//! them (or when they are missing) the test says why and passes. `scripts/test` sets both.
//! With `REVERSI_TEST_SCREENSHOTS=DIR` it saves PNG screenshots of the home, game, archive,
//! replay (with the analysis chart) and rules pages in both languages there
//! (`docs/screenshots/` holds the committed ones).

use reversi_server::{serve, AppState, Config};
use serde_json::{json, Value};
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The key under which WebDriver returns an element reference.
const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

/// One HTTP/1.1 request over a fresh connection; returns (status, body).
fn http(addr: &str, method: &str, path: &str, body: Option<&Value>) -> std::io::Result<(u16, String)> {
    let mut s = TcpStream::connect(addr)?;
    s.set_read_timeout(Some(Duration::from_secs(120)))?;
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\
         Content-Type: application/json; charset=utf-8\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes())?;
    // ChromeDriver keeps the connection open: read the head, then Content-Length bytes.
    let mut raw = Vec::new();
    let mut buf = [0u8; 8192];
    let split = loop {
        if let Some(p) = raw.windows(4).position(|w| w == b"\r\n\r\n") {
            break p;
        }
        let n = s.read(&mut buf)?;
        if n == 0 {
            return Err(std::io::Error::other("connection closed before the head"));
        }
        raw.extend_from_slice(&buf[..n]);
    };
    let head = String::from_utf8_lossy(&raw[..split]).to_ascii_lowercase();
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let length = head.lines().find_map(|l| {
        l.strip_prefix("content-length:")
            .and_then(|v| v.trim().parse::<usize>().ok())
    });
    let mut payload = raw[split + 4..].to_vec();
    match length {
        Some(len) => {
            while payload.len() < len {
                let n = s.read(&mut buf)?;
                if n == 0 {
                    break;
                }
                payload.extend_from_slice(&buf[..n]);
            }
            payload.truncate(len);
        }
        None => {
            s.read_to_end(&mut payload)?;
            if head.contains("transfer-encoding: chunked") {
                payload = dechunk(&payload);
            }
        }
    }
    Ok((status, String::from_utf8_lossy(&payload).to_string()))
}

fn dechunk(mut data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    while let Some(eol) = data.windows(2).position(|w| w == b"\r\n") {
        let size = String::from_utf8_lossy(&data[..eol]);
        let size = usize::from_str_radix(size.split(';').next().unwrap_or("0").trim(), 16).unwrap_or(0);
        if size == 0 || data.len() < eol + 2 + size {
            break;
        }
        out.extend_from_slice(&data[eol + 2..eol + 2 + size]);
        data = &data[(eol + 4 + size).min(data.len())..];
    }
    out
}

fn base64_decode(s: &str) -> Vec<u8> {
    let val = |c: u8| match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    };
    let (mut out, mut acc, mut bits) = (Vec::new(), 0u32, 0);
    for v in s.bytes().filter_map(val) {
        acc = (acc << 6) | v as u32;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    out
}

/// Kills the child process when dropped.
struct Reap(Child);
impl Drop for Reap {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A WebDriver session.
struct Driver {
    addr: String,
    session: String,
}

impl Driver {
    fn cmd(&self, method: &str, path: &str, body: Option<Value>) -> Result<Value, String> {
        let path = format!("/session/{}{path}", self.session);
        let (status, text) = http(&self.addr, method, &path, body.as_ref()).map_err(|e| e.to_string())?;
        let v: Value = serde_json::from_str(&text).map_err(|e| format!("{e}: {text}"))?;
        if status != 200 {
            return Err(format!("{method} {path}: {status} {}", v["value"]));
        }
        Ok(v["value"].clone())
    }

    fn goto(&self, url: &str) {
        self.cmd("POST", "/url", Some(json!({ "url": url }))).unwrap();
    }

    fn url(&self) -> String {
        self.cmd("GET", "/url", None)
            .unwrap()
            .as_str()
            .unwrap_or("")
            .to_string()
    }

    fn find_all(&self, css: &str) -> Vec<String> {
        self.cmd(
            "POST",
            "/elements",
            Some(json!({ "using": "css selector", "value": css })),
        )
        .map(|v| {
            v.as_array()
                .map(|a| {
                    a.iter()
                        .filter_map(|e| e[ELEMENT].as_str().map(String::from))
                        .collect()
                })
                .unwrap_or_default()
        })
        .unwrap_or_default()
    }

    fn click(&self, element: &str) -> Result<Value, String> {
        self.cmd("POST", &format!("/element/{element}/click"), Some(json!({})))
    }

    fn text(&self, element: &str) -> String {
        self.cmd("GET", &format!("/element/{element}/text"), None)
            .ok()
            .and_then(|v| v.as_str().map(String::from))
            .unwrap_or_default()
    }

    /// The visible text of the first element matching `css` (empty when none).
    fn text_of(&self, css: &str) -> String {
        self.find_all(css)
            .first()
            .map(|e| self.text(e))
            .unwrap_or_default()
    }

    /// Waits until `cond` holds, panicking after `secs` seconds.
    fn wait(&self, what: &str, secs: u64, mut cond: impl FnMut(&Driver) -> bool) {
        let end = Instant::now() + Duration::from_secs(secs);
        while !cond(self) {
            assert!(
                Instant::now() < end,
                "timed out waiting for {what}; page: {}",
                self.body_text()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Presses keys (WebDriver key codes: \u{E012} left, \u{E014} right, \u{E011} home).
    fn keys(&self, keys: &str) {
        let mut actions = Vec::new();
        for k in keys.chars() {
            actions.push(json!({"type": "keyDown", "value": k.to_string()}));
            actions.push(json!({"type": "keyUp", "value": k.to_string()}));
        }
        let body = json!({"actions": [{"type": "key", "id": "keyboard", "actions": actions}]});
        self.cmd("POST", "/actions", Some(body)).unwrap();
    }

    fn window_height(&self, height: u32) {
        self.cmd(
            "POST",
            "/window/rect",
            Some(json!({"width": 1100, "height": height})),
        )
        .unwrap();
    }

    fn body_text(&self) -> String {
        self.text_of("body")
    }

    fn screenshot(&self, dir: Option<&Path>, name: &str) {
        let Some(dir) = dir else { return };
        // Let the flip animation (0.35 s) finish.
        std::thread::sleep(Duration::from_millis(600));
        let png = self.cmd("GET", "/screenshot", None).unwrap();
        let bytes = base64_decode(png.as_str().unwrap());
        assert!(bytes.starts_with(b"\x89PNG"), "a PNG screenshot");
        std::fs::create_dir_all(dir).unwrap();
        std::fs::write(dir.join(name), bytes).unwrap();
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = http(&self.addr, "DELETE", &format!("/session/{}", self.session), None);
    }
}

fn tool(var: &str) -> Option<PathBuf> {
    match std::env::var_os(var) {
        Some(p) if !p.is_empty() && Path::new(&p).is_file() => Some(PathBuf::from(p)),
        Some(p) if !p.is_empty() => {
            eprintln!(
                "browser_e2e: skipped: {var}={} does not exist",
                Path::new(&p).display()
            );
            None
        }
        _ => {
            eprintln!("browser_e2e: skipped: {var} is not set (scripts/test sets it)");
            None
        }
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

#[test]
fn play_a_game_against_the_computer_in_chromium() {
    let (Some(chromium), Some(chromedriver)) =
        (tool("REVERSI_TEST_CHROMIUM"), tool("REVERSI_TEST_CHROMEDRIVER"))
    else {
        return;
    };
    let shots = std::env::var_os("REVERSI_TEST_SCREENSHOTS").map(PathBuf::from);
    let stamp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    let tmp = std::env::temp_dir().join(format!("reversi-e2e-{}-{stamp}", std::process::id()));
    std::fs::create_dir_all(tmp.join("profile")).unwrap();

    // The server, in-process, on its own runtime, with a fresh SQLite file.
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let config = Config {
        database_url: tmp.join("games.db").display().to_string(),
        ai_workers: 1,
        hash_mib: 1,
        ai_time_scale: 0.25,
        rate_per_sec: 10_000.0,
        rate_burst: 10_000.0,
        analysis_level: 6,
        ..Config::default()
    };
    let state = runtime.block_on(AppState::new(config)).unwrap();
    let listener = runtime
        .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
        .unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    runtime.spawn(serve(listener, state, std::future::pending()));

    // ChromeDriver on a free port.
    let port = free_port();
    let wd_addr = format!("127.0.0.1:{port}");
    let _driver_proc = Reap(
        Command::new(&chromedriver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start chromedriver"),
    );
    let end = Instant::now() + Duration::from_secs(30);
    loop {
        if let Ok((200, body)) = http(&wd_addr, "GET", "/status", None) {
            if body.contains("\"ready\":true") {
                break;
            }
        }
        assert!(Instant::now() < end, "chromedriver did not become ready");
        std::thread::sleep(Duration::from_millis(100));
    }
    let args = vec![
        "--headless".to_string(),
        "--no-sandbox".into(),
        "--disable-gpu".into(),
        "--no-first-run".into(),
        "--disable-background-networking".into(),
        "--disable-component-update".into(),
        "--disable-sync".into(),
        "--disable-quic".into(),
        "--disable-dev-shm-usage".into(),
        "--window-size=1100,860".into(),
        format!("--user-data-dir={}", tmp.join("profile").display()),
    ];
    let caps = json!({ "capabilities": { "alwaysMatch": {
        "browserName": "chrome",
        "goog:chromeOptions": { "binary": chromium.display().to_string(), "args": args }
    }}});
    let (status, text) = http(&wd_addr, "POST", "/session", Some(&caps)).unwrap();
    assert_eq!(status, 200, "new WebDriver session: {text}");
    let v: Value = serde_json::from_str(&text).unwrap();
    let d = Driver {
        addr: wd_addr.clone(),
        session: v["value"]["sessionId"].as_str().unwrap().to_string(),
    };

    // Home page, in English (a fresh profile has no language stored).
    d.goto(&format!("{base}/"));
    d.wait("the new-game form", 20, |d| !d.find_all("#start").is_empty());
    assert!(d.body_text().contains("New game"), "{}", d.body_text());
    // Level 1, black, standard Othello: pick the options by clicking them.
    let opt = d.find_all("#level option[value='1']");
    d.click(&opt[0]).unwrap();
    let opt = d.find_all("#color option[value='black']");
    d.click(&opt[0]).unwrap();
    d.screenshot(shots.as_deref(), "home-en.png");
    let start = d.find_all("#start");
    d.click(&start[0]).unwrap();
    d.wait("the game page", 20, |d| {
        d.url().contains("/game/") && !d.find_all("#board-wrap svg").is_empty()
    });
    let id = d.url().rsplit('/').next().unwrap().to_string();

    // Play: click a legal square whenever it is our turn, until the game ends.
    let moves = |d: &Driver| d.find_all("#moves li").len();
    let end = Instant::now() + Duration::from_secs(240);
    let mut clicks = 0;
    let mut shot_taken = false;
    loop {
        assert!(
            Instant::now() < end,
            "the game did not finish in time: {}",
            d.body_text()
        );
        if !d.find_all("#result-dialog[open]").is_empty() {
            break;
        }
        let legal = d.find_all("#board-wrap g.sq[tabindex='0']");
        if legal.is_empty() {
            std::thread::sleep(Duration::from_millis(50));
            continue;
        }
        if clicks == 6 && !shot_taken {
            d.screenshot(shots.as_deref(), "game-en.png");
            shot_taken = true;
        }
        let before = moves(&d);
        // Vary the choice a little so that the games differ from run to run.
        let pick = &legal[(clicks * 7 + before) % legal.len()];
        if d.click(pick).is_err() {
            continue; // the board was redrawn under us; look again
        }
        clicks += 1;
        d.wait("the move to be shown", 30, |d| {
            moves(d) > before || !d.find_all("#result-dialog[open]").is_empty()
        });
    }
    assert!(clicks >= 3, "played {clicks} moves by clicking");

    // The result shown agrees with the server's.
    let (status, text) = http(&base["http://".len()..], "GET", &format!("/api/games/{id}"), None).unwrap();
    assert_eq!(status, 200, "{text}");
    let game: Value = serde_json::from_str(&text).unwrap();
    let game = &game["game"];
    assert_eq!(game["status"], "finished", "{game}");
    let (b, w) = (&game["result"]["black"], &game["result"]["white"]);
    let expected = match game["result"]["winner"].as_str() {
        Some("black") => format!("Black wins {b}:{w}"),
        Some("white") => format!("White wins {b}:{w}"),
        _ => format!("Draw {b}:{w}"),
    };
    assert_eq!(d.text_of("#result-text"), expected);
    assert_eq!(d.text_of("#status"), expected);
    // The dialog offers a rematch and the replay.
    assert!(!d.find_all("#result-dialog #rematch").is_empty());
    assert!(!d.find_all("#result-dialog #review").is_empty());
    let close = d.find_all("#result-close");
    d.click(&close[0]).unwrap();
    d.wait("the dialog to close", 10, |d| {
        d.find_all("#result-dialog[open]").is_empty()
    });
    if !shot_taken {
        d.screenshot(shots.as_deref(), "game-en.png");
    }

    // Switch to Russian on the game page.
    let lang = d.find_all("#lang");
    d.click(&lang[0]).unwrap();
    d.wait("Russian text on the game page", 10, |d| {
        d.body_text().contains("Ходы")
    });
    let ru = match game["result"]["winner"].as_str() {
        Some("black") => format!("Победа: Чёрные {b}:{w}"),
        Some("white") => format!("Победа: Белые {b}:{w}"),
        _ => format!("Ничья {b}:{w}"),
    };
    assert_eq!(d.text_of("#status"), ru);
    assert_eq!(d.text_of("#lang"), "EN");
    d.screenshot(shots.as_deref(), "game-ru.png");

    // The choice is remembered: the home page, loaded afresh, is in Russian.
    d.goto(&format!("{base}/"));
    d.wait("the Russian home page", 20, |d| {
        d.body_text().contains("Новая партия")
    });
    assert!(d.body_text().contains("Против компьютера"));
    d.wait("the recent games", 10, |d| !d.find_all("ul.games a").is_empty());
    d.screenshot(shots.as_deref(), "home-ru.png");

    // A Russian game page mid-game, for the screenshots: a new game against the computer.
    if shots.is_some() {
        let start = d.find_all("#start");
        d.click(&start[0]).unwrap();
        d.wait("the second game page", 20, |d| {
            d.url().contains("/game/") && !d.find_all("#board-wrap svg").is_empty()
        });
        for _ in 0..6 {
            d.wait("a legal square", 30, |d| {
                !d.find_all("#board-wrap g.sq[tabindex='0']").is_empty()
            });
            let before = moves(&d);
            let legal = d.find_all("#board-wrap g.sq[tabindex='0']");
            if d.click(&legal[before % legal.len()]).is_ok() {
                d.wait("the move to be shown", 30, |d| moves(d) > before);
            }
        }
        d.wait("the computer's reply", 30, |d| {
            !d.find_all("#board-wrap g.sq[tabindex='0']").is_empty()
        });
        d.screenshot(shots.as_deref(), "game-ru.png");
    }

    // The archive (still in Russian) lists the finished game; its replay steps through it.
    let moves_played: Vec<String> = game["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect();
    let n = moves_played.len();
    d.goto(&format!("{base}/archive"));
    d.wait("the archive", 20, |d| !d.find_all("#archive").is_empty());
    assert!(d.body_text().contains("Сыгранные партии"), "{}", d.body_text());
    assert_eq!(d.find_all("tr.archive-row").len(), 1, "only the finished game");
    d.screenshot(shots.as_deref(), "archive-ru.png");
    let row_link = d.find_all(&format!("tr[data-id='{id}'] a.replay-link"));
    d.click(&row_link[0]).unwrap();
    d.wait("the replay", 20, |d| !d.find_all("#replay-board svg").is_empty());
    assert_eq!(d.text_of("#ply-label"), format!("Ход {n} из {n}"));
    let first = d.find_all("#replay-first");
    d.click(&first[0]).unwrap();
    assert_eq!(d.text_of("#ply-label"), "Начальная позиция");
    assert!(
        d.find_all("#replay-board path.last").is_empty(),
        "no last move at the start"
    );
    let next = d.find_all("#replay-next");
    d.click(&next[0]).unwrap();
    d.keys("\u{E014}\u{E014}"); // two right arrows
    assert_eq!(d.text_of("#ply-label"), format!("Ход 3 из {n}"));
    assert_eq!(d.text_of("#replay-list button.current"), moves_played[2]);
    // The last move is marked on its square.
    let mark = d.find_all(&format!(
        "#replay-board g[data-sq='{}'] path.last",
        moves_played[2]
    ));
    assert_eq!(mark.len(), 1, "the third move is marked");
    d.keys("\u{E012}"); // left arrow
    assert_eq!(d.text_of("#ply-label"), format!("Ход 2 из {n}"));
    let fifth = d.find_all("#replay-list button[data-ply='5']");
    d.click(&fifth[0]).unwrap();
    assert_eq!(d.text_of("#ply-label"), format!("Ход 5 из {n}"));
    assert_eq!(d.text_of("#replay-list button.current"), moves_played[4]);

    // Analysis: requested from the page, done in the background, then the chart and totals.
    let analyse = d.find_all("#analyse");
    d.click(&analyse[0]).unwrap();
    d.wait("the analysis chart", 120, |d| {
        !d.find_all("#chart svg").is_empty()
    });
    assert!(d.text_of("#analysis-status").starts_with("Проанализировано"));
    assert_eq!(d.find_all("#totals tbody tr").len(), 2);
    assert!(
        d.text_of("#verdict").contains(&moves_played[4]),
        "{}",
        d.text_of("#verdict")
    );
    assert!(d.text_of("#chart").contains("Оценка после каждого хода"));
    if shots.is_some() {
        d.window_height(1400);
        d.screenshot(shots.as_deref(), "replay-ru.png");
        let lang = d.find_all("#lang");
        d.click(&lang[0]).unwrap();
        d.wait("the English replay", 20, |d| {
            d.text_of("#chart").contains("Evaluation after each move")
        });
        d.screenshot(shots.as_deref(), "replay-en.png");
        d.window_height(860);
        d.goto(&format!("{base}/archive"));
        d.wait("the English archive", 20, |d| !d.find_all("#archive").is_empty());
        d.screenshot(shots.as_deref(), "archive-en.png");
        let lang = d.find_all("#lang");
        d.click(&lang[0]).unwrap();
    }

    // The rules of a variant, from the header, in Russian and in English.
    d.goto(&format!("{base}/rules/eight-stars"));
    d.wait("the rules", 20, |d| !d.find_all("#rules-text").is_empty());
    assert_eq!(d.text_of("#rules-title"), "Восемь звёзд");
    assert_eq!(d.find_all(".rules-board rect.hole").len(), 12);
    d.screenshot(shots.as_deref(), "rules-ru.png");
    let lang = d.find_all("#lang");
    d.click(&lang[0]).unwrap();
    d.wait("the English rules", 20, |d| {
        d.text_of("#rules-title") == "Eight Stars"
    });
    assert!(d
        .text_of("#rules-text")
        .contains("three squares cut from each corner"));
    d.screenshot(shots.as_deref(), "rules-en.png");

    drop(d);
    drop(runtime);
    let _ = std::fs::remove_dir_all(&tmp);
}
