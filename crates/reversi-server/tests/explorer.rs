//! The game database explorer on SQLite and PostgreSQL: an import is idempotent, mirrored
//! games meet in one position, the statistics and the games listed match a count made by hand,
//! filters filter, the counted statistics of popular positions equal the counted-on-demand
//! ones, and bad queries get a 400.

use axum::http::StatusCode;
use reversi_core::{Game, Rules, Symmetry};
use reversi_server::db::explorer::{index_game, ImportGame, Source};
use reversi_server::{app, AppState};
use serde_json::Value;

#[macro_use]
mod common;
mod online_common;
use online_common::{config, Client};

fn game(
    key: &str,
    source: Source,
    black: &str,
    white: &str,
    year: i32,
    margin: i32,
    moves: &str,
) -> ImportGame {
    let g = Game::from_transcript(Rules::othello(), moves).unwrap();
    ImportGame {
        key: key.into(),
        source,
        black: black.into(),
        white: white.into(),
        tournament: format!("Cup {year}"),
        year,
        margin,
        moves: moves.into(),
        positions: index_game(&g).unwrap(),
    }
}

/// `moves` seen through a symmetry that keeps the start position (and differs).
fn mirrored(moves: &str) -> String {
    for sym in Symmetry::ALL {
        let image: String = moves
            .as_bytes()
            .chunks(2)
            .map(|m| {
                sym.apply(
                    reversi_core::Square::parse(std::str::from_utf8(m).unwrap()).unwrap(),
                    8,
                )
                .to_string()
            })
            .collect();
        if image != moves && Game::from_transcript(Rules::othello(), &image).is_ok() {
            return image;
        }
    }
    unreachable!("a mirror image of {moves}")
}

async fn explorer_counts_filters_and_lists(db: String) {
    let state = AppState::new(config(&db)).await.unwrap();
    let a = "f5d6c3d3c4f4";
    let games = vec![
        game("t:1", Source::Wthor, "Ann", "Bob", 2001, 10, a),
        game("t:2", Source::Wthor, "Cid", "Ann", 2005, -4, "f5d6c5f4e3"),
        game("t:3", Source::Ggf, "Dee", "Eve", 2010, 0, &mirrored(a)),
    ];
    assert_eq!(state.db().explorer().import_games(&games).await.unwrap(), 3);
    assert_eq!(
        state.db().explorer().import_games(&games).await.unwrap(),
        0,
        "a second import adds nothing"
    );
    assert_eq!(state.db().explorer().explorer_size().await.unwrap().0, 3);
    let app = app(state.clone());
    let mut c = Client::new(&app);
    let get = |q: &str| format!("/api/explorer?{q}");

    let r = c.get(&get("moves=f5d6")).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let v = r.json;
    assert_eq!(v["total"], 3, "{v}");
    // The answer is the documented type, no field more or less.
    let typed: reversi_site_api::ExplorerView = serde_json::from_value(v.clone()).unwrap();
    assert_eq!(serde_json::to_value(&typed).unwrap(), v);
    assert_eq!(typed.to_move, Some(reversi_site_api::Side::Black));
    let row = |v: &Value, m: &str| {
        v["moves"]
            .as_array()
            .unwrap()
            .iter()
            .find(|x| x["move"] == m)
            .cloned()
    };
    let c3 = row(&v, "c3").expect("c3, the mirrored game's move seen from here");
    assert_eq!(
        (
            c3["games"].as_i64(),
            c3["black_wins"].as_i64(),
            c3["draws"].as_i64()
        ),
        (Some(2), Some(1), Some(1)),
        "{c3}"
    );
    assert_eq!(c3["mean_margin"], 5.0);
    let c5 = row(&v, "c5").unwrap();
    assert_eq!(
        (c5["games"].as_i64(), c5["black_losses"].as_i64()),
        (Some(1), Some(1))
    );
    assert_eq!(c5["players"][0], "Cid", "the player to move chose it");
    // The games that reached it, the last imported first, each at its ply with its move.
    let listed: Vec<(&str, i64, &str)> = v["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            (
                g["black"].as_str().unwrap(),
                g["ply"].as_i64().unwrap(),
                g["next"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(listed, vec![("Dee", 2, "c3"), ("Cid", 2, "c5"), ("Ann", 2, "c3")]);

    // Filters.
    let only = |v: &Value| {
        let mut m: Vec<String> = v["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["move"].as_str().unwrap().to_string())
            .collect();
        m.sort();
        m
    };
    let v = c.get(&get("moves=f5d6&player=ANN")).await.json;
    assert_eq!(
        (v["total"].as_i64(), only(&v)),
        (Some(2), vec!["c3".to_string(), "c5".to_string()]),
        "{v}"
    );
    // Any part of a name, in any case, finds the player.
    let v = c.get(&get("moves=f5d6&player=nN")).await.json;
    assert_eq!(v["total"], 2, "{v}");
    let v = c.get(&get("moves=f5d6&player=ve")).await.json;
    assert_eq!(
        (v["total"].as_i64(), only(&v)),
        (Some(1), vec!["c3".to_string()]),
        "{v}"
    );
    let v = c.get(&get("moves=f5d6&from=2003&to=2006")).await.json;
    assert_eq!(only(&v), vec!["c5".to_string()], "{v}");
    let v = c.get(&get("moves=f5d6&source=ggf")).await.json;
    assert_eq!(
        (v["total"].as_i64(), only(&v)),
        (Some(1), vec!["c3".to_string()]),
        "{v}"
    );
    let v = c.get(&get("moves=f5d6&tournament=cup%2020")).await.json;
    assert_eq!(v["total"], 3, "{v}");
    let v = c.get(&get("moves=f5d6c3d3c4f4e6")).await.json;
    assert_eq!(v["total"], 0, "{v}");

    // The counted statistics of popular positions are the same as counted on demand.
    let before = c.get(&get("moves=f5d6")).await.json["moves"].clone();
    assert!(state.db().explorer().count_popular_from(2).await.unwrap() > 0);
    assert_eq!(c.get(&get("moves=f5d6")).await.json["moves"], before);
    let start = c.get(&get("moves=")).await.json;
    assert_eq!(start["total"], 3, "{start}");

    // Players by name, and one game.
    let p = c.get("/api/explorer/players?q=an").await.json;
    assert_eq!(p["players"][0]["name"], "Ann");
    assert_eq!(p["players"][0]["games"], 2);
    let id = 1; // the first game imported
    let one = c.get(&format!("/api/explorer/games/{id}")).await.json;
    assert_eq!(one["moves"], a);
    let typed: reversi_site_api::DatabaseGame = serde_json::from_value(one.clone()).unwrap();
    assert_eq!(serde_json::to_value(&typed).unwrap(), one);
    let typed: reversi_site_api::ExplorerPlayers = serde_json::from_value(p.clone()).unwrap();
    assert_eq!(typed.players[0].games, 2);
    assert_eq!(
        c.get("/api/explorer/games/999").await.status,
        StatusCode::NOT_FOUND
    );

    // Bad queries.
    for q in ["moves=zz", "moves=f5f5", "source=nowhere", "limit=x", "what=1"] {
        let r = c.get(&get(q)).await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST, "{q}: {}", r.text);
    }
}

on_both_databases!(explorer_counts_filters_and_lists);
