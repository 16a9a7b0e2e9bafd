//! `GET /api/meta` and the module `/static/js/meta.js`: what the site offers (variant presets,
//! time controls, pools, rating categories) and its limits, built from the rules' own lists so
//! that the front end copies none of them.

use axum::Json;
use reversi_core::Variant;
use reversi_site::clock::TimeControl;
use reversi_site::presets;
use reversi_site::rating::Category;
use reversi_site_api as wire;
use reversi_site_api::{Limits, PairingWindow, PoolMeta, SiteMeta};
use std::str::FromStr;

/// The site's choices and limits.
pub fn site_meta() -> SiteMeta {
    let strings = |list: &[&str]| list.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let pools = reversi_site::pairing::POOLS
        .iter()
        .map(|c| PoolMeta {
            control: c.to_string(),
            category: TimeControl::from_str(c)
                .ok()
                .and_then(|t| Category::of(Variant::Othello, t))
                .map_or("casual", Category::name)
                .to_string(),
        })
        .collect();
    use reversi_site::{account, chat, tournament};
    SiteMeta {
        variants: strings(&presets::NEW_GAME_VARIANTS),
        online_variants: strings(&presets::ONLINE_VARIANTS),
        analysis_variants: strings(&presets::ANALYSIS_VARIANTS),
        live_controls: strings(&presets::LIVE_CONTROLS),
        correspondence_controls: strings(&presets::CORRESPONDENCE_CONTROLS),
        pools,
        categories: Category::ALL.iter().map(|c| c.name().to_string()).collect(),
        limits: Limits {
            username_chars: (account::USERNAME_MIN, account::USERNAME_MAX),
            password_chars: (account::PASSWORD_MIN, account::PASSWORD_MAX),
            chat_chars: chat::MAX_CHARS,
            seeks_per_player: crate::lobby::SEEKS_PER_PLAYER,
            tournament_name_chars: tournament::NAME_CHARS,
            tournament_players: tournament::MAX_PLAYERS,
            swiss_rounds: tournament::MAX_ROUNDS,
            round_robin_players: tournament::MAX_ROUND_ROBIN_PLAYERS,
            arena_minutes: tournament::ARENA_MINUTES,
        },
        pairing: PairingWindow {
            start_gap: reversi_site::pairing::START_GAP as u32,
            gap_per_second: reversi_site::pairing::GAP_PER_SECOND as u32,
            anyone_after_s: (reversi_site::pairing::ANYONE_AFTER_MS / 1000) as u32,
        },
        countries: strings(&reversi_site::country::COUNTRIES),
    }
}

/// `GET /api/meta`: [`site_meta`] as JSON.
#[utoipa::path(get, path = "/api/meta", tag = "site", responses((status = 200, description = "The variants, time controls, pools, rating categories and limits.", body = wire::SiteMeta)))]
pub async fn meta() -> Json<SiteMeta> {
    Json(site_meta())
}

/// The front end's module of [`site_meta`]: `export const META = {…};`.
pub fn meta_module() -> String {
    let json = serde_json::to_string(&site_meta()).unwrap_or_else(|_| "{}".into());
    format!("// Made by the server from the rules' lists (the same as GET /api/meta).\nexport const META = {json};\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_meta_follows_the_rules_lists() {
        let m = site_meta();
        assert_eq!(m.pools.len(), reversi_site::pairing::POOLS.len());
        assert_eq!(m.pools[1].control, "3+2");
        assert_eq!(m.pools[1].category, "blitz");
        assert_eq!(m.pools.last().unwrap().category, "correspondence");
        assert!(m.pools.iter().all(|p| m.categories.contains(&p.category)));
        assert_eq!(m.categories.len(), Category::ALL.len());
        assert_eq!(m.variants[0], "othello");
        let module = meta_module();
        assert!(
            module.contains("export const META = {\"variants\":[\"othello\""),
            "{module}"
        );
    }
}
