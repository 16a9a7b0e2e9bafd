//! The JSON API of games (see docs/api.md): create, join, play, resign, undo, claim, replay,
//! analyses and downloads; thin handlers over the game room.

use crate::body::parse_body;
use crate::error::{Error, Result};
use crate::round::{NewGame, Seated};
use crate::state::AppState;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use reversi_site::game::{parse_color, Mode};
use reversi_site_api::GameView;
use serde::{Deserialize, Serialize};
use std::str::FromStr;

/// A game's state as seen by one client.
#[derive(Debug, Serialize)]
pub struct GameResponse {
    /// The state.
    pub game: GameView,
    /// The colours the caller's token plays (`[]` for a spectator).
    pub you: Vec<&'static str>,
    /// The seat token, only when just issued (create, join).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub token: Option<String>,
    /// For seat holders, while a seat is free: the secret of the invite link
    /// (`/game/{id}#join={invite}`), without which nobody can take that seat.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub invite: Option<String>,
}

fn names(seats: &[reversi_core::Color]) -> Vec<&'static str> {
    seats.iter().map(|c| c.name()).collect()
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
    let body = GameResponse {
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

/// Whether the request's seat token came from the game's cookie (not a bearer header).
fn token_from_cookie(headers: &HeaderMap) -> bool {
    headers.get(header::AUTHORIZATION).is_none()
}

/// Body of `POST /api/games`.
#[derive(Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CreateBody {
    /// `ai` (default), `friend` or `local`.
    pub mode: Option<String>,
    /// Variant preset (default `othello`).
    pub variant: Option<String>,
    /// Computer level 1..=30 (default 5).
    pub level: Option<u32>,
    /// The creator's colour: `black` (default), `white` or `random`.
    pub color: Option<String>,
}

/// `POST /api/games`: creates a game and seats the caller (at most
/// [`crate::Config::games_per_address_hour`] per address: `429 game_quota` past it).
pub async fn create(
    State(state): State<AppState>,
    axum::extract::Extension(addr): axum::extract::Extension<crate::client::ClientAddr>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response> {
    let b: CreateBody = parse_body(&headers, body, true)?;
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
        })
        .await?;
    Ok(seated_response(&state, StatusCode::CREATED, seated))
}

/// Body of `POST /api/games/{id}/join`.
#[derive(Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct JoinBody {
    /// The secret of the invite link (`#join=…` in the link).
    pub invite: Option<String>,
}

/// `POST /api/games/{id}/join`: takes the open seat of a game against a friend, for the
/// holder of its invite link.
pub async fn join(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response> {
    let b: JoinBody = parse_body(&headers, body, true)?;
    let token = state.seat_token(&headers, &id).await?;
    let seated = state
        .rounds()
        .join(&id, token.as_deref(), b.invite.as_deref())
        .await?;
    Ok(seated_response(&state, StatusCode::OK, seated))
}

/// `GET /api/games/{id}`. A seat holder's cookie is renewed (its lifetime runs from the last
/// visit).
pub async fn get_game(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response> {
    let token = state.seat_token(&headers, &id).await?;
    let (game, seats) = state.rounds().view(&id, token.as_deref()).await?;
    let invite = state.rounds().invite_for(&id, &seats).await?;
    // A player of an online game known by account, guest cookie or bot token gets the seat's
    // token (and cookie), as a player who joined by link did.
    let handed = match &token {
        Some(t)
            if !seats.is_empty()
                && crate::session::request_token(&headers, &id).as_deref() != Some(t.as_str()) =>
        {
            Some(t.clone())
        }
        _ => None,
    };
    let renew = match (&token, seats.is_empty()) {
        (Some(t), false) if token_from_cookie(&headers) || handed.is_some() => seat_cookie(&state, &id, t),
        _ => None,
    };
    let mut resp = Json(GameResponse {
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

/// Body of `POST /api/games/{id}/moves`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveBody {
    /// The square (`d3`) or `pass`.
    #[serde(rename = "move")]
    pub mv: String,
    /// The ply the client saw (optional): a move sent against another ply is refused (409).
    #[serde(default)]
    pub ply: Option<usize>,
}

/// `POST /api/games/{id}/moves`: plays a move; answers once the computer has replied.
pub async fn play(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<GameResponse>> {
    let b: MoveBody = parse_body(&headers, body, false)?;
    let token = state.seat_token(&headers, &id).await?;
    // The answer comes once the computer (when it is to move next) has moved too.
    state
        .rounds()
        .play(&id, token.as_deref(), &b.mv, b.ply, true)
        .await?;
    let (game, seats) = state.rounds().view(&id, token.as_deref()).await?;
    Ok(Json(GameResponse {
        game: game.for_viewer(seats.is_empty()),
        you: names(&seats),
        token: None,
        invite: None,
    }))
}

/// Body of `POST /api/games/{id}/resign`.
#[derive(Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ResignBody {
    /// The colour resigning (needed only on a shared device; default: the side to move).
    pub color: Option<String>,
}

/// `POST /api/games/{id}/resign`.
pub async fn resign(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<GameResponse>> {
    let b: ResignBody = parse_body(&headers, body, true)?;
    let color = match b.color.as_deref() {
        None => None,
        Some(c) => {
            Some(parse_color(c).ok_or_else(|| Error::BadRequest("color must be black or white".into()))?)
        }
    };
    let token = state.seat_token(&headers, &id).await?;
    let game = state.rounds().resign(&id, token.as_deref(), color).await?;
    let (_, seats) = state.rounds().view(&id, token.as_deref()).await?;
    Ok(Json(GameResponse {
        game: game.for_viewer(seats.is_empty()),
        you: names(&seats),
        token: None,
        invite: None,
    }))
}

/// The answer to a seat holder's action: the new state and the caller's seats.
async fn answer(
    state: &AppState,
    id: &str,
    token: Option<&str>,
    game: GameView,
) -> Result<Json<GameResponse>> {
    let (_, seats) = state.rounds().view(id, token).await?;
    Ok(Json(GameResponse {
        game: game.for_viewer(seats.is_empty()),
        you: names(&seats),
        token: None,
        invite: None,
    }))
}

/// `POST /api/games/{id}/undo`: takes back the caller's last move and the computer's reply.
pub async fn undo(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<GameResponse>> {
    let token = state.seat_token(&headers, &id).await?;
    let game = state.rounds().undo(&id, token.as_deref()).await?;
    answer(&state, &id, token.as_deref(), game).await
}

/// `POST /api/games/{id}/claim`: claims the win from an opponent who has been away from the
/// game long enough ([`reversi_site::game::presence`]); 409 with `opponent_here`, `too_early` or
/// `cannot_claim` otherwise.
pub async fn claim(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<GameResponse>> {
    let token = state.seat_token(&headers, &id).await?;
    let game = state.rounds().claim(&id, token.as_deref()).await?;
    answer(&state, &id, token.as_deref(), game).await
}

/// `POST /api/games/{id}/abort`: ends the game without a result, while the two sides have not
/// both moved.
pub async fn abort(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<GameResponse>> {
    let token = state.seat_token(&headers, &id).await?;
    let game = state.rounds().abort(&id, token.as_deref()).await?;
    answer(&state, &id, token.as_deref(), game).await
}

/// Query of `GET /api/games/{id}/hint`.
#[derive(Debug, Deserialize)]
pub struct HintQuery {
    /// How many moves (default 3, at most 10).
    pub n: Option<usize>,
}

/// `GET /api/games/{id}/hint`: the best moves with their scores, for a seat holder.
pub async fn hint(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    query: Result<Query<HintQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<serde_json::Value>> {
    let Query(q) = query.map_err(|e| Error::BadRequest(e.body_text()))?;
    let token = state.seat_token(&headers, &id).await?;
    let hints = state
        .rounds()
        .hint(&id, token.as_deref(), q.n.unwrap_or(3))
        .await?;
    Ok(Json(serde_json::json!({ "hints": hints })))
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
pub async fn list(
    State(state): State<AppState>,
    query: Result<Query<ListQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<serde_json::Value>> {
    let Query(q) = query.map_err(|e| Error::BadRequest(e.body_text()))?;
    let offset = q.offset.unwrap_or(0);
    let limit = q.limit.unwrap_or(50).clamp(1, 200);
    if let Some(ids) = q.ids.as_deref() {
        let ids: Vec<&str> = ids.split(',').map(str::trim).filter(|s| !s.is_empty()).collect();
        if ids.len() > 50 {
            return Err(Error::BadRequest("at most 50 ids".into()));
        }
        let games = state.db().games().games_by_id(&ids).await?;
        let total = games.len();
        return Ok(Json(serde_json::json!({
            "games": games, "total": total, "offset": 0, "limit": 50
        })));
    }
    let (games, total) = state.rounds().list(q.status.as_deref(), offset, limit).await?;
    Ok(Json(serde_json::json!({
        "games": games, "total": total, "offset": offset, "limit": limit
    })))
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
pub async fn request_analysis(
    State(state): State<AppState>,
    axum::extract::Extension(addr): axum::extract::Extension<crate::client::ClientAddr>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response> {
    let requester = match state.identity(&headers).await? {
        crate::session::Identity::User(u) => u.id,
        _ => format!("ip:{}", addr.0),
    };
    let a = state.request_analysis(&id, &requester).await?;
    Ok((StatusCode::ACCEPTED, Json(a)).into_response())
}

/// `GET /api/games/{id}/analysis`: the analysis's status and the moves analysed so far.
pub async fn analysis(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<crate::analysis::AnalysisView>> {
    Ok(Json(state.analysis(&id).await?))
}

/// Query of the pages that exist in both languages.
#[derive(Debug, Default, Deserialize)]
pub struct LangQuery {
    /// `en` (default) or `ru`.
    pub lang: Option<String>,
}

fn parse_lang(
    q: Result<Query<LangQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<reversi_render::Lang> {
    let Query(q) = q.map_err(|e| Error::BadRequest(e.body_text()))?;
    match q.lang.as_deref() {
        None => Ok(reversi_render::Lang::En),
        Some(l) => l.parse().map_err(Error::BadRequest),
    }
}

/// `GET /api/games/{id}/chart.svg?lang=en|ru`: the evaluation chart of a done analysis.
pub async fn chart(
    State(state): State<AppState>,
    Path(id): Path<String>,
    query: Result<Query<LangQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Response> {
    let lang = parse_lang(query)?;
    let svg = state.analysis_chart(&id, lang).await?;
    let mut resp = (StatusCode::OK, svg).into_response();
    let h = resp.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static("image/svg+xml"));
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    Ok(resp)
}

/// `POST /api/games/{id}/rematch`: for a seat holder of a finished game, the rematch with the
/// colours swapped (`201` when this call started it, `200` when the other player had).
pub async fn rematch(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response> {
    let token = state.seat_token(&headers, &id).await?;
    let (seated, created) = state.rounds().rematch(&id, token.as_deref()).await?;
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
pub async fn rules(
    Path(variant): Path<String>,
    query: Result<Query<LangQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<RulesView>> {
    let lang = parse_lang(query)?;
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
        cells: reversi_site::game::cells_of(&start),
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
