//! What the site keeps, and for how long: the clean-up the retention task runs (hourly, in
//! small batches, so that play never waits on it). The policy, as docs/hosting.md states it:
//!
//! - sessions: until they expire (30 days without signing in again);
//! - where a lobby seek went: an hour (the owner's page finds its game within seconds);
//! - chat, of games and of tournaments: a year;
//! - who is connected to a game: until the game is over and nobody is (a day for the rows of
//!   an instance that stopped);
//! - games: for ever (finished games are the archive; games nobody moves in are closed as
//!   abandoned by their own sweep, and stay as records), except the games a guest imported,
//!   which go after 30 days (`crate::import::GUEST_IMPORT_DAYS`) with all that is stored
//!   about them;
//! - the throttles' counters: until their window (at most a day) has passed.

use super::Db;
use crate::error::Result;

/// How long chat lines are kept, ms: a year.
pub const CHAT_KEEP_MS: i64 = 365 * 86_400_000;
/// How long the record of the game a seek became is kept, ms.
pub const SEEK_GAME_KEEP_MS: i64 = 3_600_000;
pub use super::PURGE_BATCH as BATCH;

/// What one clean-up removed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Purged {
    /// Expired sessions.
    pub sessions: u64,
    /// Old seek-to-game records.
    pub seek_games: u64,
    /// Old chat lines (games' and tournaments').
    pub chat: u64,
    /// Presence rows of finished games and of instances gone for a day.
    pub presence: u64,
    /// Expired games (a guest's imports).
    pub games: u64,
    /// Throttle counters whose window has passed.
    pub throttle: u64,
    /// Mailed links that expired unused.
    pub mail_links: u64,
}

/// The longest window of a throttle counter (the daily quotas), ms.
pub const THROTTLE_KEEP_MS: i64 = 86_400_000;

impl Db {
    /// Removes what the retention policy no longer keeps at `now` (Unix ms).
    pub async fn purge_old(&self, now: i64) -> Result<Purged> {
        let sessions = self.accounts().purge_sessions(now).await?;
        let mail_links = self.mail_tokens().purge(now).await?;
        let games = self.games().purge_expired_games(now, BATCH / 10).await?.len() as u64;
        let throttle = self.throttle().purge_throttle(now - THROTTLE_KEEP_MS).await?;
        let chat_before = now - CHAT_KEEP_MS;
        with_pool!(self, pool => {
            let seek_games = sqlx::query(
                "DELETE FROM seek_games WHERE seek_id IN \
                 (SELECT seek_id FROM seek_games WHERE at < $1 LIMIT $2)",
            )
            .bind(now - SEEK_GAME_KEEP_MS)
            .bind(BATCH)
            .execute(pool)
            .await?
            .rows_affected();
            let mut chat = 0;
            for (table, key) in [("chat", "game_id"), ("tournament_chat", "tournament_id")] {
                chat += sqlx::query(&format!(
                    "DELETE FROM {table} WHERE ({key}, seq) IN \
                     (SELECT {key}, seq FROM {table} WHERE at < $1 LIMIT $2)"
                ))
                .bind(chat_before)
                .bind(BATCH)
                .execute(pool)
                .await?
                .rows_affected();
            }
            let presence = self.presence().purge_presence(now - super::presence::GONE_INSTANCE_KEEP_MS).await?;
            Ok(Purged {
                sessions,
                seek_games,
                chat,
                presence,
                games,
                throttle,
                mail_links,
            })
        })
    }
}
