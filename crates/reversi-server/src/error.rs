//! The one error type of the server, and how it becomes an HTTP response.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;

/// Everything that can go wrong while serving a request. Each variant maps to one HTTP status
/// and a JSON body `{"error": message, "code": short_name}`; nothing here panics.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The request is malformed (bad JSON, unknown variant, bad parameter).
    #[error("{0}")]
    BadRequest(String),
    /// A value the request gives is refused for a reason with its own code (`username_short`,
    /// `password_common`, `chat_too_long`, …), so the page can say it in the reader's language.
    #[error("{1}")]
    Invalid(&'static str, String),
    /// The request needs someone signed in, or the name and password do not match
    /// (`not_signed_in`, `wrong_credentials`, `session_expired`).
    #[error("{1}")]
    Unauthorized(&'static str, String),
    /// Too many attempts of one kind (logins, sign-ups, chat lines): wait `retry_after_s`.
    #[error("{message}")]
    Throttled {
        /// The code (`login_throttled`, `signup_throttled`, `chat_flood`).
        code: &'static str,
        /// What to tell the user.
        message: String,
        /// Seconds until the next attempt may succeed.
        retry_after_s: u64,
    },
    /// The request needs a seat token and has none.
    #[error("this game needs a seat token (cookie or `Authorization: Bearer`)")]
    NoSeat,
    /// The token holds a seat, but not the one this action needs.
    #[error("{0}")]
    NotYourSeat(String),
    /// The seat holder is not the side to move.
    #[error("it is {0}'s turn")]
    NotYourTurn(String),
    /// The move breaks the rules.
    #[error("illegal move: {0}")]
    IllegalMove(String),
    /// The game has ended.
    #[error("the game is over")]
    GameOver,
    /// The request was made against an older state of the game (its `ply` does not match).
    #[error("the game is at ply {actual}, not {expected}")]
    StalePly {
        /// The ply the client expected.
        expected: usize,
        /// The game's current ply.
        actual: usize,
    },
    /// The action needs a finished game (analysis, rematch).
    #[error("{0}")]
    NotFinished(String),
    /// Any other conflict with the game's state: its short name (`seats_taken`,
    /// `nothing_to_undo`, …, the `code` clients translate) and the message.
    #[error("{1}")]
    Conflict(&'static str, String),
    /// The caller may not do this, whoever asks again: its short name (`account_disabled`,
    /// `muted`, `blocked`, `not_moderator`) and the message.
    #[error("{1}")]
    Forbidden(&'static str, String),
    /// No game with that id.
    #[error("no such game")]
    NotFound,
    /// The client sends requests too fast.
    #[error("too many requests; slow down")]
    TooManyRequests,
    /// The request body is larger than allowed.
    #[error("the request body is too large")]
    PayloadTooLarge,
    /// The request body did not arrive in time ([`crate::Config::body_timeout`], for the whole
    /// body).
    #[error("the request body took too long to arrive")]
    BodyTimeout,
    /// The request body is not declared `application/json`.
    #[error("send the body as JSON, with `Content-Type: application/json`")]
    UnsupportedMediaType,
    /// The request comes from a page of another site (its `Origin`), which may not act here.
    #[error("requests from other sites are not accepted")]
    ForeignOrigin,
    /// No such method on this path.
    #[error("this method is not allowed here")]
    MethodNotAllowed,
    /// The request names a host that is not this server's (`Host`).
    #[error("this server does not serve that host name")]
    UnknownHost,
    /// A service the request needs is not set up on this site (`mail_unavailable`): its short
    /// name and the message.
    #[error("{1}")]
    Unavailable(&'static str, String),
    /// The database failed.
    #[error("database error: {0}")]
    Database(#[from] sqlx::Error),
    /// A bug or an unexpected failure (a background task died, ...).
    #[error("internal error: {0}")]
    Internal(String),
}

impl From<reversi_site::game::GameError> for Error {
    fn from(e: reversi_site::game::GameError) -> Error {
        use reversi_site::game::GameError as G;
        match e {
            G::NoSeat => Error::NoSeat,
            G::NotYourSeat(m) => Error::NotYourSeat(m),
            G::NotYourTurn(side) => Error::NotYourTurn(side.into()),
            G::IllegalMove(m) => Error::IllegalMove(m),
            G::GameOver => Error::GameOver,
            G::StalePly { expected, actual } => Error::StalePly { expected, actual },
            G::Corrupt(m) => Error::Internal(m),
            e => Error::Conflict(e.code(), e.to_string()),
        }
    }
}

/// Shorthand for results of the server.
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    /// The HTTP status of this error.
    pub fn status(&self) -> StatusCode {
        match self {
            Error::BadRequest(_) | Error::Invalid(..) => StatusCode::BAD_REQUEST,
            Error::Unauthorized(..) => StatusCode::UNAUTHORIZED,
            Error::Throttled { .. } => StatusCode::TOO_MANY_REQUESTS,
            Error::NoSeat => StatusCode::UNAUTHORIZED,
            Error::NotYourSeat(_) | Error::Forbidden(..) => StatusCode::FORBIDDEN,
            Error::NotYourTurn(_)
            | Error::GameOver
            | Error::StalePly { .. }
            | Error::Conflict(..)
            | Error::NotFinished(_) => StatusCode::CONFLICT,
            Error::IllegalMove(_) => StatusCode::UNPROCESSABLE_ENTITY,
            Error::NotFound => StatusCode::NOT_FOUND,
            Error::TooManyRequests => StatusCode::TOO_MANY_REQUESTS,
            Error::PayloadTooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            Error::BodyTimeout => StatusCode::REQUEST_TIMEOUT,
            Error::UnsupportedMediaType => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            Error::ForeignOrigin => StatusCode::FORBIDDEN,
            Error::MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
            Error::UnknownHost => StatusCode::MISDIRECTED_REQUEST,
            Error::Unavailable(..) => StatusCode::SERVICE_UNAVAILABLE,
            Error::Database(_) | Error::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// Every code [`Error::code`] can give (the front end has a message for each).
    pub const CODES: &'static [&'static str] = &[
        "bad_request",
        "no_seat",
        "not_your_seat",
        "not_your_turn",
        "illegal_move",
        "game_over",
        "stale_ply",
        "not_finished",
        "not_found",
        "rate_limited",
        "too_large",
        "unsupported_media_type",
        "foreign_origin",
        "method_not_allowed",
        "database",
        "internal",
        "seats_taken",
        "waiting_for_friend",
        "abort_instead",
        "cannot_abort",
        "nothing_to_undo",
        "undo_vs_computer_only",
        "no_hints",
        "analysis_not_done",
        "game_changed",
        "time_out",
        "not_signed_in",
        "wrong_credentials",
        "login_throttled",
        "signup_throttled",
        "name_taken",
        "username_length",
        "username_character",
        "username_start",
        "username_end",
        "username_separators",
        "username_reserved",
        "password_short",
        "password_long",
        "password_is_username",
        "seek_rated_needs_account",
        "seek_not_rated_variant",
        "seek_bots_only",
        "seek_range",
        "seek_own",
        "seek_out_of_range",
        "seek_gone",
        "bad_control",
        "not_for_you",
        "chat_empty",
        "chat_long",
        "chat_character",
        "chat_flood",
        "chat_repeat",
        "chat_closed",
        "guests_no_chat",
        "seek_limit",
        "no_rematch",
        "account_required",
        "not_rated_variant",
        "tournament_name",
        "tournament_rounds",
        "tournament_cycles",
        "tournament_minutes",
        "tournament_correspondence",
        "tournament_start",
        "tournament_max_players",
        "tournament_closed",
        "tournament_full",
        "tournament_rating",
        "tournament_invite_only",
        "tournament_no_bots",
        "tournament_not_organiser",
        "tournament_state",
        "tournament_removed",
        "tournament_limit",
        "database_in_use",
        "seek_correspondence_needs_account",
        "import_quota",
        "body_timeout",
        "analysis_limit",
        "analysis_busy",
        "game_quota",
        "unknown_host",
        "email_invalid",
        "email_taken",
        "email_throttled",
        "link_expired",
        "mail_unavailable",
        "reset_throttled",
        "account_disabled",
        "muted",
        "blocked",
        "not_moderator",
        "report_reason",
        "report_text",
        "report_throttled",
        "people_limit",
        "yourself",
    ];

    /// The server's code for a code of the site's rules crate (`username-length` →
    /// `username_length`); every such code is in [`Error::CODES`].
    pub fn site_code(site: &str) -> &'static str {
        let wanted = site.replace('-', "_");
        Error::CODES
            .iter()
            .find(|c| **c == wanted)
            .copied()
            .unwrap_or("bad_request")
    }

    /// A short machine-readable name of the error (`illegal_move`, `not_your_turn`, ...).
    pub fn code(&self) -> &'static str {
        match self {
            Error::BadRequest(_) => "bad_request",
            Error::Invalid(code, _) | Error::Unauthorized(code, _) => code,
            Error::Throttled { code, .. } => code,
            Error::NoSeat => "no_seat",
            Error::NotYourSeat(_) => "not_your_seat",
            Error::NotYourTurn(_) => "not_your_turn",
            Error::IllegalMove(_) => "illegal_move",
            Error::GameOver => "game_over",
            Error::StalePly { .. } => "stale_ply",
            Error::Conflict(code, _) | Error::Unavailable(code, _) | Error::Forbidden(code, _) => code,
            Error::NotFinished(_) => "not_finished",
            Error::NotFound => "not_found",
            Error::TooManyRequests => "rate_limited",
            Error::PayloadTooLarge => "too_large",
            Error::BodyTimeout => "body_timeout",
            Error::UnsupportedMediaType => "unsupported_media_type",
            Error::ForeignOrigin => "foreign_origin",
            Error::MethodNotAllowed => "method_not_allowed",
            Error::UnknownHost => "unknown_host",
            Error::Database(_) => "database",
            Error::Internal(_) => "internal",
        }
    }

    /// The JSON body sent for this error.
    pub fn body(&self) -> reversi_site_api::ApiError {
        // Internal details stay in the log, not in the response.
        let message = match self {
            Error::Database(_) | Error::Internal(_) => "internal server error".to_string(),
            e => e.to_string(),
        };
        reversi_site_api::ApiError {
            error: message,
            code: self.code().to_string(),
        }
    }
}

impl IntoResponse for Error {
    fn into_response(self) -> Response {
        if matches!(self, Error::Database(_) | Error::Internal(_)) {
            tracing::error!("{self}");
        }
        let mut resp = (self.status(), Json(self.body())).into_response();
        let retry = match &self {
            // The buckets refill several tokens a second: one second is always enough.
            Error::TooManyRequests => Some(1),
            Error::Throttled { retry_after_s, .. } => Some((*retry_after_s).max(1)),
            _ => None,
        };
        if let Some(s) = retry {
            resp.headers_mut()
                .insert(axum::http::header::RETRY_AFTER, axum::http::HeaderValue::from(s));
        }
        resp
    }
}
