//! A game as clients see it: its state (board, moves, players, clock, result, presence), its
//! replay, and the requests that act on it.

use serde::{Deserialize, Serialize};

/// A colour, as the API writes it (`"black"`, `"white"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// Black (moves first in Othello).
    Black,
    /// White.
    White,
}

impl Side {
    /// The name the API uses.
    pub fn name(self) -> &'static str {
        match self {
            Side::Black => "black",
            Side::White => "white",
        }
    }

    /// 0 for Black, 1 for White (the order of every pair the API sends).
    pub fn index(self) -> usize {
        match self {
            Side::Black => 0,
            Side::White => 1,
        }
    }

    /// Reads `black`/`white` (or `b`/`w`), any case.
    pub fn parse(s: &str) -> Option<Side> {
        match s.to_ascii_lowercase().as_str() {
            "black" | "b" => Some(Side::Black),
            "white" | "w" => Some(Side::White),
            _ => None,
        }
    }
}

/// A value per colour, in JSON as `{"black": ..., "white": ...}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Players<T> {
    /// Black's value.
    pub black: T,
    /// White's value.
    pub white: T,
}

/// How a game was set up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// A person against the computer.
    Ai,
    /// Two people on two devices: the second joins by the invite link.
    Friend,
    /// Two people sharing one device (one token holds both seats).
    Local,
    /// Two people who met on the site (a seek, a pool, a challenge or a tournament), each known
    /// by an account or a guest identity; possibly timed and rated.
    Online,
}

impl Mode {
    /// The name stored in the database and used in JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Ai => "ai",
            Mode::Friend => "friend",
            Mode::Local => "local",
            Mode::Online => "online",
        }
    }

    /// Reads a stored or requested name.
    pub fn parse(s: &str) -> Option<Mode> {
        match s {
            "ai" => Some(Mode::Ai),
            "friend" => Some(Mode::Friend),
            "local" => Some(Mode::Local),
            "online" => Some(Mode::Online),
            _ => None,
        }
    }
}

/// Who sits on a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "lowercase")]
pub enum PlayerKind {
    /// A person (holding the seat's token, or known by account or guest identity).
    Human,
    /// The engine.
    Ai,
}

/// Where a game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "lowercase")]
pub enum GameStatus {
    /// Being played.
    Playing,
    /// Over, with a result.
    Finished,
    /// Ended without a result before both sides had moved (RULES.md §6).
    Aborted,
    /// Closed without a result because nobody moved for a long time.
    Abandoned,
    /// Closed without a result by a moderator.
    Closed,
}

impl GameStatus {
    /// The name stored and used in JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            GameStatus::Playing => "playing",
            GameStatus::Finished => "finished",
            GameStatus::Aborted => "aborted",
            GameStatus::Abandoned => "abandoned",
            GameStatus::Closed => "closed",
        }
    }
}

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "lowercase")]
pub enum Ending {
    /// Played to the end.
    Normal,
    /// A player resigned.
    Resigned,
    /// A player left, and the opponent claimed the win.
    Left,
    /// A player ran out of time.
    Time,
}

/// The final result as shown to clients.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ResultView {
    /// Black's final count (empties to the winner, RULES.md §1; after a resignation as RULES.md
    /// §6 records it).
    pub black: u32,
    /// White's final count.
    pub white: u32,
    /// The winner; `null` for a draw.
    pub winner: Option<Side>,
    /// Black's result as a disc difference (RULES.md §1, and §6 after a resignation).
    pub black_margin: i32,
    /// How it ended.
    pub ending: Ending,
    /// Who resigned (or left).
    pub resigned: Option<Side>,
    /// Who ran out of time.
    pub flagged: Option<Side>,
}

/// A named opening reached at a ply.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct OpeningMark {
    /// The ply (moves played) at which the game stood in it.
    pub ply: usize,
    /// Its English name.
    pub en: String,
    /// Its Russian name.
    pub ru: String,
}

/// A player of an online game as clients see them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SeatView {
    /// The name; `null` for a guest or a deleted account (see `guest`).
    pub name: Option<String>,
    /// Whether the player is a guest.
    pub guest: bool,
    /// The rating when the game started.
    pub rating: Option<i32>,
    /// Whether it was provisional (shown with "?").
    pub provisional: bool,
    /// Whether the player is a bot.
    pub bot: bool,
    /// The rating change the game brought.
    pub diff: Option<i32>,
    /// The player's country (ISO 3166-1 alpha-2), if their account names one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub country: Option<String>,
}

/// The clock as clients see it: the time left at the moment the state was made, and who is
/// thinking; the page counts down from there.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ClockView {
    /// The control, as `5+3` or `3d`.
    pub control: String,
    /// The speed class (`bullet`, `blitz`, `rapid`, `classical`, `correspondence`).
    pub speed: String,
    /// Black's time left, ms.
    pub black_ms: u64,
    /// White's time left, ms.
    pub white_ms: u64,
    /// The colour whose time runs (`null` before both first moves and after the end).
    pub running: Option<Side>,
    /// When the side to move must make its first move (Unix ms), before the clock starts.
    pub first_move_by: Option<u64>,
    /// Server time the state was made at (Unix ms).
    pub now: u64,
}

/// The online part of a game's state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct OnlineView {
    /// Black's side.
    pub black: SeatView,
    /// White's side.
    pub white: SeatView,
    /// Whether the game is rated.
    pub rated: bool,
    /// The rated category's name (`blitz`, `xot`, …), if any.
    pub category: Option<String>,
    /// The clock, for a timed game.
    pub clock: Option<ClockView>,
    /// The tournament's id, for a tournament game (left out for a spectator of an
    /// invitation-only tournament's game: [`GameView::for_viewer`]).
    pub tournament: Option<String>,
    /// Whether the tournament is by invitation only (not sent).
    #[serde(skip)]
    pub private: bool,
}

/// Who is connected to a game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PresenceView {
    /// Whether Black's player has a connection open to the game.
    pub black: bool,
    /// Whether White's player has one.
    pub white: bool,
    /// How long Black has been away, ms (absent while connected).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub black_away_ms: Option<u64>,
    /// How long White has been away, ms.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub white_away_ms: Option<u64>,
    /// Spectators watching, at every instance.
    pub spectators: u32,
    /// After how long away (ms) the opponent's win may be claimed in this game; absent where
    /// no claim is possible.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub claim_after_ms: Option<u64>,
}

/// The state of a game as sent to clients (HTTP and websocket).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct GameView {
    /// The game id.
    pub id: String,
    /// The variant preset, resolved (`othello`, `black-hole:c3`, `xot:17`, ...).
    pub variant: String,
    /// How the game was set up.
    pub mode: Mode,
    /// The computer's level.
    pub level: u32,
    /// Who plays each colour.
    pub players: Players<PlayerKind>,
    /// Whether each seat is taken (always true for the computer's).
    pub seats_taken: Players<bool>,
    /// Board width.
    pub width: u8,
    /// Board height.
    pub height: u8,
    /// The board row by row from `a1`: `X` black, `O` white, `.` empty, `#` no square.
    pub cells: String,
    /// The side to move; `null` once the game is over.
    pub to_move: Option<Side>,
    /// The legal squares of the side to move.
    pub legal_moves: Vec<String>,
    /// The moves the variant plays before the game begins (XOT's eight), not counted in `ply`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub preset: Vec<String>,
    /// Every move from the start, passes as `pass`.
    pub moves: Vec<String>,
    /// The number of moves played (passes included).
    pub ply: usize,
    /// The last move.
    pub last_move: Option<String>,
    /// The discs the last move flipped.
    pub flipped: Vec<String>,
    /// The side whose turn was passed by the last move, if it was a pass.
    pub passed: Option<Side>,
    /// Black's discs on the board.
    pub black_count: u32,
    /// White's discs on the board.
    pub white_count: u32,
    /// The discs left in each player's supply, in variants that have one (Reversi 1880).
    pub supply: Option<Players<u8>>,
    /// The colour that moved first (moves then alternate, passes included).
    pub first_to_move: Side,
    /// What an equal count means: `draw` (every preset) or `second-wins` (the box edition's
    /// rule: the player who moved second wins a tie).
    #[serde(default = "draw")]
    pub tie: String,
    /// Where the game stands.
    pub status: GameStatus,
    /// Whether a seat holder may still abort the game (the two sides have not both moved).
    pub can_abort: bool,
    /// Whether the players may ask each other to take back a move (a casual game between two
    /// people on two devices, not in a tournament).
    #[serde(default)]
    pub takebacks: bool,
    /// The side asking the other to take back its last move, while the offer waits.
    #[serde(default)]
    pub takeback: Option<Side>,
    /// The result once finished.
    pub result: Option<ResultView>,
    /// Whether the computer is thinking: true whenever it is the computer's turn.
    pub ai_thinking: bool,
    /// Grows with every change; a client drops a state older than the one it has.
    pub version: u64,
    /// Creation time (Unix seconds).
    pub created_at: i64,
    /// The id of the rematch a seat holder started from this game, if any.
    pub rematch: Option<String>,
    /// The players, rating and clock of a game between people who met on the site.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub online: Option<OnlineView>,
    /// Each ply at which the game stood in a named opening (standard Othello only): the
    /// opening at a ply is the last mark at or before it.
    pub openings: Vec<OpeningMark>,
    /// Who is connected: the players, the number of spectators, and when a departed
    /// opponent's win may be claimed.
    pub presence: PresenceView,
}

impl GameView {
    /// The state as a client sees it, a `spectator` (holding no seat) or a player: a spectator
    /// of an invitation-only tournament's game does not learn the tournament.
    pub fn for_viewer(mut self, spectator: bool) -> GameView {
        if let Some(o) = self.online.as_mut() {
            if o.private && spectator {
                o.tournament = None;
            }
        }
        self
    }

    /// Whether [`GameView::for_viewer`] changes anything for a spectator.
    pub fn hides_from_spectators(&self) -> bool {
        self.online
            .as_ref()
            .is_some_and(|o| o.private && o.tournament.is_some())
    }
}

/// One position of a replay: the board after `ply` moves (its index in [`ReplayView::frames`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ReplayFrame {
    /// The board, as [`GameView::cells`].
    pub cells: String,
    /// The side to move; `null` once the game is over.
    pub to_move: Option<Side>,
    /// The move that led here (`null` at the start).
    pub last_move: Option<String>,
    /// The discs that move flipped.
    pub flipped: Vec<String>,
    /// The colour that passed, when the move was a pass.
    pub passed: Option<Side>,
    /// Black's discs.
    pub black_count: u32,
    /// White's discs.
    pub white_count: u32,
}

/// A whole game for the replay view: every position from the start.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ReplayView {
    /// The game id.
    pub id: String,
    /// The variant preset, resolved.
    pub variant: String,
    /// How the game was set up.
    pub mode: Mode,
    /// The computer's level.
    pub level: u32,
    /// Who plays each colour.
    pub players: Players<PlayerKind>,
    /// Board width.
    pub width: u8,
    /// Board height.
    pub height: u8,
    /// As [`GameView::preset`].
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub preset: Vec<String>,
    /// Every move, passes as `pass`.
    pub moves: Vec<String>,
    /// `frames[k]`: the position after `k` moves (`moves.len() + 1` of them).
    pub frames: Vec<ReplayFrame>,
    /// As [`GameView::openings`].
    pub openings: Vec<OpeningMark>,
    /// Where the game stands.
    pub status: GameStatus,
    /// The result once finished.
    pub result: Option<ResultView>,
    /// Creation time (Unix seconds).
    pub created_at: i64,
}

/// The tie rule of every preset, for views written before the rule was shown.
fn draw() -> String {
    "draw".into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn enums_are_written_as_the_api_documents_them() {
        let r = ResultView {
            black: 40,
            white: 24,
            winner: Some(Side::Black),
            black_margin: 16,
            ending: Ending::Time,
            resigned: None,
            flagged: Some(Side::White),
        };
        let v = serde_json::to_value(&r).unwrap();
        assert_eq!(
            v,
            serde_json::json!({"black": 40, "white": 24, "winner": "black", "black_margin": 16,
                               "ending": "time", "resigned": null, "flagged": "white"})
        );
        let back: ResultView = serde_json::from_value(v).unwrap();
        assert_eq!(back, r);
        assert_eq!(serde_json::to_value(GameStatus::Abandoned).unwrap(), "abandoned");
        assert_eq!(serde_json::to_value(Mode::Online).unwrap(), "online");
        assert_eq!(Side::parse("W"), Some(Side::White));
    }
}

/// One line of a list of games (`GET /api/games`, the home page, the archive).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct GameSummary {
    /// The game id.
    pub id: String,
    /// The variant preset.
    pub variant: String,
    /// `ai`, `friend` or `local`.
    pub mode: String,
    /// The computer's level.
    pub level: i64,
    /// Who plays black (`human` or `ai`).
    pub black: String,
    /// Who plays white.
    pub white: String,
    /// `playing` or `finished`.
    pub status: String,
    /// Black's discs (the final count once finished).
    pub black_count: i64,
    /// White's discs.
    pub white_count: i64,
    /// `black`, `white`, or `null` (draw or not finished).
    pub winner: Option<String>,
    /// Moves played, passes included.
    pub move_count: i64,
    /// Creation time (Unix seconds).
    pub created_at: i64,
    /// Time of the last change (Unix seconds).
    pub updated_at: i64,
    /// When the game ended (Unix seconds), once finished.
    pub finished_at: Option<i64>,
    /// The game's analysis: `none`, `queued`, `running`, `done` or `failed`.
    pub analysis: String,
    /// Black's name in an online game (`null`: a guest, a deleted account, or not online).
    pub black_name: Option<String>,
    /// White's name in an online game.
    pub white_name: Option<String>,
    /// Whether the game is rated.
    pub rated: bool,
}

/// The answer of `GET /api/games`: a page of games.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct GameList {
    /// The games, newest first (finished ones in the order they ended).
    pub games: Vec<GameSummary>,
    /// How many match in all.
    pub total: i64,
    /// Where the page starts.
    pub offset: u32,
    /// The most a page holds.
    pub limit: u32,
}
