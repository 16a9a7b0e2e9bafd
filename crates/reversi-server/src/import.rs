//! `POST /api/import`: pasted or uploaded games (GGF with one or several games, or transcripts
//! one a line) become games on one device, each with a replay page (and the engine's analysis
//! on request). A game from a set-up position is refused with the advice to open it on the
//! analysis board (a replay starts from its variant's start).
//!
//! A game is stored as the rules library read it — passes where the record has them, written
//! (`pa`, `pass`, `--`) or implied by a side with no move — not replayed move by move through
//! the playing path (which plays forced passes itself and so refused a written one).
//!
//! Imports fill the disk, so they have quotas: [`IMPORTS_PER_ADDRESS_DAY`] games a day from
//! one address and [`IMPORTS_PER_ACCOUNT_DAY`] for an account, counted before anything is
//! stored; a guest's imported games are deleted after [`GUEST_IMPORT_DAYS`] (an account's stay).

use crate::client::ClientAddr;
use crate::db::throttle::Reserved;
use crate::error::{Error, Result};
use crate::extract::{Caller, JsonBody};
use crate::secret::random_string;
use crate::state::AppState;
use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use reversi_core::format::ggf::parse_ggf;
use reversi_core::{Game, Rules, Variant};
use reversi_site::game::{GameRecord, LiveGame, Mode, PlayerKind};
use reversi_site_api as wire;
use std::str::FromStr;

/// The most games one import makes.
pub const MAX_IMPORTED_GAMES: usize = 20;
/// Games one address may import per day.
pub const IMPORTS_PER_ADDRESS_DAY: i64 = 200;
/// Games one account may import per day (from any address).
pub const IMPORTS_PER_ACCOUNT_DAY: i64 = 500;
/// Days a guest's imported game is kept.
pub const GUEST_IMPORT_DAYS: i64 = 30;
const DAY_MS: i64 = 86_400_000;

/// The games a text holds: GGF records, or one transcript a line (in `variant`).
pub fn games_of(text: &str, variant: &str) -> Result<Vec<Game>> {
    let text = text.trim();
    if text.is_empty() {
        return Err(Error::BadRequest(
            "nothing to import: paste a GGF record or a transcript".into(),
        ));
    }
    let games: Vec<Game> = if text.starts_with("(;") {
        let records = parse_ggf(text).map_err(|e| Error::BadRequest(format!("GGF: {e}")))?;
        records
            .iter()
            .enumerate()
            .map(|(i, r)| {
                let g = r
                    .to_game()
                    .map_err(|e| Error::BadRequest(format!("game {}: {e}", i + 1)))?;
                if *g.start() != *Game::new(g.rules().clone()).start() {
                    return Err(Error::BadRequest(format!(
                        "game {} starts from a set-up position: open it on the analysis board",
                        i + 1
                    )));
                }
                Ok(g)
            })
            .collect::<Result<_>>()?
    } else {
        let variant = Variant::from_str(variant).map_err(|e| Error::BadRequest(format!("variant: {e}")))?;
        text.lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
            .map(|(i, l)| {
                Game::from_transcript(Rules::new(variant, 0), l.trim())
                    .map_err(|e| Error::BadRequest(format!("line {}: {e}", i + 1)))
            })
            .collect::<Result<_>>()?
    };
    if games.len() > MAX_IMPORTED_GAMES {
        return Err(Error::BadRequest(format!(
            "{} games: at most {MAX_IMPORTED_GAMES} at a time",
            games.len()
        )));
    }
    Ok(games)
}

/// The stored form of an imported game: on one device, both seats held by `token`; its moves are
/// the game's, passes where the game has them, imported at `now` (Unix ms).
pub fn imported(g: &Game, token: &str, now: u64) -> Result<LiveGame> {
    let record = GameRecord {
        id: random_string(10),
        variant: g.rules().variant,
        tie: g.rules().tie,
        mode: Mode::Local,
        level: 1,
        players: [PlayerKind::Human; 2],
        tokens: [Some(token.to_string()), Some(token.to_string())],
        resigned: None,
        left: false,
        created_at: (now / 1000) as i64,
        rematch: None,
        join_token: None,
        void: None,
        online: None,
    };
    Ok(LiveGame::restore(record, g.moves(), 0, now)?)
}

impl AppState {
    /// Counts `n` imported games against the quotas of `addr` and of the account `user`, or
    /// none of them.
    async fn reserve_imports(&self, addr: &str, user: Option<&str>, n: i64) -> Result<()> {
        let now = self.clock().now_ms();
        let mut held: Vec<String> = Vec::new();
        let mut counters = vec![(format!("import@ {addr}"), IMPORTS_PER_ADDRESS_DAY)];
        if let Some(u) = user {
            counters.push((format!("import {u}"), IMPORTS_PER_ACCOUNT_DAY));
        }
        for (key, limit) in counters {
            match self.db().throttle().reserve(&key, n, limit, DAY_MS, now).await? {
                Reserved::Yes => held.push(key),
                Reserved::No { retry_after_s } => {
                    for k in &held {
                        self.db().throttle().release(k, n).await?;
                    }
                    return Err(Error::Throttled {
                        code: "import_quota",
                        message: format!(
                            "the daily quota of imported games is used up (at most {limit} a day); \
                             try again in {} h",
                            retry_after_s.div_ceil(3600)
                        ),
                        retry_after_s,
                    });
                }
            }
        }
        Ok(())
    }
}

/// The handler: `{"text": "...", "variant": "othello"}` → `201 {"games": [{"id", "moves",
/// "opening"}]}`; `429 import_quota` past the quotas.
#[utoipa::path(post, path = "/api/import", operation_id = "import_games", tag = "games", security(("session" = []), ()), request_body = wire::ImportText, responses((status = 201, description = "The games made, each with a replay.", body = wire::Imported), (status = "4XX", description = "Refused: the body says why (`code`, docs/api.md).", body = wire::ApiError)))]
pub async fn import(
    State(state): State<AppState>,
    addr: ClientAddr,
    Caller(who): Caller,
    JsonBody(b): JsonBody<wire::ImportText>,
) -> Result<(StatusCode, Json<wire::Imported>)> {
    let games = games_of(&b.text, b.variant.as_deref().unwrap_or("othello"))?;
    let user = who.user().map(|u| u.id.clone());
    state
        .reserve_imports(&addr.0.to_string(), user.as_deref(), games.len() as i64)
        .await?;
    let token = random_string(32);
    let now = state.clock().clock_ms();
    let lives = games
        .iter()
        .enumerate()
        .map(|(i, g)| imported(g, &token, now).map_err(|e| Error::BadRequest(format!("game {}: {e}", i + 1))))
        .collect::<Result<Vec<_>>>()?;
    let (by, expires) = match &user {
        Some(u) => (u.clone(), None),
        None => (
            format!("ip:{}", addr.0),
            Some(state.clock().now_ms() + GUEST_IMPORT_DAYS * DAY_MS),
        ),
    };
    state.db().games().insert_imported(&lives, &by, expires).await?;
    let games = lives
        .iter()
        .zip(&games)
        .map(|(live, g)| wire::ImportedGame {
            id: live.record.id.clone(),
            moves: g.moves().len(),
            opening: reversi_core::openings::of_game(g, None).map(|(_, o)| o.english.to_string()),
        })
        .collect();
    Ok((StatusCode::CREATED, Json(wire::Imported { games })))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_become_games_or_say_what_is_wrong() {
        assert_eq!(games_of("f5d6c3\n\nd3c3", "othello").unwrap().len(), 2);
        let e = games_of("f5d6\nf5f5", "othello").unwrap_err().to_string();
        assert!(e.starts_with("line 2:"), "{e}");
        let two = "(;GM[Othello]PB[a]PW[b]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[f5];)\n\
                   (;GM[Othello]PB[c]PW[d]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[d3]W[c3];)";
        let g = games_of(two, "othello").unwrap();
        assert_eq!(
            g.iter().map(|g| g.transcript()).collect::<Vec<_>>(),
            ["f5", "d3c3"]
        );
        let setup = "(;GM[Othello]PB[a]PW[b]TY[8]BO[8 --------------------------OO*------*O--------------------------- *];)";
        let e = games_of(setup, "othello").unwrap_err().to_string();
        assert!(e.contains("set-up position"), "{e}");
        assert!(games_of("   ", "othello").is_err());
        let many = "f5\n".repeat(MAX_IMPORTED_GAMES + 1);
        assert!(games_of(&many, "othello")
            .unwrap_err()
            .to_string()
            .contains("at most"));
    }
}
