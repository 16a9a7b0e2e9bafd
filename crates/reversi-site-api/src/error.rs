//! The one shape of every error the site answers (HTTP bodies and websocket `error` messages).

use serde::{Deserialize, Serialize};

/// What went wrong: a message for people and a short code for programs (`illegal_move`,
/// `not_your_turn`, `login_throttled`, …; the codes are listed in docs/api.md).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ApiError {
    /// The message, in English.
    pub error: String,
    /// The code.
    pub code: String,
}
