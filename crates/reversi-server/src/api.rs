//! The JSON API of games (see docs/api.md): create, join, play, resign, undo, takebacks, claim, replay,
//! analyses and downloads; thin handlers over the game room.

use crate::client::ClientAddr;
use crate::error::{Error, Result};
use crate::extract::{ApiQuery, Caller, JsonBody, LangParam, OptionalJsonBody, Seat};
use crate::round::{NewGame, Seated};
use crate::state::AppState;
use axum::extract::{Path, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use reversi_site::game::{parse_color, side, Mode};
use reversi_site_api::{self as wire, GameAnswer, GameView, Hints, JoinGame, PlayMove, Resign, Side};
use serde::{Deserialize, Serialize};
use std::str::FromStr;

fn names(seats: &[reversi_core::Color]) -> Vec<Side> {
    seats.iter().map(|&c| side(c)).collect()
}

/// How long a seat cookie lives after the game was last opened: 30 days, renewed on every
/// visit, so that a long game keeps its seat and a forgotten one does not keep a secret for ever.
pub const SEAT_COOKIE_SECONDS: u32 = 30 * 24 * 3600;

/// The `Set-Cookie` value that hands `token` for game `id` to the browser (`Secure` when the
/// server is reached over TLS, see [`crate::Config::secure_cookies`]).
fn seat_cookie(state: &AppState, id: &str, token: &str) -> Option<HeaderValue> {
    crate::session::set_cookie(
        state,
        &crate::session::cookie_name(id),
        token,
        SEAT_COOKIE_SECONDS.into(),
    )
}

/// The answer that seats the caller: the game, the seat token, and its cookie.
pub(crate) fn seated_response(state: &AppState, status: StatusCode, s: Seated) -> Response {
    let cookie = seat_cookie(state, &s.view.id, &s.token);
    let body = GameAnswer {
        you: names(&s.seats),
        game: s.view.for_viewer(s.seats.is_empty()),
        token: Some(s.token),
        invite: s.invite,
    };
    let mut resp = (status, Json(body)).into_response();
    if let Some(v) = cookie {
        resp.headers_mut().insert(header::SET_COOKIE, v);
    }
    resp
}

/// `POST /api/games`: creates a game and seats the caller (at most
/// [`crate::Config::games_per_address_hour`] per address: `429 game_quota` past it).
#[utoipa::path(post, path = "/api/games", tag = "games", operation_id = "create_game", request_body(content = wire::NewGame, description = "May be left out: a game against the computer at level 5."), responses((status = 201, description = "The game, with the creator's seat token (also set as a cookie).", body = wire::GameAnswer), (status = "4XX", description = "Refused: the body says why (`code`, docs/api.md).", body = wire::ApiError)))]
pub async fn create(
    State(state): State<AppState>,
    addr: ClientAddr,
    OptionalJsonBody(b): OptionalJsonBody<wire::NewGame>,
) -> Result<Response> {
    let quota = i64::from(state.config().games_per_address_hour);
    let now = state.clock().now_ms();
    if let crate::db::throttle::Reserved::No { retry_after_s } = state
        .db()
        .throttle()
        .reserve(&format!("games@ {}", addr.0), 1, quota, 3_600_000, now)
        .await?
    {
        return Err(Error::Throttled {
            code: "game_quota",
            message: format!("at most {quota} new games an hour from one address; try again later"),
            retry_after_s,
        });
    }
    let mode = match b.mode.as_deref() {
        None => Mode::Ai,
        Some(m) => {
            Mode::parse(m).ok_or_else(|| Error::BadRequest("mode must be ai, friend or local".into()))?
        }
    };
    let color = match b.color.as_deref() {
        None => Some(reversi_core::Color::Black),
        Some("random") => None,
        Some(c) => Some(
            parse_color(c).ok_or_else(|| Error::BadRequest("color must be black, white or random".into()))?,
        ),
    };
    let seated = state
        .rounds()
        .create(NewGame {
            mode,
            variant: b.variant.unwrap_or_else(|| "othello".into()),
            level: b.level.unwrap_or(5),
            color,
            tie: match b.tie.as_deref() {
                None => reversi_core::TieRule::Draw,
                Some(t) => reversi_core::TieRule::parse(t)
                    .ok_or_else(|| Error::BadRequest("tie must be draw or second-wins".into()))?,
            },
        })
        .await?;
    Ok(seated_response(&state, StatusCode::CREATED, seated))
}

/// `POST /api/games/{id}/join`: takes the open seat of a game against a friend, for the
/// holder of its invite link.
#[utoipa::path(post, path = "/api/games/{id}/join", tag = "games", params(("id" = String, Path, description = "The game's id.")), security(("bearer" = []), ()), request_body(content = wire::JoinGame), responses((status = 200, description = "The game, with the joiner's seat token.", body = wire::GameAnswer), (status = "4XX", description = "Refused: the body says why (`code`, docs/api.md).", body = wire::ApiError)))]
pub async fn join(
    State(state): State<AppState>,
    seat: Seat,
    OptionalJsonBody(b): OptionalJsonBody<JoinGame>,
) -> Result<Response> {
    let seated = state
        .rounds()
        .join(&seat.game, seat.token(), b.invite.as_deref())
        .await?;
    Ok(seated_response(&state, StatusCode::OK, seated))
}

/// `GET /api/games/{id}`. A seat holder's cookie is renewed (its lifetime runs from the last
/// visit).
#[utoipa::path(get, path = "/api/games/{id}", tag = "games", params(("id" = String, Path, description = "The game's id.")), security(("bearer" = []), ()), responses((status = 200, description = "The game as the caller sees it (`you`: the caller's colours).", body = wire::GameAnswer), (status = "4XX", description = "Refused: the body says why (`code`, docs/api.md).", body = wire::ApiError)))]
pub async fn get_game(State(state): State<AppState>, seat: Seat) -> Result<Response> {
    let id = &seat.game;
    let (game, seats) = state.rounds().view(id, seat.token()).await?;
    let invite = state.rounds().invite_for(id, &seats).await?;
    // A player of an online game known by account, guest cookie or bot token gets the seat's
    // token (and cookie), as a player who joined by link did.
    let handed = (!seats.is_empty() && seat.found_not_carried())
        .then(|| seat.token.clone())
        .flatten();
    let renew = match (&seat.token, seats.is_empty()) {
        (Some(t), false) if seat.by_cookie() || handed.is_some() => seat_cookie(&state, id, t),
        _ => None,
    };
    let mut resp = Json(GameAnswer {
        game: game.for_viewer(seats.is_empty()),
        you: names(&seats),
        token: handed,
        invite,
    })
    .into_response();
    if let Some(v) = renew {
        resp.headers_mut().insert(header::SET_COOKIE, v);
    }
    Ok(resp)
}

/// `POST /api/games/{id}/moves`: plays a move; answers once the computer has replied.
#[utoipa::path(post, path = "/api/games/{id}/moves", tag = "games", params(("id" = String, Path, description = "The game's id.")), security(("bearer" = []), ()), request_body(content = wire::PlayMove), responses((status = 200, description = "The game after the move (and the computer's reply).", body = wire::GameAnswer), (status = "4XX", description = "Refused: the body says why (`code`, docs/api.md).", body = wire::ApiError)))]
pub async fn play(
    State(state): State<AppState>,
    seat: Seat,
    JsonBody(b): JsonBody<PlayMove>,
) -> Result<Json<GameAnswer>> {
    // The answer comes once the computer (when it is to move next) has moved too.
    state
        .rounds()
        .play(&seat.game, seat.token(), &b.mv, b.ply, true)
        .await?;
    let (game, seats) = state.rounds().view(&seat.game, seat.token()).await?;
    Ok(Json(GameAnswer {
        game: game.for_viewer(seats.is_empty()),
        you: names(&seats),
        token: None,
        invite: None,
    }))
}

/// `POST /api/games/{id}/resign`.
#[utoipa::path(post, path = "/api/games/{id}/resign", tag = "games", params(("id" = String, Path, description = "The game's id.")), security(("bearer" = []), ()), request_body(content = wire::Resign, description = "May be left out."), responses((status = 200, description = "The finished game.", body = wire::GameAnswer), (status = "4XX", description = "Refused: the body says why (`code`, docs/api.md).", body = wire::ApiError)))]
pub async fn resign(
    State(state): State<AppState>,
    seat: Seat,
    OptionalJsonBody(b): OptionalJsonBody<Resign>,
) -> Result<Json<GameAnswer>> {
    let color = match b.color.as_deref() {
        None => None,
        Some(c) => {
            Some(parse_color(c).ok_or_else(|| Error::BadRequest("color must be black or white".into()))?)
        }
    };
    let game = state.rounds().resign(&seat.game, seat.token(), color).await?;
    answer(&state, &seat, game).await
}

/// The answer to a seat holder's action: the new state and the caller's seats.
async fn answer(state: &AppState, seat: &Seat, game: GameView) -> Result<Json<GameAnswer>> {
    let (_, seats) = state.rounds().view(&seat.game, seat.token()).await?;
    Ok(Json(GameAnswer {
        game: game.for_viewer(seats.is_empty()),
        you: names(&seats),
        token: None,
        invite: None,
    }))
}

/// `POST /api/games/{id}/undo`: takes back the caller's last move and the computer's reply.
#[utoipa::path(post, path = "/api/games/{id}/undo", tag = "games", params(("id" = String, Path, description = "The game's id.")), security(("bearer" = []), ()), responses((status = 200, description = "The game with the caller's last move (and the computer's reply) taken back.", body = wire::GameAnswer), (status = "4XX", description = "Refused: the body says why (`code`, docs/api.md).", body = wire::ApiError)))]
pub async fn undo(State(state): State<AppState>, seat: Seat) -> Result<Json<GameAnswer>> {
    let game = state.rounds().undo(&seat.game, seat.token()).await?;
    answer(&state, &seat, game).await
}

/// `POST /api/games/{id}/takeback`: in a casual game between people, asks the opponent to take
/// back the caller's last move (and the opponent's reply, if made); when the opponent had asked
/// first, accepts their offer instead.
#[utoipa::path(post, path = "/api/games/{id}/takeback", tag = "games", params(("id" = String, Path, description = "The game's id.")), security(("bearer" = []), ()), responses((status = 200, description = "The game with the offer waiting (`takeback`), or the moves taken back.", body = wire::GameAnswer), (status = "4XX", description = "Refused: the body says why (`code`: `takeback_not_allowed`, `nothing_to_undo`, …; docs/api.md).", body = wire::ApiError)))]
pub async fn takeback(State(state): State<AppState>, seat: Seat) -> Result<Json<GameAnswer>> {
    let game = state.rounds().takeback(&seat.game, seat.token(), None).await?;
    answer(&state, &seat, game).await
}

/// `POST /api/games/{id}/takeback/accept`: accepts the opponent's takeback offer: the game goes
/// back to the opponent's last move.
#[utoipa::path(post, path = "/api/games/{id}/takeback/accept", tag = "games", params(("id" = String, Path, description = "The game's id.")), security(("bearer" = []), ()), responses((status = 200, description = "The game with the moves taken back.", body = wire::GameAnswer), (status = "4XX", description = "Refused: the body says why (`code`: `no_takeback_offer`, …; docs/api.md).", body = wire::ApiError)))]
pub async fn takeback_accept(State(state): State<AppState>, seat: Seat) -> Result<Json<GameAnswer>> {
    let game = state
        .rounds()
        .takeback(&seat.game, seat.token(), Some(true))
        .await?;
    answer(&state, &seat, game).await
}

/// `POST /api/games/{id}/takeback/decline`: declines the opponent's takeback offer, or withdraws
/// the caller's own.
#[utoipa::path(post, path = "/api/games/{id}/takeback/decline", tag = "games", params(("id" = String, Path, description = "The game's id.")), security(("bearer" = []), ()), responses((status = 200, description = "The game without the offer.", body = wire::GameAnswer), (status = "4XX", description = "Refused: the body says why (`code`: `no_takeback_offer`, …; docs/api.md).", body = wire::ApiError)))]
pub async fn takeback_decline(State(state): State<AppState>, seat: Seat) -> Result<Json<GameAnswer>> {
    let game = state
        .rounds()
        .takeback(&seat.game, seat.token(), Some(false))
        .await?;
    answer(&state, &seat, game).await
}

/// `GET /api/games/{id}/conditional`: the caller's conditional premoves in a correspondence
/// game (its author's only).
#[utoipa::path(get, path = "/api/games/{id}/conditional", tag = "games", params(("id" = String, Path, description = "The game's id.")), security(("bearer" = []), ()), responses((status = 200, description = "The caller's lines.", body = wire::ConditionalLines), (status = "4XX", description = "Refused: the body says why (`code`, docs/api.md).", body = wire::ApiError)))]
pub async fn get_conditional(
    State(state): State<AppState>,
    seat: Seat,
) -> Result<Json<wire::ConditionalLines>> {
    let lines = state.rounds().conditional(&seat.game, seat.token(), None).await?;
    Ok(Json(wire::ConditionalLines { lines }))
}

/// `PUT /api/games/{id}/conditional` `{"lines": ["e6 f4 c3 c4", …]}`: leaves conditional
/// premoves while the opponent is to move (an empty list clears them); `409 conditional` says
/// which line and move is at fault.
#[utoipa::path(put, path = "/api/games/{id}/conditional", tag = "games", params(("id" = String, Path, description = "The game's id.")), security(("bearer" = []), ()), request_body(content = wire::ConditionalLines), responses((status = 200, description = "The lines as stored.", body = wire::ConditionalLines), (status = "4XX", description = "Refused: the body says why (`code`, docs/api.md).", body = wire::ApiError)))]
pub async fn put_conditional(
    State(state): State<AppState>,
    seat: Seat,
    JsonBody(b): JsonBody<wire::ConditionalLines>,
) -> Result<Json<wire::ConditionalLines>> {
    let lines = state
        .rounds()
        .conditional(&seat.game, seat.token(), Some(b.lines))
        .await?;
    Ok(Json(wire::ConditionalLines { lines }))
}

/// `POST /api/games/{id}/claim`: claims the win from an opponent who has been away from the
/// game long enough ([`reversi_site::game::presence`]); 409 with `opponent_here`, `too_early` or
/// `cannot_claim` otherwise.
#[utoipa::path(post, path = "/api/games/{id}/claim", tag = "games", params(("id" = String, Path, description = "The game's id.")), security(("bearer" = []), ()), responses((status = 200, description = "The game, won by the caller.", body = wire::GameAnswer), (status = "4XX", description = "Refused: the body says why (`code`, docs/api.md).", body = wire::ApiError)))]
pub async fn claim(State(state): State<AppState>, seat: Seat) -> Result<Json<GameAnswer>> {
    let game = state.rounds().claim(&seat.game, seat.token()).await?;
    answer(&state, &seat, game).await
}

/// `POST /api/games/{id}/abort`: ends the game without a result, while the two sides have not
/// both moved.
#[utoipa::path(post, path = "/api/games/{id}/abort", tag = "games", params(("id" = String, Path, description = "The game's id.")), security(("bearer" = []), ()), responses((status = 200, description = "The aborted game.", body = wire::GameAnswer), (status = "4XX", description = "Refused: the body says why (`code`, docs/api.md).", body = wire::ApiError)))]
pub async fn abort(State(state): State<AppState>, seat: Seat) -> Result<Json<GameAnswer>> {
    let game = state.rounds().abort(&seat.game, seat.token()).await?;
    answer(&state, &seat, game).await
}

/// Query of `GET /api/games/{id}/hint`.
#[derive(Debug, Deserialize)]
pub struct HintQuery {
    /// How many moves (default 3, at most 10).
    pub n: Option<usize>,
}

/// `GET /api/games/{id}/hint`: the best moves with their scores, for a seat holder.
#[utoipa::path(get, path = "/api/games/{id}/hint", tag = "games", params(("id" = String, Path, description = "The game's id."), ("n" = Option<usize>, Query, description = "How many moves (default 3, at most 10).")), security(("bearer" = []), ()), responses((status = 200, description = "The best moves, best first (games against the computer).", body = wire::Hints), (status = "4XX", description = "Refused: the body says why (`code`, docs/api.md).", body = wire::ApiError)))]
pub async fn hint(
    State(state): State<AppState>,
    seat: Seat,
    ApiQuery(q): ApiQuery<HintQuery>,
) -> Result<Json<Hints>> {
    let hints = state
        .rounds()
        .hint(&seat.game, seat.token(), q.n.unwrap_or(3))
        .await?;
    Ok(Json(Hints { hints }))
}

/// Query of `GET /api/games`.
#[derive(Debug, Deserialize)]
pub struct ListQuery {
    /// `playing`, `finished`, `aborted` or `abandoned`.
    pub status: Option<String>,
    /// These games only (comma-separated ids, at most 50): a visitor's own games, which the
    /// browser remembers.
    pub ids: Option<String>,
    /// Skip this many (default 0).
    pub offset: Option<u32>,
    /// At most this many (default 50, at most 200).
    pub limit: Option<u32>,
}

/// `GET /api/games`: a page of the latest games (finished ones in the order they ended).
#[utoipa::path(get, path = "/api/games", tag = "games", operation_id = "list_games", params(("status" = Option<String>, Query, description = "`playing`, `finished`, `aborted`, `abandoned` or `closed`."), ("ids" = Option<String>, Query, description = "These games only (comma-separated ids, at most 50)."), ("offset" = Option<u32>, Query, description = "Skip this many."), ("limit" = Option<u32>, Query, description = "At most this many (default 50, at most 200).")), responses((status = 200, description = "A page of games.", body = reversi_site_api::GameList), (status = 400, description = "A bad status, or too many ids.", body = reversi_site_api::ApiError)))]
pub async fn list(
    State(state): State<AppState>,
    ApiQuery(q): ApiQuery<ListQuery>,
) -> Result<Json<reversi_site_api::GameList>> {
    let offset = q.offset.unwrap_or(0);
    let limit = q.limit.unwrap_or(50).clamp(1, 200);
    if let Some(ids) = q.ids.as_deref() {
        let ids: Vec<&str> = ids.split(',').map(str::trim).filter(|s| !s.is_empty()).collect();
        if ids.len() > 50 {
            return Err(Error::BadRequest("at most 50 ids".into()));
        }
        let games = state.db().games().games_by_id(&ids).await?;
        let total = games.len() as i64;
        return Ok(Json(reversi_site_api::GameList {
            games,
            total,
            offset: 0,
            limit: 50,
        }));
    }
    let (games, total) = state.rounds().list(q.status.as_deref(), offset, limit).await?;
    Ok(Json(reversi_site_api::GameList {
        games,
        total,
        offset,
        limit,
    }))
}

/// `GET /api/games/{id}/replay`: every position of the game, for stepping through it.
pub async fn replay(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<reversi_site_api::ReplayView>> {
    Ok(Json(state.rounds().replay(&id).await?))
}

/// `POST /api/games/{id}/analysis`: queues the analysis of a finished game (`202`; asking
/// again changes nothing). The caller is its requester: an account, or a guest's address.
#[utoipa::path(post, path = "/api/games/{id}/analysis", operation_id = "request_analysis", tag = "games", params(("id" = String, Path, description = "The game's id.")), responses((status = 202, description = "Queued (or already there): the analysis as it stands.", body = wire::GameAnalysis), (status = "4XX", description = "Refused: the body says why (`code`, docs/api.md).", body = wire::ApiError)))]
pub async fn request_analysis(
    State(state): State<AppState>,
    addr: ClientAddr,
    Path(id): Path<String>,
    Caller(who): Caller,
) -> Result<(StatusCode, Json<wire::GameAnalysis>)> {
    let requester = match who {
        crate::session::Identity::User(u) => u.id,
        _ => format!("ip:{}", addr.0),
    };
    let a = state.request_analysis(&id, &requester).await?;
    Ok((StatusCode::ACCEPTED, Json(a)))
}

/// `GET /api/games/{id}/analysis`: the analysis's status and the moves analysed so far.
#[utoipa::path(get, path = "/api/games/{id}/analysis", operation_id = "game_analysis", tag = "games", params(("id" = String, Path, description = "The game's id.")), responses((status = 200, description = "The analysis's status and the moves analysed so far.", body = wire::GameAnalysis), (status = "4XX", description = "Refused: the body says why (`code`, docs/api.md).", body = wire::ApiError)))]
pub async fn analysis(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<wire::GameAnalysis>> {
    Ok(Json(state.analysis(&id).await?))
}

/// `GET /api/games/{id}/chart.svg?lang=en|ru`: the evaluation chart of a done analysis.
pub async fn chart(
    State(state): State<AppState>,
    Path(id): Path<String>,
    LangParam(lang): LangParam,
) -> Result<Response> {
    let svg = state.analysis_chart(&id, lang).await?;
    let mut resp = (StatusCode::OK, svg).into_response();
    let h = resp.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static("image/svg+xml"));
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    Ok(resp)
}

/// `POST /api/games/{id}/rematch`: for a seat holder of a finished game, the rematch with the
/// colours swapped (`201` when this call started it, `200` when the other player had).
#[utoipa::path(post, path = "/api/games/{id}/rematch", tag = "games", params(("id" = String, Path, description = "The game's id.")), security(("bearer" = []), ()), responses((status = 201, description = "The rematch, colours swapped, with the caller's seat token.", body = wire::GameAnswer), (status = 200, description = "The rematch the opponent had already asked for.", body = wire::GameAnswer), (status = "4XX", description = "Refused: the body says why (`code`, docs/api.md).", body = wire::ApiError)))]
pub async fn rematch(State(state): State<AppState>, seat: Seat) -> Result<Response> {
    let (seated, created) = state.rounds().rematch(&seat.game, seat.token()).await?;
    let status = if created {
        StatusCode::CREATED
    } else {
        StatusCode::OK
    };
    Ok(seated_response(&state, status, seated))
}

/// The rules of a variant, as the rules page shows them.
#[derive(Debug, Serialize)]
pub struct RulesView {
    /// The variant asked for.
    pub variant: String,
    /// The variant the text describes: the one asked for, or an example of it when the preset
    /// picks something at random for each game (the hole of `black-hole`, the opening of `xot`).
    pub example_of: Option<String>,
    /// `en` or `ru`.
    pub lang: String,
    /// The variant's name.
    pub title: String,
    /// The rules, paragraph by paragraph (`reversi_render::rules_sheet_paragraphs`, as the
    /// printed rules sheet has them).
    pub paragraphs: Vec<String>,
    /// Board width.
    pub width: u8,
    /// Board height.
    pub height: u8,
    /// The start position, as a game's `cells`.
    pub cells: String,
    /// The side to move first.
    pub to_move: &'static str,
}

/// `GET /api/rules/{variant}?lang=en|ru`: the rules of a variant preset.
pub async fn rules(Path(variant): Path<String>, LangParam(lang): LangParam) -> Result<Json<RulesView>> {
    let asked =
        reversi_core::Variant::from_str(&variant).map_err(|e| Error::BadRequest(format!("variant: {e}")))?;
    let rules = reversi_core::Rules::new(asked, 0);
    let start = reversi_core::AnyPosition::start(&rules);
    let example = rules.variant != asked;
    Ok(Json(RulesView {
        variant: asked.to_string(),
        example_of: example.then(|| rules.variant.to_string()),
        lang: lang.to_string(),
        title: reversi_render::variant_title(asked, lang),
        paragraphs: reversi_render::rules_sheet_paragraphs(&rules, lang),
        width: start.width(),
        height: start.height(),
        cells: reversi_core::notation::cells(&start),
        to_move: start.side_to_move().name(),
    }))
}

/// `GET /api/games/{id}/ggf`: the game record as a GGF file.
pub async fn ggf(State(state): State<AppState>, Path(id): Path<String>) -> Result<Response> {
    let text = state.rounds().ggf(&id).await?;
    let disposition = format!("attachment; filename=\"reversi-{id}.ggf\"");
    let mut resp = (StatusCode::OK, format!("{text}\n")).into_response();
    let h = resp.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    if let Ok(v) = HeaderValue::from_str(&disposition) {
        h.insert(header::CONTENT_DISPOSITION, v);
    }
    Ok(resp)
}

/// Any other `/api/` path.
pub async fn not_found() -> Response {
    let body = serde_json::json!({ "error": "no such API endpoint", "code": "not_found" });
    (StatusCode::NOT_FOUND, Json(body)).into_response()
}

/// A method an `/api/` path does not take.
pub async fn method_not_allowed() -> Response {
    Error::MethodNotAllowed.into_response()
}
