//! Who is connected to the game ([`reversi_site::game::presence`]): each socket's arrival and
//! departure at this instance, stored so that the other instances count it; the counts of the
//! other instances, read again when they change; a small event to the sockets when the sum
//! changed.

use super::actor::Round;
use super::events::GameEvent;
use crate::error::Result;
use reversi_core::Color;
use reversi_site::game::presence::{InstanceCounts, Presence};
use std::sync::Arc;

impl Round {
    /// A socket holding `seats` (none: a spectator) opened (`enter`) or closed.
    pub(super) async fn presence_step(&mut self, seats: &[Color], enter: bool) {
        let now = self.shared.db.clock().now_ms();
        let step = |n: &mut u32| {
            *n = if enter {
                n.saturating_add(1)
            } else {
                n.saturating_sub(1)
            };
            *n == 0
        };
        if seats.is_empty() {
            step(&mut self.local.spectators);
        }
        for c in seats {
            if step(&mut self.local.seats[c.index()]) && !enter {
                self.local.left[c.index()] = Some(now);
            }
        }
        self.local.alive_at = now;
        let id = self.game.record.id.clone();
        if let Err(e) = self.shared.db.presence().store_presence(&id, &self.local).await {
            tracing::warn!("storing who is connected to game {id}: {e}");
        }
        if let Err(e) = self.reread_presence().await {
            tracing::warn!("reading who is connected to game {id}: {e}");
        }
    }

    /// The presence of the game from every instance's stored counts; pushed to its sockets
    /// when it changed.
    pub(super) async fn reread_presence(&mut self) -> Result<()> {
        let rows = self.shared.db.presence().counts(&self.game.record.id).await?;
        let p = self.presence_of(&rows);
        if p != self.game.presence {
            // Only who is connected changed: a small event, not the whole state again.
            self.game.presence = p;
            if self.events.receiver_count() > 0 {
                let view = self.game.presence_view(self.shared.db.clock().clock_ms());
                let json = serde_json::to_string(&view).unwrap_or_default();
                let _ = self.events.send(Arc::new(GameEvent::Presence(json)));
            }
        }
        Ok(())
    }

    /// The presence the stored `rows` give at this instance now: no absence counts from before
    /// the game began or this instance started.
    pub(super) fn presence_of(&self, rows: &[InstanceCounts]) -> Presence {
        let floor = (self.game.record.created_at.saturating_mul(1000)).max(self.shared.started_at);
        Presence::of(rows, self.shared.db.clock().now_ms(), floor)
    }

    /// Reads the counts again if a player of the game, still played, is connected only at other
    /// instances (one of which may have stopped without a word).
    pub(super) async fn recheck_remote_presence(&mut self) {
        let remote = !self.game.is_over()
            && (0..2).any(|c| self.game.presence.away_since[c].is_none() && self.local.seats[c] == 0);
        if remote {
            if let Err(e) = self.reread_presence().await {
                tracing::warn!("rechecking who is connected: {e}");
            }
        }
    }
}
