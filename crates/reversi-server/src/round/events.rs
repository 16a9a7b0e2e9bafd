//! A game's event stream: what its sockets are sent. Every state is serialized once for all of
//! them (and once more for spectators when theirs leaves something out); who is connected goes
//! as a small event of its own.

use reversi_site_api::GameView;

/// What a game's sockets are sent: a new state, or who is connected now (a small event: a
/// spectator arriving does not resend the whole game to everyone watching).
#[derive(Debug)]
pub enum GameEvent {
    /// A new state.
    State(Box<Published>),
    /// Who is connected changed: the `presence` object of the state, as JSON.
    Presence(String),
}

/// A state as published: the view, and its JSON for players and for spectators (the same
/// unless the spectators' view leaves something out, [`GameView::for_viewer`]).
#[derive(Debug)]
pub struct Published {
    /// The state.
    pub view: GameView,
    /// `view` as JSON.
    pub json: String,
    /// The spectators' view as JSON, where it differs.
    pub spectator_json: Option<String>,
}

impl Published {
    /// The state `view`, serialized.
    pub fn of(view: GameView) -> Published {
        let json = serde_json::to_string(&view).unwrap_or_default();
        let spectator_json = view
            .hides_from_spectators()
            .then(|| serde_json::to_string(&view.clone().for_viewer(true)).unwrap_or_default());
        Published {
            view,
            json,
            spectator_json,
        }
    }

    /// The JSON a viewer sees: a `spectator`'s, or a player's.
    pub fn json_for(&self, spectator: bool) -> &str {
        match (&self.spectator_json, spectator) {
            (Some(s), true) => s,
            _ => &self.json,
        }
    }
}
