//! `POST /api/import`: pasted or uploaded games (GGF with one or several games, or transcripts
//! one a line) become games on one device, each with a replay page (and the engine's analysis
//! on request). A game from a set-up position is refused with the advice to open it on the
//! analysis board (a replay starts from its variant's start).

use crate::body::parse_body;
use crate::error::{Error, Result};
use crate::game::Mode;
use crate::state::{AppState, NewGame};
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use reversi_core::format::ggf::parse_ggf;
use reversi_core::{Game, Rules, Variant};
use serde::Deserialize;
use std::str::FromStr;

/// The most games one import makes.
pub const MAX_IMPORTED_GAMES: usize = 20;

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct ImportBody {
    text: String,
    #[serde(default)]
    variant: Option<String>,
}

/// The games a text holds: GGF records, or one transcript a line (in `variant`).
fn games_of(text: &str, variant: &str) -> Result<Vec<Game>> {
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

/// The handler: `{"text": "...", "variant": "othello"}` → `201 {"games": [{"id", "moves",
/// "opening"}]}`.
pub async fn import(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: std::result::Result<Bytes, BytesRejection>,
) -> Result<Response> {
    let b: ImportBody = parse_body(&headers, body, false)?;
    let games = games_of(&b.text, b.variant.as_deref().unwrap_or("othello"))?;
    let mut out = Vec::with_capacity(games.len());
    for g in games {
        let seated = state
            .create(NewGame {
                mode: Mode::Local,
                variant: g.rules().variant.to_string(),
                level: 1,
                color: None,
            })
            .await?;
        let id = seated.view.id.clone();
        for mv in g.moves() {
            state
                .play(&id, Some(&seated.token), &mv.to_string(), None)
                .await?;
        }
        let opening = reversi_core::openings::of_game(&g, None).map(|(_, o)| o.english);
        out.push(serde_json::json!({ "id": id, "moves": g.moves().len(), "opening": opening }));
    }
    Ok((StatusCode::CREATED, Json(serde_json::json!({ "games": out }))).into_response())
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
