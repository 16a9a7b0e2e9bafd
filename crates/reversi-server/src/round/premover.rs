//! Conditional premoves in correspondence games ([`reversi_site::game::conditional`]): a
//! player leaves lines while the opponent is to move; when a move of the opponent follows one,
//! the game plays the player's answer for them, as if they had sent it.

use super::actor::Round;
use crate::error::{Error, Result};
use reversi_site::game::GameError;
use reversi_site_api::GameView;

impl Round {
    /// The conditional premoves of the holder of `token` (its one seat): sets them to `lines`
    /// when given (none clears them), and answers them as stored.
    pub(super) async fn conditional(
        &mut self,
        token: Option<&str>,
        lines: Option<Vec<String>>,
    ) -> Result<Vec<String>> {
        let seats = self.seats(token)?;
        let [by] = seats[..] else {
            return Err(GameError::Conditional("conditional premoves need one seat, not both".into()).into());
        };
        if let Some(lines) = lines {
            if self.shared_storage() {
                // A move made at another instance a moment ago changes what is legal.
                self.reload().await?;
            }
            let snapshot = self.game.clone();
            if let Err(e) = self.game.set_conditional(by, &lines) {
                self.game = snapshot;
                return Err(e.into());
            }
            if let Err(e) = self.shared.db.games().update_game(&self.game).await {
                self.game = snapshot;
                return Err(e);
            }
        }
        Ok(self.game.conditional[by.index()]
            .as_ref()
            .map(|c| c.texts())
            .unwrap_or_default())
    }

    /// After a move: if the side now to move left a line the moves follow, its answer is played
    /// for it (and so on, while lines answer); lines the game has left are dropped. The state
    /// after the last answer, if one was played.
    pub(super) async fn play_conditional(&mut self) -> Option<GameView> {
        let side = self.game.to_move()?;
        let Some(mv) = self.game.conditional_reply() else {
            if self.game.conditional[side.index()].take().is_some() {
                if let Err(e) = self.shared.db.games().update_game(&self.game).await {
                    tracing::warn!("game {}: dropping conditional premoves: {e}", self.game.record.id);
                }
            }
            return None;
        };
        let token = self.game.record.tokens[side.index()].clone();
        let ply = self.game.game.ply();
        match Box::pin(self.play(token.as_deref(), &mv.to_string(), Some(ply))).await {
            Ok(view) => Some(view),
            Err(Error::GameOver) => None,
            Err(e) => {
                tracing::warn!("game {}: conditional premove {mv}: {e}", self.game.record.id);
                None
            }
        }
    }
}
