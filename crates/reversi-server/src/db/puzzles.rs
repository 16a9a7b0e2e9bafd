//! Puzzles' ratings and players' attempts. The puzzles themselves (positions, solutions) are
//! the binary's ([`crate::puzzles::all`]); the database keeps what changes: each puzzle's
//! Glicko-2 rating and counts, and who tried which puzzle.

use super::Db;
use crate::error::Result;
use reversi_site::puzzle::{rate_attempt, starting_rating, Puzzle, PUZZLE_CATEGORY};
use reversi_site::rating::Rating;
use sqlx::Row;

/// Rows inserted per statement when the puzzles are first stored.
const SEED_BATCH: usize = 500;

/// A puzzle's rating and counts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PuzzleStanding {
    /// Its rating (it does not grow uncertain with time).
    pub rating: Rating,
    /// Rated attempts.
    pub attempts: i64,
    /// Of those, the ones that solved it.
    pub solutions: i64,
}

/// What a rated attempt changed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AttemptOutcome {
    /// The player's puzzle rating before.
    pub before: Rating,
    /// And after.
    pub after: Rating,
    /// The puzzle's rating after.
    pub puzzle: Rating,
}

/// One of a player's attempts, as the wire has it.
pub use reversi_site_api::PuzzleAttempt as Attempt;

/// The repository of puzzles.
pub struct Puzzles<'a>(pub(super) &'a Db);

impl Puzzles<'_> {
    /// Stores a rating row for every puzzle of `puzzles` that has none (once per process; several
    /// instances may do it at once).
    pub async fn ensure_puzzles(&self, puzzles: &[Puzzle]) -> Result<()> {
        self.0.puzzles_stored
            .get_or_try_init(|| async {
                let stored: i64 = with_reader!(self.0, pool => {
                    sqlx::query_scalar("SELECT COUNT(*) FROM puzzles").fetch_one(pool).await?
                });
                if stored as usize >= puzzles.len() {
                    return Ok(());
                }
                with_pool!(self.0, pool => {
                    let mut tx = pool.begin().await?;
                    for chunk in puzzles.chunks(SEED_BATCH) {
                        let mut sql = String::from(
                            "INSERT INTO puzzles (id, themes, rating, deviation, volatility) VALUES ",
                        );
                        for i in 0..chunk.len() {
                            let b = i * 5;
                            if i > 0 {
                                sql.push(',');
                            }
                            sql.push_str(&format!("(${}, ${}, ${}, ${}, ${})", b + 1, b + 2, b + 3, b + 4, b + 5));
                        }
                        sql.push_str(" ON CONFLICT (id) DO NOTHING");
                        let mut q = sqlx::query(&sql);
                        for p in chunk {
                            let r = starting_rating(p.initial_rating);
                            q = q
                                .bind(p.id)
                                .bind(format!(",{},", p.themes.join(",")))
                                .bind(r.rating)
                                .bind(r.deviation)
                                .bind(r.volatility);
                        }
                        q.execute(&mut *tx).await?;
                    }
                    tx.commit().await?;
                });
                Ok(())
            })
            .await
            .map(|_| ())
    }

    /// Puzzle `id`'s rating and counts, if it is stored.
    pub async fn puzzle_standing(&self, id: i64) -> Result<Option<PuzzleStanding>> {
        with_reader!(self.0, pool => {
            let row = sqlx::query(
                "SELECT rating, deviation, volatility, attempts, solutions FROM puzzles WHERE id = $1",
            )
            .bind(id)
            .fetch_optional(pool)
            .await?;
            row.map(|r| standing_of(&r)).transpose()
        })
    }

    /// Up to `limit` puzzles nearest to `rating` (with `theme`, when given), nearest first,
    /// leaving out those account `user` has tried and the ids of `except`.
    pub async fn puzzles_near(
        &self,
        rating: f64,
        theme: Option<&str>,
        user: Option<&str>,
        except: &[i64],
        limit: usize,
    ) -> Result<Vec<i64>> {
        let pattern = theme.map_or_else(|| "%".to_string(), |t| format!("%,{t},%"));
        with_reader!(self.0, pool => {
            let ids: Vec<i64> = sqlx::query_scalar(
                "SELECT id FROM puzzles p WHERE themes LIKE $1 AND NOT EXISTS \
                 (SELECT 1 FROM puzzle_attempts a WHERE a.user_id = $2 AND a.puzzle_id = p.id) \
                 ORDER BY ABS(rating - $3), id LIMIT $4",
            )
            .bind(&pattern)
            .bind(user.unwrap_or(""))
            .bind(rating)
            .bind((limit + except.len()) as i64)
            .fetch_all(pool)
            .await?;
            Ok(ids.into_iter().filter(|i| !except.contains(i)).take(limit).collect())
        })
    }

    /// Records account `user`'s attempt at puzzle `id` (at `now`, `solved` or not) and, when
    /// it is their first at this puzzle, rates it: both ratings move, in one transaction, once
    /// whatever the number of requests and instances. `None`: they had tried it before.
    pub async fn record_attempt(
        &self,
        user: &str,
        id: i64,
        solved: bool,
        now: u64,
    ) -> Result<Option<AttemptOutcome>> {
        // PostgreSQL: the two rows are locked while they are read and written (two players
        // finishing the same puzzle at once must not lose one update). SQLite: the insert
        // below has taken the database's write lock already.
        let lock = if self.0.shared() { " FOR UPDATE" } else { "" };
        with_pool!(self.0, pool => {
            let mut tx = pool.begin().await?;
            let first = sqlx::query(
                "INSERT INTO puzzle_attempts (user_id, puzzle_id, solved, at, diff) VALUES ($1, $2, $3, $4, 0) \
                 ON CONFLICT (user_id, puzzle_id) DO NOTHING",
            )
            .bind(user)
            .bind(id)
            .bind(solved as i64)
            .bind(now as i64)
            .execute(&mut *tx)
            .await?;
            if first.rows_affected() != 1 {
                return Ok(None);
            }
            let Some(row) = sqlx::query(&format!(
                "SELECT rating, deviation, volatility, attempts, solutions FROM puzzles WHERE id = $1{lock}"
            ))
            .bind(id)
            .fetch_optional(&mut *tx)
            .await?
            else {
                return Ok(None);
            };
            let puzzle = standing_of(&row)?.rating;
            let before = match sqlx::query(&format!(
                "SELECT rating, deviation, volatility, games, last_rated FROM ratings \
                 WHERE user_id = $1 AND category = $2{lock}"
            ))
            .bind(user)
            .bind(PUZZLE_CATEGORY)
            .fetch_optional(&mut *tx)
            .await?
            {
                Some(r) => Rating {
                    rating: r.try_get("rating")?,
                    deviation: r.try_get("deviation")?,
                    volatility: r.try_get("volatility")?,
                    games: r.try_get::<i64, _>("games")?.max(0) as u32,
                    last_rated: r.try_get::<Option<i64>, _>("last_rated")?.map(|t| t.max(0) as u64),
                },
                None => Rating::default(),
            };
            let (after, puzzle_after) = rate_attempt(&before, &puzzle, solved, now);
            sqlx::query(
                "INSERT INTO ratings (user_id, category, rating, deviation, volatility, games, last_rated) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (user_id, category) DO UPDATE SET \
                 rating = $3, deviation = $4, volatility = $5, games = $6, last_rated = $7",
            )
            .bind(user)
            .bind(PUZZLE_CATEGORY)
            .bind(after.rating)
            .bind(after.deviation)
            .bind(after.volatility)
            .bind(after.games as i64)
            .bind(now as i64)
            .execute(&mut *tx)
            .await?;
            sqlx::query(
                "UPDATE puzzles SET rating = $1, deviation = $2, volatility = $3, attempts = attempts + 1, \
                 solutions = solutions + $4 WHERE id = $5",
            )
            .bind(puzzle_after.rating)
            .bind(puzzle_after.deviation)
            .bind(puzzle_after.volatility)
            .bind(solved as i64)
            .bind(id)
            .execute(&mut *tx)
            .await?;
            sqlx::query("UPDATE puzzle_attempts SET diff = $1 WHERE user_id = $2 AND puzzle_id = $3")
                .bind((after.rating.round() - before.rating.round()) as i64)
                .bind(user)
                .bind(id)
                .execute(&mut *tx)
                .await?;
            tx.commit().await?;
            Ok(Some(AttemptOutcome {
                before,
                after,
                puzzle: puzzle_after,
            }))
        })
    }

    /// Account `user`'s puzzle rating (the starting one before any attempt), attempts and
    /// puzzles solved.
    pub async fn puzzle_rating(&self, user: &str) -> Result<(Rating, i64, i64)> {
        let rating = self.0.ratings().rating_named(user, PUZZLE_CATEGORY).await?;
        with_reader!(self.0, pool => {
            // SUM of a BIGINT is a NUMERIC on PostgreSQL: cast back.
            let (n, solved): (i64, i64) = sqlx::query_as(
                "SELECT COUNT(*), CAST(COALESCE(SUM(solved), 0) AS BIGINT) FROM puzzle_attempts WHERE user_id = $1",
            )
            .bind(user)
            .fetch_one(pool)
            .await?;
            Ok((rating, n, solved))
        })
    }

    /// Account `user`'s latest attempts, newest first.
    pub async fn recent_attempts(&self, user: &str, limit: u32) -> Result<Vec<Attempt>> {
        with_reader!(self.0, pool => {
            let rows = sqlx::query(
                "SELECT puzzle_id, solved, diff, at FROM puzzle_attempts WHERE user_id = $1 \
                 ORDER BY at DESC, puzzle_id DESC LIMIT $2",
            )
            .bind(user)
            .bind(limit as i64)
            .fetch_all(pool)
            .await?;
            rows.iter()
                .map(|r| {
                    Ok(Attempt {
                        puzzle: r.try_get("puzzle_id")?,
                        solved: r.try_get::<i64, _>("solved")? != 0,
                        diff: r.try_get("diff")?,
                        at: r.try_get("at")?,
                    })
                })
                .collect()
        })
    }
}

fn standing_of<R: Row>(r: &R) -> Result<PuzzleStanding>
where
    for<'c> &'c str: sqlx::ColumnIndex<R>,
    f64: for<'v> sqlx::Decode<'v, R::Database> + sqlx::Type<R::Database>,
    i64: for<'v> sqlx::Decode<'v, R::Database> + sqlx::Type<R::Database>,
{
    Ok(PuzzleStanding {
        rating: Rating {
            rating: r.try_get("rating")?,
            deviation: r.try_get("deviation")?,
            volatility: r.try_get("volatility")?,
            games: r.try_get::<i64, _>("attempts")?.max(0) as u32,
            last_rated: None,
        },
        attempts: r.try_get("attempts")?,
        solutions: r.try_get("solutions")?,
    })
}
