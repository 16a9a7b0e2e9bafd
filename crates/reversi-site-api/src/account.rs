//! Accounts: signing up and in, the account signed in, its settings and its bot token.

use serde::{Deserialize, Serialize};

/// Body of `POST /api/account/signup` and `/login`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(default, deny_unknown_fields)]
pub struct NameAndPassword {
    /// The username.
    pub name: String,
    /// The password.
    pub password: String,
}

/// Body of `POST /api/account/password`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(default, deny_unknown_fields)]
pub struct PasswordChange {
    /// The password now.
    pub current: String,
    /// The new one.
    pub new: String,
}

/// Body of `POST /api/account/chat`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(default, deny_unknown_fields)]
pub struct ChatSetting {
    /// Chat off (`true`) or on.
    pub off: bool,
}

/// Body of `POST /api/account/country`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(default, deny_unknown_fields)]
pub struct CountrySetting {
    /// An ISO 3166-1 alpha-2 code (`RU`, `GB`; any case), or `null` for none.
    pub country: Option<String>,
}

/// Body of `POST /api/account/bot` and `/delete`: the password, asked again.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(default, deny_unknown_fields)]
pub struct Confirm {
    /// The account's password.
    pub password: String,
}

/// The account signed in, as its owner sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AccountView {
    /// The username.
    pub name: String,
    /// Whether it is a bot.
    pub bot: bool,
    /// Whether its owner turned chat off.
    pub chat_off: bool,
    /// The look and sound its owner chose (every browser signed in to it follows them).
    #[serde(default)]
    pub prefs: Prefs,
    /// Whether it may moderate (the moderators' queue at `/mod`).
    #[serde(default)]
    pub moderator: bool,
    /// Until when a moderator muted it (Unix ms; absent when it is not muted).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub muted_until: Option<i64>,
    /// The country its owner named (ISO 3166-1 alpha-2), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub country: Option<String>,
}

/// The colour scheme of the pages.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "lowercase")]
pub enum Theme {
    /// As the system is set.
    Auto,
    /// Light.
    Light,
    /// Dark.
    Dark,
}

/// The board's cloth.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "lowercase")]
pub enum BoardColour {
    /// Green felt.
    Green,
    /// Blue.
    Blue,
    /// Wood.
    Wood,
}

/// The discs' look.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "lowercase")]
pub enum DiscStyle {
    /// Black and white.
    Classic,
    /// Black and gold, the box edition's.
    Gold,
}

/// How fast a placed disc appears and the turned ones turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "lowercase")]
pub enum Animation {
    /// No animation.
    Off,
    /// Half the usual time.
    Fast,
    /// The usual time (0.38 s for a turn).
    Normal,
    /// Twice the usual time.
    Slow,
}

/// The settings that follow an account from browser to browser (`POST /api/account/prefs`):
/// each field left out keeps its value.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(default, deny_unknown_fields)]
pub struct Prefs {
    /// The colour scheme.
    pub theme: Option<Theme>,
    /// The board's cloth.
    pub board: Option<BoardColour>,
    /// The discs.
    pub discs: Option<DiscStyle>,
    /// The letters and numbers around the board.
    pub coords: Option<bool>,
    /// Sounds (moves, the end, "your turn").
    pub sound: Option<bool>,
    /// A tick every second while one's own clock runs low.
    pub tick: Option<bool>,
    /// How fast discs appear and turn.
    pub anim: Option<Animation>,
    /// Zen mode: the game page shows only the board, the clocks and the buttons.
    pub zen: Option<bool>,
    /// Premoves in games between people (a move chosen while the opponent thinks, played when
    /// the turn comes if legal then).
    pub premove: Option<bool>,
    /// On a touch screen, a tapped move waits for a confirmation.
    pub confirm: Option<bool>,
}

impl Prefs {
    /// These settings with those `other` sets put over them.
    pub fn merged(&self, other: &Prefs) -> Prefs {
        Prefs {
            theme: other.theme.or(self.theme),
            board: other.board.or(self.board),
            discs: other.discs.or(self.discs),
            coords: other.coords.or(self.coords),
            sound: other.sound.or(self.sound),
            tick: other.tick.or(self.tick),
            anim: other.anim.or(self.anim),
            zen: other.zen.or(self.zen),
            premove: other.premove.or(self.premove),
            confirm: other.confirm.or(self.confirm),
        }
    }
}

/// The answer of `GET /api/account` and of signing up, in or out.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Me {
    /// The account (`null`: nobody is signed in).
    pub user: Option<AccountView>,
}

/// Body of `POST /api/account/email`: a new address to confirm (an empty one removes the
/// address), with the password asked again.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(default, deny_unknown_fields)]
pub struct EmailChange {
    /// The address (`""`: remove the confirmed one).
    pub email: String,
    /// The account's password.
    pub password: String,
    /// The language of the letter (`en`, `ru`; default English).
    pub lang: Option<String>,
}

/// The answer of `GET /api/account/email` and of the calls that change it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct EmailView {
    /// Whether this site sends mail at all (without it an address cannot be confirmed and a
    /// forgotten password cannot be reset).
    pub mail: bool,
    /// The confirmed address, if any.
    pub email: Option<String>,
    /// An address mailed a link and not confirmed yet (the newest, while its link lives).
    pub pending: Option<String>,
    /// Whether the account asked for letters about play (its move in a correspondence game,
    /// a correspondence challenge).
    #[serde(default)]
    pub notify: bool,
}

/// Body of `POST /api/account/email/verify`: the secret of the link mailed.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(default, deny_unknown_fields)]
pub struct MailedSecret {
    /// The last part of the link (`/verify/SECRET`).
    pub token: String,
    /// The language of the letter to the old address (`en`, `ru`; default English).
    pub lang: Option<String>,
}

/// Body of `POST /api/account/reset`: the address of the account whose password is forgotten.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(default, deny_unknown_fields)]
pub struct ResetRequest {
    /// The account's confirmed address.
    pub email: String,
    /// The language of the letter (`en`, `ru`; default English).
    pub lang: Option<String>,
}

/// The answer of `POST /api/account/reset`: the same whether or not an account has the address.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ResetRequested {
    /// Always `true`: if an account has the address, a link is on its way to it.
    pub queued: bool,
}

/// Body of `POST /api/account/reset/confirm`: the link's secret and the new password.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(default, deny_unknown_fields)]
pub struct NewPassword {
    /// The last part of the link (`/reset/SECRET`).
    pub token: String,
    /// The new password.
    pub password: String,
}

/// The answer of `POST /api/account/bot`: the API token, shown once.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct BotToken {
    /// `bot_…`: send it as `Authorization: Bearer TOKEN`.
    pub token: String,
}

/// One of the signed-in account's games in progress, as its list shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct MyGame {
    /// The game id.
    pub id: String,
    /// The variant preset.
    pub variant: String,
    /// The colour the account plays.
    pub color: crate::Side,
    /// The opponent's name (`null`: a guest or a deleted account).
    pub opponent: Option<String>,
    /// The opponent's rating when the game started, if rated.
    pub opponent_rating: Option<i32>,
    /// Whether the opponent is a guest.
    pub opponent_guest: bool,
    /// Whether the account is to move.
    pub your_turn: bool,
    /// The time control (`5+3`, `3d`), for a timed game.
    pub control: Option<String>,
    /// Its speed class (`blitz`, `correspondence`, …).
    pub speed: Option<String>,
    /// The account's time left, ms, when the list was made.
    pub time_left_ms: Option<u64>,
    /// Moves played so far, passes included.
    pub ply: usize,
    /// The tournament the game belongs to, if any.
    pub tournament: Option<String>,
}

/// The answer of `GET /api/account/games`: the account's games in progress, those where it is
/// to move first (the least time left first), then the others.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct MyGames {
    /// The games.
    pub games: Vec<MyGame>,
    /// How many of them wait for the account's move.
    pub your_turn: usize,
    /// Open challenges addressed to the account (accept or decline them).
    #[serde(default)]
    pub challenges: Vec<crate::SeekView>,
    /// The account's seeks and challenges that became games in the last minute.
    #[serde(default)]
    pub started: Vec<crate::StartedGame>,
    /// The account's challenges declined in the last minute.
    #[serde(default)]
    pub declined: Vec<crate::DeclinedChallenge>,
}

/// Body of `POST /api/account/notify`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(default, deny_unknown_fields)]
pub struct NotifyBody {
    /// Whether to get letters about play.
    pub on: bool,
    /// Their language (`en`, `ru`; default English).
    pub lang: Option<String>,
}

/// The answer of `POST /api/account/notify`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct NotifySetting {
    /// Whether letters about play are on.
    pub notify: bool,
}
