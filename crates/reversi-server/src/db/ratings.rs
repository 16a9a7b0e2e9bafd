//! Ratings: stored once per rated game, per category (the rules that compute them are the game
//! room's finisher's); the history behind the profile's chart; the leaderboards.

use super::Db;
use crate::error::Result;
use reversi_site::game::online::SeatInfo;
use reversi_site::rating::{Category, Rating};
use sqlx::Row;

/// One point of a rating history (as the profile sends it).
pub use reversi_site_api::RatingPoint;

/// A line of a leaderboard.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct BoardLine {
    /// The player's name.
    pub name: String,
    /// The rating.
    pub rating: f64,
    /// Its deviation.
    pub deviation: f64,
    /// Rated games in the category.
    pub games: i64,
    /// Whether the player is a bot.
    pub bot: bool,
    /// The country the player named.
    pub country: Option<String>,
}

macro_rules! rating_of_row {
    ($r:expr) => {
        Rating {
            rating: $r.try_get("rating")?,
            deviation: $r.try_get("deviation")?,
            volatility: $r.try_get("volatility")?,
            games: $r.try_get::<i64, _>("games")?.max(0) as u32,
            last_rated: $r
                .try_get::<Option<i64>, _>("last_rated")?
                .map(|t| t.max(0) as u64),
        }
    };
}

/// The repository of ratings.
pub struct Ratings<'a>(pub(super) &'a Db);

impl Ratings<'_> {
    /// Every rating of account `id`.
    pub async fn ratings_of(&self, id: &str) -> Result<Vec<(Category, Rating)>> {
        with_reader!(self.0, pool => {
            let rows = sqlx::query(
                "SELECT category, rating, deviation, volatility, games, last_rated FROM ratings WHERE user_id = $1",
            )
            .bind(id)
            .fetch_all(pool)
            .await?;
            let mut out = Vec::new();
            for r in rows {
                let name: String = r.try_get("category")?;
                if let Some(c) = Category::named(&name) {
                    out.push((c, rating_of_row!(r)));
                }
            }
            Ok(out)
        })
    }

    /// Account `id`'s rating in `category` (the starting rating when it has none).
    pub async fn rating(&self, id: &str, category: Category) -> Result<Rating> {
        self.rating_named(id, category.name()).await
    }

    /// Account `id`'s rating named `category` (a game category's name, or the puzzles'), the
    /// starting rating when it has none.
    pub async fn rating_named(&self, id: &str, category: &str) -> Result<Rating> {
        with_reader!(self.0, pool => {
            let row = sqlx::query(
                "SELECT rating, deviation, volatility, games, last_rated FROM ratings \
                 WHERE user_id = $1 AND category = $2",
            )
            .bind(id)
            .bind(category)
            .fetch_optional(pool)
            .await?;
            Ok(match row {
                Some(r) => rating_of_row!(r),
                None => Rating::default(),
            })
        })
    }

    /// Applies the ratings of finished game `game_id` between `seats` in `category`, once
    /// whatever the number of callers and instances: the transaction that claims the game
    /// (`rating_done`) reads both players' ratings, stores what `rule` makes of them (the rating
    /// rules are the caller's), their history and the game's rating changes. Returns the
    /// changes (Black's, White's) when this call applied them.
    pub async fn apply_ratings(
        &self,
        game_id: &str,
        seats: &[SeatInfo; 2],
        category: Category,
        now: u64,
        rule: impl FnOnce([Rating; 2]) -> [Rating; 2],
    ) -> Result<Option<[i32; 2]>> {
        let ids = [seats[0].key.clone(), seats[1].key.clone()];
        let diffs = with_pool!(self.0, pool => {
            let mut tx = pool.begin().await?;
            let claimed = sqlx::query(
                "UPDATE games SET rating_done = 1 WHERE id = $1 AND rated = 1 AND rating_done = 0",
            )
            .bind(game_id)
            .execute(&mut *tx)
            .await?;
            if claimed.rows_affected() != 1 {
                return Ok(None);
            }
            let mut before = [Rating::default(); 2];
            for c in 0..2 {
                let row = sqlx::query(
                    "SELECT rating, deviation, volatility, games, last_rated FROM ratings \
                     WHERE user_id = $1 AND category = $2",
                )
                .bind(&ids[c])
                .bind(category.name())
                .fetch_optional(&mut *tx)
                .await?;
                if let Some(r) = row {
                    before[c] = rating_of_row!(r);
                }
            }
            let after = rule(before);
            let mut diffs = [0i32; 2];
            for c in 0..2 {
                let r = after[c];
                diffs[c] = (r.rating.round() - before[c].rating.round()) as i32;
                sqlx::query(
                    "INSERT INTO ratings (user_id, category, rating, deviation, volatility, games, last_rated) \
                     VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (user_id, category) DO UPDATE SET \
                     rating = $3, deviation = $4, volatility = $5, games = $6, last_rated = $7",
                )
                .bind(&ids[c])
                .bind(category.name())
                .bind(r.rating)
                .bind(r.deviation)
                .bind(r.volatility)
                .bind(r.games as i64)
                .bind(now as i64)
                .execute(&mut *tx)
                .await?;
                sqlx::query(
                    "INSERT INTO rating_history (user_id, category, game_id, at, rating, deviation) \
                     VALUES ($1, $2, $3, $4, $5, $6)",
                )
                .bind(&ids[c])
                .bind(category.name())
                .bind(game_id)
                .bind(now as i64)
                .bind(r.rating)
                .bind(r.deviation)
                .execute(&mut *tx)
                .await?;
            }
            let mut seats = seats.clone();
            seats[0].diff = Some(diffs[0]);
            seats[1].diff = Some(diffs[1]);
            sqlx::query("UPDATE games SET seat_info = $1 WHERE id = $2")
                .bind(serde_json::to_string(&seats).unwrap_or_default())
                .bind(game_id)
                .execute(&mut *tx)
                .await?;
            notify!(self.0, tx, game_id);
            tx.commit().await?;
            Some(diffs)
        });
        Ok(diffs)
    }

    /// Finished rated games whose ratings were not applied (the server stopped in between).
    pub async fn unrated_games(&self, limit: u32) -> Result<Vec<String>> {
        with_reader!(self.0, pool => {
            Ok(sqlx::query_scalar(
                "SELECT id FROM games WHERE rated = 1 AND rating_done = 0 AND status = 'finished' LIMIT $1",
            )
            .bind(limit as i64)
            .fetch_all(pool)
            .await?)
        })
    }

    /// Account `id`'s rating after each rated game, oldest first (at most `limit`).
    pub async fn rating_history(&self, id: &str, limit: u32) -> Result<Vec<RatingPoint>> {
        with_reader!(self.0, pool => {
            let rows = sqlx::query(
                "SELECT category, game_id, at, rating, deviation FROM rating_history WHERE user_id = $1 \
                 ORDER BY at DESC, game_id LIMIT $2",
            )
            .bind(id)
            .bind(limit as i64)
            .fetch_all(pool)
            .await?;
            let mut out = rows
                .iter()
                .map(|r| {
                    Ok(RatingPoint {
                        category: r.try_get("category")?,
                        game_id: r.try_get("game_id")?,
                        at: r.try_get("at")?,
                        rating: r.try_get("rating")?,
                        deviation: r.try_get("deviation")?,
                    })
                })
                .collect::<Result<Vec<_>>>()?;
            out.reverse();
            Ok(out)
        })
    }

    /// The best established players of `category` (deviation, grown by idle time at `now`, below
    /// the provisional mark) and, apart, the best provisional ones who have played at least one
    /// rated game there; best first, at most `limit` of each.
    pub async fn leaderboard(
        &self,
        category: Category,
        now: u64,
        limit: u32,
    ) -> Result<(Vec<BoardLine>, Vec<BoardLine>)> {
        with_reader!(self.0, pool => {
            // Those stored as established, some of whom are provisional again at `now` (idle);
            // then those stored as provisional. Each query reads twice the limit at most.
            let mut established = Vec::new();
            let mut provisional = Vec::new();
            for stored_established in [true, false] {
                let cond = if stored_established { "r.deviation < $2" } else { "r.deviation >= $2 AND r.games > 0" };
                let rows = sqlx::query(&format!(
                    "SELECT u.name, u.bot, u.country, r.rating, r.deviation, r.volatility, r.games, r.last_rated \
                     FROM ratings r JOIN users u ON u.id = r.user_id \
                     WHERE r.category = $1 AND u.deleted_at IS NULL AND u.disabled_at IS NULL AND {cond} \
                     ORDER BY r.rating DESC, u.name LIMIT $3",
                ))
                .bind(category.name())
                .bind(reversi_site::rating::PROVISIONAL_DEVIATION)
                .bind((limit as i64) * 2)
                .fetch_all(pool)
                .await?;
                for r in rows {
                    let rating = rating_of_row!(r).at(now);
                    let line = BoardLine {
                        name: r.try_get("name")?,
                        rating: rating.rating,
                        deviation: rating.deviation,
                        games: rating.games as i64,
                        bot: r.try_get::<i64, _>("bot")? != 0,
                        country: r.try_get("country")?,
                    };
                    if rating.provisional(now) {
                        provisional.push(line);
                    } else {
                        established.push(line);
                    }
                }
            }
            established.truncate(limit as usize);
            provisional.sort_by(|a, b| b.rating.total_cmp(&a.rating).then_with(|| a.name.cmp(&b.name)));
            provisional.truncate(limit as usize);
            Ok((established, provisional))
        })
    }
}
