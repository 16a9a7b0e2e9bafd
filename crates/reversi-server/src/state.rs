//! The application state: the database, the games in memory, the AI pool and the limits. Every
//! action on a game goes through here: it is validated by the game core, stored, and then
//! pushed to every websocket watching the game.

use crate::ai::{AiPool, Hint};
use crate::db::{now, now_ms, ChatLine, Db, GameSummary};
use crate::error::{Error, Result};
use crate::game::{next_version, GameRecord, GameView, LiveGame, Mode, PlayerKind};
use crate::limit::RateLimiter;
use crate::presence::{InstanceCounts, Presence};
use crate::secret::{random_string, random_u64};
use reversi_core::{Color, Rules, Variant};
use reversi_site::chat::Flood;
use reversi_site::lag::Lag;
use std::collections::HashMap;
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{broadcast, mpsc, Notify};
use tokio::task::JoinHandle;

/// An opening book setting: the embedded book by default, another one, or none.
#[derive(Clone)]
pub struct BookChoice(pub Option<Arc<reversi_engine::Book>>);

impl Default for BookChoice {
    fn default() -> BookChoice {
        BookChoice(Some(reversi_engine::Book::embedded_shared()))
    }
}

impl std::fmt::Debug for BookChoice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.0 {
            Some(b) => write!(f, "BookChoice({} positions)", b.len()),
            None => write!(f, "BookChoice(off)"),
        }
    }
}

/// Settings of the server.
#[derive(Clone, Debug)]
pub struct Config {
    /// Where the games are stored (`sqlite://reversi.db`, `sqlite::memory:`, a file path, or
    /// `postgres://…`).
    pub database_url: String,
    /// Engine searches running at once at most.
    pub ai_workers: usize,
    /// Hash table size of each engine, MiB.
    pub hash_mib: usize,
    /// Multiplies the per-level time caps of the computer's moves (and hints).
    pub ai_time_scale: f64,
    /// HTTP requests per second allowed per client address.
    pub rate_per_sec: f64,
    /// Burst size of the HTTP rate limit.
    pub rate_burst: f64,
    /// Largest request body, bytes.
    pub max_body_bytes: usize,
    /// Largest websocket message (and frame), bytes.
    pub max_ws_message_bytes: usize,
    /// Websocket messages per second allowed per connection (burst: twice that).
    pub ws_messages_per_sec: f64,
    /// A game nobody watches (no websocket) and nobody has used for this long leaves memory;
    /// it is read back from the database when next asked for. `None`: games stay in memory.
    pub idle_evict: Option<Duration>,
    /// A game nobody has moved in (or joined, or used) for this long is closed as abandoned,
    /// without a result. `None`: games wait for ever.
    pub abandon_after: Option<Duration>,
    /// The engine level of game analyses (depth; exact endgame from its usual depth).
    pub analysis_level: u32,
    /// Engine time one analysis may take in all, spread over its searches (each also capped by
    /// the level's time cap); multiplied by `ai_time_scale`.
    pub analysis_budget: Duration,
    /// The opening book the computer plays from and the analysis board shows.
    pub book: BookChoice,
    /// The analysis board searches a move at most this deep (plies after it).
    pub board_depth: u32,
    /// The analysis board's engine time per position, at most.
    pub board_time: Duration,
    /// A running analysis whose server has not reported progress for this long is taken over
    /// by another server (or this one after a restart).
    pub analysis_stale: Duration,
    /// Mark seat cookies `Secure` (sent over HTTPS only): for a server reached through a TLS
    /// proxy (docs/api.md, "Running behind a TLS proxy").
    pub secure_cookies: bool,
    /// Origins (`https://reversi.example.org`) besides the server's own `Host` whose pages may
    /// act on games: the public address when a proxy rewrites `Host`.
    pub allowed_origins: Vec<String>,
    /// A connection that has not sent a request's whole header within this time is closed; an
    /// idle keep-alive connection too.
    pub header_timeout: Duration,
    /// A request whose whole body has not arrived within this time of its headers is answered
    /// 408 (a deadline for the body, not a pause between its chunks).
    pub body_timeout: Duration,
    /// Open connections at most per client address (more are closed at once).
    pub max_connections_per_ip: usize,
    /// Whether connections from this machine itself (loopback addresses) are left out of the
    /// per-address cap: a reverse proxy on the same machine brings every visitor from
    /// 127.0.0.1, so the cap would fall on the whole site. The total cap still applies.
    pub uncapped_loopback: bool,
    /// Open connections at most in all.
    pub max_connections: usize,
    /// A websocket that has sent nothing (not even a pong to the server's pings) for this long
    /// is closed.
    pub ws_idle: Duration,
    /// Whether guests (visitors without an account) may chat.
    pub guest_chat: bool,
    /// Accounts one address may make per quarter hour ([`crate::accounts::THROTTLE_WINDOW_MS`]).
    pub signups_per_address: u32,
    /// Games (against the computer, with a friend, on one device) one address may create per
    /// hour: every game is stored for good, so creation is a way to fill the disk.
    pub games_per_address_hour: u32,
    /// Proxies whose `X-Forwarded-For` names the client (for the per-address limits).
    pub trusted_proxies: Vec<ipnet::IpNet>,
    /// The bearer token of `GET /metrics` (`None`: no metrics, the route answers 404).
    pub metrics_token: Option<String>,
}

impl Default for Config {
    fn default() -> Config {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        Config {
            database_url: "sqlite://reversi.db".into(),
            ai_workers: cores.saturating_sub(1).max(1),
            hash_mib: 16,
            ai_time_scale: 1.0,
            rate_per_sec: 20.0,
            rate_burst: 60.0,
            max_body_bytes: 16 * 1024,
            max_ws_message_bytes: 4 * 1024,
            ws_messages_per_sec: 20.0,
            idle_evict: Some(Duration::from_secs(300)),
            abandon_after: Some(Duration::from_secs(7 * 24 * 3600)),
            analysis_level: 10,
            analysis_budget: Duration::from_secs(120),
            book: BookChoice::default(),
            board_depth: 20,
            board_time: Duration::from_secs(30),
            analysis_stale: Duration::from_secs(60),
            secure_cookies: false,
            allowed_origins: Vec::new(),
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(10),
            max_connections_per_ip: 256,
            uncapped_loopback: true,
            max_connections: 20_000,
            ws_idle: Duration::from_secs(90),
            guest_chat: true,
            signups_per_address: crate::accounts::SIGNUPS_PER_ADDRESS,
            games_per_address_hour: 600,
            trusted_proxies: Vec::new(),
            metrics_token: None,
        }
    }
}

/// What a client asks for when it creates a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewGame {
    /// Against the computer, a friend, or two players on one device.
    pub mode: Mode,
    /// The variant preset (RULES.md §4), e.g. `othello`, `nxn:6`, `black-hole`.
    pub variant: String,
    /// The computer's level, 1..=30.
    pub level: u32,
    /// The creator's colour; `None` for a random one.
    pub color: Option<Color>,
}

/// A game just created or joined: its state and the caller's secret seat token.
#[derive(Clone, Debug)]
pub struct Seated {
    /// The game's state.
    pub view: GameView,
    /// The seat token (send it back as a cookie or bearer token).
    pub token: String,
    /// The seats the token holds.
    pub seats: Vec<Color>,
    /// The secret of the invite link while a seat is free (for the seat holders to pass on).
    pub invite: Option<String>,
}

/// What a game's sockets are sent: a new state (serialized once for all of them), or who is
/// connected now (a small event: a spectator arriving does not resend the whole game to
/// everyone watching).
#[derive(Debug)]
pub enum GameEvent {
    /// A new state.
    State(Box<Published>),
    /// Who is connected changed: the `presence` object of the state, as JSON.
    Presence(String),
}

/// A state as published: the view, and its JSON for players and for spectators (the same
/// unless the spectators' view leaves something out, [`GameView::for_viewer`]).
#[derive(Debug)]
pub struct Published {
    /// The state.
    pub view: GameView,
    /// `view` as JSON.
    pub json: String,
    /// The spectators' view as JSON, where it differs.
    pub spectator_json: Option<String>,
}

impl Published {
    fn of(view: GameView) -> Published {
        let json = serde_json::to_string(&view).unwrap_or_default();
        let spectator_json = view
            .hides_from_spectators()
            .then(|| serde_json::to_string(&view.clone().for_viewer(&[])).unwrap_or_default());
        Published {
            view,
            json,
            spectator_json,
        }
    }

    /// The JSON a viewer holding `seats` is sent.
    pub fn json_for(&self, seats: &[Color]) -> &str {
        match (&self.spectator_json, seats.is_empty()) {
            (Some(s), true) => s,
            _ => &self.json,
        }
    }
}

/// A game in memory: its state behind a lock and the channel its watchers listen on.
pub struct Slot {
    game: tokio::sync::Mutex<LiveGame>,
    tx: broadcast::Sender<Arc<GameEvent>>,
    /// The chat messages, as they come (both rooms; each socket keeps its own).
    chat: broadcast::Sender<Arc<ChatLine>>,
    stop: Mutex<Option<Arc<AtomicBool>>>,
    /// When the game was last asked for (Unix milliseconds), for idle eviction.
    last_used: AtomicI64,
    /// Each player's connection lag, measured by the websocket's pings.
    lag: Mutex<[Lag; 2]>,
    /// Where the game's deadlines go to be timed.
    deadlines: mpsc::UnboundedSender<(String, u64)>,
    /// The sockets open on the game at this instance ([`crate::presence`]).
    local: Mutex<InstanceCounts>,
    /// Held while this instance's counts are stored, so that the last stored are the latest.
    presence_write: tokio::sync::Mutex<()>,
}

/// States a lagging websocket may fall behind by before it rereads the game (it then gets the
/// current state, so nothing is lost; a small buffer keeps idle games light).
const BROADCAST_CAPACITY: usize = 8;

impl Slot {
    fn new(live: LiveGame, deadlines: mpsc::UnboundedSender<(String, u64)>) -> Arc<Slot> {
        if let Some(d) = live.deadline() {
            let _ = deadlines.send((live.record.id.clone(), d.at()));
        }
        Arc::new(Slot {
            game: tokio::sync::Mutex::new(live),
            tx: broadcast::channel(BROADCAST_CAPACITY).0,
            chat: broadcast::channel(BROADCAST_CAPACITY).0,
            stop: Mutex::new(None),
            last_used: AtomicI64::new(now_ms()),
            lag: Mutex::new([Lag::default(); 2]),
            deadlines,
            local: Mutex::new(InstanceCounts {
                mine: true,
                ..InstanceCounts::default()
            }),
            presence_write: tokio::sync::Mutex::new(()),
        })
    }

    fn touch(&self) {
        self.last_used.store(now_ms(), Ordering::Relaxed);
    }

    /// Sends the state to the game's watchers, and its deadline, if any, to the timers.
    fn publish(&self, live: &LiveGame) -> GameView {
        let view = live.view();
        if self.tx.receiver_count() > 0 {
            let _ = self
                .tx
                .send(Arc::new(GameEvent::State(Box::new(Published::of(view.clone())))));
        }
        if let Some(d) = live.deadline() {
            let _ = self.deadlines.send((live.record.id.clone(), d.at()));
        }
        view
    }

    fn stop_ai(&self) {
        if let Some(stop) = self.stop.lock().ok().and_then(|mut s| s.take()) {
            stop.store(true, Ordering::Relaxed);
        }
    }
}

pub(crate) struct Inner {
    pub(crate) db: Db,
    games: Mutex<HashMap<String, Arc<Slot>>>,
    pub(crate) ai: Arc<AiPool>,
    pub(crate) config: Config,
    limiter: RateLimiter,
    /// Wakes the analysis worker when a job is queued.
    pub(crate) analysis_wake: Arc<Notify>,
    /// Analysis-board evaluations running (each stops when its client leaves or moves on).
    pub(crate) board_evaluations: std::sync::atomic::AtomicUsize,
    /// Signs the values the server hands out (guest identities, known devices).
    signer: crate::secret::Signer,
    /// Each chatter's flood limit, by player key.
    pub(crate) floods: Mutex<HashMap<String, Flood>>,
    /// Each address's flood limit, all its chatters together.
    pub(crate) address_floods: Mutex<HashMap<String, reversi_site::chat::AddressFlood>>,
    /// Deadlines to time ([`crate::clocks::timers`]).
    deadlines: mpsc::UnboundedSender<(String, u64)>,
    /// The receiving end, until the timers task takes it.
    pub(crate) deadline_rx: Mutex<Option<mpsc::UnboundedReceiver<(String, u64)>>>,
    /// Flags and missed first moves this instance has claimed.
    deadlines_claimed: AtomicU64,
    /// `true` once the server stops: websocket sessions hold a receiver each, so the sender's
    /// `closed()` says when the last one has ended.
    stopping: tokio::sync::watch::Sender<bool>,
    /// When this instance started (Unix ms): no absence counts from earlier.
    started_at: i64,
}

/// The shared state of the server (cheap to clone).
#[derive(Clone)]
pub struct AppState {
    pub(crate) inner: Arc<Inner>,
}

impl AppState {
    /// Reloads game `id` from the database if it is in memory (another instance changed it)
    /// and pushes the new state to its watchers.
    pub async fn refresh(&self, id: &str) -> Result<()> {
        let slot = match self.inner.games.lock().map_err(poisoned)?.get(id) {
            Some(s) => Arc::clone(s),
            None => return Ok(()),
        };
        let mut g = slot.game.lock().await;
        self.reload_locked(&slot, &mut g).await
    }

    /// Replaces the game held in `g` by the stored one and publishes it.
    async fn reload_locked(&self, slot: &Slot, g: &mut LiveGame) -> Result<()> {
        let Some(mut fresh) = self.inner.db.load_game(&g.record.id).await? else {
            return Ok(());
        };
        if fresh.game.moves() == g.game.moves() && fresh.record == g.record {
            return Ok(()); // nothing new
        }
        // A search running here for the old position is void.
        slot.stop_ai();
        fresh.version = fresh.version.max(next_version(g.version));
        fresh.ai_job = g.ai_job + 1;
        fresh.presence = g.presence;
        *g = fresh;
        slot.publish(g);
        Ok(())
    }

    /// Every game id held in memory.
    pub(crate) fn held(&self) -> Vec<String> {
        self.inner
            .games
            .lock()
            .map(|g| g.keys().cloned().collect())
            .unwrap_or_default()
    }

    /// A state over an open database.
    pub fn with_db(db: Db, config: Config, signer: crate::secret::Signer) -> AppState {
        let (deadlines, deadline_rx) = mpsc::unbounded_channel();
        AppState {
            inner: Arc::new(Inner {
                db,
                games: Mutex::new(HashMap::new()),
                ai: Arc::new(AiPool::new(
                    config.ai_workers,
                    config.hash_mib,
                    config.ai_time_scale,
                    config.book.0.clone(),
                )),
                limiter: RateLimiter::new(config.rate_per_sec, config.rate_burst),
                config,
                analysis_wake: Arc::new(Notify::new()),
                board_evaluations: std::sync::atomic::AtomicUsize::new(0),
                signer,
                floods: Mutex::new(HashMap::new()),
                address_floods: Mutex::new(HashMap::new()),
                deadlines,
                deadline_rx: Mutex::new(Some(deadline_rx)),
                deadlines_claimed: AtomicU64::new(0),
                stopping: tokio::sync::watch::Sender::new(false),
                started_at: now_ms(),
            }),
        }
    }

    /// Marks the server as stopping: `/readyz` answers 503 (a balancer sends no new clients)
    /// and every websocket session closes with [`crate::ws::CLOSE_RESTART`], so its client
    /// reconnects (to another instance, behind a balancer).
    pub fn begin_stopping(&self) {
        self.inner.stopping.send_replace(true);
    }

    /// How many analysis-board evaluations are running.
    pub fn board_evaluations(&self) -> usize {
        self.inner.board_evaluations.load(Ordering::Relaxed)
    }

    /// Whether [`AppState::begin_stopping`] was called.
    pub fn is_stopping(&self) -> bool {
        *self.inner.stopping.borrow()
    }

    /// A receiver that turns `true` when the server stops (one per websocket session).
    pub(crate) fn stopping(&self) -> tokio::sync::watch::Receiver<bool> {
        self.inner.stopping.subscribe()
    }

    /// Waits until every websocket session has ended (after [`AppState::begin_stopping`]).
    pub async fn sessions_closed(&self) {
        self.inner.stopping.closed().await
    }

    /// The settings.
    pub fn config(&self) -> &Config {
        &self.inner.config
    }

    /// The database.
    pub fn db(&self) -> &Db {
        &self.inner.db
    }

    /// The per-address rate limiter.
    pub fn limiter(&self) -> &RateLimiter {
        &self.inner.limiter
    }

    /// The game `id`, from memory or (after a restart) rebuilt from the database. A game loaded
    /// with the computer to move resumes its search.
    pub async fn slot(&self, id: &str) -> Result<Arc<Slot>> {
        if id.len() > 64 {
            return Err(Error::NotFound);
        }
        if let Some(s) = self.inner.games.lock().map_err(poisoned)?.get(id) {
            s.touch();
            return Ok(Arc::clone(s));
        }
        let live = self.inner.db.load_game(id).await?.ok_or(Error::NotFound)?;
        let resume = live.ai_to_move().is_some();
        let (slot, inserted) = {
            let mut games = self.inner.games.lock().map_err(poisoned)?;
            match games.get(id) {
                Some(s) => (Arc::clone(s), false),
                None => {
                    let s = Slot::new(live, self.inner.deadlines.clone());
                    games.insert(id.to_string(), Arc::clone(&s));
                    (s, true)
                }
            }
        };
        if inserted && resume {
            self.spawn_ai(&slot);
        }
        Ok(slot)
    }

    /// Creates a game; the caller gets the seat(s) of `req.color` (both on one device).
    pub async fn create(&self, req: NewGame) -> Result<Seated> {
        let variant =
            Variant::from_str(&req.variant).map_err(|e| Error::BadRequest(format!("variant: {e}")))?;
        if !(1..=reversi_engine::levels::MAX_LEVEL).contains(&req.level) {
            return Err(Error::BadRequest(format!(
                "level must be 1 to {}",
                reversi_engine::levels::MAX_LEVEL
            )));
        }
        let variant = Rules::new(variant, random_u64()).variant;
        let color = req.color.unwrap_or(if random_u64() & 1 == 0 {
            Color::Black
        } else {
            Color::White
        });
        let token = random_string(32);
        let mut players = [PlayerKind::Human; 2];
        let mut tokens: [Option<String>; 2] = [None, None];
        match req.mode {
            Mode::Ai => {
                players[(!color).index()] = PlayerKind::Ai;
                tokens[color.index()] = Some(token.clone());
            }
            Mode::Friend => tokens[color.index()] = Some(token.clone()),
            Mode::Local => tokens = [Some(token.clone()), Some(token.clone())],
            Mode::Online => {
                return Err(Error::BadRequest(
                    "online games start from the lobby (a seek, a pool or a challenge)".into(),
                ))
            }
        }
        let record = GameRecord {
            id: random_string(10),
            variant,
            mode: req.mode,
            level: req.level,
            players,
            tokens,
            resigned: None,
            left: false,
            created_at: now(),
            rematch: None,
            join_token: (req.mode == Mode::Friend).then(|| random_string(24)),
            void: None,
            online: None,
        };
        let live = LiveGame::new(record);
        self.inner.db.insert_game(&live).await?;
        let seats = live.record.seats_of(Some(&token));
        let invite = live.record.join_token.clone();
        let view = self.hold(live)?;
        Ok(Seated {
            view,
            token,
            seats,
            invite,
        })
    }

    /// The invite secret of game `id` for a holder of `seats` (none for spectators, and none
    /// once no seat is free).
    pub async fn invite_for(&self, id: &str, seats: &[Color]) -> Result<Option<String>> {
        if seats.is_empty() {
            return Ok(None);
        }
        self.with_game(id, |g| g.record.join_token.clone()).await
    }

    /// Takes the open seat of a game against a friend with the secret of its invite link
    /// (`invite`). A caller who already holds a seat keeps it.
    pub async fn join(&self, id: &str, token: Option<&str>, invite: Option<&str>) -> Result<Seated> {
        let slot = self.slot(id).await?;
        let mut g = slot.game.lock().await;
        let seats = g.record.seats_of(token);
        if let (false, Some(t)) = (seats.is_empty(), token) {
            return Ok(Seated {
                view: g.view(),
                token: t.to_string(),
                invite: g.record.join_token.clone(),
                seats,
            });
        }
        if g.is_over() {
            return Err(Error::GameOver);
        }
        let seat = g
            .record
            .open_seat()
            .ok_or_else(|| Error::Conflict("seats_taken", "both seats are taken; you can watch".into()))?;
        // The seat is the invited friend's: the game's id alone (listed, watched) is not enough.
        let valid = match (&g.record.join_token, invite) {
            (Some(secret), Some(given)) => crate::game::constant_time_eq(secret, given),
            _ => false,
        };
        if !valid {
            return Err(Error::NotYourSeat(
                "this seat is kept for the friend who has the invite link".into(),
            ));
        }
        let token = random_string(32);
        let snapshot = g.clone();
        g.record.tokens[seat.index()] = Some(token.clone());
        if g.record.open_seat().is_none() {
            g.record.join_token = None;
        }
        g.bump_version();
        if let Err(e) = self.inner.db.update_game(&g).await {
            *g = snapshot;
            return Err(e);
        }
        let view = slot.publish(&g);
        Ok(Seated {
            view,
            token,
            seats: vec![seat],
            invite: g.record.join_token.clone(),
        })
    }

    /// The state of a game and the seats `token` holds in it.
    pub async fn view(&self, id: &str, token: Option<&str>) -> Result<(GameView, Vec<Color>)> {
        let slot = self.slot(id).await?;
        let g = slot.game.lock().await;
        Ok((g.view(), g.record.seats_of(token)))
    }

    /// Plays a move for the holder of `token`. When the computer is to move next, its search is
    /// started and the returned handle finishes once it has played.
    pub async fn play(
        &self,
        id: &str,
        token: Option<&str>,
        mv: &str,
        ply: Option<usize>,
    ) -> Result<(GameView, Option<JoinHandle<()>>)> {
        let slot = self.slot(id).await?;
        let view = {
            let mut g = slot.game.lock().await;
            let now = crate::time::clock_ms();
            if let Some(due) = g.deadline().filter(|d| d.at() <= now) {
                // The flag fell (or the first move's time ran out) before the move came.
                drop(g);
                self.expire(id).await?;
                return Err(match due {
                    crate::online::Deadline::Flag { .. } => {
                        Error::Conflict("time_out", "your time ran out before the move arrived".into())
                    }
                    crate::online::Deadline::NoFirstMove { .. } => Error::GameOver,
                });
            }
            let attempt = |g: &mut LiveGame| {
                let seats = g.record.seats_of(token);
                if seats.is_empty() {
                    return Err(seat_error(token));
                }
                let snapshot = g.clone();
                let mover = g.game.side_to_move();
                let added = g.play_human(&seats, mv, ply)?;
                let comp = slot.compensation(g, mover, now);
                if let Err(e) = g.press_clock(mover, now, comp) {
                    *g = snapshot;
                    return Err(e);
                }
                Ok((snapshot, added))
            };
            let (snapshot, added) = match attempt(&mut g) {
                // On a database shared with other instances the game held here may be behind
                // (a join or a move made elsewhere, its notification still on the way): before
                // refusing, take the stored game and try once more.
                Err(_) if self.inner.db.kind() == "postgres" => {
                    self.reload_locked(&slot, &mut g).await?;
                    attempt(&mut g)?
                }
                other => other?,
            };
            let before = snapshot.game.ply();
            if let Err(e) = self.inner.db.append_moves(&g, before, &added).await {
                *g = snapshot;
                if self.inner.db.kind() == "postgres" {
                    // Another instance may have moved first: take the stored game.
                    self.reload_locked(&slot, &mut g).await?;
                    if g.game.ply() != before {
                        return Err(Error::Conflict(
                            "game_changed",
                            "the game changed meanwhile; try again".into(),
                        ));
                    }
                }
                return Err(e);
            }
            if g.is_over() {
                self.rate_locked(&mut g).await?;
            }
            (slot.publish(&g), g.ai_to_move().is_some())
        };
        let (view, need_ai) = view;
        Ok((view, need_ai.then(|| self.spawn_ai(&slot))))
    }

    /// Resigns for the holder of `token`: `color` picks the side on a shared device (default:
    /// the side to move).
    pub async fn resign(&self, id: &str, token: Option<&str>, color: Option<Color>) -> Result<GameView> {
        let slot = self.slot(id).await?;
        let mut g = slot.game.lock().await;
        let seats = g.record.seats_of(token);
        if seats.is_empty() {
            return Err(seat_error(token));
        }
        let color = match color {
            Some(c) if seats.contains(&c) => c,
            Some(c) => return Err(Error::NotYourSeat(format!("you do not play {}", c.name()))),
            None if seats.len() == 1 => seats[0],
            None => g.game.side_to_move(),
        };
        let snapshot = g.clone();
        g.resign(color)?;
        slot.stop_ai();
        if let Err(e) = self.inner.db.update_game(&g).await {
            *g = snapshot;
            return Err(e);
        }
        self.rate_locked(&mut g).await?;
        Ok(slot.publish(&g))
    }

    /// Aborts the game for a seat holder, while the two sides have not both moved: it ends
    /// without a result (RULES.md §6).
    pub async fn abort(&self, id: &str, token: Option<&str>) -> Result<GameView> {
        let slot = self.slot(id).await?;
        let mut g = slot.game.lock().await;
        if g.record.seats_of(token).is_empty() {
            return Err(seat_error(token));
        }
        let snapshot = g.clone();
        g.abort()?;
        slot.stop_ai();
        if let Err(e) = self.inner.db.update_game(&g).await {
            *g = snapshot;
            return Err(e);
        }
        Ok(slot.publish(&g))
    }

    /// Closes game `id` as abandoned if it is still being played (the idle sweep).
    pub async fn abandon(&self, id: &str) -> Result<bool> {
        let slot = self.slot(id).await?;
        let mut g = slot.game.lock().await;
        // A timed game ends at its deadline (a correspondence move may take two weeks).
        if g.is_over() || g.deadline().is_some() {
            return Ok(false);
        }
        let snapshot = g.clone();
        g.abandon()?;
        slot.stop_ai();
        if let Err(e) = self.inner.db.update_game(&g).await {
            *g = snapshot;
            return Err(e);
        }
        slot.publish(&g);
        Ok(true)
    }

    /// Takes back the last move of the holder of `token` and the computer's reply (games
    /// against the computer).
    pub async fn undo(&self, id: &str, token: Option<&str>) -> Result<GameView> {
        let slot = self.slot(id).await?;
        let mut g = slot.game.lock().await;
        let seats = g.record.seats_of(token);
        if seats.is_empty() {
            return Err(seat_error(token));
        }
        let snapshot = g.clone();
        let ply = g.undo_for_human(&seats)?;
        slot.stop_ai();
        if let Err(e) = self.inner.db.truncate_moves(&g, ply).await {
            *g = snapshot;
            return Err(e);
        }
        Ok(slot.publish(&g))
    }

    /// The best moves for the side to move, for the person playing the computer, on their
    /// turn. Games between people get no engine help.
    pub async fn hint(&self, id: &str, token: Option<&str>, n: usize) -> Result<Vec<Hint>> {
        let slot = self.slot(id).await?;
        let pos = {
            let g = slot.game.lock().await;
            let seats = g.record.seats_of(token);
            if seats.is_empty() {
                return Err(seat_error(token));
            }
            if g.record.mode != Mode::Ai {
                return Err(Error::Conflict(
                    "no_hints",
                    "hints are for games against the computer, not between people".into(),
                ));
            }
            if g.is_over() {
                return Err(Error::GameOver);
            }
            let side = g.game.side_to_move();
            if !seats.contains(&side) {
                return Err(Error::NotYourTurn(side.name().into()));
            }
            *g.game.position()
        };
        self.inner.ai.hints(pos, n).await
    }

    /// The GGF record of a game.
    pub async fn ggf(&self, id: &str) -> Result<String> {
        let slot = self.slot(id).await?;
        let g = slot.game.lock().await;
        Ok(g.ggf())
    }

    /// A page of the latest games (finished ones in the order they ended) and the number of
    /// games matching `status` in all.
    pub async fn list(
        &self,
        status: Option<&str>,
        offset: u32,
        limit: u32,
    ) -> Result<(Vec<GameSummary>, i64)> {
        if let Some(s) = status {
            if !matches!(s, "playing" | "finished" | "aborted" | "abandoned") {
                return Err(Error::BadRequest(
                    "status must be playing, finished, aborted or abandoned".into(),
                ));
            }
        }
        self.inner
            .db
            .list_games(status, offset, limit.clamp(1, 200))
            .await
    }

    /// Runs `f` on game `id` (from memory, or loaded).
    pub(crate) async fn with_game<T>(&self, id: &str, f: impl FnOnce(&LiveGame) -> T) -> Result<T> {
        let slot = self.slot(id).await?;
        let g = slot.game.lock().await;
        Ok(f(&g))
    }

    /// Every position of a game, for the replay view.
    pub async fn replay(&self, id: &str) -> Result<crate::game::ReplayView> {
        let slot = self.slot(id).await?;
        let g = slot.game.lock().await;
        Ok(g.replay())
    }

    /// Starts the rematch of a finished game for a seat holder: the same variant (the same
    /// XOT opening or hole), mode and level, with the colours swapped. The first seat holder
    /// to ask creates it (and every watcher of the old game sees its id in `rematch`); the
    /// other seat holder asking then gets their seat in it. Returns the seat and whether the
    /// game was created by this call.
    pub async fn rematch(&self, id: &str, token: Option<&str>) -> Result<(Seated, bool)> {
        for _ in 0..3 {
            let slot = self.slot(id).await?;
            let mut g = slot.game.lock().await;
            let seats = g.record.seats_of(token);
            if seats.is_empty() {
                return Err(seat_error(token));
            }
            if !g.is_over() && self.inner.db.kind() == "postgres" {
                // Another instance may have ended it a moment ago.
                self.reload_locked(&slot, &mut g).await?;
            }
            if !g.is_over() {
                return Err(Error::NotFinished(
                    "the game is not finished yet; a rematch starts after it".into(),
                ));
            }
            if g.in_tournament() {
                return Err(Error::Conflict(
                    "no_rematch",
                    "tournament games have no rematch: the tournament pairs the next game".into(),
                ));
            }
            if let Some(new_id) = g.record.rematch.clone() {
                drop(g);
                return Ok((self.rematch_seat(&new_id, &seats).await?, false));
            }
            let old = &g.record;
            let mut players = [PlayerKind::Human; 2];
            let mut tokens: [Option<String>; 2] = [None, None];
            let shared = (old.mode == Mode::Local).then(|| random_string(32));
            for c in Color::ALL {
                // Whoever held colour c plays the other colour now.
                players[(!c).index()] = old.players[c.index()];
                // A seat nobody took stays open in the rematch (for the invite link).
                if old.players[c.index()] == PlayerKind::Human && old.tokens[c.index()].is_some() {
                    tokens[(!c).index()] = Some(shared.clone().unwrap_or_else(|| random_string(32)));
                }
            }
            let open = Color::ALL
                .into_iter()
                .any(|c| players[c.index()] == PlayerKind::Human && tokens[c.index()].is_none());
            let record = GameRecord {
                id: random_string(10),
                variant: old.variant,
                mode: old.mode,
                level: old.level,
                players,
                tokens,
                resigned: None,
                left: false,
                created_at: now(),
                rematch: None,
                // A seat still free in the rematch is kept for the same invite link.
                join_token: open.then(|| old.join_token.clone().unwrap_or_else(|| random_string(24))),
                void: None,
                online: old.online.as_ref().map(rematch_online),
            };
            let live = LiveGame::new(record);
            if !self.inner.db.insert_rematch(id, &live).await? {
                // Another server instance started one meanwhile: take the stored state.
                self.reload_locked(&slot, &mut g).await?;
                continue;
            }
            g.record.rematch = Some(live.record.id.clone());
            g.bump_version();
            slot.publish(&g);
            drop(g);
            let new_seats = swapped(&seats);
            let token = live.record.tokens[new_seats[0].index()]
                .clone()
                .ok_or_else(|| Error::Internal("rematch seat without a token".into()))?;
            let invite = live.record.join_token.clone();
            let view = self.hold(live)?;
            return Ok((
                Seated {
                    view,
                    token,
                    seats: new_seats,
                    invite,
                },
                true,
            ));
        }
        Err(Error::Conflict(
            "game_changed",
            "the game changed meanwhile; try again".into(),
        ))
    }

    /// Holds the new game `live` (already stored) in memory, and starts the computer when it is
    /// to move first. Returns what the players see.
    pub(crate) fn hold(&self, live: LiveGame) -> Result<GameView> {
        let view = live.view();
        let need_ai = live.ai_to_move().is_some();
        let slot = Slot::new(live, self.inner.deadlines.clone());
        self.inner
            .games
            .lock()
            .map_err(poisoned)?
            .insert(view.id.clone(), Arc::clone(&slot));
        if need_ai {
            self.spawn_ai(&slot);
        }
        Ok(view)
    }

    /// The seat in rematch `new_id` of the holder of `old_seats` in the game it followed.
    async fn rematch_seat(&self, new_id: &str, old_seats: &[Color]) -> Result<Seated> {
        let slot = self.slot(new_id).await?;
        let g = slot.game.lock().await;
        let seats = swapped(old_seats);
        let token = g.record.tokens[seats[0].index()]
            .clone()
            .ok_or_else(|| Error::Internal("rematch seat without a token".into()))?;
        Ok(Seated {
            view: g.view(),
            token,
            seats,
            invite: g.record.join_token.clone(),
        })
    }

    /// Removes from memory the games nobody watches (no websocket), no request or engine
    /// search holds, and nobody has asked for during `idle`; they are read back from the
    /// database when next asked for. Returns how many left.
    pub fn evict_idle(&self, idle: Duration) -> usize {
        let cutoff = now_ms() - idle.as_millis() as i64;
        let Ok(mut games) = self.inner.games.lock() else {
            return 0;
        };
        let before = games.len();
        // Under the map's lock nobody can take a new reference to a slot, so a slot held only
        // by the map stays unused while it is removed.
        games.retain(|_, s| {
            Arc::strong_count(s) > 1
                || s.tx.receiver_count() > 0
                || s.last_used.load(Ordering::Relaxed) > cutoff
        });
        if games.capacity() > 64 && games.len() < games.capacity() / 4 {
            games.shrink_to_fit();
        }
        before - games.len()
    }

    /// How many games are held in memory now.
    pub fn games_in_memory(&self) -> usize {
        self.inner.games.lock().map_or(0, |g| g.len())
    }

    /// A receiver of every later state of game `id`, the current state and the seats of `token`.
    pub async fn subscribe(
        &self,
        id: &str,
        token: Option<&str>,
    ) -> Result<(broadcast::Receiver<Arc<GameEvent>>, GameView, Vec<Color>)> {
        let slot = self.slot(id).await?;
        let g = slot.game.lock().await;
        let rx = slot.tx.subscribe();
        Ok((rx, g.view(), g.record.seats_of(token)))
    }

    /// Starts the computer's move (a task that does nothing if it is not to move or already
    /// thinking).
    fn spawn_ai(&self, slot: &Arc<Slot>) -> JoinHandle<()> {
        let state = self.clone();
        let slot = Arc::clone(slot);
        tokio::spawn(async move {
            if let Err(e) = state.ai_loop(&slot).await {
                tracing::error!("AI move failed: {e}");
            }
        })
    }

    async fn ai_loop(&self, slot: &Arc<Slot>) -> Result<()> {
        loop {
            let (pos, level, seed, job, stop) = {
                let mut g = slot.game.lock().await;
                if g.ai_to_move().is_none() || g.ai_thinking {
                    return Ok(());
                }
                // The state already says the computer thinks (it is its turn): nothing new
                // to publish until it has moved.
                g.ai_thinking = true;
                g.ai_job += 1;
                let stop = Arc::new(AtomicBool::new(false));
                if let Ok(mut s) = slot.stop.lock() {
                    *s = Some(Arc::clone(&stop));
                }
                let seed = g.record.id.bytes().fold(g.game.ply() as u64, |h, b| {
                    h.wrapping_mul(0x100_0000_01b3).wrapping_add(b as u64)
                });
                (*g.game.position(), g.record.level, seed, g.ai_job, stop)
            };
            let result = self.inner.ai.best_move(pos, level, seed, stop).await;
            let mut g = slot.game.lock().await;
            if g.ai_job != job {
                return Ok(()); // undone or resigned meanwhile
            }
            g.ai_thinking = false;
            let mv = match result {
                Ok(mv) => mv,
                Err(e) => {
                    g.bump_version();
                    slot.publish(&g);
                    return Err(e);
                }
            };
            let before = g.game.ply();
            let snapshot = g.clone();
            let added = match g.play_checked(mv) {
                Ok(a) => a,
                Err(e) => {
                    *g = snapshot;
                    g.bump_version();
                    slot.publish(&g);
                    return Err(Error::Internal(format!("engine move {mv} rejected: {e}")));
                }
            };
            if let Err(e) = self.inner.db.append_moves(&g, before, &added).await {
                *g = snapshot;
                g.bump_version();
                slot.publish(&g);
                return Err(e);
            }
            slot.publish(&g);
        }
    }
}

/// The online part of the rematch of an online game: the colours swapped, the ratings as the
/// game left them, a fresh clock.
fn rematch_online(o: &crate::online::Online) -> crate::online::Online {
    let seat = |s: &crate::online::SeatInfo| crate::online::SeatInfo {
        rating: s.rating.map(|r| r + s.diff.unwrap_or(0)),
        diff: None,
        ..s.clone()
    };
    crate::online::Online {
        seats: [seat(&o.seats[1]), seat(&o.seats[0])],
        rated: o.rated,
        timing: o
            .timing
            .map(|t| crate::online::Timing::new(t.clock.control, crate::time::clock_ms())),
        flagged: None,
        tournament: None,
        private: false,
    }
}

/// The other colour of each seat, black first.
fn swapped(seats: &[Color]) -> Vec<Color> {
    Color::ALL.into_iter().filter(|c| seats.contains(&!*c)).collect()
}

fn seat_error(token: Option<&str>) -> Error {
    match token {
        None => Error::NoSeat,
        Some(_) => Error::NotYourSeat("this token holds no seat in this game".into()),
    }
}

fn poisoned<T>(_: T) -> Error {
    Error::Internal("a lock was poisoned".into())
}

impl Slot {
    /// The lag given back to `mover`, whose move arrived at `now`, out of the time it spent.
    fn compensation(&self, g: &LiveGame, mover: Color, now: u64) -> u64 {
        let Some(r) = g
            .record
            .online
            .as_ref()
            .and_then(|o| o.timing)
            .and_then(|t| t.clock.running)
            .filter(|r| r.color == mover)
        else {
            return 0;
        };
        let spent = now.saturating_sub(r.since);
        self.lag
            .lock()
            .map_or(0, |mut l| l[mover.index()].compensate(spent))
    }
}

/// What online play adds to the state: seats of identified players, deadlines, ratings, chat.
impl AppState {
    /// The signer of guest identities and known devices.
    pub fn signer(&self) -> &crate::secret::Signer {
        &self.inner.signer
    }

    /// Flags and missed first moves this instance has claimed since it started.
    pub fn deadlines_claimed(&self) -> u64 {
        self.inner.deadlines_claimed.load(Ordering::Relaxed)
    }

    /// The seat token of the player with key `key` in online game `id`, if they play in it.
    pub async fn token_for_player(&self, id: &str, key: &str) -> Result<Option<String>> {
        let slot = self.slot(id).await?;
        let g = slot.game.lock().await;
        Ok(g.record
            .online
            .as_ref()
            .and_then(|o| o.colour_of(key))
            .and_then(|c| g.record.tokens[c.index()].clone()))
    }

    /// The account whose seat `token` holds in online game `id`, if it is an account's seat
    /// (a guest's seat, and any seat of another kind of game, answer `None`).
    pub async fn account_of_token(&self, id: &str, token: &str) -> Result<Option<String>> {
        let slot = self.slot(id).await?;
        let g = slot.game.lock().await;
        let Some(o) = g.record.online.as_ref() else {
            return Ok(None);
        };
        Ok(Color::ALL.into_iter().find_map(|c| {
            let seat = &o.seats[c.index()];
            let held = g.record.tokens[c.index()]
                .as_deref()
                .is_some_and(|t| crate::secret::same(t, token));
            (held && !seat.key.starts_with(crate::online::GUEST_PREFIX)).then(|| seat.key.clone())
        }))
    }

    /// The player keys of an online game (`[None, None]` for other games).
    pub async fn player_keys(&self, id: &str) -> Result<[Option<String>; 2]> {
        self.with_game(id, |g| match &g.record.online {
            Some(o) => [Some(o.seats[0].key.clone()), Some(o.seats[1].key.clone())],
            None => [None, None],
        })
        .await
    }

    /// A round trip of `rtt_ms` measured on the socket of the holder of `seats` in game `id`.
    pub async fn observe_lag(&self, id: &str, seats: &[Color], rtt_ms: u64) {
        let Ok(slot) = self.slot(id).await else { return };
        if let Ok(mut lag) = slot.lag.lock() {
            for c in seats {
                lag[c.index()].observe_round_trip(rtt_ms);
            }
        };
    }

    /// Pushes a chat message to the game's sockets here (the other instances hear of it from
    /// the database).
    pub(crate) fn publish_chat(&self, id: &str, line: &ChatLine) {
        if let Some(slot) = self.inner.games.lock().ok().and_then(|g| g.get(id).cloned()) {
            let _ = slot.chat.send(Arc::new(line.clone()));
        }
    }

    /// A receiver of game `id`'s chat messages from now on.
    pub async fn subscribe_chat(&self, id: &str) -> Result<broadcast::Receiver<Arc<ChatLine>>> {
        Ok(self.slot(id).await?.chat.subscribe())
    }

    /// Another instance stored a chat message of game `id`: pushes the messages this instance
    /// has not pushed yet to its sockets.
    pub(crate) async fn chat_changed(&self, id: &str, after: &mut HashMap<String, i64>) -> Result<()> {
        if !self.inner.games.lock().map_err(poisoned)?.contains_key(id) {
            return Ok(());
        }
        let from = after.get(id).copied().unwrap_or(0);
        let mut last = from;
        for room in ["players", "spectators"] {
            for line in self.inner.db.chat(id, room, from, crate::chat::HISTORY).await? {
                last = last.max(line.seq);
                self.publish_chat(id, &line);
            }
        }
        after.insert(id.to_string(), last);
        Ok(())
    }

    /// Ends game `id` at its deadline if that has passed: the player to move loses on time, or
    /// a missed first move aborts it. Of all the instances trying, one stores it; the others
    /// take the stored game. Returns whether this call ended the game.
    pub async fn expire(&self, id: &str) -> Result<bool> {
        let slot = self.slot(id).await?;
        let mut g = slot.game.lock().await;
        if self.inner.db.kind() == "postgres" {
            // Another instance may have taken a move or ended the game a moment ago.
            self.reload_locked(&slot, &mut g).await?;
        }
        let ply = g.game.ply();
        let snapshot = g.clone();
        let now = crate::time::clock_ms();
        if g.expire(now).is_none() {
            return Ok(false);
        }
        match self.inner.db.claim_deadline(&g, ply).await {
            Ok(true) => {}
            Ok(false) => {
                *g = snapshot;
                self.reload_locked(&slot, &mut g).await?;
                return Ok(false);
            }
            Err(e) => {
                *g = snapshot;
                return Err(e);
            }
        }
        self.inner.deadlines_claimed.fetch_add(1, Ordering::Relaxed);
        if g.flagged().is_some() {
            metrics::counter!("reversi_flags_total").increment(1);
        }
        slot.stop_ai();
        if let (Some(o), true) = (g.record.online.as_ref(), g.game.ply() <= 1) {
            // A tournament game nobody started: its absent player is paired no more.
            if let (Some(t), Some(c)) = (o.tournament.clone(), o.flagged) {
                let key = o.seats[c.index()].key.clone();
                metrics::counter!("reversi_forfeits_total").increment(1);
                self.forfeited(&t, &key).await;
            }
        }
        self.rate_locked(&mut g).await?;
        slot.publish(&g);
        Ok(true)
    }

    /// Applies the ratings of the game held in `g` if it is a finished rated game not rated yet.
    async fn rate_locked(&self, g: &mut LiveGame) -> Result<()> {
        if g.is_over() && g.record.online.as_ref().is_some_and(|o| o.rated) {
            self.inner.db.apply_ratings(g, crate::time::clock_ms()).await?;
            g.bump_version();
        }
        Ok(())
    }

    /// Applies the ratings of finished game `id` if not done yet (after a restart).
    pub(crate) async fn rate_finished(&self, id: &str) -> Result<()> {
        let slot = self.slot(id).await?;
        let mut g = slot.game.lock().await;
        self.rate_locked(&mut g).await?;
        slot.publish(&g);
        Ok(())
    }
}

impl AppState {
    /// Removes the name of deleted account `user_id` from the games held here (the database
    /// lost it already; other instances read it again when they next load the game).
    pub(crate) async fn forget_name(&self, user_id: &str) {
        let slots: Vec<Arc<Slot>> = match self.inner.games.lock() {
            Ok(g) => g.values().cloned().collect(),
            Err(_) => return,
        };
        for slot in slots {
            let mut g = slot.game.lock().await;
            let Some(o) = g.record.online.as_mut() else {
                continue;
            };
            let mut changed = false;
            for s in o.seats.iter_mut().filter(|s| s.key == user_id) {
                s.name = None;
                changed = true;
            }
            if changed {
                g.bump_version();
                slot.publish(&g);
            }
        }
    }
}

/// Who is connected ([`crate::presence`]): each socket's arrival and departure, the counts of
/// the other instances, and the claim of a win from a player who left.
impl AppState {
    /// A socket holding `seats` (none: a spectator) opened on game `id`.
    pub(crate) async fn enter(&self, id: &str, seats: &[Color]) {
        self.presence_step(id, seats, true).await;
    }

    /// A socket holding `seats` closed.
    pub(crate) async fn leave(&self, id: &str, seats: &[Color]) {
        self.presence_step(id, seats, false).await;
    }

    async fn presence_step(&self, id: &str, seats: &[Color], enter: bool) {
        let Ok(slot) = self.slot(id).await else { return };
        let _writing = slot.presence_write.lock().await;
        let counts = {
            let Ok(mut l) = slot.local.lock() else { return };
            let now = now_ms();
            let step = |n: &mut u32| {
                *n = if enter {
                    n.saturating_add(1)
                } else {
                    n.saturating_sub(1)
                };
                *n == 0
            };
            if seats.is_empty() {
                step(&mut l.spectators);
            }
            for c in seats {
                if step(&mut l.seats[c.index()]) && !enter {
                    l.left[c.index()] = Some(now);
                }
            }
            l.alive_at = now;
            *l
        };
        if let Err(e) = self.inner.db.store_presence(id, &counts).await {
            tracing::warn!("storing who is connected to game {id}: {e}");
        }
        if let Err(e) = self.reread_presence(&slot).await {
            tracing::warn!("reading who is connected to game {id}: {e}");
        }
    }

    /// Reads game `id`'s presence again if it is held here (another instance's counts changed).
    pub(crate) async fn presence_changed(&self, id: &str) -> Result<()> {
        let slot = match self.inner.games.lock().map_err(poisoned)?.get(id) {
            Some(s) => Arc::clone(s),
            None => return Ok(()),
        };
        self.reread_presence(&slot).await
    }

    /// The presence of the game in `slot` from every instance's stored counts; pushed to its
    /// sockets when it changed.
    async fn reread_presence(&self, slot: &Slot) -> Result<()> {
        let id = slot.game.lock().await.record.id.clone();
        let rows = self.inner.db.presence(&id).await?;
        let mut g = slot.game.lock().await;
        let p = self.presence_of(&g, &rows);
        if p != g.presence {
            // Only who is connected changed: a small event, not the whole state again.
            g.presence = p;
            let view = g.presence_view(now_ms());
            if slot.tx.receiver_count() > 0 {
                let json = serde_json::to_string(&view).unwrap_or_default();
                let _ = slot.tx.send(Arc::new(GameEvent::Presence(json)));
            }
        }
        Ok(())
    }

    fn presence_of(&self, g: &LiveGame, rows: &[InstanceCounts]) -> Presence {
        let floor = (g.record.created_at.saturating_mul(1000)).max(self.inner.started_at);
        Presence::of(rows, now_ms(), floor)
    }

    /// Games held here whose players are connected only at other instances: their counts are
    /// read again now and then, in case such an instance stopped without a word.
    pub(crate) async fn recheck_remote_presence(&self) {
        let slots: Vec<Arc<Slot>> = match self.inner.games.lock() {
            Ok(g) => g.values().cloned().collect(),
            Err(_) => return,
        };
        for slot in slots {
            let local = slot.local.lock().map(|l| l.seats).unwrap_or_default();
            let remote = {
                let g = slot.game.lock().await;
                !g.is_over() && (0..2).any(|c| g.presence.away_since[c].is_none() && local[c] == 0)
            };
            if remote {
                if let Err(e) = self.reread_presence(&slot).await {
                    tracing::warn!("rechecking who is connected: {e}");
                }
            }
        }
    }

    /// Claims the win for the holder of `token` from an opponent who left the game
    /// ([`crate::presence`]).
    pub async fn claim(&self, id: &str, token: Option<&str>) -> Result<GameView> {
        let slot = self.slot(id).await?;
        let rows = self.inner.db.presence(id).await?;
        let mut g = slot.game.lock().await;
        if self.inner.db.kind() == "postgres" {
            // The opponent may have moved at another instance a moment ago.
            self.reload_locked(&slot, &mut g).await?;
        }
        let seats = g.record.seats_of(token);
        let claimant = match seats[..] {
            [] => return Err(seat_error(token)),
            [c] => c,
            _ => {
                return Err(Error::Conflict(
                    "cannot_claim",
                    "you hold both seats: nobody left this game".into(),
                ))
            }
        };
        g.presence = self.presence_of(&g, &rows);
        let snapshot = g.clone();
        g.claim_win(claimant, now_ms())?;
        slot.stop_ai();
        if let Err(e) = self.inner.db.update_game(&g).await {
            *g = snapshot;
            return Err(e);
        }
        self.rate_locked(&mut g).await?;
        Ok(slot.publish(&g))
    }
}
