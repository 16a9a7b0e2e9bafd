//! Starting the application: the database opened, the state built, and the background tasks
//! that run as long as it lives — the follower of other instances' changes (PostgreSQL), the
//! sweep that lets idle games leave memory, the sweep that closes abandoned games, the
//! analysis worker, the clocks' timers and sweep, the pairing of the pools, the tournaments'
//! ticks and the retention clean-up. Each task holds the state weakly and ends when the state
//! is dropped.

use crate::config::Config;
use crate::db::{Change, Db, Listener};
use crate::error::Result;
use crate::state::{AppState, Inner};
use std::sync::{Arc, Weak};
use std::time::Duration;

impl AppState {
    /// Opens the database and sets up the state, with its background tasks. On PostgreSQL it
    /// also listens for the changes other server instances make to the games it holds, and
    /// pushes them to its own websocket clients.
    pub async fn new(config: Config) -> Result<AppState> {
        if config.metrics_token.is_some() {
            crate::prometheus::install();
        }
        let db = Db::connect_with_clock(&config.database_url, config.clock.clone()).await?;
        let listener = db.listen().await?;
        if !db.shared() {
            // One process owns the file: an analysis still marked running was cut short.
            let n = db.analyses().requeue_running_analyses().await?;
            if n > 0 {
                tracing::info!("{n} interrupted game analyses queued again");
            }
        }
        let key = db
            .meta()
            .meta_or_insert("signing_key", || crate::secret::random_string(43))
            .await?;
        let rekeyed = db
            .accounts()
            .rekey_names(
                reversi_site::account::SKELETON_VERSION,
                reversi_site::account::skeleton,
            )
            .await?;
        if rekeyed > 0 {
            tracing::info!("{rekeyed} account names keyed again under the new look-alike rules");
        }
        let state = AppState::with_db(db, config, crate::secret::Signer::new(key.as_bytes()));
        state.rounds().resume_clocks().await?;
        let weak = Arc::downgrade(&state.inner);
        let room = state.rounds().downgrade();
        let timers = state.inner.deadline_rx.lock().ok().and_then(|mut r| r.take());
        if let Some(rx) = timers {
            tokio::spawn(crate::round::timers::run(
                room.clone(),
                state.db().clock().clone(),
                rx,
            ));
        }
        tokio::spawn(crate::round::timers::sweep(room));
        tokio::spawn(crate::lobby::pairing_task(weak.clone()));
        tokio::spawn(crate::tournaments::tournament_task(weak.clone()));
        if let Some(listener) = listener {
            tokio::spawn(follow_changes(weak.clone(), listener));
        }
        if let Some(idle) = state.config().idle_evict {
            tokio::spawn(sweep_idle(weak.clone(), idle));
        }
        if let Some(after) = state.config().abandon_after {
            tokio::spawn(sweep_abandoned(weak.clone(), after));
        }
        tokio::spawn(sweep_retention(weak.clone()));
        tokio::spawn(crate::notify::deliver_task(weak.clone()));
        tokio::spawn(crate::analysis::worker(weak));
        Ok(state)
    }
}

/// Evicts idle games from memory every so often, until the state is dropped.
async fn sweep_idle(state: Weak<Inner>, idle: Duration) {
    let every = (idle / 4).clamp(Duration::from_millis(100), Duration::from_secs(60));
    loop {
        tokio::time::sleep(every).await;
        let Some(inner) = state.upgrade() else { return };
        let n = AppState { inner }.rounds().evict_idle(idle);
        if n > 0 {
            tracing::debug!("{n} idle games left memory");
        }
    }
}

/// Closes the games nobody has changed for `after` as abandoned, every so often (at once at
/// start, then every hour or `after / 4`, whichever is shorter), until the state is dropped.
/// Each game goes through the state, so players watching it see it end.
async fn sweep_abandoned(state: Weak<Inner>, after: Duration) {
    let every = (after / 4).clamp(Duration::from_millis(100), Duration::from_secs(3600));
    loop {
        let Some(inner) = state.upgrade() else { return };
        let state_now = AppState { inner };
        let before = state_now.db().clock().now_s() - after.as_secs() as i64;
        match state_now.db().games().idle_games(before, 500).await {
            Ok(ids) => {
                let mut n = 0;
                for id in ids {
                    match state_now.rounds().abandon(&id).await {
                        Ok(true) => n += 1,
                        Ok(false) => {}
                        Err(e) => tracing::warn!("closing abandoned game {id}: {e}"),
                    }
                }
                if n > 0 {
                    tracing::info!("{n} abandoned games closed");
                }
            }
            Err(e) => tracing::warn!("looking for abandoned games: {e}"),
        }
        drop(state_now);
        tokio::time::sleep(every).await;
    }
}

/// How often the retention policy is applied (`db::retention`).
const RETENTION_EVERY: Duration = Duration::from_secs(3600);

/// Applies the retention policy at start and then every [`RETENTION_EVERY`], until the state
/// is dropped.
async fn sweep_retention(state: Weak<Inner>) {
    loop {
        let Some(inner) = state.upgrade() else { return };
        match inner.db.purge_old(inner.db.clock().now_ms()).await {
            Ok(p) if p != Default::default() => tracing::info!(
                "retention: {} expired sessions, {} seek records, {} chat lines, {} presence rows, \
                 {} expired games, {} throttle counters, {} expired mailed links removed",
                p.sessions,
                p.seek_games,
                p.chat,
                p.presence,
                p.games,
                p.throttle,
                p.mail_links
            ),
            Ok(_) => {}
            Err(e) => tracing::warn!("retention: {e}"),
        }
        drop(inner);
        tokio::time::sleep(RETENTION_EVERY).await;
    }
}

/// How often the presence of players connected only at other instances is read again (one of
/// them may have stopped without a word): half of [`reversi_site::game::presence::STALE_MS`].
const PRESENCE_RECHECK: Duration = Duration::from_millis(reversi_site::game::presence::STALE_MS as u64 / 2);

/// Follows the changes other instances make (PostgreSQL `LISTEN`), until the state is dropped.
async fn follow_changes(state: Weak<Inner>, mut listener: Listener) {
    // The last chat message pushed here, per game.
    let mut chat_seen = std::collections::HashMap::new();
    let mut recheck = tokio::time::Instant::now();
    loop {
        let next = tokio::time::timeout(Duration::from_secs(2), listener.next()).await;
        let Some(inner) = state.upgrade() else { return };
        let state = AppState { inner };
        if recheck.elapsed() >= PRESENCE_RECHECK {
            recheck = tokio::time::Instant::now();
            state.rounds().recheck_remote_presence();
        }
        let ids = match next {
            Err(_) => continue, // no news; check that the state is still alive
            Ok(Ok(Some(Change::Presence(id)))) => {
                state.rounds().presence_changed(&id);
                continue;
            }
            Ok(Ok(Some(Change::Game(id)))) => vec![id],
            Ok(Ok(Some(Change::Chat(id)))) => {
                if let Err(e) = state.rounds().chat_changed(&id, &mut chat_seen).await {
                    tracing::warn!("chat of game {id}: {e}");
                }
                continue;
            }
            Ok(Ok(Some(Change::Lobby))) => {
                state.db().lobby_changed();
                continue;
            }
            Ok(Ok(Some(Change::Topic(topic)))) => {
                state.db().announce(topic);
                continue;
            }
            // Reconnected: notifications may have been missed.
            Ok(Ok(None)) => {
                state.db().lobby_changed();
                state.db().announce(crate::db::Topic::Everything);
                state.rounds().held()
            }
            Ok(Err(e)) => {
                tracing::warn!("database notifications: {e}");
                tokio::time::sleep(Duration::from_secs(1)).await;
                state.rounds().held()
            }
        };
        for id in ids {
            if let Err(e) = state.rounds().refresh(&id).await {
                tracing::warn!("refreshing game {id}: {e}");
            }
        }
    }
}
