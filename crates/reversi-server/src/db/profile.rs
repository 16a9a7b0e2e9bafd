//! What a profile and the live-games list read: a player's games (filtered), results per
//! colour, and the online games in progress.

use super::games::{summary_of, GameSummary, SUMMARY_SELECT};
use super::Db;
use crate::error::Result;
use sqlx::Row;

/// Wins, losses and draws with one colour (as the profile sends them).
pub use reversi_site_api::ColourResult as ColourResults;

/// A game of a player's list: its summary, the side the player had, and what the list shows
/// of both seats and the clock.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerGameRow {
    /// The game.
    pub summary: GameSummary,
    /// Whether the player had Black.
    pub black: bool,
    /// JSON of both seats (online games).
    pub seat_info: Option<String>,
    /// JSON of the clock (timed games).
    pub clock: Option<String>,
}

/// An online game in progress.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LiveRow {
    /// The game id.
    pub id: String,
    /// The variant.
    pub variant: String,
    /// JSON of both seats.
    pub seat_info: String,
    /// JSON of the clock.
    pub clock: Option<String>,
    /// Moves played.
    pub move_count: i64,
}

/// The condition on a player's games of a result filter (`$1` is the player).
fn result_filter(result: Option<&str>) -> &'static str {
    match result {
        Some("win") => {
            "((g.winner = 'black' AND g.black_user = $1) OR (g.winner = 'white' AND g.white_user = $1))"
        }
        Some("loss") => {
            "((g.winner = 'white' AND g.black_user = $1) OR (g.winner = 'black' AND g.white_user = $1))"
        }
        Some("draw") => "(g.status = 'finished' AND g.winner IS NULL)",
        Some("playing") => "g.status = 'playing'",
        _ => "1 = 1",
    }
}

/// The repository of profiles.
pub struct Profiles<'a>(pub(super) &'a Db);

impl Profiles<'_> {
    /// A page of the games of player `user` (newest first; aborted games, which never began, are
    /// left out): `result` `win`, `loss`, `draw` or `playing`, `colour` `black` or `white`; and
    /// how many match.
    pub async fn user_games(
        &self,
        user: &str,
        result: Option<&str>,
        colour: Option<&str>,
        offset: u32,
        limit: u32,
    ) -> Result<(Vec<PlayerGameRow>, i64)> {
        let side = match colour {
            Some("black") => "g.black_user = $1",
            Some("white") => "g.white_user = $1",
            _ => "(g.black_user = $1 OR g.white_user = $1)",
        };
        let cond = format!("{side} AND g.status <> 'aborted' AND {}", result_filter(result));
        let select = SUMMARY_SELECT.replacen(
            "SELECT ",
            "SELECT g.seat_info AS seats, g.clock AS clock_json, CASE WHEN g.black_user = $1 THEN 'black' ELSE 'white' END AS player_side, ",
            1,
        );
        let sql = format!("{select} WHERE {cond} ORDER BY g.created_at DESC, g.id LIMIT $2 OFFSET $3");
        let count = format!("SELECT COUNT(*) FROM games g WHERE {cond}");
        with_reader!(self.0, pool => {
            let rows = sqlx::query(&sql)
                .bind(user)
                .bind(limit as i64)
                .bind(offset as i64)
                .fetch_all(pool)
                .await?;
            let total: i64 = sqlx::query_scalar(&count).bind(user).fetch_one(pool).await?;
            let games = rows
                .iter()
                .map(|r| {
                    Ok(PlayerGameRow {
                        summary: summary_of(r)?,
                        black: r.try_get::<String, _>("player_side")? == "black",
                        seat_info: r.try_get("seats")?,
                        clock: r.try_get("clock_json")?,
                    })
                })
                .collect::<Result<Vec<_>>>()?;
            Ok((games, total))
        })
    }

    /// The games in progress that account `user` plays in, with its colour in each (at most
    /// `limit`, the latest change first).
    pub async fn playing_ids(&self, user: &str, limit: u32) -> Result<Vec<(String, reversi_core::Color)>> {
        with_reader!(self.0, pool => {
            let rows = sqlx::query(
                "SELECT id, CASE WHEN black_user = $1 THEN 'black' ELSE 'white' END AS side FROM games \
                 WHERE (black_user = $1 OR white_user = $1) AND status = 'playing' \
                 ORDER BY updated_at DESC, id LIMIT $2",
            )
            .bind(user)
            .bind(limit as i64)
            .fetch_all(pool)
            .await?;
            rows.iter()
                .map(|r| {
                    let side: String = r.try_get("side")?;
                    let color = if side == "black" { reversi_core::Color::Black } else { reversi_core::Color::White };
                    Ok((r.try_get("id")?, color))
                })
                .collect()
        })
    }

    /// Player `user`'s results with Black and with White (finished games).
    pub async fn colour_results(&self, user: &str) -> Result<[ColourResults; 2]> {
        with_reader!(self.0, pool => {
            let rows = sqlx::query(
                "SELECT CASE WHEN black_user = $1 THEN 'black' ELSE 'white' END AS side, winner, COUNT(*) AS n \
                 FROM games WHERE (black_user = $1 OR white_user = $1) AND status = 'finished' \
                 GROUP BY CASE WHEN black_user = $1 THEN 'black' ELSE 'white' END, winner",
            )
            .bind(user)
            .fetch_all(pool)
            .await?;
            let mut out = [ColourResults::default(); 2];
            for r in rows {
                let side: String = r.try_get("side")?;
                let winner: Option<String> = r.try_get("winner")?;
                let n: i64 = r.try_get("n")?;
                let c = &mut out[(side == "white") as usize];
                match winner {
                    None => c.draws += n,
                    Some(w) if w == side => c.wins += n,
                    Some(_) => c.losses += n,
                }
            }
            Ok(out)
        })
    }

    /// Online games in progress, newest first (at most `limit`).
    pub async fn live_games(&self, limit: u32) -> Result<Vec<LiveRow>> {
        with_reader!(self.0, pool => {
            let rows = sqlx::query(
                "SELECT id, variant, seat_info, clock, move_count FROM games \
                 WHERE mode = 'online' AND status = 'playing' AND seat_info IS NOT NULL AND private = 0 \
                 ORDER BY created_at DESC, id LIMIT $1",
            )
            .bind(limit as i64)
            .fetch_all(pool)
            .await?;
            rows.iter()
                .map(|r| {
                    Ok(LiveRow {
                        id: r.try_get("id")?,
                        variant: r.try_get("variant")?,
                        seat_info: r.try_get("seat_info")?,
                        clock: r.try_get("clock")?,
                        move_count: r.try_get("move_count")?,
                    })
                })
                .collect()
        })
    }
}
