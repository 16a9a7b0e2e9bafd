//! The server's side of timed games: a timer per deadline held in memory (so a flag falls on
//! time even with nobody connected), a sweep of the deadlines stored in the database (games
//! not in memory, after a restart, or held by an instance that went away), and the heartbeat
//! that lets a restart tell how long the whole site was down.
//!
//! Several instances may set a timer for the same game; storage gives the flag to one
//! ([`crate::db::Db::claim_deadline`]). The actor of each game announces its deadline whenever
//! it publishes a state.

use super::{Rounds, WeakRounds};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::time::Duration;
use tokio::sync::mpsc;

/// How often the stored deadlines are swept, and the heartbeat written.
pub const SWEEP_EVERY: Duration = Duration::from_secs(1);

/// A gap in the heartbeat longer than this at start means the whole site was down: the running
/// clocks move on by the gap. (Instances write it every [`SWEEP_EVERY`], so the player to move
/// may get back up to that much of the time used just before the stop, never lose any.)
pub const DOWNTIME_AFTER_MS: i64 = 5_000;

/// Runs the timers fed through `rx` (game id, deadline in Unix ms) until the game room is
/// dropped.
pub(crate) async fn run(
    room: WeakRounds,
    clock: crate::time::Clock,
    mut rx: mpsc::UnboundedReceiver<(String, u64)>,
) {
    let mut heap: BinaryHeap<Reverse<(u64, String)>> = BinaryHeap::new();
    // The latest deadline of each game: an older one still in the heap is skipped (every move
    // sets a new deadline).
    let mut latest: HashMap<String, u64> = HashMap::new();
    loop {
        let now = clock.clock_ms();
        let wait = heap.peek().map_or(Duration::from_secs(3600), |Reverse((at, _))| {
            Duration::from_millis(at.saturating_sub(now))
        });
        tokio::select! {
            msg = rx.recv() => match msg {
                Some((id, at)) => {
                    if latest.insert(id.clone(), at) != Some(at) {
                        heap.push(Reverse((at, id)));
                    }
                }
                None => return,
            },
            // A test's clock may jump past a deadline: look again at once.
            _ = async { tokio::select! { _ = tokio::time::sleep(wait) => {}, _ = clock.moved() => {} } } => {
                let now = clock.clock_ms();
                let mut due = Vec::new();
                while heap.peek().is_some_and(|Reverse((at, _))| *at <= now) {
                    if let Some(Reverse((at, id))) = heap.pop() {
                        if latest.get(&id) == Some(&at) {
                            latest.remove(&id);
                            due.push(id);
                        }
                    }
                }
                let Some(rounds) = room.upgrade() else { return };
                for id in due {
                    if let Err(e) = rounds.expire(&id).await {
                        tracing::warn!("deadline of game {id}: {e}");
                    }
                }
            }
        }
    }
}

/// Sweeps the stored deadlines and writes the heartbeat every [`SWEEP_EVERY`], until the game
/// room is dropped.
pub(crate) async fn sweep(room: WeakRounds) {
    loop {
        tokio::time::sleep(SWEEP_EVERY).await;
        let Some(rounds) = room.upgrade() else { return };
        let now = rounds.shared.db.clock().now_ms();
        if let Err(e) = rounds.shared.db.clocks().heartbeat(now).await {
            tracing::warn!("heartbeat: {e}");
        }
        match rounds.shared.db.clocks().due_games(now, 500).await {
            Ok(ids) => {
                for id in ids {
                    if let Err(e) = rounds.expire(&id).await {
                        tracing::warn!("deadline of game {id}: {e}");
                    }
                }
            }
            Err(e) => tracing::warn!("looking for due deadlines: {e}"),
        }
    }
}

impl Rounds {
    /// At start: if no instance was alive for a while (the whole site was down), moves every
    /// running clock on by the downtime; applies the ratings of games that ended just before a
    /// stop. Returns the clocks moved.
    pub(crate) async fn resume_clocks(&self) -> crate::Result<u64> {
        let now = self.shared.db.clock().now_ms();
        let mut shifted = 0;
        let db = &self.shared.db;
        if let Some(last) = db.clocks().heartbeat(now).await? {
            let gap = now - last;
            if gap > DOWNTIME_AFTER_MS {
                shifted = db.clocks().shift_clocks(gap as u64).await?;
                if shifted > 0 {
                    tracing::info!(
                        "site was down {} s: {shifted} running clocks resume where they stopped",
                        gap / 1000
                    );
                }
            }
        }
        for id in db.ratings().unrated_games(1000).await? {
            self.rate_finished(&id).await?;
        }
        Ok(shifted)
    }
}
