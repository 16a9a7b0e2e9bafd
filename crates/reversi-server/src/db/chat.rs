//! Chat lines, stored with their game.

use super::Db;
use crate::error::Result;
use sqlx::Row;

/// Messages one page of the chat history holds at most.
pub const HISTORY: u32 = 200;

/// A stored chat message (as readers of the room get it).
pub use reversi_site_api::ChatLine;

/// The repository of chat.
pub struct Chat<'a>(pub(super) &'a Db);

impl Chat<'_> {
    /// Stores a message of game `game_id` and returns it numbered.
    pub async fn insert_chat(
        &self,
        game_id: &str,
        room: &str,
        author: Option<&str>,
        user_id: Option<&str>,
        text: &str,
        at: i64,
    ) -> Result<ChatLine> {
        let seq = with_pool!(self.0, pool => {
            let mut tx = pool.begin().await?;
            // Messages of one game are numbered one at a time (SQLite has one writer):
                // any number sent at once, at any instance, each get the next number.
                lock_in_tx!(self.0, tx, format!("chat:{game_id}"));
            let seq: i64 = sqlx::query_scalar("SELECT COALESCE(MAX(seq), 0) + 1 FROM chat WHERE game_id = $1")
                .bind(game_id)
                .fetch_one(&mut *tx)
                .await?;
            sqlx::query(
                "INSERT INTO chat (game_id, seq, room, author, user_id, text, at) VALUES ($1, $2, $3, $4, $5, $6, $7)",
            )
            .bind(game_id)
            .bind(seq)
            .bind(room)
            .bind(author)
            .bind(user_id)
            .bind(text)
            .bind(at)
            .execute(&mut *tx)
            .await?;
            notify_chat!(self.0, tx, game_id);
            tx.commit().await?;
            seq
        });
        Ok(ChatLine {
            seq,
            room: room.to_string(),
            author: author.map(str::to_string),
            text: text.to_string(),
            at,
        })
    }

    /// The messages of `room` in game `game_id` after number `after`, oldest first (at most
    /// `limit`).
    pub async fn lines(&self, game_id: &str, room: &str, after: i64, limit: u32) -> Result<Vec<ChatLine>> {
        with_reader!(self.0, pool => {
            let rows = sqlx::query(
                "SELECT seq, room, author, text, at FROM chat WHERE game_id = $1 AND room = $2 AND seq > $3 \
                 ORDER BY seq LIMIT $4",
            )
            .bind(game_id)
            .bind(room)
            .bind(after)
            .bind(limit as i64)
            .fetch_all(pool)
            .await?;
            rows.iter()
                .map(|r| {
                    Ok(ChatLine {
                        seq: r.try_get("seq")?,
                        room: r.try_get("room")?,
                        author: r.try_get("author")?,
                        text: r.try_get("text")?,
                        at: r.try_get("at")?,
                    })
                })
                .collect()
        })
    }
}
