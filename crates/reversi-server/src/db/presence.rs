//! Who is connected to each game, per instance ([`reversi_site::game::presence`] sums the rows).

use super::Db;
use crate::error::Result;
use reversi_site::game::presence::InstanceCounts;
use sqlx::Row;
use std::collections::HashMap;

/// How long the rows of an instance gone silent are kept, ms: a day (the games they name are
/// long decided by then).
pub const GONE_INSTANCE_KEEP_MS: i64 = 86_400_000;

/// The repository of presence.
pub struct Presence<'a>(pub(super) &'a Db);

impl Presence<'_> {
    /// Stores this instance's counts for game `id` (the sockets on each seat and of
    /// spectators, and when each seat's last socket here closed), and tells the other
    /// instances.
    pub async fn store_presence(&self, id: &str, counts: &InstanceCounts) -> Result<()> {
        with_pool!(self.0, pool => {
            let mut tx = pool.begin().await?;
            sqlx::query(
                "INSERT INTO presence (game_id, instance, black, white, spectators, black_left, white_left) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (game_id, instance) DO UPDATE SET \
                 black = $3, white = $4, spectators = $5, black_left = $6, white_left = $7",
            )
            .bind(id)
            .bind(&self.0.instance)
            .bind(counts.seats[0] as i64)
            .bind(counts.seats[1] as i64)
            .bind(counts.spectators as i64)
            .bind(counts.left[0])
            .bind(counts.left[1])
            .execute(&mut *tx)
            .await?;
            notify_presence!(self.0, tx, id);
            tx.commit().await?;
        });
        Ok(())
    }

    /// Every instance's counts for game `id`, each with its instance's last sign of life (an
    /// instance that never wrote one counts as gone since the epoch).
    pub async fn counts(&self, id: &str) -> Result<Vec<InstanceCounts>> {
        with_reader!(self.0, pool => {
            let rows = sqlx::query(
                "SELECT p.black, p.white, p.spectators, p.black_left, p.white_left, \
                 COALESCE(i.alive_at, 0) AS alive_at, p.instance FROM presence p \
                 LEFT JOIN instances i ON i.id = p.instance WHERE p.game_id = $1",
            )
            .bind(id)
            .fetch_all(pool)
            .await?;
            rows.iter()
                .map(|r| {
                    let count = |c: &str| r.try_get::<i64, _>(c).map(|n| n.clamp(0, u32::MAX as i64) as u32);
                    Ok(InstanceCounts {
                        seats: [count("black")?, count("white")?],
                        spectators: count("spectators")?,
                        left: [r.try_get("black_left")?, r.try_get("white_left")?],
                        alive_at: r.try_get("alive_at")?,
                        mine: r.try_get::<String, _>("instance")? == self.0.instance,
                    })
                })
                .collect()
        })
    }

    /// The spectators of every watched game, at the instances alive at `now` (Unix ms).
    pub async fn spectators(&self, now: i64) -> Result<HashMap<String, u32>> {
        with_reader!(self.0, pool => {
            let rows = sqlx::query(
                "SELECT p.game_id, SUM(p.spectators) AS n FROM presence p \
                 LEFT JOIN instances i ON i.id = p.instance WHERE p.spectators > 0 \
                 AND (i.alive_at >= $1 OR p.instance = $2) GROUP BY p.game_id",
            )
            .bind(now - reversi_site::game::presence::STALE_MS)
            .bind(&self.0.instance)
            .fetch_all(pool)
            .await?;
            rows.iter()
                .map(|r| Ok((r.try_get("game_id")?, r.try_get::<i64, _>("n")?.clamp(0, u32::MAX as i64) as u32)))
                .collect()
        })
    }

    /// Removes the rows nobody needs any more: those of finished games nobody is connected to,
    /// and those of instances silent since before `before` (Unix ms), and those instances.
    /// Returns the presence rows removed.
    pub async fn purge_presence(&self, before: i64) -> Result<u64> {
        with_pool!(self.0, pool => {
            let done = sqlx::query(
                "DELETE FROM presence WHERE (game_id, instance) IN (SELECT p.game_id, p.instance \
                 FROM presence p JOIN games g ON g.id = p.game_id WHERE g.status <> 'playing' \
                 AND p.black = 0 AND p.white = 0 AND p.spectators = 0 LIMIT $1)",
            )
            .bind(super::PURGE_BATCH)
            .execute(pool)
            .await?
            .rows_affected();
            let rows = sqlx::query(
                "DELETE FROM presence WHERE (game_id, instance) IN (SELECT p.game_id, p.instance \
                 FROM presence p LEFT JOIN instances i ON i.id = p.instance \
                 WHERE COALESCE(i.alive_at, 0) < $1 LIMIT $2)",
            )
            .bind(before)
            .bind(super::PURGE_BATCH)
            .execute(pool)
            .await?
            .rows_affected();
            sqlx::query(
                "DELETE FROM instances WHERE alive_at < $1 AND id NOT IN (SELECT instance FROM presence)",
            )
            .bind(before)
            .execute(pool)
            .await?;
            Ok(done + rows)
        })
    }
}
