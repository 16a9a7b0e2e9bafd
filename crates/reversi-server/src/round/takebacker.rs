//! Takebacks between people (after lila's takebacker): in a casual game one player asks the
//! other to take back their last move; the other accepts or declines, the asker may withdraw,
//! and any move withdraws the offer. The offer is stored with the game, so that every instance
//! and a restarted server show it.

use super::actor::Round;
use crate::error::{Error, Result};
use reversi_site::game::{GameError, TakebackAsked};
use reversi_site_api::GameView;

impl Round {
    /// For the holder of `token`: asks (`answer` `None`), accepts (`Some(true)`) or declines /
    /// withdraws (`Some(false)`) a takeback.
    pub(super) async fn takeback(&mut self, token: Option<&str>, answer: Option<bool>) -> Result<GameView> {
        if self.shared_storage() {
            // The offer may have been made or answered at another instance a moment ago.
            self.reload().await?;
        }
        let now = self.shared.db.clock().clock_ms();
        if self.game.deadline().is_some_and(|d| d.at() <= now) {
            self.expire().await?;
            return Err(Error::GameOver);
        }
        let seats = self.seats(token)?;
        let [by] = seats[..] else {
            return Err(GameError::TakebackNotAllowed.into());
        };
        let snapshot = self.game.clone();
        let done = match answer {
            None => self.game.ask_takeback(by, now).map(|a| match a {
                TakebackAsked::Asked => None,
                TakebackAsked::TakenBack(ply) => Some(ply),
            }),
            Some(accept) => self.game.answer_takeback(by, accept, now),
        };
        let ply = match done {
            Ok(ply) => ply,
            Err(e) => {
                self.game = snapshot;
                if e == GameError::TimeOut {
                    self.expire().await?;
                }
                return Err(e.into());
            }
        };
        let games = self.shared.db.games();
        let stored = match ply {
            Some(ply) => games.truncate_moves(&self.game, ply).await,
            None => games.update_game(&self.game).await,
        };
        if let Err(e) = stored {
            self.game = snapshot;
            return Err(e);
        }
        Ok(self.publish())
    }
}
