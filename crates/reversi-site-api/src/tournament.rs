//! Tournaments (`/tournaments`): the list, a tournament's page, making, entering and running
//! one, its chat. The same views reach the pages over the live socket (`tournaments` and
//! `tournament` messages).

use serde::{Deserialize, Serialize};

/// The body of `POST /api/tournaments`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(default, deny_unknown_fields)]
pub struct NewTournament {
    /// The name.
    pub name: String,
    /// `swiss`, `round_robin` or `arena`.
    pub format: String,
    /// A Swiss's rounds.
    pub rounds: Option<u32>,
    /// A round robin's cycles: 1 single, 2 double.
    pub cycles: Option<u32>,
    /// An arena's minutes.
    pub minutes: Option<u32>,
    /// The variant preset (default `othello`).
    pub variant: Option<String>,
    /// The time control (`3+2`).
    pub control: String,
    /// Rated games.
    pub rated: bool,
    /// The start (Unix ms); or
    pub starts_at: Option<u64>,
    /// minutes from now (default 5).
    pub starts_in_minutes: Option<u32>,
    /// The lowest rating that may enter.
    pub min_rating: Option<i32>,
    /// By invitation link only.
    pub invite_only: bool,
    /// Bots may enter.
    pub bots: bool,
    /// The most entrants (default 200; a round robin 16).
    pub max_players: Option<u32>,
}

/// The answer of `POST /api/tournaments` (201).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TournamentCreated {
    /// The new tournament's id.
    pub id: String,
    /// Its invitation secret, when it is by invitation only (the link is
    /// `/tournaments/{id}?invite={invite}`).
    pub invite: Option<String>,
}

/// The body of `POST /api/tournaments/{id}/join` (optional): the invitation secret of an
/// invitation-only tournament.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(default, deny_unknown_fields)]
pub struct TournamentInvite {
    /// The secret.
    pub invite: Option<String>,
}

/// The body of `POST /api/tournaments/{id}/remove`: the entrant the organiser removes.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(default, deny_unknown_fields)]
pub struct RemoveEntrant {
    /// The entrant's name.
    pub name: String,
}

/// The body of `POST /api/tournaments/{id}/chat`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(default, deny_unknown_fields)]
pub struct TournamentSay {
    /// The message.
    pub text: String,
}

/// A message of a tournament's chat (the answer of `POST /api/tournaments/{id}/chat`, 201).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TournamentChatLine {
    /// Its number (1, 2, …).
    pub seq: i64,
    /// The author's name (`null`: a deleted account).
    pub author: Option<String>,
    /// The text (cleaned); escape it where it is shown.
    pub text: String,
    /// When (Unix ms).
    pub at: i64,
}

/// A tournament in the list.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TournamentItem {
    /// Its id (its page is `/tournaments/{id}`).
    pub id: String,
    /// The name.
    pub name: String,
    /// The organiser's name (`null`: a deleted account).
    pub organiser: Option<String>,
    /// `swiss`, `round_robin` or `arena`.
    pub format: String,
    /// A Swiss's rounds, a round robin's cycles, an arena's minutes.
    pub size: i64,
    /// The variant preset.
    pub variant: String,
    /// The time control.
    pub control: String,
    /// Whether its games are rated.
    pub rated: bool,
    /// `upcoming`, `running`, `paused`, `finished` or `cancelled`.
    pub status: String,
    /// The current round (0 before the start).
    pub round: i64,
    /// The start (Unix ms).
    pub starts_at: i64,
    /// The end (Unix ms), once over.
    pub finished_at: Option<i64>,
    /// Entrants.
    pub players: i64,
    /// The most entrants.
    pub max_players: i64,
    /// Whether it is by invitation only.
    pub invite_only: bool,
}

/// The answer of `GET /api/tournaments`: upcoming (soonest first), running and finished
/// (latest first), at most 50 of each; those by invitation only to their organiser and
/// entrants.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TournamentList {
    /// Not started yet.
    pub upcoming: Vec<TournamentItem>,
    /// Being played (paused ones too).
    pub running: Vec<TournamentItem>,
    /// Over.
    pub finished: Vec<TournamentItem>,
    /// The server's time (Unix ms), for the pages' countdowns.
    pub now: i64,
}

/// A line of the standings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct StandingView {
    /// The place (1, 2, …).
    pub rank: usize,
    /// The entrant's name.
    pub name: String,
    /// Their rating at entry (rounded).
    pub rating: i64,
    /// Whether they are a bot.
    pub bot: bool,
    /// Whether they are still in (not withdrawn or removed).
    pub active: bool,
    /// Points (a win 1, a draw ½; an arena's scoring in an arena).
    pub points: f64,
    /// Games played.
    pub games: usize,
    /// Discs at the end of their games.
    pub discs: u32,
    /// The Brightwell quotient (the tie-break, RULES.md §6).
    pub bq: f64,
    /// Rounds sat out.
    pub byes: usize,
    /// Games lost by forfeit.
    pub forfeits: usize,
    /// An arena's streak (wins double their points).
    pub fire: bool,
}

/// A cell of the crosstable: the row player's results against the column player.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CrossCell {
    /// Points.
    pub points: f64,
    /// Games.
    pub games: usize,
    /// The row player's discs in them.
    pub discs: u32,
    /// The column player's.
    pub opp_discs: u32,
}

/// A row of the crosstable, in standings order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CrossRow {
    /// The row player's name.
    pub name: String,
    /// One cell per player in standings order (`null`: themselves, or not met).
    pub cells: Vec<Option<CrossCell>>,
}

/// A game of a round.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PairingView {
    /// The board number in its round.
    pub board: i64,
    /// Black's name.
    pub black: Option<String>,
    /// White's name.
    pub white: Option<String>,
    /// The game id, once made.
    pub game: Option<String>,
    /// The game's status (`playing` until it is made and while it is played).
    pub status: String,
    /// Black's discs.
    pub black_discs: i64,
    /// White's discs.
    pub white_discs: i64,
    /// `black`, `white`, or `null` (a draw, or not over).
    pub winner: Option<String>,
    /// Lost on time before the second move (a player who did not come).
    pub forfeit: bool,
}

/// A round's games (an arena's: a pairing batch).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RoundView {
    /// Its number.
    pub round: i64,
    /// Its games.
    pub games: Vec<PairingView>,
    /// Who sat it out.
    pub byes: Vec<Option<String>>,
}

/// The caller's part in a tournament.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct MyEntry {
    /// Whether the caller is signed in.
    pub signed_in: bool,
    /// Whether they entered.
    pub entered: bool,
    /// Whether they are still in.
    pub active: bool,
    /// Whether the organiser removed them.
    pub removed: bool,
    /// Whether they organise it.
    pub organiser: bool,
    /// The invitation secret (the organiser's page only).
    pub invite: Option<String>,
    /// Their game under way.
    pub game: Option<String>,
    /// Why they may not enter (an error `code`, docs/api.md), if they have not.
    pub join_error: Option<String>,
}

/// The answer of `GET /api/tournaments/{id}`: everything the tournament page shows.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TournamentView {
    /// Its id.
    pub id: String,
    /// The name.
    pub name: String,
    /// The organiser's name (`null`: a deleted account).
    pub organiser: Option<String>,
    /// `swiss`, `round_robin` or `arena`.
    pub format: String,
    /// A Swiss's rounds, a round robin's cycles, an arena's minutes.
    pub size: i64,
    /// The rounds it will have (`null`: an arena; a round robin's, once its entrants are
    /// known).
    pub rounds: Option<u32>,
    /// The variant preset.
    pub variant: String,
    /// The time control.
    pub control: String,
    /// Its speed class (RULES.md §6).
    pub speed: String,
    /// Whether its games are rated.
    pub rated: bool,
    /// Whether bots may enter.
    pub bots: bool,
    /// The lowest rating that may enter.
    pub min_rating: Option<i64>,
    /// Whether it is by invitation only.
    pub invite_only: bool,
    /// The most entrants.
    pub max_players: i64,
    /// The start (Unix ms).
    pub starts_at: i64,
    /// An arena's end (Unix ms).
    pub ends_at: Option<i64>,
    /// `upcoming`, `running`, `paused`, `finished` or `cancelled`.
    pub status: String,
    /// The current round.
    pub round: i64,
    /// The end (Unix ms), once over.
    pub finished_at: Option<i64>,
    /// Its version: every change raises it.
    pub version: i64,
    /// The server's time (Unix ms).
    pub now: i64,
    /// Entrants.
    pub players: usize,
    /// The standings, best first.
    pub standings: Vec<StandingView>,
    /// The crosstable (`null` for an arena).
    pub crosstable: Option<Vec<CrossRow>>,
    /// The rounds so far, latest first (an arena's latest batches only).
    pub rounds_played: Vec<RoundView>,
    /// The chat's latest 100 messages.
    pub chat: Vec<TournamentChatLine>,
    /// The caller's part.
    pub me: MyEntry,
}
