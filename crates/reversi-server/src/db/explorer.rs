//! The game database explorer's tables: games from WTHOR, GGF files and the site, and every
//! position they reached, keyed by its canonical hash (the least of its 8 symmetric images,
//! with the side to move), so that transpositions and mirrored games meet.
//!
//! A position row stores the move played from it in the canonical frame, with the game's
//! result, year and source beside it, so that the statistics of a position are one range of
//! one index (no join) unless a player or tournament filter needs the games.

use super::Db;
use crate::error::Result;
use reversi_core::symmetry::canonical_u64;
use reversi_core::{Color, Game, Move, Position, Square, Symmetry};
use sqlx::Row;

/// Where a game comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// The WTHOR database of the French Othello federation.
    Wthor = 0,
    /// A GGF file.
    Ggf = 1,
    /// A game finished on this site.
    Site = 2,
}

impl Source {
    /// The name used in filters and shown.
    pub fn name(self) -> &'static str {
        match self {
            Source::Wthor => "wthor",
            Source::Ggf => "ggf",
            Source::Site => "site",
        }
    }

    /// Reads a name.
    pub fn parse(s: &str) -> Option<Source> {
        match s {
            "wthor" => Some(Source::Wthor),
            "ggf" => Some(Source::Ggf),
            "site" => Some(Source::Site),
            _ => None,
        }
    }

    fn of(n: i64) -> Source {
        match n {
            0 => Source::Wthor,
            1 => Source::Ggf,
            _ => Source::Site,
        }
    }
}

/// The `next` of a position row after which the side passed (never stored: such positions are
/// no choice) — and of a row whose game ended there.
const NO_MOVE: i64 = -1;

/// A game to import, with the positions it reached.
#[derive(Clone, Debug)]
pub struct ImportGame {
    /// Unique per game: `wthor:YEAR:INDEX`, `ggf:HASH`, `site:ID`; a second import skips it.
    pub key: String,
    /// Where it comes from.
    pub source: Source,
    /// Black's name.
    pub black: String,
    /// White's name.
    pub white: String,
    /// The tournament (or the place), possibly empty.
    pub tournament: String,
    /// The year played.
    pub year: i32,
    /// Black's final disc difference.
    pub margin: i32,
    /// The moves, passes left out.
    pub moves: String,
    /// Each position before a move: (canonical hash, ply, the move in the canonical frame).
    pub positions: Vec<(i64, i32, i64)>,
}

/// The canonical hash of an 8×8 position and the symmetry that takes it to the canonical frame.
pub fn position_key(pos: &Position<u64>) -> (i64, Symmetry) {
    let (b, w, sym) = canonical_u64(pos.black(), pos.white());
    let side = if pos.side_to_move() == Color::White {
        0x9E37_79B9_7F4A_7C15
    } else {
        0
    };
    ((reversi_core::position::mix(b, w) ^ side) as i64, sym)
}

/// Every position of `game` (standard 8×8 Othello from the start) where a move was made, with
/// that move in the canonical frame; `None` for another board.
pub fn index_game(game: &Game) -> Option<Vec<(i64, i32, i64)>> {
    let mut out = Vec::with_capacity(game.moves().len());
    for (ply, &mv) in game.moves().iter().enumerate() {
        let Move::Play(sq) = mv else { continue };
        let reversi_core::AnyPosition::Small(pos) = game.position_at(ply)? else {
            return None;
        };
        if pos.playable() != u64::MAX {
            return None;
        }
        let (hash, sym) = position_key(pos);
        let next = sym.apply(sq, 8).bit8()? as i64;
        out.push((hash, ply as i32, next));
    }
    Some(out)
}

/// What to count: every filter is optional.
#[derive(Clone, Debug, Default)]
pub struct Filter {
    /// Games with a player whose name contains this, on either side (any case).
    pub player: Option<String>,
    /// Games of tournaments whose name contains this (any case).
    pub tournament: Option<String>,
    /// Played in this year or later.
    pub from_year: Option<i32>,
    /// Played in this year or earlier.
    pub to_year: Option<i32>,
    /// Only from this source.
    pub source: Option<Source>,
}

impl Filter {
    fn needs_games(&self) -> bool {
        self.player.is_some() || self.tournament.is_some()
    }
}

/// One next move's statistics, in the canonical frame.
#[derive(Clone, Debug, PartialEq)]
pub struct NextStat {
    /// The move, a bit of the canonical frame (0 = a1).
    pub next: i64,
    /// Games.
    pub games: i64,
    /// Black's wins, draws and losses.
    pub black_wins: i64,
    /// Draws.
    pub draws: i64,
    /// Black's losses.
    pub black_losses: i64,
    /// The mean of Black's final disc difference.
    pub mean_margin: f64,
}

/// A game that reached a position (as `GET /api/explorer/games/{id}` sends it).
pub use reversi_site_api::DatabaseGame as Hit;

/// A next move's statistics from a row whose columns `[games, wins, draws, margin sum]` are
/// named `cols` (and `next`).
fn stat_of<R: Row>(r: &R, cols: [&str; 4]) -> Result<NextStat>
where
    for<'c> &'c str: sqlx::ColumnIndex<R>,
    i64: for<'v> sqlx::Decode<'v, R::Database> + sqlx::Type<R::Database>,
{
    let games: i64 = r.try_get(cols[0])?;
    let wins: i64 = r.try_get(cols[1])?;
    let draws: i64 = r.try_get(cols[2])?;
    let sum: i64 = r.try_get(cols[3])?;
    Ok(NextStat {
        next: r.try_get("next")?,
        games,
        black_wins: wins,
        draws,
        black_losses: games - wins - draws,
        mean_margin: sum as f64 / games.max(1) as f64,
    })
}

/// The SQL conditions of `f` on `p` (positions) and `g` (games), from parameter `$first` on.
fn conditions(f: &Filter, first: usize) -> (String, Vec<FilterArg>) {
    let mut sql = String::new();
    let mut args = Vec::new();
    let mut n = first;
    let mut add = |cond: String, a: FilterArg| {
        sql.push_str(" AND ");
        sql.push_str(&cond);
        args.push(a);
    };
    if let Some(p) = &f.player {
        // Any part of the name, any case, in any script: the keys are the names lower-cased
        // by Rust (Cyrillic too), and so is what is looked for.
        add(
            format!("(g.black_key LIKE ${n} OR g.white_key LIKE ${n})"),
            FilterArg::Text(format!("%{}%", like_escape(&p.to_lowercase()))),
        );
        n += 1;
    }
    if let Some(t) = &f.tournament {
        add(
            format!("LOWER(g.tournament) LIKE ${n}"),
            FilterArg::Text(format!("%{}%", like_escape(&t.to_lowercase()))),
        );
        n += 1;
    }
    if let Some(y) = f.from_year {
        add(format!("p.year >= ${n}"), FilterArg::Int(y as i64));
        n += 1;
    }
    if let Some(y) = f.to_year {
        add(format!("p.year <= ${n}"), FilterArg::Int(y as i64));
        n += 1;
    }
    if let Some(s) = f.source {
        add(format!("p.source = ${n}"), FilterArg::Int(s as i64));
    }
    (sql, args)
}

fn like_escape(s: &str) -> String {
    s.replace(['%', '_'], "")
}

enum FilterArg {
    Text(String),
    Int(i64),
}

/// Binds `args` to `$q` in order.
macro_rules! bind_all {
    ($q:expr, $args:expr) => {{
        let mut q = $q;
        for a in $args {
            q = match a {
                FilterArg::Text(t) => q.bind(t.clone()),
                FilterArg::Int(i) => q.bind(*i),
            };
        }
        q
    }};
}

/// Positions reached by at least this many games have their statistics counted once, after
/// each import (`db_popular`): counting 100,000 rows takes tens of milliseconds, reading a few
/// counted rows well under one.
pub const POPULAR_GAMES: i64 = 2_000;

/// Position rows sent in one statement.
const ROWS_PER_STATEMENT: usize = 50_000;

/// The repository of explorer.
pub struct Explorer<'a>(pub(super) &'a Db);

impl Explorer<'_> {
    /// Stores `games` (and their positions) in one transaction, skipping those already
    /// imported; returns how many were new.
    pub async fn import_games(&self, games: &[ImportGame]) -> Result<u64> {
        let mut new = 0;
        with_pool!(self.0, pool => {
            let mut tx = pool.begin().await?;
            let mut rows: Vec<(i64, i32, i64, i64, i32, i32, i64)> = Vec::new();
            for g in games {
                let id: Option<i64> = sqlx::query_scalar(
                    "INSERT INTO db_games (key, source, black, white, black_key, white_key, tournament, year, margin, moves) \
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT (key) DO NOTHING RETURNING id",
                )
                .bind(&g.key)
                .bind(g.source as i64)
                .bind(&g.black)
                .bind(&g.white)
                .bind(g.black.to_lowercase())
                .bind(g.white.to_lowercase())
                .bind(&g.tournament)
                .bind(g.year as i64)
                .bind(g.margin as i64)
                .bind(&g.moves)
                .fetch_optional(&mut *tx)
                .await?;
                let Some(id) = id else { continue };
                new += 1;
                rows.extend(g.positions.iter().map(|&(h, ply, next)| (h, ply, next, id, g.margin, g.year, g.source as i64)));
            }
            // In key order: the B-tree takes them page by page.
            rows.sort_unstable();
            // The rows go as one JSON array per batch, unpacked by the database: a statement
            // per row costs a round trip to the driver's thread each, and a statement of
            // thousands of parameters binds them one by one.
            for chunk in rows.chunks(ROWS_PER_STATEMENT) {
                let mut json = String::with_capacity(chunk.len() * 48);
                json.push('[');
                for (i, r) in chunk.iter().enumerate() {
                    if i > 0 {
                        json.push(',');
                    }
                    json.push_str(&format!("[{},{},{},{},{},{},{}]", r.0, r.1, r.2, r.3, r.4, r.5, r.6));
                }
                json.push(']');
                let sql = if self.0.shared() {
                    "INSERT INTO db_positions (hash, ply, next, game, margin, year, source) \
                     SELECT (v->>0)::bigint, (v->>1)::bigint, (v->>2)::bigint, (v->>3)::bigint, \
                     (v->>4)::bigint, (v->>5)::bigint, (v->>6)::bigint FROM json_array_elements($1::json) AS v \
                     ON CONFLICT DO NOTHING"
                } else {
                    "INSERT INTO db_positions (hash, ply, next, game, margin, year, source) \
                     SELECT value->>0, value->>1, value->>2, value->>3, value->>4, value->>5, value->>6 \
                     FROM json_each($1) WHERE true ON CONFLICT DO NOTHING"
                };
                sqlx::query(sql).bind(json).execute(&mut *tx).await?;
            }
            tx.commit().await?;
        });
        Ok(new)
    }

    /// Readies the database for a large import: on SQLite, a page cache big enough for the
    /// positions' B-tree (256 MiB, for the writing connection only).
    pub async fn prepare_bulk_import(&self) -> Result<()> {
        if let super::Pool::Sqlite { write, .. } = &self.0.pool {
            sqlx::query("PRAGMA cache_size = -262144").execute(write).await?;
        }
        Ok(())
    }

    /// The statistics of every move played from the position `hash` under `f`, most played
    /// first.
    pub async fn explore(&self, hash: i64, f: &Filter) -> Result<Vec<NextStat>> {
        let unfiltered = f.player.is_none()
            && f.tournament.is_none()
            && f.from_year.is_none()
            && f.to_year.is_none()
            && f.source.is_none();
        if unfiltered {
            let popular = self.popular(hash).await?;
            if !popular.is_empty() {
                return Ok(popular);
            }
        }
        let (cond, args) = conditions(f, 2);
        let join = if f.needs_games() {
            " JOIN db_games g ON g.id = p.game"
        } else {
            ""
        };
        let sql = format!(
            "SELECT p.next, COUNT(*) AS n, \
             CAST(SUM(CASE WHEN p.margin > 0 THEN 1 ELSE 0 END) AS BIGINT) AS w, \
             CAST(SUM(CASE WHEN p.margin = 0 THEN 1 ELSE 0 END) AS BIGINT) AS d, \
             CAST(SUM(p.margin) AS BIGINT) AS m \
             FROM db_positions p{join} WHERE p.hash = $1{cond} GROUP BY p.next ORDER BY n DESC, p.next"
        );
        with_reader!(self.0, pool => {
            let q = bind_all!(sqlx::query(&sql).bind(hash), &args);
            let rows = q.fetch_all(pool).await?;
            rows.iter()
                .map(|r| stat_of(r, ["n", "w", "d", "m"]))
                .filter(|s: &Result<NextStat>| s.as_ref().map_or(true, |s| s.next != NO_MOVE))
                .collect()
        })
    }

    /// The counted statistics of a position reached by at least [`POPULAR_GAMES`] games (empty
    /// for any other).
    async fn popular(&self, hash: i64) -> Result<Vec<NextStat>> {
        with_reader!(self.0, pool => {
            let rows = sqlx::query(
                "SELECT next, games, wins, draws, margin_sum FROM db_popular WHERE hash = $1 \
                 ORDER BY games DESC, next",
            )
            .bind(hash)
            .fetch_all(pool)
            .await?;
            rows.iter()
                .map(|r| stat_of(r, ["games", "wins", "draws", "margin_sum"]))
                .collect()
        })
    }

    /// Counts again the statistics of the positions at least [`POPULAR_GAMES`] games reached
    /// (after an import): their unfiltered statistics are then read, not counted, so that the
    /// opening positions answer as fast as the rest.
    pub async fn count_popular(&self) -> Result<u64> {
        self.count_popular_from(POPULAR_GAMES).await
    }

    /// [`Db::count_popular`] for the positions at least `min` games reached.
    pub async fn count_popular_from(&self, min: i64) -> Result<u64> {
        with_pool!(self.0, pool => {
            let mut tx = pool.begin().await?;
            sqlx::query("DELETE FROM db_popular").execute(&mut *tx).await?;
            let n = sqlx::query(
                "INSERT INTO db_popular (hash, next, games, wins, draws, margin_sum) \
                 SELECT p.hash, p.next, COUNT(*), SUM(CASE WHEN p.margin > 0 THEN 1 ELSE 0 END), \
                 SUM(CASE WHEN p.margin = 0 THEN 1 ELSE 0 END), SUM(p.margin) FROM db_positions p \
                 WHERE p.hash IN (SELECT hash FROM db_positions GROUP BY hash HAVING COUNT(*) >= $1) \
                 GROUP BY p.hash, p.next",
            )
            .bind(min)
            .execute(&mut *tx)
            .await?
            .rows_affected();
            tx.commit().await?;
            Ok(n)
        })
    }

    /// Games that reached the position `hash` under `f`, the last imported first, at most
    /// `limit` from `offset`, each with the move made there (canonical frame).
    pub async fn explore_games(
        &self,
        hash: i64,
        f: &Filter,
        offset: u32,
        limit: u32,
    ) -> Result<Vec<(Hit, i64)>> {
        let (cond, args) = conditions(f, 4);
        // Newest first: games are numbered as imported (WTHOR year by year, the site's as they
        // end), so the primary key's order read backwards is the order wanted, and only the
        // rows of the page are joined to their games — unless a filter needs the games.
        let sql = if f.needs_games() {
            format!(
                "SELECT p.game, p.ply, p.next, g.black, g.white, g.tournament, g.year, g.margin, g.source, g.moves \
                 FROM db_positions p JOIN db_games g ON g.id = p.game WHERE p.hash = $1{cond} \
                 ORDER BY p.game DESC LIMIT $2 OFFSET $3"
            )
        } else {
            format!(
                "SELECT p.game, p.ply, p.next, g.black, g.white, g.tournament, g.year, g.margin, g.source, g.moves \
                 FROM (SELECT p.game, p.ply, p.next FROM db_positions p WHERE p.hash = $1{cond} \
                 ORDER BY p.game DESC LIMIT $2 OFFSET $3) p JOIN db_games g ON g.id = p.game ORDER BY p.game DESC"
            )
        };
        with_reader!(self.0, pool => {
            let q = bind_all!(sqlx::query(&sql).bind(hash).bind(limit as i64).bind(offset as i64), &args);
            let rows = q.fetch_all(pool).await?;
            rows.iter()
                .map(|r| {
                    Ok((
                        Hit {
                            game: r.try_get("game")?,
                            ply: r.try_get::<i64, _>("ply")? as i32,
                            black: r.try_get("black")?,
                            white: r.try_get("white")?,
                            tournament: r.try_get("tournament")?,
                            year: r.try_get::<i64, _>("year")? as i32,
                            margin: r.try_get::<i64, _>("margin")? as i32,
                            source: Source::of(r.try_get("source")?).name().to_string(),
                            moves: r.try_get("moves")?,
                        },
                        r.try_get("next")?,
                    ))
                })
                .collect()
        })
    }

    /// Players whose name starts with `prefix` (any case), the most games first, at most
    /// `limit`, each with their number of games.
    pub async fn explorer_players(&self, prefix: &str, limit: u32) -> Result<Vec<(String, i64)>> {
        let pattern = format!("{}%", like_escape(&prefix.to_lowercase()));
        with_reader!(self.0, pool => {
            let rows = sqlx::query(
                "SELECT name, CAST(SUM(n) AS BIGINT) AS n FROM ( \
                 SELECT black AS name, COUNT(*) AS n FROM db_games WHERE black_key LIKE $1 GROUP BY black \
                 UNION ALL SELECT white AS name, COUNT(*) AS n FROM db_games WHERE white_key LIKE $1 GROUP BY white \
                 ) t GROUP BY name ORDER BY n DESC, name LIMIT $2",
            )
            .bind(&pattern)
            .bind(limit as i64)
            .fetch_all(pool)
            .await?;
            rows.iter().map(|r| Ok((r.try_get("name")?, r.try_get("n")?))).collect()
        })
    }

    /// How many games and positions the explorer holds.
    pub async fn explorer_size(&self) -> Result<(i64, i64)> {
        with_reader!(self.0, pool => {
            let games: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM db_games").fetch_one(pool).await?;
            if games == 0 {
                return Ok((0, 0));
            }
            let positions: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM db_positions").fetch_one(pool).await?;
            Ok((games, positions))
        })
    }

    /// A game of the explorer: its moves, for the replay.
    pub async fn explorer_game(&self, id: i64) -> Result<Option<Hit>> {
        with_reader!(self.0, pool => {
            let row = sqlx::query(
                "SELECT id, black, white, tournament, year, margin, source, moves FROM db_games WHERE id = $1",
            )
            .bind(id)
            .fetch_optional(pool)
            .await?;
            row.map(|r| {
                Ok(Hit {
                    game: r.try_get("id")?,
                    ply: 0,
                    black: r.try_get("black")?,
                    white: r.try_get("white")?,
                    tournament: r.try_get("tournament")?,
                    year: r.try_get::<i64, _>("year")? as i32,
                    margin: r.try_get::<i64, _>("margin")? as i32,
                    source: Source::of(r.try_get("source")?).name().to_string(),
                    moves: r.try_get("moves")?,
                })
            })
            .transpose()
        })
    }

    /// The ids of the site's finished standard games, for `reversi db import --site`.
    pub async fn finished_othello_games(&self) -> Result<Vec<String>> {
        with_reader!(self.0, pool => {
            Ok(sqlx::query_scalar(
                "SELECT id FROM games WHERE status = 'finished' AND variant = 'othello' ORDER BY created_at",
            )
            .fetch_all(pool)
            .await?)
        })
    }
}

/// The square of a canonical-frame `next` seen from a position whose symmetry to the canonical
/// frame is `sym`.
pub fn next_square(next: i64, sym: Symmetry) -> Option<Square> {
    if !(0..64).contains(&next) {
        return None;
    }
    Some(sym.inverse().apply(Square::from_bit8(next as u32), 8))
}

#[cfg(test)]
mod tests {
    use super::*;
    use reversi_core::Rules;

    #[test]
    fn mirrored_games_meet_and_their_moves_map_back() {
        let moves = ["f5", "d6", "c3", "d3", "c4", "f4", "f6", "f3", "e6", "e7"];
        let mut seen: Vec<Vec<i64>> = Vec::new();
        for sym in Symmetry::ALL {
            let transcript: String = moves
                .iter()
                .map(|m| sym.apply(Square::parse(m).unwrap(), 8).to_string())
                .collect();
            // Half the symmetries swap the start's colours: those images are no game.
            let Ok(g) = Game::from_transcript(Rules::othello(), &transcript) else {
                continue;
            };
            let rows = index_game(&g).unwrap();
            assert_eq!(rows.len(), moves.len());
            for (ply, &(hash, p, next)) in rows.iter().enumerate() {
                assert_eq!(p as usize, ply);
                let reversi_core::AnyPosition::Small(pos) = g.position_at(ply).unwrap() else {
                    unreachable!()
                };
                let (h, own) = position_key(pos);
                assert_eq!(h, hash);
                // The canonical move, seen from this game's frame, is the move it played.
                assert_eq!(
                    next_square(next, own).map(Move::Play),
                    Some(g.moves()[ply]),
                    "ply {ply}"
                );
            }
            seen.push(rows.iter().skip(1).map(|r| r.0).collect());
        }
        assert!(seen.len() >= 4, "{}", seen.len());
        assert!(
            seen.iter().all(|s| *s == seen[0]),
            "the images reach the same positions"
        );
        // The side to move is part of the key.
        let g = Game::from_transcript(Rules::othello(), "f5d6").unwrap();
        let rows = index_game(&g).unwrap();
        assert_ne!(rows[0].0, rows[1].0);
    }
}
