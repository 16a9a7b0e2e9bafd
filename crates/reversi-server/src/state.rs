//! The shared state of the server: a holder of its services — the game room ([`Rounds`]), and
//! beside it the settings, storage, the engine pool, the limits — cheap to clone into every
//! handler and background task.

use crate::ai::AiPool;
use crate::config::Config;
use crate::db::Db;
use crate::limit::RateLimiter;
use crate::round::Rounds;
use reversi_site::chat::{AddressFlood, Flood};
use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use tokio::sync::{mpsc, Notify};

pub(crate) struct Inner {
    pub(crate) db: Db,
    pub(crate) ai: Arc<AiPool>,
    pub(crate) config: Config,
    /// The game room.
    pub(crate) rounds: Rounds,
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
    pub(crate) address_floods: Mutex<HashMap<String, AddressFlood>>,
    /// When this instance last stored each account's `seen_at` ([`crate::people::SEEN_EVERY_MS`]).
    pub(crate) seen: Mutex<HashMap<String, u64>>,
    /// The games in progress as `GET /api/live` lists them, and when they were read
    /// ([`crate::profile::LIVE_FRESH`]).
    /// Held by a look at a tournament: the regular look and one after a game's end, at the
    /// same moment, would otherwise both try to start its next round, and the one that lost the
    /// claim would return while the other still makes the round's games.
    pub(crate) tournament_tick: tokio::sync::Mutex<()>,
    pub(crate) live_cache:
        tokio::sync::Mutex<Option<(tokio::time::Instant, Arc<reversi_site_api::LiveGames>)>>,
    /// The receiving end of the game room's deadlines, until the timers task takes it.
    pub(crate) deadline_rx: Mutex<Option<mpsc::UnboundedReceiver<(String, u64)>>>,
    /// `true` once the server stops: websocket sessions hold a receiver each, so the sender's
    /// `closed()` says when the last one has ended.
    stopping: tokio::sync::watch::Sender<bool>,
}

/// The shared state of the server (cheap to clone).
#[derive(Clone)]
pub struct AppState {
    pub(crate) inner: Arc<Inner>,
}

impl AppState {
    /// A state over an open database.
    pub fn with_db(db: Db, config: Config, signer: crate::secret::Signer) -> AppState {
        let (deadlines, deadline_rx) = mpsc::unbounded_channel();
        let ai = Arc::new(AiPool::new(
            config.ai_workers,
            config.hash_mib,
            config.ai_time_scale,
            config.book.0.clone(),
        ));
        AppState {
            inner: Arc::new(Inner {
                rounds: Rounds::new(db.clone(), Arc::clone(&ai), deadlines),
                db,
                ai,
                limiter: RateLimiter::new(config.rate_per_sec, config.rate_burst),
                config,
                analysis_wake: Arc::new(Notify::new()),
                board_evaluations: std::sync::atomic::AtomicUsize::new(0),
                signer,
                floods: Mutex::new(HashMap::new()),
                address_floods: Mutex::new(HashMap::new()),
                seen: Mutex::new(HashMap::new()),
                tournament_tick: tokio::sync::Mutex::new(()),
                live_cache: tokio::sync::Mutex::new(None),
                deadline_rx: Mutex::new(Some(deadline_rx)),
                stopping: tokio::sync::watch::Sender::new(false),
            }),
        }
    }

    /// The game room: every game being played or watched.
    pub fn rounds(&self) -> &Rounds {
        &self.inner.rounds
    }

    /// Marks the server as stopping: `/readyz` answers 503 (a balancer sends no new clients)
    /// and every websocket session closes (code 1012, a service restart), so its client
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

    /// The server's clock (every part of the server reads the time from it).
    pub fn clock(&self) -> &crate::time::Clock {
        self.inner.db.clock()
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

    /// The signer of guest identities and known devices.
    pub fn signer(&self) -> &crate::secret::Signer {
        &self.inner.signer
    }
}
