//! `reversi-load`: a load test of a running `reversi serve` on loopback. It opens N games
//! between two people (two websockets each, one per seat), plays random legal moves over the
//! websockets as fast as the server answers, and reports moves/s, the move round trip (p50,
//! p99, max: from sending a move to the mover's socket showing it), and moves lost (sent but
//! never shown, or missing from the stored game) or duplicated (stored more than once).
//!
//! With `--ai LEVEL` N players play against the computer at that level instead, game after game
//! until the time is up (one websocket each, the person playing black at random as fast as it
//! can): it reports the computer's moves per second over all games and its reply time (from
//! sending a move to the state where the person is to move again), so the throughput of the
//! engine pool is measured.
//!
//! With `--online CONTROL` (`5+3`) the games are rated timed games between registered accounts
//! (two new accounts per game sign up, one seeks, the other accepts, both are seated by their
//! sessions), played over the websockets at `--think`'s pace with a chat line every
//! `--chat-every` moves. Every `--flag-every`-th game is played at `0.25+0` and its player to move
//! stops after the first moves: the server must flag it with nobody moving, and the tool reports
//! how late the flag came (the finished state's arrival against the instant the clock gave), and
//! any flag that came early.
//!
//! With `--arena PLAYERS` an arena tournament of that many new accounts is held for
//! `--seconds` (rounded up to whole minutes, at least 5) at `--arena-control` (`3+0`): an
//! organiser makes it, the players enter, and each plays like a bot — it polls the tournament
//! page's state every 250 ms while it waits, plays its side of each game it is paired in over
//! the game's websocket at `--think`'s pace, and goes back to waiting. It reports the games, the
//! pairing latency (from a player's game ending on its socket to the poll that shows its next
//! game: p50, p99, max; the poll adds up to 250 ms), moves sent and lost (a move the player sent
//! missing from the stored game), and checks that the final standings count every game played.
//!
//! `--addr` may be given several times (instances of one site on one database): each online
//! game then has its two players on two different instances (Black on the `i`-th, White on the
//! next), so every move crosses from one instance to the other through the database.
//!
//! The last line, `ROW …`, repeats the figures as a Markdown table row for `scripts/bench-load`:
//! moves/s over the play (from the moment every game is set up), the round trip p50/p99/max (ms),
//! the flags' lateness p50/p99/max (ms) with the early ones, and moves lost/duplicated.
//!
//! ```text
//! reversi-load [--addr 127.0.0.1:8080 …] [--games 100] [--seconds 60] [--variant othello] [--seed S]
//!              [--think MS] [--ai LEVEL] [--online CONTROL [--chat-every 4] [--flag-every 20]]
//!              [--arena PLAYERS [--arena-control 3+0]]
//! ```
//! `--think MS` waits about that long before each move (a paced load, like people playing): a
//! random pause from 0.5 to 1.5 times MS, and the games start spread over the first MS, so that
//! a thousand games do not all move in the same instant (people do not play in lockstep).
//! Bounded: at most 5,000 games and 600 seconds; the address must be a loopback one. The server
//! should allow the connection rate (`reversi serve --rate 100000`).

use futures_util::{SinkExt, StreamExt};
use reversi_site_api::{
    ChatPost, GameAnswer, GameCommand, GameEvent, GameStatus, GameView, JoinGame, NameAndPassword, NewGame,
    NewSeek, SeekView, Side,
};
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;
type Res<T> = Result<T, String>;

const MAX_GAMES: usize = 5000;
const MAX_SECONDS: u64 = 600;

struct Opts {
    /// The first instance (the one every mode but `--online` talks to).
    addr: SocketAddr,
    /// Every instance, in the order given.
    addrs: Vec<SocketAddr>,
    games: usize,
    seconds: u64,
    variant: String,
    seed: u64,
    think: Duration,
    /// Games against the computer at this level instead of between two people.
    ai: Option<u32>,
    /// Rated timed games between accounts, with this control.
    online: Option<String>,
    /// A chat line every this many moves (online games).
    chat_every: u64,
    /// Every this many-th online game is a flag game (0: none).
    flag_every: usize,
    /// An arena tournament of this many players instead.
    arena: Option<usize>,
    /// The arena's time control.
    arena_control: String,
}

fn parse_args() -> Res<Opts> {
    let mut o = Opts {
        addr: "127.0.0.1:8080".parse().unwrap(),
        addrs: Vec::new(),
        games: 100,
        seconds: 60,
        variant: "othello".into(),
        think: Duration::ZERO,
        ai: None,
        online: None,
        chat_every: 4,
        flag_every: 20,
        arena: None,
        arena_control: "3+0".into(),
        seed: std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64),
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut val = || args.next().ok_or(format!("{a} needs a value"));
        match a.as_str() {
            "--addr" => o.addrs.push(val()?.parse().map_err(|e| format!("--addr: {e}"))?),
            "--games" => o.games = val()?.parse().map_err(|e| format!("--games: {e}"))?,
            "--seconds" => o.seconds = val()?.parse().map_err(|e| format!("--seconds: {e}"))?,
            "--variant" => o.variant = val()?,
            "--think" => {
                o.think = Duration::from_millis(val()?.parse().map_err(|e| format!("--think: {e}"))?)
            }
            "--seed" => o.seed = val()?.parse().map_err(|e| format!("--seed: {e}"))?,
            "--ai" => {
                let level: u32 = val()?.parse().map_err(|e| format!("--ai: {e}"))?;
                if !(1..=30).contains(&level) {
                    return Err("--ai must be a level from 1 to 30".into());
                }
                o.ai = Some(level);
            }
            "--online" => o.online = Some(val()?),
            "--chat-every" => o.chat_every = val()?.parse().map_err(|e| format!("--chat-every: {e}"))?,
            "--flag-every" => o.flag_every = val()?.parse().map_err(|e| format!("--flag-every: {e}"))?,
            "--arena" => {
                let n: usize = val()?.parse().map_err(|e| format!("--arena: {e}"))?;
                if !(2..=1000).contains(&n) {
                    return Err("--arena takes 2 to 1000 players".into());
                }
                o.arena = Some(n);
            }
            "--arena-control" => o.arena_control = val()?,
            "-h" | "--help" => {
                println!(
                    "reversi-load [--addr 127.0.0.1:8080] [--games N<=5000] [--seconds S<=600] \
                     [--variant V] [--seed S] [--think MS] [--ai LEVEL]"
                );
                std::process::exit(0);
            }
            _ => return Err(format!("unknown argument {a}")),
        }
    }
    if o.addrs.is_empty() {
        o.addrs.push(o.addr);
    }
    o.addr = o.addrs[0];
    if o.addrs.iter().any(|a| !a.ip().is_loopback()) {
        return Err("the load tool only talks to a loopback address".into());
    }
    if o.games == 0 || o.games > MAX_GAMES {
        return Err(format!("--games must be 1 to {MAX_GAMES}"));
    }
    if o.seconds == 0 || o.seconds > MAX_SECONDS {
        return Err(format!("--seconds must be 1 to {MAX_SECONDS}"));
    }
    Ok(o)
}

/// One HTTP/1.1 request (JSON in and out) over a fresh connection.
async fn http(addr: SocketAddr, method: &str, path: &str, body: &Value) -> Res<(u16, Value)> {
    http_as(addr, method, path, body, None)
        .await
        .map(|(s, v, _)| (s, v))
}

/// [`http`] with a `Cookie` header; also returns the cookies set (`name=value`).
async fn http_as(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: &Value,
    cookie: Option<&str>,
) -> Res<(u16, Value, Vec<String>)> {
    let mut s = TcpStream::connect(addr).await.map_err(|e| e.to_string())?;
    let body = body.to_string();
    let cookie = cookie.map_or(String::new(), |c| format!("Cookie: {c}\r\n"));
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n{cookie}\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).await.map_err(|e| e.to_string())?;
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).await.map_err(|e| e.to_string())?;
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .ok_or("no HTTP head")?;
    let head = String::from_utf8_lossy(&raw[..split]);
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let v = serde_json::from_slice(&raw[split + 4..]).unwrap_or(Value::Null);
    let cookies = head
        .lines()
        .filter_map(|l| {
            l.strip_prefix("set-cookie: ")
                .or_else(|| l.strip_prefix("Set-Cookie: "))
        })
        .filter_map(|c| c.split(';').next().map(str::to_string))
        .collect();
    Ok((status, v, cookies))
}

/// [`http_as`], retrying 429 and 503.
async fn http_as_retry(addr: SocketAddr, method: &str, path: &str, body: &Value, cookie: &str) -> Res<Value> {
    for attempt in 0..40u64 {
        let (status, v, _) = http_as(addr, method, path, body, Some(cookie)).await?;
        match status {
            200..=299 => return Ok(v),
            429 | 503 => tokio::time::sleep(Duration::from_millis(50 * (attempt + 1))).await,
            _ => return Err(format!("{method} {path}: {status} {v}")),
        }
    }
    Err(format!("{method} {path}: still rate limited"))
}

/// Retries a request answered 429 (rate limit) or 503 a few times.
async fn http_retry(addr: SocketAddr, method: &str, path: &str, body: &Value) -> Res<Value> {
    for attempt in 0..20u64 {
        let (status, v) = http(addr, method, path, body).await?;
        match status {
            200..=299 => return Ok(v),
            429 | 503 => tokio::time::sleep(Duration::from_millis(50 * (attempt + 1))).await,
            _ => return Err(format!("{method} {path}: {status} {v}")),
        }
    }
    Err(format!("{method} {path}: still rate limited"))
}

async fn connect(addr: SocketAddr, id: &str, token: &str) -> Res<Ws> {
    connect_with(addr, id, "authorization", &format!("Bearer {token}")).await
}

/// A game's websocket, signed in by the session in `cookie` (`rv_session=…`).
async fn connect_as(addr: SocketAddr, id: &str, cookie: &str) -> Res<Ws> {
    connect_with(addr, id, "cookie", cookie).await
}

/// A game's websocket with header `name: value`, retried while rate limited.
async fn connect_with(addr: SocketAddr, id: &str, name: &'static str, value: &str) -> Res<Ws> {
    let mut req = format!("ws://{addr}/api/games/{id}/ws")
        .into_client_request()
        .map_err(|e| e.to_string())?;
    req.headers_mut()
        .insert(name, value.parse().map_err(|_| format!("bad {name} header"))?);
    for attempt in 0..20u64 {
        match tokio_tungstenite::connect_async(req.clone()).await {
            Ok((ws, _)) => return Ok(ws),
            Err(e) if attempt < 19 && e.to_string().contains("429") => {
                tokio::time::sleep(Duration::from_millis(50 * (attempt + 1))).await
            }
            Err(e) => return Err(format!("websocket: {e}")),
        }
    }
    Err("websocket: still rate limited".into())
}

/// The body of a request, from the API's type.
fn body<T: serde::Serialize>(t: &T) -> Value {
    serde_json::to_value(t).unwrap_or(Value::Null)
}

/// `v` read as the API's `T`.
fn typed<T: serde::de::DeserializeOwned>(v: Value) -> Res<T> {
    serde_json::from_value(v).map_err(|e| format!("an answer of another shape: {e}"))
}

/// The text of a move command.
fn move_message(mv: &str, ply: u64) -> Message {
    let command = GameCommand::Move {
        mv: mv.to_string(),
        ply: Some(ply as usize),
    };
    Message::Text(serde_json::to_string(&command).unwrap_or_default().into())
}

/// A random legal move of `game`.
fn random_move(game: &GameView, rng: &mut Rng) -> Res<String> {
    let legal = &game.legal_moves;
    if legal.is_empty() {
        return Err("no legal moves".into());
    }
    Ok(legal[(rng.next() % legal.len() as u64) as usize].clone())
}

/// The next state message whose ply is at least `ply` (errors from the server are returned).
async fn state_from(ws: &mut Ws, ply: u64, deadline: Instant) -> Res<GameView> {
    state_from_counting(ws, ply, deadline, None, &mut 0).await
}

/// [`state_from`], counting the chat lines by `from` that arrive on the way.
async fn state_from_counting(
    ws: &mut Ws,
    ply: u64,
    deadline: Instant,
    from: Option<&str>,
    chats: &mut u64,
) -> Res<GameView> {
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let msg = tokio::time::timeout(left, ws.next())
            .await
            .map_err(|_| "timeout")?
            .ok_or("socket closed")?
            .map_err(|e| e.to_string())?;
        let Message::Text(t) = msg else { continue };
        match serde_json::from_str::<GameEvent>(&t).map_err(|e| e.to_string())? {
            GameEvent::Error(e) => return Err(format!("server error: {} ({})", e.error, e.code)),
            GameEvent::Chat { line } if from.is_some() && line.author.as_deref() == from => *chats += 1,
            GameEvent::State { game, .. } if game.ply as u64 >= ply => return Ok(*game),
            _ => {}
        }
    }
}

/// Compares the stored game `id` with the moves sent: each one there, once, in order.
async fn check_stored(addr: SocketAddr, id: &str, sent_moves: &[String], r: &mut GameReport) -> Res<()> {
    let (status, stored) = http(addr, "GET", &format!("/api/games/{id}"), &json!({})).await?;
    if status != 200 {
        return Err(format!("GET game: {status}"));
    }
    let stored: GameAnswer = typed(stored)?;
    let stored: Vec<&String> = stored.game.moves.iter().filter(|m| *m != "pass").collect();
    if stored.len() > sent_moves.len() {
        r.duplicated += (stored.len() - sent_moves.len()) as u64;
    } else if stored.len() < sent_moves.len() {
        r.lost += (sent_moves.len() - stored.len()) as u64;
    }
    if stored.len() == sent_moves.len() && stored.iter().zip(sent_moves).any(|(a, b)| *a != b) {
        return Err("the stored moves differ from the moves sent".into());
    }
    Ok(())
}

#[derive(Default)]
struct GameReport {
    rtts_us: Vec<u64>,
    /// Moves the computer played (passes aside), in games against it.
    ai_moves: u64,
    /// Games played and finished by this task (against the computer: one after another).
    games: u64,
    finished_games: u64,
    sent: u64,
    lost: u64,
    duplicated: u64,
    finished: bool,
    error: Option<String>,
    /// Flag games: how late the flag came after the clock's instant, ms (negative: early).
    flag_late_ms: Option<i64>,
    /// Chat lines sent, and received by the other player.
    chat_sent: u64,
    chat_seen: u64,
}

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// Waits `least` plus a random 0 to 1 times `think` (nothing when `think` is zero): 0.5–1.5 ×
/// before each move, 0–1 × before a player's first game so that the starts spread.
async fn pause(think: Duration, least: f64, rng: &mut Rng) {
    if !think.is_zero() {
        let f = least + (rng.next() % 1000) as f64 / 1000.0;
        tokio::time::sleep(think.mul_f64(f)).await;
    }
}

async fn play_game(
    addr: SocketAddr,
    variant: String,
    seed: u64,
    end: Instant,
    think: Duration,
) -> GameReport {
    let mut r = GameReport::default();
    pause(think, 0.0, &mut Rng(seed.rotate_left(32) | 1)).await;
    if let Err(e) = play_game_inner(addr, &variant, seed, end, think, &mut r).await {
        r.error = Some(e);
    }
    r
}

async fn play_ai_game(
    addr: SocketAddr,
    variant: String,
    level: u32,
    seed: u64,
    end: Instant,
    think: Duration,
) -> GameReport {
    // Game after game until the time is up, so that fast levels keep the engine busy too.
    let mut r = GameReport::default();
    let mut rng = Rng(seed | 1);
    pause(think, 0.0, &mut rng).await;
    while Instant::now() < end {
        let mut g = GameReport::default();
        let result = play_ai_game_inner(addr, &variant, level, rng.next(), end, think, &mut g).await;
        r.rtts_us.extend(g.rtts_us);
        r.ai_moves += g.ai_moves;
        r.sent += g.sent;
        r.lost += g.lost;
        r.games += 1;
        r.finished_games += g.finished as u64;
        if let Err(e) = result {
            r.error = Some(e);
            break;
        }
    }
    r.finished = r.finished_games > 0;
    r
}

/// The next state where the person (black) may move, or the game is over.
async fn human_turn(ws: &mut Ws, after_ply: u64, deadline: Instant) -> Res<GameView> {
    loop {
        let g = state_from(ws, after_ply, deadline).await?;
        if g.status != GameStatus::Playing || (g.to_move == Some(Side::Black) && !g.ai_thinking) {
            return Ok(g);
        }
    }
}

/// One game against the computer: the person plays black, a random legal move as soon as it
/// may; `rtts_us` gets the computer's reply times.
async fn play_ai_game_inner(
    addr: SocketAddr,
    variant: &str,
    level: u32,
    seed: u64,
    end: Instant,
    think: Duration,
    r: &mut GameReport,
) -> Res<()> {
    let mut rng = Rng(seed | 1);
    let created = http_retry(
        addr,
        "POST",
        "/api/games",
        &body(&NewGame {
            mode: Some("ai".into()),
            level: Some(level),
            variant: Some(variant.to_string()),
            color: Some("black".into()),
            ..Default::default()
        }),
    )
    .await?;
    let created: GameAnswer = typed(created)?;
    let id = created.game.id;
    let token = created.token.ok_or("no token")?;
    let mut ws = connect(addr, &id, &token).await?;
    let far = Instant::now() + Duration::from_secs(60);
    let mut state = human_turn(&mut ws, 0, far).await?;
    while state.status == GameStatus::Playing && Instant::now() < end {
        let mv = random_move(&state, &mut rng)?;
        let ply = state.ply as u64;
        pause(think, 0.5, &mut rng).await;
        let t0 = Instant::now();
        ws.send(move_message(&mv, ply)).await.map_err(|e| e.to_string())?;
        r.sent += 1;
        // The computer's reply can take its level's time cap (10 s at most), times the queue.
        let deadline = Instant::now() + Duration::from_secs(120);
        let seen = human_turn(&mut ws, ply + 1, deadline).await?;
        let moves = &seen.moves;
        if moves.get(ply as usize) != Some(&mv) {
            return Err(format!("move {mv} at ply {ply} was not kept: {moves:?}"));
        }
        let replies = moves[ply as usize + 1..].iter().filter(|m| *m != "pass").count() as u64;
        if replies > 0 {
            r.ai_moves += replies;
            r.rtts_us.push(t0.elapsed().as_micros() as u64);
        }
        state = seen;
    }
    r.finished = state.status == GameStatus::Finished;
    let _ = ws.close(None).await;
    let (status, stored) = http(addr, "GET", &format!("/api/games/{id}"), &json!({})).await?;
    if status != 200 {
        return Err(format!("GET game: {status}"));
    }
    let stored = typed::<GameAnswer>(stored)?.game.moves;
    let shown = &state.moves;
    if stored.len() < shown.len() {
        r.lost += 1;
    } else if stored[..shown.len()] != shown[..] {
        return Err("the stored game differs from the one shown".into());
    }
    Ok(())
}

async fn play_game_inner(
    addr: SocketAddr,
    variant: &str,
    seed: u64,
    end: Instant,
    think: Duration,
    r: &mut GameReport,
) -> Res<()> {
    let mut rng = Rng(seed | 1);
    let created = http_retry(
        addr,
        "POST",
        "/api/games",
        &body(&NewGame {
            mode: Some("friend".into()),
            variant: Some(variant.to_string()),
            color: Some("black".into()),
            ..Default::default()
        }),
    )
    .await?;
    let created: GameAnswer = typed(created)?;
    let id = created.game.id;
    let black = created.token.ok_or("no token")?;
    let invite = body(&JoinGame {
        invite: created.invite,
    });
    let joined: GameAnswer =
        typed(http_retry(addr, "POST", &format!("/api/games/{id}/join"), &invite).await?)?;
    let white = joined.token.ok_or("no token")?;
    let mut socks = [
        connect(addr, &id, &black).await?,
        connect(addr, &id, &white).await?,
    ];
    let far = Instant::now() + Duration::from_secs(30);
    let mut state = state_from(&mut socks[0], 0, far).await?;
    state_from(&mut socks[1], 0, far).await?;
    let mut sent_moves: Vec<String> = Vec::new();
    while state.status == GameStatus::Playing && Instant::now() < end {
        let mover = state.to_move.ok_or("no side to move")?.index();
        let mv = random_move(&state, &mut rng)?;
        let ply = state.ply as u64;
        pause(think, 0.5, &mut rng).await;
        let t0 = Instant::now();
        socks[mover]
            .send(move_message(&mv, ply))
            .await
            .map_err(|e| e.to_string())?;
        r.sent += 1;
        sent_moves.push(mv);
        let deadline = Instant::now() + Duration::from_secs(10);
        let seen = match state_from(&mut socks[mover], ply + 1, deadline).await {
            Ok(v) => v,
            Err(e) if e == "timeout" => {
                r.lost += 1;
                return Err("a move was never shown".into());
            }
            Err(e) => return Err(e),
        };
        r.rtts_us.push(t0.elapsed().as_micros() as u64);
        // The other player sees the same state.
        let other = state_from(&mut socks[1 - mover], ply + 1, deadline).await?;
        if other.moves != seen.moves {
            return Err("the two players saw different games".into());
        }
        state = seen;
    }
    r.finished = state.status == GameStatus::Finished;
    for s in &mut socks {
        let _ = s.close(None).await;
    }
    check_stored(addr, &id, &sent_moves, r).await
}

/// Unix time, ms.
fn unix_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// When every online game was set up (its accounts made) and play began.
static PLAY_START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();

/// Sign-ups in flight at once (the server hashes a few passwords at a time anyway).
static SIGNUPS: tokio::sync::Semaphore = tokio::sync::Semaphore::const_new(8);

/// Seeks open at once: the server takes at most `SEEKS_PER_ADDRESS` open seeks from one address
/// (`seek_limit` past it), and every game of this tool comes from the same one. A seek lives
/// only until its acceptance, a few milliseconds.
static SEEKS: tokio::sync::Semaphore =
    tokio::sync::Semaphore::const_new(reversi_server::lobby::SEEKS_PER_ADDRESS - 2);

/// A new account's session cookie (`rv_session=…`).
async fn account(addr: SocketAddr, name: &str) -> Res<String> {
    let _slot = SIGNUPS.acquire().await.map_err(|e| e.to_string())?;
    for attempt in 0..40u64 {
        let signup = body(&NameAndPassword {
            name: name.to_string(),
            password: format!("{name}-load-password"),
        });
        let (status, v, cookies) = match http_as(addr, "POST", "/api/account/signup", &signup, None).await {
            Ok(r) => r,
            Err(e) if attempt < 39 => {
                eprintln!("signup {name}: {e}; again");
                tokio::time::sleep(Duration::from_millis(100 * (attempt + 1))).await;
                continue;
            }
            Err(e) => return Err(e),
        };
        match status {
            201 => {
                return cookies
                    .into_iter()
                    .find(|c| c.starts_with("rv_session="))
                    .ok_or_else(|| "no session cookie".to_string())
            }
            429 | 503 => tokio::time::sleep(Duration::from_millis(100 * (attempt + 1))).await,
            _ => return Err(format!("signup {name}: {status} {v}")),
        }
    }
    Err("signup: still rate limited".into())
}

#[allow(clippy::too_many_arguments)]
async fn play_online(
    addrs: [SocketAddr; 2],
    control: String,
    index: usize,
    flag_game: bool,
    seed: u64,
    end: Instant,
    think: Duration,
    chat_every: u64,
    ready: std::sync::Arc<tokio::sync::Barrier>,
) -> GameReport {
    let mut r = GameReport::default();
    let mut rng = Rng(seed | 1);
    let ready2 = ready.clone();
    let mut waited = false;
    let run = play_online_inner(
        addrs,
        &control,
        index,
        flag_game,
        &mut rng,
        end,
        think,
        chat_every,
        &mut r,
        async {
            waited = true;
            ready2.wait().await;
        },
    );
    if let Err(e) = run.await {
        r.error = Some(e);
    }
    if !waited {
        // Set-up failed: the others must not wait for this game.
        ready.wait().await;
    }
    r
}

#[allow(clippy::too_many_arguments)]
async fn play_online_inner(
    addrs: [SocketAddr; 2],
    control: &str,
    index: usize,
    flag_game: bool,
    rng: &mut Rng,
    end: Instant,
    think: Duration,
    chat_every: u64,
    r: &mut GameReport,
    ready: impl std::future::Future<Output = ()>,
) -> Res<()> {
    let tag = rng.next() % 1_000_000;
    let cookies = [
        account(addrs[0], &format!("lb{index}x{tag}")).await?,
        account(addrs[1], &format!("lw{index}x{tag}")).await?,
    ];
    // Every account is made before any game starts, so that the password hashing of the
    // sign-ups does not weigh on the moves measured (nor eat the 30 s given for a first move).
    ready.await;
    let _ = PLAY_START.set(Instant::now());
    pause(think, 0.0, rng).await;
    let control = if flag_game { "0.25+0" } else { control };
    let seeking = SEEKS.acquire().await.map_err(|e| e.to_string())?;
    let seek = http_as_retry(
        addrs[0],
        "POST",
        "/api/seeks",
        &body(&NewSeek {
            control: control.to_string(),
            rated: true,
            colour: Some("black".into()),
            ..Default::default()
        }),
        &cookies[0],
    )
    .await?;
    let sid = typed::<SeekView>(seek)?.id;
    let accepted = http_as_retry(
        addrs[1],
        "POST",
        &format!("/api/seeks/{sid}/accept"),
        &json!({}),
        &cookies[1],
    )
    .await?;
    drop(seeking);
    let accepted: GameAnswer = typed(accepted)?;
    let id = accepted.game.id.clone();
    let mut tokens = Vec::new();
    for (c, addr) in cookies.iter().zip(addrs) {
        let g: GameAnswer =
            typed(http_as_retry(addr, "GET", &format!("/api/games/{id}"), &json!({}), c).await?)?;
        let t = g.token.or(accepted.token.clone()).ok_or("no seat token")?;
        tokens.push(t);
    }
    // Each player on their own instance, signed in by their session: an account's seat
    // acts only with its account's credentials.
    let mut socks = [
        connect_as(addrs[0], &id, &cookies[0]).await?,
        connect_as(addrs[1], &id, &cookies[1]).await?,
    ];
    let far = Instant::now() + Duration::from_secs(30);
    let mut state = state_from(&mut socks[0], 0, far).await?;
    state_from(&mut socks[1], 0, far).await?;
    let names = [format!("lb{index}x{tag}"), format!("lw{index}x{tag}")];
    let mut sent_moves: Vec<String> = Vec::new();
    while state.status == GameStatus::Playing && Instant::now() < end {
        let mover = state.to_move.ok_or("no side to move")?.index();
        let ply = state.ply as u64;
        if flag_game && ply >= 4 {
            // The player to move walks away: the server flags them when the clock says.
            let c = state
                .online
                .as_ref()
                .and_then(|o| o.clock.as_ref())
                .ok_or("no clock")?;
            let left = if mover == 0 { c.black_ms } else { c.white_ms } as i64;
            let due = c.now as i64 + left;
            let deadline = Instant::now() + Duration::from_millis(left as u64 + 10_000);
            let mut over = state_from(&mut socks[1 - mover], ply, deadline).await?;
            while over.status == GameStatus::Playing {
                over = state_from(&mut socks[1 - mover], ply, deadline).await?;
            }
            r.flag_late_ms = Some(unix_ms() - due);
            if over.result.as_ref().map(|r| r.ending) != Some(reversi_site_api::Ending::Time) {
                return Err(format!("a flag game ended otherwise: {:?}", over.result));
            }
            state = over;
            break;
        }
        let mv = random_move(&state, rng)?;
        pause(think, 0.5, rng).await;
        if chat_every > 0 && ply.is_multiple_of(chat_every) {
            let text = format!("move {ply}, thinking...");
            http_as_retry(
                addrs[mover],
                "POST",
                &format!("/api/games/{id}/chat"),
                &body(&ChatPost { room: None, text }),
                &cookies[mover],
            )
            .await?;
            r.chat_sent += 1;
        }
        let t0 = Instant::now();
        socks[mover]
            .send(move_message(&mv, ply))
            .await
            .map_err(|e| e.to_string())?;
        r.sent += 1;
        sent_moves.push(mv);
        let deadline = Instant::now() + Duration::from_secs(10);
        let seen = match state_from(&mut socks[mover], ply + 1, deadline).await {
            Ok(v) => v,
            Err(e) if e == "timeout" => {
                r.lost += 1;
                return Err("a move was never shown".into());
            }
            Err(e) => return Err(e),
        };
        r.rtts_us.push(t0.elapsed().as_micros() as u64);
        let other = state_from_counting(
            &mut socks[1 - mover],
            ply + 1,
            deadline,
            Some(&names[mover]),
            &mut r.chat_seen,
        )
        .await?;
        if other.moves != seen.moves {
            return Err("the two players saw different games".into());
        }
        state = seen;
    }
    r.finished = state.status == GameStatus::Finished;
    for s in &mut socks {
        let _ = s.close(None).await;
    }
    check_stored(addrs[0], &id, &sent_moves, r).await
}

/// What one arena player saw.
#[derive(Default)]
struct ArenaReport {
    games: u64,
    /// From the end of a game to the poll showing the next, ms.
    waits_ms: Vec<u64>,
    sent: u64,
    lost: u64,
    error: Option<String>,
}

/// The next state on `ws` after ply `ply`, or one that ends the game.
async fn next_state(ws: &mut Ws, ply: u64, deadline: Instant) -> Res<GameView> {
    loop {
        let g = state_from(ws, ply, deadline).await?;
        if g.ply as u64 > ply || g.status != GameStatus::Playing {
            return Ok(g);
        }
    }
}

/// Plays the player's side of tournament game `id` to its end; checks its moves were stored.
async fn arena_game(
    addr: SocketAddr,
    id: &str,
    cookie: &str,
    think: Duration,
    rng: &mut Rng,
    r: &mut ArenaReport,
) -> Res<()> {
    let g: GameAnswer =
        typed(http_as_retry(addr, "GET", &format!("/api/games/{id}"), &json!({}), cookie).await?)?;
    let token = g.token.ok_or("no seat in my tournament game")?;
    let me = *g.you.first().ok_or("no colour")?;
    let mut ws = connect(addr, id, &token).await?;
    let far = Instant::now() + Duration::from_secs(900);
    let mut state = state_from(&mut ws, 0, far).await?;
    let mut mine: Vec<(u64, String)> = Vec::new();
    while state.status == GameStatus::Playing {
        let ply = state.ply as u64;
        if state.to_move == Some(me) {
            let mv = random_move(&state, rng)?;
            pause(think, 0.5, rng).await;
            ws.send(move_message(&mv, ply)).await.map_err(|e| e.to_string())?;
            r.sent += 1;
            mine.push((ply, mv));
        }
        state = next_state(&mut ws, ply, far).await?;
    }
    let _ = ws.close(None).await;
    let (status, stored) = http(addr, "GET", &format!("/api/games/{id}"), &json!({})).await?;
    if status != 200 {
        return Err(format!("GET game: {status}"));
    }
    let stored = typed::<GameAnswer>(stored)?.game;
    let moves = &stored.moves;
    let on_time = stored.result.as_ref().map(|r| r.ending) == Some(reversi_site_api::Ending::Time);
    for (ply, mv) in &mine {
        // A move sent just as the flag fell is refused (and not counted as lost).
        let refused = *ply as usize >= moves.len() && on_time;
        if moves.get(*ply as usize) != Some(mv) && !refused {
            r.lost += 1;
        }
    }
    r.games += 1;
    Ok(())
}

/// One arena player: waits for its next game, plays it, until the tournament ends.
async fn arena_player(
    addr: SocketAddr,
    id: String,
    cookie: String,
    think: Duration,
    seed: u64,
) -> ArenaReport {
    let mut r = ArenaReport::default();
    let mut rng = Rng(seed | 1);
    let mut last: Option<String> = None;
    let mut free_since: Option<Instant> = None;
    let run = async {
        loop {
            let v = http_as_retry(
                addr,
                "GET",
                &format!("/api/tournaments/{id}"),
                &json!({}),
                &cookie,
            )
            .await?;
            if matches!(v["status"].as_str(), Some("finished" | "cancelled")) {
                return Ok::<(), String>(());
            }
            if let Some(g) = v["me"]["game"].as_str() {
                if last.as_deref() != Some(g) {
                    if let Some(t) = free_since {
                        r.waits_ms.push(t.elapsed().as_millis() as u64);
                    }
                    let g = g.to_string();
                    arena_game(addr, &g, &cookie, think, &mut rng, &mut r).await?;
                    last = Some(g);
                    free_since = Some(Instant::now());
                    continue;
                }
            }
            if v["me"]["active"] != true {
                return Err("withdrawn from the arena".into());
            }
            tokio::time::sleep(Duration::from_millis(250)).await;
        }
    };
    if let Err(e) = run.await {
        r.error = Some(e);
    }
    r
}

/// The `--arena` load: an arena of `players` new accounts, played out; returns the exit code.
async fn run_arena(o: &Opts, players: usize) -> Res<bool> {
    let mut seeds = Rng(o.seed | 1);
    let tag = seeds.next() % 1_000_000;
    let org = account(o.addr, &format!("lorg{tag}")).await?;
    let minutes = o.seconds.div_ceil(60).max(5);
    let t = http_as_retry(
        o.addr,
        "POST",
        "/api/tournaments",
        &json!({ "name": format!("Load arena {tag}"), "format": "arena", "minutes": minutes,
                 "control": o.arena_control, "rated": true, "starts_in_minutes": 1,
                 "max_players": players }),
        &org,
    )
    .await?;
    let id = t["id"].as_str().ok_or("no tournament id")?.to_string();
    let made = Instant::now();
    let signups: Vec<_> = (0..players)
        .map(|i| {
            let addr = o.addr;
            tokio::spawn(async move { account(addr, &format!("la{i}x{tag}")).await })
        })
        .collect();
    let mut cookies = Vec::new();
    for s in signups {
        let c = s.await.map_err(|e| e.to_string())??;
        http_as_retry(
            o.addr,
            "POST",
            &format!("/api/tournaments/{id}/join"),
            &json!({}),
            &c,
        )
        .await?;
        cookies.push(c);
    }
    eprintln!(
        "{players} players entered in {:.1} s; waiting for the start",
        made.elapsed().as_secs_f64()
    );
    loop {
        let v = http_as_retry(o.addr, "GET", &format!("/api/tournaments/{id}"), &json!({}), &org).await?;
        if v["status"] == "running" {
            break;
        }
        if v["status"] != "upcoming" {
            return Err(format!("the arena is {}", v["status"]));
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let start = Instant::now();
    let tasks: Vec<_> = cookies
        .into_iter()
        .map(|c| tokio::spawn(arena_player(o.addr, id.clone(), c, o.think, seeds.next())))
        .collect();
    let (mut games, mut sent, mut lost, mut errors) = (0, 0, 0, 0);
    let mut waits = Vec::new();
    let mut first_error = None;
    for t in tasks {
        let r = t.await.unwrap_or_else(|e| ArenaReport {
            error: Some(e.to_string()),
            ..ArenaReport::default()
        });
        games += r.games;
        sent += r.sent;
        lost += r.lost;
        waits.extend(r.waits_ms);
        if let Some(e) = r.error {
            errors += 1;
            first_error.get_or_insert(e);
        }
    }
    let secs = start.elapsed().as_secs_f64();
    let v = http_as_retry(o.addr, "GET", &format!("/api/tournaments/{id}"), &json!({}), &org).await?;
    let counted: u64 = v["standings"]
        .as_array()
        .ok_or("no standings")?
        .iter()
        .filter_map(|s| s["games"].as_u64())
        .sum();
    waits.sort_unstable();
    let pick = |p: f64| {
        waits
            .get(((waits.len().max(1) - 1) as f64 * p).round() as usize)
            .copied()
            .unwrap_or(0)
    };
    println!(
        "arena of {players} at {} for {minutes} min: {} games ({games} player-games), {sent} moves sent, in {secs:.1} s",
        o.arena_control,
        games / 2
    );
    println!(
        "pairing latency ms (game end to the next game seen, 250 ms polls): p50 {}, p99 {}, max {} ({} waits)",
        pick(0.5),
        pick(0.99),
        waits.last().copied().unwrap_or(0),
        waits.len()
    );
    println!("standings count {counted} player-games; players with errors {errors}; lost {lost}");
    if let Some(e) = &first_error {
        println!("first error: {e}");
    }
    Ok(lost == 0 && errors == 0 && counted == games)
}

fn percentile(sorted: &[u64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[i] as f64 / 1000.0
}

#[tokio::main]
async fn main() {
    let o = match parse_args() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("reversi-load: {e}");
            std::process::exit(2);
        }
    };
    if let Some(players) = o.arena {
        match run_arena(&o, players).await {
            Ok(true) => return,
            Ok(false) => std::process::exit(1),
            Err(e) => {
                eprintln!("reversi-load: {e}");
                std::process::exit(1);
            }
        }
    }
    let start = Instant::now();
    let end = start + Duration::from_secs(o.seconds);
    let mut seeds = Rng(o.seed | 1);
    let ready = std::sync::Arc::new(tokio::sync::Barrier::new(o.games));
    let tasks: Vec<_> = (0..o.games)
        .map(|i| match (&o.online, o.ai) {
            (Some(control), _) => tokio::spawn(play_online(
                [o.addrs[i % o.addrs.len()], o.addrs[(i + 1) % o.addrs.len()]],
                control.clone(),
                i,
                o.flag_every > 0 && i % o.flag_every == o.flag_every - 1,
                seeds.next(),
                end,
                o.think,
                o.chat_every,
                ready.clone(),
            )),
            (None, ai) => match ai {
                Some(level) => tokio::spawn(play_ai_game(
                    o.addr,
                    o.variant.clone(),
                    level,
                    seeds.next(),
                    end,
                    o.think,
                )),
                None => tokio::spawn(play_game(o.addr, o.variant.clone(), seeds.next(), end, o.think)),
            },
        })
        .collect();
    let mut rtts = Vec::new();
    let (mut sent, mut lost, mut dup, mut finished, mut errors) = (0, 0, 0, 0, 0);
    let (mut ai_moves, mut games, mut ai_finished) = (0, 0, 0);
    let mut first_error = None;
    let mut flags: Vec<i64> = Vec::new();
    let (mut chat_sent, mut chat_seen) = (0, 0);
    for t in tasks {
        let r = t.await.unwrap_or_else(|e| GameReport {
            error: Some(e.to_string()),
            ..GameReport::default()
        });
        rtts.extend(r.rtts_us);
        flags.extend(r.flag_late_ms);
        chat_sent += r.chat_sent;
        chat_seen += r.chat_seen;
        sent += r.sent;
        ai_moves += r.ai_moves;
        games += r.games;
        ai_finished += r.finished_games;
        lost += r.lost;
        dup += r.duplicated;
        finished += r.finished as u64;
        if let Some(e) = r.error {
            errors += 1;
            first_error.get_or_insert(e);
        }
    }
    let secs = start.elapsed().as_secs_f64();
    // Online games measure the play, not the sign-ups before it.
    let play_secs = PLAY_START.get().map_or(secs, |t| t.elapsed().as_secs_f64());
    rtts.sort_unstable();
    if let Some(level) = o.ai {
        println!(
            "{} players against level {level}: games {games} (finished {ai_finished}, with errors \
             {errors}), moves sent {sent}, computer moves {ai_moves}, in {secs:.1} s",
            o.games
        );
        println!("computer moves/s {:.1}", ai_moves as f64 / secs);
        println!(
            "computer reply ms: p50 {:.1}, p99 {:.1}, max {:.1}",
            percentile(&rtts, 0.5),
            percentile(&rtts, 0.99),
            percentile(&rtts, 1.0)
        );
    } else {
        println!(
            "games {} (finished {finished}, with errors {errors}), moves sent {sent}, shown {}, in {secs:.1} s",
            o.games,
            rtts.len()
        );
        println!("moves/s {:.0}", rtts.len() as f64 / play_secs);
        println!(
            "round trip ms: p50 {:.2}, p99 {:.2}, max {:.2}",
            percentile(&rtts, 0.5),
            percentile(&rtts, 0.99),
            percentile(&rtts, 1.0)
        );
    }
    if o.online.is_some() {
        flags.sort_unstable();
        let early = flags.iter().filter(|l| **l < 0).count();
        let pick = |p: f64| {
            flags
                .get(((flags.len().max(1) - 1) as f64 * p).round() as usize)
                .copied()
                .unwrap_or(0)
        };
        println!(
            "flags {} (early {early}): late ms p50 {}, p99 {}, max {}",
            flags.len(),
            pick(0.5),
            pick(0.99),
            flags.last().copied().unwrap_or(0)
        );
        println!("chat lines sent {chat_sent}, seen by the other player {chat_seen}");
    }
    println!("lost {lost}, duplicated {dup}");
    if o.ai.is_none() {
        flags.sort_unstable();
        let pick = |p: f64| {
            flags
                .get(((flags.len().max(1) - 1) as f64 * p).round() as usize)
                .copied()
                .unwrap_or(0)
        };
        println!(
            "ROW {:.0} | {:.2} / {:.2} / {:.0} ms | {} / {} / {} ms ({} early) | {lost} / {dup}",
            rtts.len() as f64 / play_secs,
            percentile(&rtts, 0.5),
            percentile(&rtts, 0.99),
            percentile(&rtts, 1.0),
            pick(0.5),
            pick(0.99),
            flags.last().copied().unwrap_or(0),
            flags.iter().filter(|l| **l < 0).count()
        );
    }
    if let Some(e) = first_error {
        println!("first error: {e}");
    }
    if lost > 0 || dup > 0 || errors > 0 {
        std::process::exit(1);
    }
}
