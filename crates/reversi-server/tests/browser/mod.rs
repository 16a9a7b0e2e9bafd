//! What the browser tests share: the server in-process on a fresh SQLite file, ChromeDriver,
//! and a small W3C WebDriver client over plain HTTP (no crate needed).
#![allow(dead_code)]

use reversi_server::{serve, AppState, Config};
use serde_json::{json, Value};
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// One browser test at a time: each starts a Chromium, and the machines are small.
pub static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// The key under which WebDriver returns an element reference.
const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

/// One HTTP/1.1 request over a fresh connection; returns (status, body).
pub fn http(addr: &str, method: &str, path: &str, body: Option<&Value>) -> std::io::Result<(u16, String)> {
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
pub struct Reap(Child);
impl Drop for Reap {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The browser and the server of one test.
pub struct Bench {
    /// `http://127.0.0.1:PORT` of the server.
    pub base: String,
    /// The server's state (to create games or read them directly).
    pub state: AppState,
    pub runtime: tokio::runtime::Runtime,
    config: Config,
    addr: std::net::SocketAddr,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    server: Option<tokio::task::JoinHandle<std::io::Result<()>>>,
    chromium: PathBuf,
    wd_addr: String,
    tmp: tempfile::TempDir,
    profiles: usize,
    _driver: Reap,
}

/// How a browser window is set up.
#[derive(Clone, Copy, Debug)]
pub struct Window {
    pub width: u32,
    pub height: u32,
    /// A phone: touch, no hover (mobile emulation).
    pub phone: bool,
}

pub const DESKTOP: Window = Window {
    width: 1280,
    height: 900,
    phone: false,
};
pub const PHONE: Window = Window {
    width: 360,
    height: 780,
    phone: true,
};

fn tool(var: &str) -> Option<PathBuf> {
    let found = match std::env::var_os(var) {
        Some(p) if !p.is_empty() && Path::new(&p).is_file() => Some(PathBuf::from(p)),
        Some(p) if !p.is_empty() => {
            eprintln!(
                "browser test skipped: {var}={} does not exist",
                Path::new(&p).display()
            );
            None
        }
        _ => {
            eprintln!("browser test skipped: {var} is not set (scripts/test sets it)");
            None
        }
    };
    // Under CI a missing browser is a failure, not a silent pass.
    assert!(
        found.is_some() || !strict(),
        "{var} names no browser tool under CI=true"
    );
    found
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// Where to save screenshots (`REVERSI_TEST_SCREENSHOTS=DIR`), if anywhere.
pub fn screenshot_dir() -> Option<PathBuf> {
    std::env::var_os("REVERSI_TEST_SCREENSHOTS").map(PathBuf::from)
}

impl Bench {
    /// The server and ChromeDriver, or `None` (with a note) when the browser is not installed.
    pub fn start(config: impl FnOnce(Config) -> Config) -> Option<Bench> {
        let (Some(chromium), Some(chromedriver)) =
            (tool("REVERSI_TEST_CHROMIUM"), tool("REVERSI_TEST_CHROMEDRIVER"))
        else {
            return None;
        };
        let tmp = tempfile::tempdir().unwrap();
        let runtime = tokio::runtime::Runtime::new().unwrap();
        let config = config(Config {
            database_url: tmp.path().join("games.db").display().to_string(),
            ai_workers: 1,
            hash_mib: 1,
            ai_time_scale: 0.25,
            rate_per_sec: 10_000.0,
            rate_burst: 10_000.0,
            analysis_level: 6,
            clock: reversi_server::time::Clock::adjustable(),
            ..Config::default()
        });
        let state = runtime.block_on(AppState::new(config.clone())).unwrap();
        let listener = runtime
            .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
            .unwrap();
        let addr = listener.local_addr().unwrap();
        let base = format!("http://{addr}");
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let server = runtime.spawn(serve(listener, state.clone(), async {
            let _ = stopped.await;
        }));
        let port = free_port();
        let wd_addr = format!("127.0.0.1:{port}");
        let driver = Reap(
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
        Some(Bench {
            base,
            state,
            runtime,
            config,
            addr,
            stop: Some(stop),
            server: Some(server),
            chromium,
            wd_addr,
            tmp,
            profiles: 0,
            _driver: driver,
        })
    }

    /// Stops the server as SIGTERM does (websockets closed with "restart", the state dropped),
    /// leaves the site down for `down`, and starts a new server on the same address and
    /// database: the pages reconnect by themselves.
    pub fn restart(&mut self, down: Duration) {
        self.stop_server();
        std::thread::sleep(down);
        self.start_server();
    }

    /// Stops the server as SIGTERM does; the site is down until [`Bench::start_server`].
    pub fn stop_server(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(server) = self.server.take() {
            let _ = self.runtime.block_on(server);
        }
        // The old state's background tasks (the heartbeat among them) end once it is gone: a
        // state on a throw-away database stands in while the site is down.
        let stand_in = Config {
            database_url: "sqlite::memory:".into(),
            ..self.config.clone()
        };
        self.state = self.runtime.block_on(AppState::new(stand_in)).unwrap();
    }

    /// Starts a new server on the same address and database.
    pub fn start_server(&mut self) {
        let state = self.runtime.block_on(AppState::new(self.config.clone())).unwrap();
        self.state = state.clone();
        let listener = self
            .runtime
            .block_on(tokio::net::TcpListener::bind(self.addr))
            .unwrap();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        self.server = Some(self.runtime.spawn(serve(listener, state, async {
            let _ = stopped.await;
        })));
        self.stop = Some(stop);
    }

    /// A new browser (its own profile: cookies and storage) with `window`, showing `lang`.
    pub fn browser(&mut self, window: Window, lang: &str) -> Driver {
        self.profiles += 1;
        let profile = self.tmp.path().join(format!("profile-{}", self.profiles));
        std::fs::create_dir_all(&profile).unwrap();
        let mut args = vec![
            "--headless".to_string(),
            "--no-sandbox".into(),
            "--disable-gpu".into(),
            "--no-first-run".into(),
            "--disable-background-networking".into(),
            "--disable-component-update".into(),
            "--disable-sync".into(),
            "--disable-quic".into(),
            "--disable-dev-shm-usage".into(),
            "--hide-scrollbars".into(),
            format!("--lang={lang}"),
            format!("--user-data-dir={}", profile.display()),
        ];
        let mut options = json!({ "binary": self.chromium.display().to_string() });
        if window.phone {
            options["mobileEmulation"] = json!({ "deviceMetrics": {
                "width": window.width, "height": window.height, "pixelRatio": 2.0, "touch": true } });
        } else {
            args.push(format!("--window-size={},{}", window.width, window.height));
        }
        options["args"] = json!(args);
        let caps = json!({ "capabilities": { "alwaysMatch": { "browserName": "chrome", "goog:chromeOptions": options } } });
        let (status, text) = http(&self.wd_addr, "POST", "/session", Some(&caps)).unwrap();
        assert_eq!(status, 200, "new WebDriver session: {text}");
        let v: Value = serde_json::from_str(&text).unwrap();
        let d = Driver {
            addr: self.wd_addr.clone(),
            session: v["value"]["sessionId"].as_str().unwrap().to_string(),
            base: self.base.clone(),
            phone: window.phone,
            width: window.width,
            height: window.height,
        };
        // The language and colour scheme live in the page's storage: set them on the site.
        d.goto(&format!("{}/favicon.svg", self.base));
        d.script(&format!(
            "localStorage.setItem('lang', '{lang}'); localStorage.setItem('theme', 'light');"
        ));
        d
    }

    /// A GET of the API, as JSON.
    pub fn get(&self, path: &str) -> Value {
        let (status, text) = http(&self.base["http://".len()..], "GET", path, None).unwrap();
        assert_eq!(status, 200, "{path}: {text}");
        serde_json::from_str(&text).unwrap()
    }
}

/// A WebDriver session: one browser window.
pub struct Driver {
    addr: String,
    session: String,
    pub base: String,
    phone: bool,
    width: u32,
    height: u32,
}

impl Driver {
    pub fn cmd(&self, method: &str, path: &str, body: Option<Value>) -> Result<Value, String> {
        let path = format!("/session/{}{path}", self.session);
        let (status, text) = http(&self.addr, method, &path, body.as_ref()).map_err(|e| e.to_string())?;
        let v: Value = serde_json::from_str(&text).map_err(|e| format!("{e}: {text}"))?;
        if status != 200 {
            return Err(format!("{method} {path}: {status} {}", v["value"]));
        }
        Ok(v["value"].clone())
    }

    /// Opens a path of the site (or a full URL).
    pub fn open(&self, path: &str) {
        let url = if path.starts_with("http") {
            path.to_string()
        } else {
            format!("{}{path}", self.base)
        };
        self.goto(&url);
    }

    pub fn goto(&self, url: &str) {
        self.cmd("POST", "/url", Some(json!({ "url": url }))).unwrap();
    }

    pub fn url(&self) -> String {
        self.cmd("GET", "/url", None)
            .unwrap()
            .as_str()
            .unwrap_or("")
            .to_string()
    }

    /// Runs JavaScript in the page; its return value.
    pub fn script(&self, js: &str) -> Value {
        self.cmd("POST", "/execute/sync", Some(json!({ "script": js, "args": [] })))
            .unwrap()
    }

    pub fn find_all(&self, css: &str) -> Vec<String> {
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

    pub fn has(&self, css: &str) -> bool {
        !self.find_all(css).is_empty()
    }

    pub fn click(&self, element: &str) -> Result<Value, String> {
        self.cmd("POST", &format!("/element/{element}/click"), Some(json!({})))
    }

    /// Clicks the first element matching `css` (waiting for it up to 20 s). A page that
    /// redraws between the lookup and the click (a board re-rendered after a reply) leaves
    /// no match or a stale element for a moment; both are looked up again rather than
    /// failing, since neither clicked anything.
    pub fn click_css(&self, css: &str) {
        let end = Instant::now() + Duration::from_secs(20);
        loop {
            let err = match self.find_all(css).first() {
                Some(e) => match self.click(e) {
                    Ok(_) => return,
                    Err(err) if err.contains("stale element") => err,
                    Err(err) => panic!("click {css}: {err}"),
                },
                None => "no element matches".to_string(),
            };
            assert!(
                Instant::now() < end,
                "click {css}: {err}; page: {}",
                self.body_text()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// The visible text of the first element matching `css` (empty when none). An element
    /// that goes stale between the lookup and the read (the page redrew it, as a tournament
    /// page does when another player joins) is looked up again, for up to 20 s, instead of
    /// reading as empty text.
    pub fn text_of(&self, css: &str) -> String {
        let end = Instant::now() + Duration::from_secs(20);
        loop {
            let Some(e) = self.find_all(css).into_iter().next() else {
                return String::new();
            };
            match self.cmd("GET", &format!("/element/{e}/text"), None) {
                Ok(v) => return v.as_str().map(String::from).unwrap_or_default(),
                Err(err) if err.contains("stale element") && Instant::now() < end => {
                    std::thread::sleep(Duration::from_millis(50));
                }
                Err(_) => return String::new(),
            }
        }
    }

    /// Waits until `cond` holds, panicking after `secs` seconds.
    pub fn wait(&self, what: &str, secs: u64, mut cond: impl FnMut(&Driver) -> bool) {
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
    pub fn keys(&self, keys: &str) {
        let mut actions = Vec::new();
        for k in keys.chars() {
            actions.push(json!({"type": "keyDown", "value": k.to_string()}));
            actions.push(json!({"type": "keyUp", "value": k.to_string()}));
        }
        let body = json!({"actions": [{"type": "key", "id": "keyboard", "actions": actions}]});
        self.cmd("POST", "/actions", Some(body)).unwrap();
    }

    pub fn body_text(&self) -> String {
        self.text_of("body")
    }

    /// Whether the page is wider than the window (a horizontal scroll bar on a phone).
    pub fn scrolls_sideways(&self) -> bool {
        // The page itself, or a card cut off at the right edge (a page that clips its overflow
        // does not scroll, but the reader still loses what is past the edge).
        self.script(
            "return document.documentElement.scrollWidth > window.innerWidth || \
             [...document.querySelectorAll('#app .card')].some(e => e.getBoundingClientRect().right > window.innerWidth + 1);",
        )
            .as_bool()
            .unwrap_or(true)
    }

    /// Saves a screenshot of the whole page as `dir/name` (when screenshots are asked for).
    pub fn screenshot(&self, dir: Option<&Path>, name: &str) {
        self.screenshot_from(dir, name, None);
    }

    /// [`Driver::screenshot`], a phone's screen from the element `css` down instead of the
    /// page's top (a desktop still shows the whole page).
    pub fn screenshot_from(&self, dir: Option<&Path>, name: &str, css: Option<&str>) {
        let Some(dir) = dir else { return };
        // Let the disc animations (0.4 s) finish; the whole page, from its top (a desktop
        // window grows to the page's height; a phone keeps its screen).
        std::thread::sleep(Duration::from_millis(600));
        match css.filter(|_| self.phone) {
            Some(css) => {
                self.script(&format!(
                    "document.querySelector({css:?}).scrollIntoView({{block: 'start'}});"
                ));
            }
            None => {
                self.script("window.scrollTo(0, 0);");
            }
        }
        if !self.phone {
            let h = self
                .script("return document.documentElement.scrollHeight;")
                .as_u64()
                .unwrap_or(900);
            let extra = self
                .script("return window.outerHeight - window.innerHeight;")
                .as_u64()
                .unwrap_or(0);
            let _ = self.cmd(
                "POST",
                "/window/rect",
                Some(json!({ "width": self.width, "height": (h + extra).min(2400) })),
            );
            std::thread::sleep(Duration::from_millis(300));
        }
        let png = self.cmd("GET", "/screenshot", None).unwrap();
        let bytes = base64_decode(png.as_str().unwrap());
        assert!(bytes.starts_with(b"\x89PNG"), "a PNG screenshot");
        std::fs::create_dir_all(dir).unwrap();
        std::fs::write(dir.join(name), bytes).unwrap();
        if !self.phone {
            let _ = self.cmd(
                "POST",
                "/window/rect",
                Some(json!({ "width": self.width, "height": self.height })),
            );
        }
    }

    /// Plays one of the squares it may play now, if it may; whether it did.
    pub fn play_any(&self, pick: usize) -> bool {
        let legal = self.find_all("#board-wrap g.sq.playable");
        if legal.is_empty() {
            return false;
        }
        let before = self.ply();
        if self.click(&legal[pick % legal.len()]).is_err() {
            return false; // redrawn under us
        }
        let end = Instant::now() + Duration::from_secs(30);
        while self.ply() == before && !self.has("#result-dialog[open]") && Instant::now() < end {
            std::thread::sleep(Duration::from_millis(30));
        }
        true
    }

    /// Signs `name` up on the sign-up page, as a person types it.
    pub fn sign_up(&self, name: &str) {
        self.open("/signup");
        self.wait("the sign-up form", 20, |d| d.has("#auth-name"));
        self.script(&format!(
            "document.querySelector('#auth-name').value = '{name}';\
             document.querySelector('#auth-password').value = '{name}-password-1';"
        ));
        self.click_css("#auth-submit");
        self.wait("signed in", 20, |d| d.has("#nav-me"));
        assert_eq!(self.text_of("#nav-me"), name);
    }

    /// The number of moves shown in the move list.
    pub fn ply(&self) -> usize {
        self.find_all("#moves button.mv").len()
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = http(&self.addr, "DELETE", &format!("/session/{}", self.session), None);
    }
}

/// Whether a missing tool fails the run instead of skipping: under CI (`CI=true`) and in
/// `scripts/test` (`REVERSI_TEST_STRICT=1`), which installs everything the tests need.
fn strict() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true")
        || std::env::var("REVERSI_TEST_STRICT").is_ok_and(|v| v == "1")
}
