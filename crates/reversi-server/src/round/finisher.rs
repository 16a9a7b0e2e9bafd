//! Everything that ends a game, and what follows an end, in one place: resignation, abort,
//! abandonment, the claim of a win from a player who left, a flag or a missed first move — then
//! the ratings of a rated game (the rating rules are `reversi_site::rating`'s: here they are
//! applied, in the transaction that marks the game rated, exactly once across instances) and the
//! tournament's consequence of a game nobody started (its absent player withdrawn), then the
//! news for the rest of the site ([`super::Finished`]).

use super::actor::Round;
use super::Finished;
use crate::error::{Error, Result};
use reversi_core::Color;
use reversi_site::rating::{rate_game, Score};
use reversi_site_api::GameView;
use std::sync::atomic::Ordering;

impl Round {
    /// What follows the end of the game held here (already stored): its ratings, and the news.
    pub(super) async fn finish(&mut self) -> Result<()> {
        self.stop_search();
        self.rate().await?;
        let online = self.game.record.online.as_ref();
        let tournament = online.and_then(|o| o.tournament.clone());
        // A tournament game nobody started: its absent player is paired no more.
        let forfeit = match (online, self.game.game.ply() <= 1) {
            (Some(o), true) if tournament.is_some() => o.flagged.map(|c| o.seats[c.index()].key.clone()),
            _ => None,
        };
        if let (Some(t), Some(key)) = (&tournament, &forfeit) {
            // A tournament's rule (lichess's arenas do the same): whoever did not start their
            // game is withdrawn, paired no more until they come back.
            metrics::counter!("reversi_forfeits_total").increment(1);
            if let Err(e) = self
                .shared
                .db
                .tournaments()
                .set_entrant(t, key, false, false)
                .await
            {
                tracing::warn!("withdrawing {key} from tournament {t}: {e}");
            }
        }
        if let Some(t) = &tournament {
            // Its standings changed: its pages (at every instance) show it.
            if let Err(e) = self.shared.db.tournaments().touch_tournament(t).await {
                tracing::warn!("tournament {t} after game {}: {e}", self.game.record.id);
            }
        }
        let _ = self.shared.finished.send(Finished {
            game: self.game.record.id.clone(),
            tournament,
            forfeit,
        });
        Ok(())
    }

    /// Applies the ratings of the game held here if it is a finished rated game not rated yet.
    pub(super) async fn rate(&mut self) -> Result<()> {
        let g = &self.game;
        let Some(online) = g.record.online.as_ref() else {
            return Ok(());
        };
        if !g.is_over() || !online.rated || online.seats.iter().any(|s| s.is_guest()) {
            return Ok(());
        }
        let (Some(category), Some(result)) = (online.category(g.record.variant), g.result()) else {
            return Ok(());
        };
        let score = match result.winner {
            Some(reversi_site_api::Side::Black) => Score::Win,
            Some(reversi_site_api::Side::White) => Score::Loss,
            None => Score::Draw,
        };
        let now = self.shared.db.clock().clock_ms();
        let mut seats = online.seats.clone();
        let applied = self
            .shared
            .db
            .ratings()
            .apply_ratings(&g.record.id, &online.seats, category, now, |before| {
                let (b, w) = rate_game(&before[0], &before[1], score, now);
                [b, w]
            })
            .await?;
        if let Some(diffs) = applied {
            seats[0].diff = Some(diffs[0]);
            seats[1].diff = Some(diffs[1]);
            if let Some(o) = self.game.record.online.as_mut() {
                o.seats = seats;
            }
            self.bump();
        }
        Ok(())
    }

    /// Resigns for the holder of `token`: `color` picks the side on a shared device (default:
    /// the side to move).
    pub(super) async fn resign(&mut self, token: Option<&str>, color: Option<Color>) -> Result<GameView> {
        let seats = self.seats(token)?;
        let color = match color {
            Some(c) if seats.contains(&c) => c,
            Some(c) => return Err(Error::NotYourSeat(format!("you do not play {}", c.name()))),
            None if seats.len() == 1 => seats[0],
            None => self.game.game.side_to_move(),
        };
        let now = self.shared.db.clock().clock_ms();
        self.change(|g| Ok(g.resign(color, now)?)).await?;
        self.finish().await?;
        Ok(self.publish())
    }

    /// Aborts the game for a seat holder, while the two sides have not both moved.
    pub(super) async fn abort(&mut self, token: Option<&str>) -> Result<GameView> {
        self.seats(token)?;
        let now = self.shared.db.clock().clock_ms();
        self.change(|g| Ok(g.abort(now)?)).await?;
        self.stop_search();
        Ok(self.publish())
    }

    /// Closes the game as abandoned if it is still being played (the idle sweep). A timed game
    /// ends at its deadline instead (a correspondence move may take two weeks).
    pub(super) async fn abandon(&mut self) -> Result<bool> {
        if self.game.is_over() || self.game.deadline().is_some() {
            return Ok(false);
        }
        let now = self.shared.db.clock().clock_ms();
        self.change(|g| Ok(g.abandon(now)?)).await?;
        self.stop_search();
        self.publish();
        Ok(true)
    }

    /// Closes the game for a moderator: no result, whatever its clock or deadline.
    pub(super) async fn close(&mut self) -> Result<GameView> {
        if self.shared_storage() {
            // Another instance may have ended it a moment ago.
            self.reload().await?;
        }
        let now = self.shared.db.clock().clock_ms();
        self.change(|g| Ok(g.close(now)?)).await?;
        self.stop_search();
        self.publish();
        Ok(self.view())
    }

    /// Claims the win for the holder of `token` from an opponent who left the game.
    pub(super) async fn claim(&mut self, token: Option<&str>) -> Result<GameView> {
        let rows = self.shared.db.presence().counts(&self.game.record.id).await?;
        if self.shared_storage() {
            // The opponent may have moved at another instance a moment ago.
            self.reload().await?;
        }
        let seats = self.game.record.seats_of(token);
        let claimant = match seats[..] {
            [] => return Err(super::seat_error(token)),
            [c] => c,
            _ => {
                return Err(Error::Conflict(
                    "cannot_claim",
                    "you hold both seats: nobody left this game".into(),
                ))
            }
        };
        self.game.presence = self.presence_of(&rows);
        let now = self.shared.db.clock().clock_ms();
        self.change(|g| Ok(g.claim_win(claimant, now)?)).await?;
        self.finish().await?;
        Ok(self.publish())
    }

    /// Ends the game at its deadline if that has passed: the player to move loses on time, or a
    /// missed first move aborts it. Of all the instances trying, one stores it; the others take
    /// the stored game. Returns whether this call ended the game.
    pub(super) async fn expire(&mut self) -> Result<bool> {
        if self.shared_storage() {
            // Another instance may have taken a move or ended the game a moment ago.
            self.reload().await?;
        }
        let ply = self.game.game.ply();
        let snapshot = self.game.clone();
        if self.game.expire(self.shared.db.clock().clock_ms()).is_none() {
            return Ok(false);
        }
        match self.shared.db.clocks().claim_deadline(&self.game, ply).await {
            Ok(true) => {}
            Ok(false) => {
                self.game = snapshot;
                self.reload().await?;
                return Ok(false);
            }
            Err(e) => {
                self.game = snapshot;
                return Err(e);
            }
        }
        self.shared.deadlines_claimed.fetch_add(1, Ordering::Relaxed);
        if self.game.flagged().is_some() {
            metrics::counter!("reversi_flags_total").increment(1);
        }
        self.finish().await?;
        self.publish();
        Ok(true)
    }
}
