//! The server's settings ([`Config`]): the database, the engines, the limits on every size and
//! rate, the proxies believed, the metrics token, the mail. `reversi serve` fills them from its options,
//! environment and configuration file.

use std::sync::Arc;
use std::time::Duration;

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

/// Accounts made per address per quarter hour, by default ([`Config::signups_per_address`]).
pub const SIGNUPS_PER_ADDRESS: u32 = 5;

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
    /// Accounts one address may make per quarter hour (the sign-in throttle's window); by
    /// default [`SIGNUPS_PER_ADDRESS`].
    pub signups_per_address: u32,
    /// Games (against the computer, with a friend, on one device) one address may create per
    /// hour: every game is stored for good, so creation is a way to fill the disk.
    pub games_per_address_hour: u32,
    /// Proxies whose `X-Forwarded-For` names the client (for the per-address limits).
    pub trusted_proxies: Vec<ipnet::IpNet>,
    /// The bearer token of `GET /metrics` (`None`: no metrics, the route answers 404).
    pub metrics_token: Option<String>,
    /// How the site mails (address verification, password reset): `None` sends nothing, and
    /// the pages say a forgotten password cannot be reset here.
    pub mail: Option<crate::mail::Mailer>,
    /// How often every running tournament is looked at (a start, a round after its break, an
    /// arena's end). The end of a tournament game is acted on at once, not at the next look.
    pub tournament_tick: Duration,
    /// Where the server reads the time (the system clock; tests move an adjustable one).
    pub clock: crate::time::Clock,
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
            signups_per_address: SIGNUPS_PER_ADDRESS,
            games_per_address_hour: 600,
            trusted_proxies: Vec::new(),
            metrics_token: None,
            mail: None,
            tournament_tick: crate::tournaments::TICK_EVERY,
            clock: crate::time::Clock::system(),
        }
    }
}

/// `url` with the password of its `USER:PASSWORD@` masked (`postgres://u:****@host/db`): what a
/// log, `--print-config` or `Debug` may show of a database or SMTP URL.
pub fn masked_url(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(s), Some(at)) if at > s => match url[s + 3..at].split_once(':') {
            Some((user, _)) => format!("{}{user}:****{}", &url[..s + 3], &url[at..]),
            None => url.to_string(),
        },
        _ => url.to_string(),
    }
}
