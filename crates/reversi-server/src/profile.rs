//! Players in public: profiles (`/api/users/{name}`), their games, the leaderboards, and the
//! online games in progress with the featured one.

use crate::db::people::Relation;
use crate::error::{Error, Result};
use crate::extract::{ApiQuery, Caller};
use crate::state::AppState;
use axum::extract::{Path, State};
use axum::Json;
use reversi_site::game::online::{SeatInfo, Timing};
use reversi_site::rating::Category;
use reversi_site_api as wire;
use reversi_site_api::{LiveGame, LiveGames, LivePlayer};
use serde::Deserialize;

/// Query of `GET /api/users/{name}/games`.
#[derive(Debug, Default, Deserialize)]
pub struct GamesQuery {
    /// `win`, `loss`, `draw` or `playing`.
    pub result: Option<String>,
    /// `black` or `white`.
    pub colour: Option<String>,
    /// Skip this many.
    pub offset: Option<u32>,
    /// At most this many (default 20, at most 100).
    pub limit: Option<u32>,
}

impl AppState {
    /// The live account named `name` (any look-alike spelling finds it).
    pub(crate) async fn user_named(&self, name: &str) -> Result<crate::db::User> {
        if name.len() > 64 {
            return Err(Error::NotFound);
        }
        match self
            .db()
            .accounts()
            .user_named(&reversi_site::account::skeleton(name), name)
            .await?
        {
            Some((u, _)) if !u.deleted => Ok(u),
            _ => Err(Error::NotFound),
        }
    }
}

/// `GET /api/users/{name}`: the profile: ratings per category (provisional marked), the puzzle
/// rating (once the player has tried a puzzle), the rating history, results per colour, and the
/// games being played now; how many follow the player, whether the player is online, and for
/// a signed-in reader whether the reader follows or blocks the player (`relation`).
#[utoipa::path(get, path = "/api/users/{name}", tag = "people", security(("bearer" = []), ("session" = []), ()), params(("name" = String, Path, description = "The player's name.")), responses((status = 200, description = "The player's profile.", body = wire::Profile), (status = 404, description = "No such player.", body = wire::ApiError)))]
pub async fn user(
    State(state): State<AppState>,
    Caller(who): Caller,
    Path(name): Path<String>,
) -> Result<Json<wire::Profile>> {
    let u = state.user_named(&name).await?;
    let now = state.clock().clock_ms();
    let people = state.db().people();
    let relation = match who.user() {
        Some(me) if me.id != u.id => Some(wire::RelationView {
            following: people.has(Relation::Follow, &me.id, &u.id).await?,
            blocking: people.has(Relation::Block, &me.id, &u.id).await?,
        }),
        _ => None,
    };
    let followers = people.followers(&u.id).await?;
    let online = crate::people::online(people.seen_at(&u.id).await?, now as i64);
    let ratings = state
        .db()
        .ratings()
        .ratings_of(&u.id)
        .await?
        .into_iter()
        .map(|(c, r)| {
            let r = r.at(now);
            wire::CategoryRating {
                category: c.name().to_string(),
                rating: r.rating.round() as i64,
                deviation: r.deviation.round() as i64,
                provisional: r.provisional(now),
                games: r.games,
            }
        })
        .collect();
    let (puzzle, attempts, solved) = state.db().puzzles().puzzle_rating(&u.id).await?;
    let puzzle = (attempts > 0).then(|| {
        let r = puzzle.at(now);
        wire::PuzzleRating {
            rating: r.rating.round() as i64,
            deviation: r.deviation.round() as i64,
            provisional: r.provisional(now),
            attempts,
            solved,
        }
    });
    let history = state.db().ratings().rating_history(&u.id, 1000).await?;
    let [black, white] = state.db().profiles().colour_results(&u.id).await?;
    let (playing, _) = state
        .db()
        .profiles()
        .user_games(&u.id, Some("playing"), None, 0, 20)
        .await?;
    Ok(Json(wire::Profile {
        name: u.name.clone(),
        bot: u.bot,
        country: u.country.clone(),
        created_at: u.created_at,
        disabled: u.disabled,
        followers,
        online: online && !u.disabled,
        relation,
        ratings,
        puzzle,
        history,
        results: wire::ColourResultsView { black, white },
        playing: playing.into_iter().map(profile_game).collect(),
    }))
}

/// `GET /api/users/{name}/games?result=win|loss|draw|playing&colour=black|white`: the
/// player's games, newest first, each seen from the player (opponent, ratings, time control,
/// result, rating change); aborted games are left out.
#[utoipa::path(get, path = "/api/users/{name}/games", tag = "people", params(("name" = String, Path, description = "The player's name."), ("result" = Option<String>, Query, description = "`win`, `loss`, `draw` or `playing`."), ("colour" = Option<String>, Query, description = "`black` or `white`."), ("offset" = Option<u32>, Query, description = "Skip this many."), ("limit" = Option<u32>, Query, description = "At most this many (default 20, at most 100).")), responses((status = 200, description = "A page of the player's games.", body = wire::ProfileGames), (status = 400, description = "A filter is not one of its values.", body = wire::ApiError), (status = 404, description = "No such player.", body = wire::ApiError)))]
pub async fn games(
    State(state): State<AppState>,
    Path(name): Path<String>,
    ApiQuery(q): ApiQuery<GamesQuery>,
) -> Result<Json<wire::ProfileGames>> {
    if let Some(r) = q.result.as_deref() {
        if !matches!(r, "win" | "loss" | "draw" | "playing") {
            return Err(Error::BadRequest(
                "result must be win, loss, draw or playing".into(),
            ));
        }
    }
    if let Some(c) = q.colour.as_deref() {
        if !matches!(c, "black" | "white") {
            return Err(Error::BadRequest("colour must be black or white".into()));
        }
    }
    let u = state.user_named(&name).await?;
    let offset = q.offset.unwrap_or(0);
    let limit = q.limit.unwrap_or(20).clamp(1, 100);
    let (games, total) = state
        .db()
        .profiles()
        .user_games(&u.id, q.result.as_deref(), q.colour.as_deref(), offset, limit)
        .await?;
    Ok(Json(wire::ProfileGames {
        games: games.into_iter().map(profile_game).collect(),
        total,
        offset,
        limit,
    }))
}

/// A game of a player's list as that player sees it.
fn profile_game(row: crate::db::profile::PlayerGameRow) -> wire::ProfileGame {
    let g = row.summary;
    let (color, other) = if row.black {
        (wire::Side::Black, 1)
    } else {
        (wire::Side::White, 0)
    };
    let seats = row
        .seat_info
        .as_deref()
        .and_then(|s| serde_json::from_str::<[SeatInfo; 2]>(s).ok());
    let mine = seats.as_ref().map(|s| &s[color.index()]);
    let theirs = seats.as_ref().map(|s| &s[other]);
    let their_kind = if other == 0 { &g.black } else { &g.white };
    let opponent = wire::Opponent {
        name: theirs.and_then(|s| s.name.clone()).or_else(|| {
            if other == 0 {
                g.black_name.clone()
            } else {
                g.white_name.clone()
            }
        }),
        rating: theirs.and_then(|s| s.rating),
        provisional: theirs.is_some_and(|s| s.provisional),
        bot: theirs.is_some_and(|s| s.bot),
        level: (their_kind == "ai").then_some(g.level),
    };
    let outcome = (g.status == "finished").then(|| match g.winner.as_deref() {
        None => wire::Outcome::Draw,
        Some(w) if w == color.name() => wire::Outcome::Win,
        Some(_) => wire::Outcome::Loss,
    });
    let status = match g.status.as_str() {
        "playing" => wire::GameStatus::Playing,
        "abandoned" => wire::GameStatus::Abandoned,
        "closed" => wire::GameStatus::Closed,
        "aborted" => wire::GameStatus::Aborted,
        _ => wire::GameStatus::Finished,
    };
    wire::ProfileGame {
        control: row
            .clock
            .as_deref()
            .and_then(|c| serde_json::from_str::<Timing>(c).ok())
            .map(|t| t.clock.control.to_string()),
        rating: mine.and_then(|s| s.rating),
        provisional: mine.is_some_and(|s| s.provisional),
        diff: mine.and_then(|s| s.diff),
        at: g.finished_at.unwrap_or(g.updated_at),
        id: g.id,
        variant: g.variant,
        mode: g.mode,
        status,
        rated: g.rated,
        color,
        opponent,
        outcome,
        black_count: g.black_count,
        white_count: g.white_count,
        winner: g.winner,
        move_count: g.move_count,
    }
}

/// `GET /api/leaderboard/{category}`: the 100 best established players, and apart the 100 best
/// whose rating is still provisional (so that a young site's board is not empty).
#[utoipa::path(get, path = "/api/leaderboard/{category}", tag = "people", params(("category" = String, Path, description = "A rated category: `bullet`, `blitz`, `rapid`, `classical`, `correspondence`, `xot`, `grand`, `anti`.")), responses((status = 200, description = "The leaderboard.", body = wire::Leaderboard), (status = 404, description = "No such category.", body = wire::ApiError)))]
pub async fn leaderboard(
    State(state): State<AppState>,
    Path(category): Path<String>,
) -> Result<Json<wire::Leaderboard>> {
    let c = Category::named(&category).ok_or(Error::NotFound)?;
    let (players, provisional) = state
        .db()
        .ratings()
        .leaderboard(c, state.clock().clock_ms(), 100)
        .await?;
    let line = |l: crate::db::ratings::BoardLine| wire::BoardLine {
        name: l.name,
        rating: l.rating.round() as i64,
        deviation: l.deviation.round() as i64,
        games: l.games,
        bot: l.bot,
        country: l.country,
    };
    Ok(Json(wire::Leaderboard {
        category: c.name().to_string(),
        players: players.into_iter().map(line).collect(),
        provisional: provisional.into_iter().map(line).collect(),
    }))
}

/// `GET /api/live`: the online games in progress (players, ratings, time control, spectators
/// at every instance) and the featured one, the highest rated.
#[utoipa::path(get, path = "/api/live", tag = "lobby", responses((status = 200, description = "The online games being played now.", body = wire::LiveGames)))]
pub async fn live(State(state): State<AppState>) -> Result<Json<LiveGames>> {
    Ok(Json(read_live_games(&state).await?))
}

/// How long the list of games in progress is reused: every lobby socket of an instance shares
/// one reading of the database per period (`GET /api/live` reads it afresh).
pub const LIVE_FRESH: std::time::Duration = std::time::Duration::from_secs(2);

impl AppState {
    /// The body of `GET /api/live`, read at most once per [`LIVE_FRESH`].
    pub async fn live_games(&self) -> Result<std::sync::Arc<LiveGames>> {
        let mut cache = self.inner.live_cache.lock().await;
        if let Some((at, v)) = cache.as_ref() {
            if at.elapsed() < LIVE_FRESH {
                return Ok(v.clone());
            }
        }
        let v = std::sync::Arc::new(read_live_games(self).await?);
        *cache = Some((tokio::time::Instant::now(), v.clone()));
        Ok(v)
    }
}

async fn read_live_games(state: &AppState) -> Result<LiveGames> {
    let rows = state.db().profiles().live_games(100).await?;
    let watchers = state.db().presence().spectators(state.clock().now_ms()).await?;
    let mut games = Vec::new();
    let mut featured: Option<(i32, String)> = None;
    for r in rows {
        let Ok(seats) = serde_json::from_str::<[SeatInfo; 2]>(&r.seat_info) else {
            continue;
        };
        let control = r
            .clock
            .as_deref()
            .and_then(|c| serde_json::from_str::<Timing>(c).ok())
            .map(|t| t.clock.control.to_string());
        let top = seats.iter().map(|s| s.rating.unwrap_or(0)).min().unwrap_or(0);
        if featured.as_ref().is_none_or(|(best, _)| top > *best) {
            featured = Some((top, r.id.clone()));
        }
        let side = |s: &SeatInfo| LivePlayer {
            name: s.name.clone(),
            rating: s.rating,
            provisional: s.provisional,
            bot: s.bot,
        };
        games.push(LiveGame {
            watchers: watchers.get(&r.id).copied().unwrap_or(0),
            id: r.id,
            variant: r.variant,
            control,
            moves: r.move_count,
            black: side(&seats[0]),
            white: side(&seats[1]),
        });
    }
    let since = state.clock().now_ms() - crate::people::ONLINE_MS;
    Ok(LiveGames {
        games,
        featured: featured.map(|f| f.1),
        players_online: state.db().people().seen_since(since).await?,
    })
}

/// The most games in progress the account's list shows (a correspondence player may have many).
pub const MY_GAMES_LIMIT: u32 = 50;

/// `GET /api/account/games`: the signed-in account's games in progress, those waiting for its
/// move first, with the challenges addressed to it and what became of its own in the last
/// minute. Every device of the account sees the same (the header's "your turn" count, the
/// site-wide challenge notice and the home page's games come from it).
#[utoipa::path(get, path = "/api/account/games", tag = "account", security(("bearer" = []), ("session" = [])), responses((status = 200, description = "The account's games in progress.", body = wire::MyGames), (status = 401, description = "Nobody is signed in.", body = wire::ApiError)))]
pub async fn my_games(
    State(state): State<AppState>,
    crate::extract::Caller(who): crate::extract::Caller,
) -> Result<Json<wire::MyGames>> {
    Ok(Json(state.my_games(&who).await?))
}

impl AppState {
    /// The body of `GET /api/account/games` for `who` (also what the account's socket pushes).
    pub(crate) async fn my_games(&self, who: &crate::session::Identity) -> Result<wire::MyGames> {
        let crate::session::Identity::User(u) = who else {
            return Err(Error::Unauthorized(
                "not_signed_in",
                "sign in to see your games".into(),
            ));
        };
        let ids = self.db().profiles().playing_ids(&u.id, MY_GAMES_LIMIT).await?;
        let mut games = Vec::with_capacity(ids.len());
        for (id, color) in ids {
            let color = match color {
                reversi_core::Color::Black => wire::Side::Black,
                reversi_core::Color::White => wire::Side::White,
            };
            // A game that ended or vanished between the query and here is left out.
            let Ok((view, _)) = self.rounds().view(&id, None).await else {
                continue;
            };
            if view.status != wire::GameStatus::Playing {
                continue;
            }
            games.push(my_game(view, color));
        }
        games.sort_by_key(|g| (!g.your_turn, g.time_left_ms.unwrap_or(u64::MAX)));
        let your_turn = games.iter().filter(|g| g.your_turn).count();
        let challenges = crate::lobby::challenges_for(self, who, &u.id).await?;
        let (started, declined) = crate::lobby::outcomes(self, &u.id, self.clock().now_ms()).await?;
        Ok(wire::MyGames {
            games,
            your_turn,
            challenges,
            started,
            declined,
        })
    }
}

/// A game in progress as the list of the player of `color` shows it.
fn my_game(view: wire::GameView, color: wire::Side) -> wire::MyGame {
    let online = view.online.as_ref();
    let opp = online.map(|o| match color {
        wire::Side::Black => &o.white,
        wire::Side::White => &o.black,
    });
    let clock = online.and_then(|o| o.clock.as_ref());
    wire::MyGame {
        your_turn: view.to_move == Some(color),
        opponent: opp.and_then(|p| p.name.clone()),
        opponent_rating: opp.and_then(|p| p.rating),
        opponent_guest: opp.is_some_and(|p| p.guest),
        control: clock.map(|c| c.control.clone()),
        speed: clock.map(|c| c.speed.clone()),
        time_left_ms: clock.map(|c| match color {
            wire::Side::Black => c.black_ms,
            wire::Side::White => c.white_ms,
        }),
        ply: view.ply,
        tournament: online.and_then(|o| o.tournament.clone()),
        id: view.id,
        variant: view.variant,
        color,
    }
}
