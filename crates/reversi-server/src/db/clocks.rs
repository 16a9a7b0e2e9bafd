//! Deadlines of timed games: which games are due, who claims a flag (exactly one caller of
//! all instances), and the restart that charges the site's downtime to nobody.

use super::{Db, Summary};
use crate::error::Result;
use reversi_core::Color;
use reversi_site::game::LiveGame;
use reversi_site::game::VoidEnd;
use sqlx::Row;

/// Held while this instance pairs the pools (PostgreSQL: a transaction holding an advisory
/// lock, released when dropped; SQLite: one process, nothing to hold).
pub enum PairingLock {
    /// SQLite.
    Sqlite,
    /// PostgreSQL.
    Pg(sqlx::Transaction<'static, sqlx::Postgres>),
}

/// The repository of clocks.
pub struct Clocks<'a>(pub(super) &'a Db);

impl Clocks<'_> {
    /// The right to pair the pools now, unless another instance is pairing.
    pub async fn try_pairing_lock(&self) -> Result<Option<PairingLock>> {
        let super::Pool::Pg(pool) = &self.0.pool else {
            return Ok(Some(PairingLock::Sqlite));
        };
        let mut tx = pool.begin().await?;
        let got: bool = sqlx::query_scalar("SELECT pg_try_advisory_xact_lock(4244)")
            .fetch_one(&mut *tx)
            .await?;
        Ok(got.then_some(PairingLock::Pg(tx)))
    }

    /// Games still played whose deadline (a flag, or a first move awaited) is at or before
    /// `now` (Unix ms), at most `limit`, earliest first.
    pub async fn due_games(&self, now: i64, limit: u32) -> Result<Vec<String>> {
        with_reader!(self.0, pool => {
            Ok(sqlx::query_scalar(
                "SELECT id FROM games WHERE flag_at <= $1 AND status = 'playing' ORDER BY flag_at LIMIT $2",
            )
            .bind(now)
            .bind(limit as i64)
            .fetch_all(pool)
            .await?)
        })
    }

    /// Stores the end of `live` at its deadline (lost on time, or aborted for a missing first
    /// move), `ply` moves having been played, unless the stored game has moved on or ended:
    /// of every instance trying, exactly one gets true.
    pub async fn claim_deadline(&self, live: &LiveGame, ply: usize) -> Result<bool> {
        let summary = Summary::of(live, self.0.clock.now_ms());
        with_pool!(self.0, pool => {
            let mut tx = pool.begin().await?;
            let claimed = sqlx::query(
                "UPDATE games SET flagged = $1, ended = $2, flag_at = NULL WHERE id = $3 AND status = 'playing' \
                 AND move_count = $4 AND flagged IS NULL AND ended IS NULL",
            )
            .bind(live.flagged().map(Color::name))
            .bind(live.record.void.map(VoidEnd::as_str))
            .bind(&live.record.id)
            .bind(ply as i64)
            .execute(&mut *tx)
            .await?;
            if claimed.rows_affected() != 1 {
                return Ok(false);
            }
            store_summary!(tx, &live.record.id, summary);
            notify!(self.0, tx, &live.record.id);
            tx.commit().await?;
        });
        Ok(true)
    }

    /// Records that this instance is alive at `now` (Unix ms) and returns the previous record
    /// of the site: the last moment any instance was.
    pub async fn heartbeat(&self, now: i64) -> Result<Option<i64>> {
        with_pool!(self.0, pool => {
            let mut tx = pool.begin().await?;
            lock_in_tx!(self.0, tx, "site-heartbeat");
            let last: Option<i64> = sqlx::query_scalar("SELECT at FROM site_alive WHERE id = 1")
                .fetch_optional(&mut *tx)
                .await?;
            sqlx::query(
                "INSERT INTO site_alive (id, at) VALUES (1, $1) ON CONFLICT (id) DO UPDATE SET at = \
                 CASE WHEN site_alive.at > $1 THEN site_alive.at ELSE $1 END",
            )
            .bind(now)
            .execute(&mut *tx)
            .await?;
            // This instance's own sign of life, which its players' presence depends on.
            sqlx::query(
                "INSERT INTO instances (id, alive_at) VALUES ($1, $2) \
                 ON CONFLICT (id) DO UPDATE SET alive_at = $2",
            )
            .bind(&self.0.instance)
            .bind(now)
            .execute(&mut *tx)
            .await?;
            tx.commit().await?;
            Ok(last)
        })
    }

    /// After the whole site was down for `gap_ms`: moves every running clock and first-move
    /// deadline on by it, so nobody is charged for the time the server was away. Returns the
    /// games shifted.
    pub async fn shift_clocks(&self, gap_ms: u64) -> Result<u64> {
        let rows: Vec<(String, String, Option<i64>)> = with_pool!(self.0, pool => {
            sqlx::query("SELECT id, clock, flag_at FROM games WHERE status = 'playing' AND clock IS NOT NULL")
                .fetch_all(pool)
                .await?
                .iter()
                .map(|r| Ok((r.try_get("id")?, r.try_get("clock")?, r.try_get("flag_at")?)))
                .collect::<Result<Vec<_>>>()?
        });
        let mut shifted = 0;
        for (id, clock, flag_at) in rows {
            let Ok(mut timing) = serde_json::from_str::<reversi_site::game::online::Timing>(&clock) else {
                tracing::warn!("game {id}: unreadable stored clock left as it is");
                continue;
            };
            if timing.clock.stopped {
                continue;
            }
            timing.shift(gap_ms);
            with_pool!(self.0, pool => {
                sqlx::query("UPDATE games SET clock = $1, flag_at = $2 WHERE id = $3 AND clock = $4")
                    .bind(serde_json::to_string(&timing).unwrap_or(clock.clone()))
                    .bind(flag_at.map(|f| f.saturating_add(gap_ms as i64)))
                    .bind(&id)
                    .bind(&clock)
                    .execute(pool)
                    .await?;
            });
            shifted += 1;
        }
        Ok(shifted)
    }
}
