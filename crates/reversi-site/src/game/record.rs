//! Everything stored about a game besides its moves.

use super::online::Online;
use reversi_core::{Color, Rules, TieRule, Variant};
use reversi_site_api::{Mode, PlayerKind};
use serde::{Deserialize, Serialize};

/// How a game ended without a result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum VoidEnd {
    /// A player aborted it before both had moved (RULES.md §6).
    Aborted,
    /// Nobody moved for a long time: the site closed it.
    Abandoned,
    /// A moderator closed it.
    Closed,
}

impl VoidEnd {
    /// The name stored in the database and used as the game's `status`.
    pub fn as_str(self) -> &'static str {
        match self {
            VoidEnd::Aborted => "aborted",
            VoidEnd::Abandoned => "abandoned",
            VoidEnd::Closed => "closed",
        }
    }

    /// Reads a stored name.
    pub fn parse(s: &str) -> Option<VoidEnd> {
        match s {
            "aborted" => Some(VoidEnd::Aborted),
            "abandoned" => Some(VoidEnd::Abandoned),
            "closed" => Some(VoidEnd::Closed),
            _ => None,
        }
    }
}

/// Everything stored about a game besides its moves.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    /// The public id (in URLs).
    pub id: String,
    /// The resolved variant (the hole square and XOT line are fixed).
    pub variant: Variant,
    /// What an equal count means: a draw, or (one box edition's rule, chosen when the game was
    /// made) a win for the player who moved second.
    pub tie: TieRule,
    /// How the game was set up.
    pub mode: Mode,
    /// The computer's level (1..=30); meaningful when a seat is [`PlayerKind::Ai`].
    pub level: u32,
    /// Who plays black (index 0) and white (index 1).
    pub players: [PlayerKind; 2],
    /// Each seat's secret token; `None` for the engine's seat and a seat nobody has claimed yet.
    pub tokens: [Option<String>; 2],
    /// The colour that resigned, if one did.
    pub resigned: Option<Color>,
    /// The colour in `resigned` did not resign but left the game, and the opponent claimed
    /// the win ([`super::presence`]).
    pub left: bool,
    /// Creation time, seconds since the Unix epoch.
    pub created_at: i64,
    /// The game started as this one's rematch, once a seat holder asked for it.
    pub rematch: Option<String>,
    /// The secret of the invite link: whoever shows it may take the free seat (a game against a
    /// friend, until the friend joins). `None` once no seat is free.
    pub join_token: Option<String>,
    /// The game ended without a result (aborted or abandoned).
    pub void: Option<VoidEnd>,
    /// Who plays, the rating and the clock of a game between people who met on the site.
    pub online: Option<Online>,
}

impl GameRecord {
    /// The rules of the game.
    pub fn rules(&self) -> Rules {
        Rules::new(self.variant, 0).with_tie_rule(self.tie)
    }

    /// The seats `token` holds (none, one, or both on a shared device).
    pub fn seats_of(&self, token: Option<&str>) -> Vec<Color> {
        let Some(token) = token else { return Vec::new() };
        Color::ALL
            .into_iter()
            .filter(|c| {
                self.tokens[c.index()]
                    .as_deref()
                    .is_some_and(|t| constant_time_eq(t, token))
            })
            .collect()
    }

    /// A human seat nobody has claimed yet.
    pub fn open_seat(&self) -> Option<Color> {
        Color::ALL
            .into_iter()
            .find(|c| self.players[c.index()] == PlayerKind::Human && self.tokens[c.index()].is_none())
    }
}

/// Whether two secrets are equal, in time that depends only on their length.
pub fn constant_time_eq(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}
