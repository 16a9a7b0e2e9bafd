//! The rematch of a finished game: the same variant (the same XOT opening or hole), mode and
//! level, the colours swapped. The first seat holder to ask makes it (and every watcher of the
//! old game sees its id in `rematch`); the other then gets their seat in it.

use super::actor::Round;
use super::{Command, Seated};
use crate::error::{Error, Result};
use crate::secret::random_string;
use reversi_core::Color;
use reversi_site::game::online::{Online, SeatInfo, Timing};
use reversi_site::game::{GameRecord, LiveGame, Mode, PlayerKind};
use tokio::sync::oneshot;

impl Round {
    /// The rematch for the holder of `token`; `true` when this call made it.
    pub(super) async fn rematch(&mut self, token: Option<&str>) -> Result<(Seated, bool)> {
        for _ in 0..3 {
            let seats = self.seats(token)?;
            if !self.game.is_over() && self.shared_storage() {
                // Another instance may have ended it a moment ago.
                self.reload().await?;
            }
            if !self.game.is_over() {
                return Err(Error::NotFinished(
                    "the game is not finished yet; a rematch starts after it".into(),
                ));
            }
            if self.game.in_tournament() {
                return Err(Error::Conflict(
                    "no_rematch",
                    "tournament games have no rematch: the tournament pairs the next game".into(),
                ));
            }
            if let Some(new_id) = self.game.record.rematch.clone() {
                return Ok((self.rematch_seat(&new_id, &seats).await?, false));
            }
            let now = self.shared.db.clock().clock_ms();
            let live = LiveGame::new(rematch_record(&self.game.record, now), now);
            if !self
                .shared
                .db
                .games()
                .insert_rematch(&self.game.record.id, &live)
                .await?
            {
                // Another instance started one meanwhile: take the stored state.
                self.reload().await?;
                continue;
            }
            self.game.record.rematch = Some(live.record.id.clone());
            self.bump();
            self.publish();
            let new_seats = swapped(&seats);
            let token = live.record.tokens[new_seats[0].index()]
                .clone()
                .ok_or_else(|| Error::Internal("rematch seat without a token".into()))?;
            let invite = live.record.join_token.clone();
            let view = live.view(self.shared.db.clock().clock_ms());
            match self.rounds.upgrade() {
                Some(rounds) => {
                    rounds.hold(live);
                }
                None => return Err(Error::Internal("the server is stopping".into())),
            }
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

    /// The seat in rematch `new_id` of the holder of `old_seats` in this game.
    async fn rematch_seat(&self, new_id: &str, old_seats: &[Color]) -> Result<Seated> {
        let rounds = self
            .rounds
            .upgrade()
            .ok_or_else(|| Error::Internal("the server is stopping".into()))?;
        let seats = swapped(old_seats);
        let first = seats[0];
        let now = self.shared.db.clock().clock_ms();
        let (view, token, invite) = rounds
            .ask(
                new_id,
                |reply: oneshot::Sender<(reversi_site_api::GameView, Option<String>, Option<String>)>| {
                    Command::Read(Box::new(move |g| {
                        let _ = reply.send((
                            g.view(now),
                            g.record.tokens[first.index()].clone(),
                            g.record.join_token.clone(),
                        ));
                    }))
                },
            )
            .await?;
        let token = token.ok_or_else(|| Error::Internal("rematch seat without a token".into()))?;
        Ok(Seated {
            view,
            token,
            seats,
            invite,
        })
    }
}

/// The record of the rematch of `old`.
fn rematch_record(old: &GameRecord, now: u64) -> GameRecord {
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
    GameRecord {
        id: random_string(10),
        variant: old.variant,
        tie: old.tie,
        mode: old.mode,
        level: old.level,
        players,
        tokens,
        resigned: None,
        left: false,
        created_at: (now / 1000) as i64,
        rematch: None,
        // A seat still free in the rematch is kept for the same invite link.
        join_token: open.then(|| old.join_token.clone().unwrap_or_else(|| random_string(24))),
        void: None,
        online: old.online.as_ref().map(|o| rematch_online(o, now)),
    }
}

/// The online part of the rematch of an online game: the colours swapped, the ratings as the
/// game left them, a fresh clock.
fn rematch_online(o: &Online, now: u64) -> Online {
    let seat = |s: &SeatInfo| SeatInfo {
        rating: s.rating.map(|r| r + s.diff.unwrap_or(0)),
        diff: None,
        ..s.clone()
    };
    Online {
        seats: [seat(&o.seats[1]), seat(&o.seats[0])],
        rated: o.rated,
        timing: o.timing.map(|t| Timing::new(t.clock.control, now)),
        flagged: None,
        tournament: None,
        private: false,
    }
}

/// The other colour of each seat, black first.
fn swapped(seats: &[Color]) -> Vec<Color> {
    Color::ALL.into_iter().filter(|c| seats.contains(&!*c)).collect()
}
