//! The game database explorer: importing games (WTHOR `.wtb` with `WTHOR.JOU`/`WTHOR.TRN`
//! beside them, GGF files, the site's finished games) and, for a position, every next move with
//! its games, Black's wins, draws and losses, the mean final disc difference and the best-known
//! players who chose it, and the games that reached it (`GET /api/explorer`).

use crate::db::explorer::{index_game, next_square, position_key, Filter, ImportGame, Source};
use crate::db::Db;
use crate::error::{Error, Result};
use crate::extract::ApiQuery;
use crate::state::AppState;
use axum::extract::State;
use axum::Json;
use reversi_core::format::{ggf, wthor};
use reversi_core::{AnyPosition, Game, Move, Rules};
use reversi_site_api as wire;
use serde::Deserialize;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// Games stored per transaction by an import.
pub const IMPORT_BATCH: usize = 2_000;

/// The games of one import source, read from disk.
pub struct SourceFile {
    /// What is read.
    pub path: PathBuf,
    /// The games, ready to store.
    pub games: Vec<ImportGame>,
    /// Games skipped (another board, or a record that does not replay), with why.
    pub skipped: Vec<String>,
}

fn transcript(game: &Game) -> String {
    game.moves()
        .iter()
        .filter(|m| **m != Move::Pass)
        .map(|m| m.to_string())
        .collect()
}

/// Reads a WTHOR game file; names come from `WTHOR.JOU` and `WTHOR.TRN` in the same folder
/// (numbers stand in for them when the files are missing).
pub fn read_wthor(path: &Path) -> Result<SourceFile> {
    let bad = |e: String| Error::BadRequest(format!("{}: {e}", path.display()));
    let bytes = std::fs::read(path).map_err(|e| bad(e.to_string()))?;
    let file = wthor::parse_games(&bytes).map_err(|e| bad(e.to_string()))?;
    let dir = path.parent().unwrap_or(Path::new("."));
    let names =
        |name: &str, parse: fn(&[u8]) -> std::result::Result<wthor::WthorNames, wthor::WthorError>| {
            let bytes = std::fs::read(dir.join(name))
                .or_else(|_| std::fs::read(dir.join(name.to_lowercase())))
                .ok()?;
            parse(&bytes).ok()
        };
    let players = names("WTHOR.JOU", wthor::parse_players);
    let tournaments = names("WTHOR.TRN", wthor::parse_tournaments);
    let year = file.header.year as i32;
    let mut out = SourceFile {
        path: path.to_path_buf(),
        games: Vec::new(),
        skipped: Vec::new(),
    };
    for (i, g) in file.games.iter().enumerate() {
        let game = match g.to_game() {
            Ok(game) => game,
            Err(e) => {
                out.skipped.push(format!("game {}: {e}", i + 1));
                continue;
            }
        };
        let Some(positions) = index_game(&game) else {
            out.skipped.push(format!("game {}: not an 8×8 game", i + 1));
            continue;
        };
        let name = |n: &Option<wthor::WthorNames>, k: u16| {
            n.as_ref()
                .and_then(|n| n.get(k))
                .map(str::to_string)
                .unwrap_or_else(|| format!("#{k}"))
        };
        out.games.push(ImportGame {
            key: format!("wthor:{year}:{i}"),
            source: Source::Wthor,
            black: name(&players, g.black),
            white: name(&players, g.white),
            tournament: name(&tournaments, g.tournament),
            year,
            margin: g.black_margin(),
            moves: transcript(&game),
            positions,
        });
    }
    Ok(out)
}

/// Reads a GGF file: every standard 8×8 game from the start.
pub fn read_ggf(path: &Path) -> Result<SourceFile> {
    let bad = |e: String| Error::BadRequest(format!("{}: {e}", path.display()));
    let text = std::fs::read_to_string(path).map_err(|e| bad(e.to_string()))?;
    let games = ggf::parse_ggf(&text).map_err(|e| bad(e.to_string()))?;
    let mut out = SourceFile {
        path: path.to_path_buf(),
        games: Vec::new(),
        skipped: Vec::new(),
    };
    let start = AnyPosition::start(&Rules::othello());
    for (i, g) in games.iter().enumerate() {
        if g.start != start {
            out.skipped
                .push(format!("game {}: not from the standard start", i + 1));
            continue;
        }
        let game = match g.to_game() {
            Ok(game) => game,
            Err(e) => {
                out.skipped.push(format!("game {}: {e}", i + 1));
                continue;
            }
        };
        let Some(positions) = index_game(&game) else {
            out.skipped.push(format!("game {}: not an 8×8 game", i + 1));
            continue;
        };
        let margin = g
            .info
            .result
            .as_ref()
            .map(|r| r.black_margin.round() as i32)
            .or_else(|| game.outcome().map(|o| o.margin(reversi_core::Color::Black)))
            .unwrap_or(0);
        let year = g.info.date.as_deref().and_then(year_of).unwrap_or(0);
        let moves = transcript(&game);
        let key = format!(
            "ggf:{:016x}",
            reversi_core::position::mix(
                fnv(&moves),
                fnv(&format!(
                    "{}|{}|{}",
                    g.info.black,
                    g.info.white,
                    g.info.date.as_deref().unwrap_or("")
                ))
            )
        );
        out.games.push(ImportGame {
            key,
            source: Source::Ggf,
            black: g.info.black.clone(),
            white: g.info.white.clone(),
            tournament: g.info.place.clone().unwrap_or_default(),
            year,
            margin,
            moves,
            positions,
        });
    }
    Ok(out)
}

fn fnv(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ b as u64).wrapping_mul(0x100_0000_01b3)
    })
}

/// The year of a GGF date: `2003.01.24_…`, or Unix seconds (the site's own records).
fn year_of(date: &str) -> Option<i32> {
    let head: String = date.chars().take_while(|c| c.is_ascii_digit()).collect();
    match head.len() {
        4 => head.parse().ok(),
        9..=11 => {
            let secs: i64 = head.parse().ok()?;
            Some((1970.0 + secs as f64 / 31_556_952.0).floor() as i32)
        }
        _ => None,
    }
}

/// The site's finished standard games, from its own database.
pub async fn read_site(db: &Db) -> Result<SourceFile> {
    let mut out = SourceFile {
        path: PathBuf::from("site"),
        games: Vec::new(),
        skipped: Vec::new(),
    };
    for id in db.explorer().finished_othello_games().await? {
        let Some(live) = db.games().load_game(&id).await? else {
            continue;
        };
        let Some(positions) = index_game(&live.game) else {
            continue;
        };
        let Some(result) = live.result() else { continue };
        let name = |c: reversi_core::Color| match &live.record.online {
            Some(o) => o.seats[c.index()].name.clone().unwrap_or_else(|| "guest".into()),
            None if live.record.players[c.index()] == reversi_site::game::PlayerKind::Ai => {
                format!("computer (level {})", live.record.level)
            }
            None => "player".into(),
        };
        out.games.push(ImportGame {
            key: format!("site:{id}"),
            source: Source::Site,
            black: name(reversi_core::Color::Black),
            white: name(reversi_core::Color::White),
            tournament: live
                .record
                .online
                .as_ref()
                .and_then(|o| o.tournament.clone())
                .unwrap_or_default(),
            year: year_of(&live.record.created_at.to_string()).unwrap_or(0),
            margin: result.black_margin,
            moves: transcript(&live.game),
            positions,
        });
    }
    Ok(out)
}

/// Stores the games of `file` in batches of [`IMPORT_BATCH`]; `progress` hears of each batch
/// (games done). Returns the games that were new. Call [`Db::count_popular`] once the last
/// file is stored.
pub async fn store(db: &Db, file: &SourceFile, progress: &mut dyn FnMut(usize)) -> Result<u64> {
    let mut new = 0;
    for batch in file.games.chunks(IMPORT_BATCH) {
        new += db.explorer().import_games(batch).await?;
        progress(batch.len());
    }
    Ok(new)
}

/// The most games listed per page.
pub const MAX_GAMES: u32 = 100;

/// Query of `GET /api/explorer`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExplorerQuery {
    /// The moves from the start (`f5d6c3`).
    #[serde(default)]
    pub moves: String,
    /// Games with a player whose name contains this (any part, any case, any script).
    pub player: Option<String>,
    /// Tournaments whose name contains this.
    pub tournament: Option<String>,
    /// From this year.
    pub from: Option<i32>,
    /// To this year.
    pub to: Option<i32>,
    /// `wthor`, `ggf` or `site`.
    pub source: Option<String>,
    /// Games to skip in the list.
    #[serde(default)]
    pub offset: u32,
    /// Games to list (at most [`MAX_GAMES`]; default 20).
    pub limit: Option<u32>,
}

/// The position a query names, and its filter.
pub fn position_of(q: &ExplorerQuery) -> Result<(Game, Filter)> {
    if q.moves.len() > 200 {
        return Err(Error::BadRequest("moves: at most 60 moves".into()));
    }
    let moves = reversi_core::notation::parse_transcript(&q.moves)
        .map_err(|e| Error::BadRequest(format!("moves: {e}")))?;
    let game =
        Game::replay(Rules::othello(), &moves).map_err(|e| Error::BadRequest(format!("moves: {e}")))?;
    let source = q
        .source
        .as_deref()
        .map(|s| {
            Source::parse(s).ok_or_else(|| Error::BadRequest("source must be wthor, ggf or site".into()))
        })
        .transpose()?;
    let clip = |s: &Option<String>| {
        s.as_deref()
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(|s| s.chars().take(60).collect())
    };
    Ok((
        game,
        Filter {
            player: clip(&q.player),
            tournament: clip(&q.tournament),
            from_year: q.from,
            to_year: q.to,
            source,
        },
    ))
}

/// The explorer's answer for `game`'s position under `filter`: the next moves (in the
/// position's own frame) with their statistics and players, and a page of games.
pub async fn explore(
    db: &Db,
    game: &Game,
    filter: &Filter,
    offset: u32,
    limit: u32,
) -> Result<wire::ExplorerView> {
    let AnyPosition::Small(pos) = game.position() else {
        return Err(Error::BadRequest("the explorer holds 8×8 games".into()));
    };
    let (hash, sym) = position_key(pos);
    let stats = db.explorer().explore(hash, filter).await?;
    let hits = db
        .explorer()
        .explore_games(hash, filter, offset, limit.min(MAX_GAMES))
        .await?;
    // The players of each move: among the games listed (and up to 500 more), those with the
    // most games in the database.
    let sample = db.explorer().explore_games(hash, filter, 0, 500).await?;
    let mover = pos.side_to_move();
    let mut by_move: HashMap<i64, HashMap<String, usize>> = HashMap::new();
    for (h, next) in &sample {
        let name = if mover == reversi_core::Color::Black {
            &h.black
        } else {
            &h.white
        };
        *by_move.entry(*next).or_default().entry(name.clone()).or_default() += 1;
    }
    let total: i64 = stats.iter().map(|s| s.games).sum();
    let moves: Vec<wire::ExplorerMove> = stats
        .iter()
        .filter_map(|s| {
            let sq = next_square(s.next, sym)?;
            let mut players: Vec<(&String, &usize)> = by_move
                .get(&s.next)
                .map(|m| m.iter().collect())
                .unwrap_or_default();
            players.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
            Some(wire::ExplorerMove {
                square: sq.to_string(),
                games: s.games,
                share: if total > 0 {
                    s.games as f64 / total as f64
                } else {
                    0.0
                },
                black_wins: s.black_wins,
                draws: s.draws,
                black_losses: s.black_losses,
                mean_margin: (s.mean_margin * 10.0).round() / 10.0,
                players: players.iter().take(3).map(|(n, _)| n.to_string()).collect(),
            })
        })
        .collect();
    let games = hits
        .into_iter()
        .map(|(h, next)| wire::ExplorerGame {
            id: h.game,
            ply: h.ply,
            black: h.black,
            white: h.white,
            tournament: h.tournament,
            year: h.year,
            margin: h.margin,
            source: h.source,
            moves: h.moves,
            next: next_square(next, sym).map(|s| s.to_string()),
        })
        .collect();
    Ok(wire::ExplorerView {
        moves,
        total,
        games,
        offset,
        to_move: (!game.position().is_game_over()).then(|| reversi_site::game::side(pos.side_to_move())),
        empty: false,
    })
}

/// `GET /api/explorer?moves=f5d6&player=&tournament=&from=&to=&source=&offset=&limit=`.
#[utoipa::path(get, path = "/api/explorer", tag = "explorer", params(("moves" = Option<String>, Query, description = "The moves from the standard start (`f5d6`)."), ("player" = Option<String>, Query, description = "Games of players whose name holds this (any case)."), ("tournament" = Option<String>, Query, description = "Games of tournaments whose name holds this."), ("from" = Option<i32>, Query, description = "From this year."), ("to" = Option<i32>, Query, description = "To this year."), ("source" = Option<String>, Query, description = "`wthor`, `ggf` or `site`."), ("offset" = Option<u32>, Query, description = "Skip this many games."), ("limit" = Option<u32>, Query, description = "At most this many games (default 20).")), responses((status = 200, description = "The position's next moves and games.", body = wire::ExplorerView), (status = 400, description = "Moves that are not a game, or a filter out of range.", body = wire::ApiError)))]
pub async fn handler(
    State(state): State<AppState>,
    ApiQuery(q): ApiQuery<ExplorerQuery>,
) -> Result<Json<wire::ExplorerView>> {
    let (game, filter) = position_of(&q)?;
    let mut v = explore(state.db(), &game, &filter, q.offset, q.limit.unwrap_or(20)).await?;
    // An empty database says so, and the page tells how to fill it.
    v.empty = v.total == 0 && state.db().explorer().explorer_size().await?.0 == 0;
    Ok(Json(v))
}

/// Query of `GET /api/explorer/players`.
#[derive(Debug, Deserialize)]
pub struct PlayersQuery {
    /// The start of the name.
    #[serde(default)]
    pub q: String,
}

/// `GET /api/explorer/players?q=PREFIX`: up to 10 players of the database whose name starts so.
#[utoipa::path(get, path = "/api/explorer/players", tag = "explorer", params(("q" = String, Query, description = "The start of the name.")), responses((status = 200, description = "Up to ten players.", body = wire::ExplorerPlayers)))]
pub async fn players(
    State(state): State<AppState>,
    ApiQuery(q): ApiQuery<PlayersQuery>,
) -> Result<Json<wire::ExplorerPlayers>> {
    let prefix: String = q.q.trim().chars().take(40).collect();
    if prefix.is_empty() {
        return Ok(Json(wire::ExplorerPlayers { players: Vec::new() }));
    }
    let rows = state.db().explorer().explorer_players(&prefix, 10).await?;
    Ok(Json(wire::ExplorerPlayers {
        players: rows
            .into_iter()
            .map(|(name, games)| wire::ExplorerPlayer { name, games })
            .collect(),
    }))
}

/// `GET /api/explorer/games/{id}`: one game of the database (its moves, for the replay).
#[utoipa::path(get, path = "/api/explorer/games/{id}", tag = "explorer", params(("id" = i64, Path, description = "The game's number in the database.")), responses((status = 200, description = "The game.", body = wire::DatabaseGame), (status = 404, description = "No such game.", body = wire::ApiError)))]
pub async fn game(
    State(state): State<AppState>,
    axum::extract::Path(id): axum::extract::Path<i64>,
) -> Result<Json<wire::DatabaseGame>> {
    let h = state
        .db()
        .explorer()
        .explorer_game(id)
        .await?
        .ok_or(Error::NotFound)?;
    Ok(Json(h))
}
