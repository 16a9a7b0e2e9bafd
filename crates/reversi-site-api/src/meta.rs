//! `GET /api/meta`: what the site offers and its limits, for the front end (also served as the
//! module `/js/meta.js`) and bot authors.

use serde::{Deserialize, Serialize};

/// The site's choices and limits.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SiteMeta {
    /// The variant presets of a new game, in the home page's order.
    pub variants: Vec<String>,
    /// The variants of seeks and tournaments.
    pub online_variants: Vec<String>,
    /// The variants of the analysis board.
    pub analysis_variants: Vec<String>,
    /// The live time controls offered (`3+2`: minutes + seconds of increment).
    pub live_controls: Vec<String>,
    /// The correspondence controls offered (`2d`: days per move).
    pub correspondence_controls: Vec<String>,
    /// The quick-pairing pools, in the home page's order.
    pub pools: Vec<PoolMeta>,
    /// The rating categories, in the order a profile lists them.
    pub categories: Vec<String>,
    /// The limits a client may check before it asks.
    pub limits: Limits,
    /// How the quick-pairing pools widen the rating range with waiting.
    pub pairing: PairingWindow,
    /// The country codes a profile may name (ISO 3166-1 alpha-2; pages name them in the
    /// reader's language).
    pub countries: Vec<String>,
}

/// The rating range a player waiting in a pool accepts: `start_gap` points either side,
/// `gap_per_second` more for each second waited, anyone after `anyone_after_s` seconds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PairingWindow {
    /// Points either side at first.
    pub start_gap: u32,
    /// Points added per second waited.
    pub gap_per_second: u32,
    /// Seconds after which any rating will do.
    pub anyone_after_s: u32,
}

/// A quick-pairing pool.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PoolMeta {
    /// Its time control.
    pub control: String,
    /// The rating category of its (standard 8×8) games.
    pub category: String,
}

/// Limits of the site (the server enforces them; a client may show them).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Limits {
    /// Characters of a username, fewest and most.
    pub username_chars: (usize, usize),
    /// Characters of a password, fewest and most.
    pub password_chars: (usize, usize),
    /// Characters of a chat message at most.
    pub chat_chars: usize,
    /// Open seeks one player may have.
    pub seeks_per_player: usize,
    /// Characters of a tournament's name, fewest and most.
    pub tournament_name_chars: (usize, usize),
    /// Players of a tournament at most.
    pub tournament_players: u32,
    /// Rounds of a Swiss at most.
    pub swiss_rounds: u32,
    /// Players of a round robin at most.
    pub round_robin_players: usize,
    /// Minutes of an arena, fewest and most.
    pub arena_minutes: (u32, u32),
}
