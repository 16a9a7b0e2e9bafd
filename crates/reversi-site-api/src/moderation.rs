//! The moderators' desk: the queue of reports, the log of their actions, and the actions'
//! bodies and answers.

use crate::GameStatus;
use serde::{Deserialize, Serialize};

/// A report as the moderators' queue shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ReportRow {
    /// Its number.
    pub id: i64,
    /// Who reported (name).
    pub reporter: String,
    /// Who is reported (name).
    pub target: String,
    /// `cheating`, `abuse`, `spam`, `name` or `other`.
    pub reason: String,
    /// The reporter's words.
    pub text: String,
    /// The game it is about.
    pub game_id: Option<String>,
    /// When it was made (Unix ms).
    pub created_at: i64,
    /// How many open reports the reported account has in all.
    pub open_on_target: i64,
    /// Whether the reported account is muted now, and whether it is disabled.
    pub target_muted_until: Option<i64>,
    /// Whether a moderator has disabled the reported account.
    pub target_disabled: bool,
    /// The closing moderator (name) and note, once closed.
    pub closed_by: Option<String>,
    /// When it was closed (Unix ms).
    pub closed_at: Option<i64>,
    /// The closing note.
    pub resolution: Option<String>,
}

/// One line of the moderators' log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct LogLine {
    /// Its number.
    pub id: i64,
    /// The moderator (name; none for the command line).
    pub moderator: Option<String>,
    /// What was done.
    pub action: String,
    /// On what: an account (its name), a game or tournament id, a report number.
    pub target: String,
    /// The report it answered.
    pub report_id: Option<i64>,
    /// The moderator's note.
    pub note: String,
    /// When (Unix ms).
    pub at: i64,
}

/// The answer of `GET /api/mod/reports`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ModReports {
    /// The open reports, the oldest first (or the latest closed ones).
    pub reports: Vec<ReportRow>,
}

/// The answer of `GET /api/mod/log`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ModLog {
    /// The latest actions, the newest first.
    pub log: Vec<LogLine>,
}

/// Body of the moderators' actions.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(default, deny_unknown_fields)]
pub struct ModAction {
    /// On an account: `mute`, `unmute`, `disable` or `enable`.
    pub action: Option<String>,
    /// How long a mute lasts, in hours (1 to 720; default 24).
    pub hours: Option<u32>,
    /// Why (required; at most 500 characters).
    pub note: String,
    /// The report this answers; it is closed with the action.
    pub report: Option<i64>,
}

/// The answer of `POST /api/mod/reports/{id}/close`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ReportClosed {
    /// The report closed.
    pub closed: i64,
}

/// The answer of `POST /api/mod/users/{name}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AccountActed {
    /// What was done: `mute`, `unmute`, `disable` or `enable`.
    pub done: String,
    /// To whom (the account's name).
    pub user: String,
}

/// The answer of `POST /api/mod/games/{id}/close` and `/api/mod/tournaments/{id}/close`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Closed {
    /// The game's or tournament's id.
    pub closed: String,
    /// A game's status now (`closed`, or how it had ended already); absent for a tournament.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<GameStatus>,
}
