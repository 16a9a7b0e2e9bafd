//! `GET /api/openapi.json`: the OpenAPI description of what a program needs to play here — a
//! game's requests, the account (and its bot token), the lobby and the pools — generated from
//! the types of `reversi-site-api` and the handlers' annotations, so that it cannot drift from
//! what the server takes and answers. The websockets' messages are its schemas `GameCommand`,
//! `GameEvent`, `LobbyEvent` and `PageEvent` (OpenAPI has no words for a socket). docs/api.md is the guide.

use axum::Json;
use reversi_site_api as wire;
use utoipa::openapi::security::{ApiKey, ApiKeyValue, Http, HttpAuthScheme, SecurityScheme};
use utoipa::OpenApi;

/// The description.
#[derive(OpenApi)]
#[openapi(
    info(
        title = "Reversi",
        description = "The API of a Reversi/Othello site: play games, seek and accept opponents, \
                       run a bot. Errors are `ApiError` bodies with a status and a `code`; see \
                       docs/api.md for the guide, the seat rules and the error codes."
    ),
    paths(
        crate::api::create,
        crate::api::get_game,
        crate::api::join,
        crate::api::play,
        crate::api::resign,
        crate::api::undo,
        crate::api::takeback,
        crate::api::takeback_accept,
        crate::api::takeback_decline,
        crate::api::get_conditional,
        crate::api::put_conditional,
        crate::api::abort,
        crate::api::claim,
        crate::api::hint,
        crate::api::rematch,
        crate::api::request_analysis,
        crate::api::analysis,
        crate::import::import,
        crate::ws::handler,
        crate::accounts::me,
        crate::accounts::signup,
        crate::accounts::login,
        crate::accounts::logout,
        crate::accounts::make_bot,
        crate::accounts::set_prefs,
        crate::accounts::set_country,
        crate::email::get,
        crate::email::change,
        crate::email::verify,
        crate::email::request_reset,
        crate::email::confirm_reset,
        crate::profile::my_games,
        crate::lobby::lobby,
        crate::lobby_ws::handler,
        crate::lobby::create,
        crate::lobby::cancel,
        crate::lobby::accept,
        crate::lobby::decline,
        crate::lobby::join_pool,
        crate::lobby::leave_pool,
        crate::profile::live,
        crate::profile::user,
        crate::moderation::reports,
        crate::moderation::log,
        crate::moderation::close_report,
        crate::moderation::act_on_user,
        crate::moderation::close_game,
        crate::moderation::close_tournament,
        crate::people::mine,
        crate::people::report,
        crate::notify::set,
        crate::api::list,
        crate::chat::history,
        crate::chat::post,
        crate::explorer::handler,
        crate::explorer::players,
        crate::explorer::game,
        crate::profile::games,
        crate::profile::leaderboard,
        crate::meta::meta,
        crate::learn::list,
        crate::learn::lesson,
        crate::learn::judge,
        crate::learn::finished,
        crate::learn::about,
        crate::learn::openings,
        crate::puzzles::overview,
        crate::puzzles::next,
        crate::puzzles::daily_puzzle,
        crate::puzzles::get,
        crate::puzzles::moves,
        crate::puzzles::pack,
        crate::tournaments::list,
        crate::tournaments::create,
        crate::tournaments::get,
        crate::tournaments::join,
        crate::tournaments::withdraw,
        crate::tournaments::organise,
        crate::tournaments::chat,
        openapi_json,
    ),
    components(schemas(wire::GameCommand, wire::GameEvent, wire::LobbyEvent, wire::PageEvent)),
    modifiers(&Credentials),
    tags(
        (name = "games", description = "Playing a game: a seat token (cookie, or `Authorization: Bearer`) acts for its seats."),
        (name = "account", description = "Signing up and in; the e-mail address and a forgotten password; a bot's API token."),
        (name = "lobby", description = "Seeks, challenges and the quick-pairing pools."),
        (name = "people", description = "Players in public: their games and the leaderboards."),
        (name = "moderation", description = "The moderators' desk (accounts with the moderator role): reports, actions, the log."),
        (name = "explorer", description = "The game database: a position's next moves, the games that reached it, its players."),
        (name = "learn", description = "Lessons: exercises judged move by move, and an account's progress."),
        (name = "puzzles", description = "Puzzles from real games: each move judged by the server, an account's puzzle rating."),
        (name = "tournaments", description = "Swiss, round robin and arena tournaments: the list, a page, entering, organising, chat."),
        (name = "site", description = "What the site offers, and this description."),
    )
)]
pub struct ApiDoc;

/// The ways a request says who sends it.
struct Credentials;

impl utoipa::Modify for Credentials {
    fn modify(&self, doc: &mut utoipa::openapi::OpenApi) {
        let components = doc.components.get_or_insert_with(Default::default);
        let mut bearer = Http::new(HttpAuthScheme::Bearer);
        bearer.description =
            Some("A bot's API token (`bot_…`, from `POST /api/account/bot`), or a game's seat token.".into());
        components.add_security_scheme("bearer", SecurityScheme::Http(bearer));
        components.add_security_scheme(
            "session",
            SecurityScheme::ApiKey(ApiKey::Cookie(ApiKeyValue::with_description(
                crate::session::SESSION_COOKIE,
                "The session cookie a browser gets when it signs in.",
            ))),
        );
    }
}

/// `GET /api/openapi.json`.
#[utoipa::path(get, path = "/api/openapi.json", tag = "site",
    responses((status = 200, description = "This description (OpenAPI 3.1).")))]
pub async fn openapi_json() -> Json<utoipa::openapi::OpenApi> {
    Json(ApiDoc::openapi())
}
