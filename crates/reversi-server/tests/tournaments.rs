//! Tournaments through the API, on SQLite and PostgreSQL, with the server's clock moved
//! forward instead of waited for: a 6-player double round robin checked against a table worked
//! out by hand, a 9-player 5-round Swiss checked against a recomputation from the stored games
//! (and the pairing rules), late entry, withdrawal, a forfeit for a missed start, the
//! organiser's powers, invitation-only visibility, chat and the downloads; and, on PostgreSQL,
//! two instances ticking one tournament at once start each round once.

use axum::http::StatusCode;
use axum::Router;
use reversi_server::{app, AppState};
use serde_json::{json, Value};
use std::collections::{BTreeMap, HashMap, HashSet};

#[macro_use]
mod common;
mod online_common;
use common::round_trip;
use online_common::{config, Client};
use reversi_site_api as wire;

fn settings(db: &str) -> reversi_server::Config {
    reversi_server::Config {
        signups_per_address: 1000,
        ..config(db)
    }
}

async fn new_app(db: &str) -> (Router, AppState) {
    new_app_on(db, reversi_server::time::Clock::adjustable()).await
}

/// [`new_app`] on `clock` (another instance, or a restart, of the same site).
async fn new_app_on(db: &str, clock: reversi_server::time::Clock) -> (Router, AppState) {
    let state = AppState::new(reversi_server::Config {
        clock,
        ..settings(db)
    })
    .await
    .unwrap();
    (app(state.clone()), state)
}

/// Signs up the organiser and `n` players `{prefix}0…`, makes a tournament with `body` and
/// enters the players in order (their entry index is their number).
async fn setup(app: &Router, prefix: &str, n: usize, body: Value) -> (Client, Vec<Client>, String) {
    let mut org = Client::new(app);
    org.signup(&format!("{prefix}Org")).await;
    let r = org.post("/api/tournaments", body).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let id = round_trip::<wire::TournamentCreated>(&r.json).id;
    let mut players = Vec::new();
    for i in 0..n {
        let mut c = Client::new(app);
        c.signup(&format!("{prefix}{i}")).await;
        let r = c.post(&format!("/api/tournaments/{id}/join"), json!({})).await;
        assert_eq!(r.status, StatusCode::NO_CONTENT, "{}", r.text);
        players.push(c);
    }
    (org, players, id)
}

async fn view(c: &mut Client, id: &str) -> Value {
    let r = c.get(&format!("/api/tournaments/{id}")).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    round_trip::<wire::TournamentView>(&r.json);
    r.json
}

/// The games of the current round still playing: (game id, black's name, white's name).
fn playing(v: &Value) -> Vec<(String, String, String)> {
    let round = v["round"].as_i64().unwrap();
    v["rounds_played"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["round"].as_i64() == Some(round))
        .flat_map(|r| r["games"].as_array().unwrap().clone())
        .filter(|g| g["status"] == "playing")
        .map(|g| {
            (
                g["game"].as_str().unwrap().to_string(),
                g["black"].as_str().unwrap().to_string(),
                g["white"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// Plays game `id` to a result: Black makes its first move, then the loser resigns. Black
/// wins 63–1 (the count, empties to the winner); White, behind on the board, 33–31.
async fn decide(players: &mut [Client], id: &str, black: usize, white: usize, black_wins: bool) {
    let r = players[black].play_first(id).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let loser = if black_wins { white } else { black };
    let r = players[loser]
        .post(&format!("/api/games/{id}/resign"), json!({}))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.json["game"]["status"], "finished");
}

fn index(prefix: &str, name: &str) -> usize {
    name.strip_prefix(prefix).unwrap().parse().unwrap()
}

/// Starts tournament `id` (its start comes) and returns its view.
async fn start(state: &AppState, c: &mut Client, id: &str) -> Value {
    state.clock().advance(6 * 60_000);
    state.tick_tournament(id).await.unwrap();
    let v = view(c, id).await;
    assert_eq!(v["status"], "running", "{v}");
    v
}

/// Plays every round of tournament `id` with `winner(black, white) -> black wins`, ticking
/// between rounds, until it finishes; returns the final view.
async fn play_out(
    state: &AppState,
    prefix: &str,
    players: &mut [Client],
    id: &str,
    black_wins: impl Fn(usize, usize) -> bool,
) -> Value {
    for _ in 0..40 {
        let v = view(&mut players[0], id).await;
        if v["status"] == "finished" {
            return v;
        }
        for (gid, b, w) in playing(&v) {
            let (b, w) = (index(prefix, &b), index(prefix, &w));
            decide(players, &gid, b, w, black_wins(b, w)).await;
        }
        // The next round comes after the break.
        state
            .clock()
            .advance(reversi_site::tournament::ROUND_BREAK_MS as i64 + 1);
        state.tick_tournament(id).await.unwrap();
    }
    panic!("tournament {id} did not finish");
}

/// A double round robin of six, against the table worked out by hand. Results: the lower
/// number wins, except 1–2 and 3–4, which the higher wins. Each pair plays twice (once each
/// colour): the winner scores 63 + 33 discs, the loser 1 + 31.
async fn double_round_robin_of_six(db: String) {
    let (app, state) = new_app(&db).await;
    let body = json!({
        "name": "Club double round robin", "format": "round_robin", "cycles": 2,
        "control": "5+0", "rated": true, "starts_in_minutes": 5,
    });
    let (mut org, mut players, id) = setup(&app, "R", 6, body).await;
    let v = view(&mut org, &id).await;
    assert_eq!(
        (v["status"].as_str(), v["rounds"].as_i64()),
        (Some("upcoming"), Some(10))
    );
    assert_eq!(v["me"]["organiser"], true);
    start(&state, &mut org, &id).await;
    let wins = |b: usize, w: usize| {
        let (lo, hi) = (b.min(w), b.max(w));
        let winner = if hi == lo + 1 && lo % 2 == 1 { hi } else { lo };
        winner == b
    };
    let v = play_out(&state, "R", &mut players, &id, wins).await;
    assert_eq!(v["round"], 10);
    // By hand: points 2 per pair won; BQ = discs + 6 × the opponents' points, twice each.
    let expected = [
        ("R0", 10.0, 480, 720.0),
        ("R2", 8.0, 416, 680.0),
        ("R1", 6.0, 352, 640.0),
        ("R4", 4.0, 288, 600.0),
        ("R3", 2.0, 224, 560.0),
        ("R5", 0.0, 160, 520.0),
    ];
    let st = v["standings"].as_array().unwrap();
    for (row, (name, points, discs, bq)) in st.iter().zip(expected) {
        assert_eq!(row["name"], name, "{st:?}");
        assert_eq!(row["points"].as_f64(), Some(points), "{row}");
        assert_eq!(row["discs"].as_i64(), Some(discs), "{row}");
        assert_eq!(row["bq"].as_f64(), Some(bq), "{row}");
        assert_eq!(row["games"], 10);
    }
    // The crosstable: R0 beat R2 twice, 96–32 in discs.
    let ct = v["crosstable"].as_array().unwrap();
    assert_eq!(ct[0]["name"], "R0");
    assert_eq!(ct[0]["cells"][0], Value::Null);
    assert_eq!(
        ct[0]["cells"][1],
        json!({ "points": 2.0, "games": 2, "discs": 96, "opp_discs": 32 })
    );
    // Each pair met once with each colour.
    let mut colours = HashSet::new();
    for r in v["rounds_played"].as_array().unwrap() {
        for g in r["games"].as_array().unwrap() {
            assert!(
                colours.insert((g["black"].to_string(), g["white"].to_string())),
                "{g}"
            );
        }
    }
    assert_eq!(colours.len(), 30);
    // Rated: the players' ratings moved.
    let r = players[0].get("/api/users/R0").await;
    assert!(r.text.contains("blitz"), "{}", r.text);
    // The downloads.
    let r = org
        .get(&format!("/api/tournaments/{id}/files/crosstable.md"))
        .await;
    assert_eq!(r.status, StatusCode::OK);
    assert!(r.text.starts_with("# Club double round robin"), "{}", r.text);
    assert!(r.text.contains("| 1 | R0 | — | 2/2 96–32 |"), "{}", r.text);
    let r = org
        .get(&format!("/api/tournaments/{id}/files/crosstable.html"))
        .await;
    assert!(r.text.contains("<h1>Club double round robin</h1>"), "{}", r.text);
    let r = org.get(&format!("/api/tournaments/{id}/files/games.ggf")).await;
    assert_eq!(r.text.matches("(;GM[Othello]").count(), 30, "{}", r.text);
    // A finished tournament takes no entry and no organiser's action.
    let mut late = Client::new(&app);
    late.signup("Rlate").await;
    let r = late.post(&format!("/api/tournaments/{id}/join"), json!({})).await;
    assert_eq!(r.json["code"], "tournament_closed", "{}", r.text);
    let r = org.post(&format!("/api/tournaments/{id}/pause"), json!({})).await;
    assert_eq!(r.json["code"], "tournament_state", "{}", r.text);
    let list = org.get("/api/tournaments").await;
    assert_eq!(round_trip::<wire::TournamentList>(&list.json).finished[0].id, id);
}

/// A 9-player 5-round Swiss: each round pairs everyone but one, nobody meets twice, nobody has
/// two byes, colours stay within two; the standings equal a recomputation from the games as
/// stored. Results: the lower number wins unless the sum of the two is a multiple of three.
async fn swiss_of_nine(db: String) {
    let (app, state) = new_app(&db).await;
    let body = json!({
        "name": "Friday Swiss", "format": "swiss", "rounds": 5, "control": "3+2",
        "rated": false, "starts_in_minutes": 5,
    });
    let (mut org, mut players, id) = setup(&app, "S", 9, body).await;
    start(&state, &mut org, &id).await;
    let wins = |b: usize, w: usize| {
        let (lo, hi) = (b.min(w), b.max(w));
        let winner = if (lo + hi) % 3 == 0 { hi } else { lo };
        winner == b
    };
    let v = play_out(&state, "S", &mut players, &id, wins).await;
    assert_eq!(v["round"], 5);
    let mut met = HashSet::new();
    let mut byes = HashSet::new();
    let mut colour = HashMap::<String, i64>::new();
    let mut points = BTreeMap::<String, f64>::new();
    let mut discs = BTreeMap::<String, i64>::new();
    let mut opponents = BTreeMap::<String, Vec<String>>::new();
    let mut bye_rounds = BTreeMap::<String, usize>::new();
    for r in v["rounds_played"].as_array().unwrap() {
        let games = r["games"].as_array().unwrap();
        assert_eq!(games.len(), 4, "{r}");
        let bye: Vec<String> = r["byes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| b.as_str().unwrap().into())
            .collect();
        assert_eq!(bye.len(), 1, "{r}");
        assert!(byes.insert(bye[0].clone()), "a second bye: {r}");
        *bye_rounds.entry(bye[0].clone()).or_default() += 1;
        for g in games {
            let (b, w) = (
                g["black"].as_str().unwrap().to_string(),
                g["white"].as_str().unwrap().to_string(),
            );
            assert!(
                met.insert((b.clone().min(w.clone()), b.clone().max(w.clone()))),
                "a repeat: {g}"
            );
            *colour.entry(b.clone()).or_default() += 1;
            *colour.entry(w.clone()).or_default() -= 1;
            // The stored game, read on its own.
            let stored = org
                .get(&format!("/api/games/{}", g["game"].as_str().unwrap()))
                .await
                .json;
            let res = &stored["game"]["result"];
            let (bd, wd) = (res["black"].as_i64().unwrap(), res["white"].as_i64().unwrap());
            let bp = match res["winner"].as_str() {
                Some("black") => 1.0,
                Some("white") => 0.0,
                _ => 0.5,
            };
            *points.entry(b.clone()).or_default() += bp;
            *points.entry(w.clone()).or_default() += 1.0 - bp;
            *discs.entry(b.clone()).or_default() += bd;
            *discs.entry(w.clone()).or_default() += wd;
            opponents.entry(b.clone()).or_default().push(w.clone());
            opponents.entry(w.clone()).or_default().push(b.clone());
        }
    }
    for (name, n) in &bye_rounds {
        *points.entry(name.clone()).or_default() += *n as f64;
    }
    assert!(colour.values().all(|d| d.abs() <= 2), "{colour:?}");
    for row in v["standings"].as_array().unwrap() {
        let name = row["name"].as_str().unwrap().to_string();
        let own = points[&name];
        let opp: f64 = opponents
            .get(&name)
            .map_or(0.0, |o| o.iter().map(|x| points[x]).sum());
        let byes = *bye_rounds.get(&name).unwrap_or(&0) as f64;
        let bq = *discs.get(&name).unwrap_or(&0) as f64 + 6.0 * opp + byes * (32.0 + 6.0 * own);
        assert_eq!(row["points"].as_f64(), Some(own), "{row}");
        assert_eq!(
            row["discs"].as_i64(),
            Some(*discs.get(&name).unwrap_or(&0)),
            "{row}"
        );
        assert_eq!(row["bq"].as_f64(), Some(bq), "{row}");
    }
    // Ranked by points, then BQ, then discs.
    let st: Vec<(f64, f64, i64)> = v["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["points"].as_f64().unwrap(),
                r["bq"].as_f64().unwrap(),
                r["discs"].as_i64().unwrap(),
            )
        })
        .collect();
    assert!(st.windows(2).all(|w| w[0] >= w[1]), "{st:?}");
}

/// Late entry with half points, withdrawal, a forfeit for a missed start, the organiser's
/// pause, removal and cancel, invitation-only visibility, chat.
async fn entries_forfeits_and_the_organiser(db: String) {
    let (app, state) = new_app(&db).await;
    let body = json!({
        "name": "Open Swiss", "format": "swiss", "rounds": 3, "control": "3+2",
        "starts_in_minutes": 5,
    });
    let (mut org, mut players, id) = setup(&app, "E", 4, body).await;
    // Bad settings are refused with their code.
    for (bad, code) in [
        (
            json!({ "name": "x", "format": "swiss", "control": "3+2" }),
            "tournament_name",
        ),
        (
            json!({ "name": "Long", "format": "swiss", "rounds": 40, "control": "3+2" }),
            "tournament_rounds",
        ),
        (
            json!({ "name": "Slow", "format": "arena", "minutes": 60, "control": "3d" }),
            "tournament_correspondence",
        ),
        (
            json!({ "name": "Past", "format": "swiss", "control": "3+2", "starts_at": 1000 }),
            "tournament_start",
        ),
    ] {
        let r = org.post("/api/tournaments", bad).await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST, "{}", r.text);
        assert_eq!(r.json["code"], code, "{}", r.text);
    }
    let mut guest = Client::new(&app);
    let r = guest
        .post(
            "/api/tournaments",
            json!({ "name": "Guests", "format": "swiss", "control": "3+2" }),
        )
        .await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED);
    // Leaving before the start takes the entry back.
    let r = players[3]
        .post(&format!("/api/tournaments/{id}/withdraw"), json!({}))
        .await;
    assert_eq!(r.status, StatusCode::NO_CONTENT);
    assert_eq!(view(&mut org, &id).await["players"], 3);
    let r = players[3]
        .post(&format!("/api/tournaments/{id}/join"), json!({}))
        .await;
    assert_eq!(r.status, StatusCode::NO_CONTENT);
    // Only the organiser organises.
    let r = players[0]
        .post(&format!("/api/tournaments/{id}/cancel"), json!({}))
        .await;
    assert_eq!(r.json["code"], "tournament_not_organiser");

    let v = start(&state, &mut org, &id).await;
    assert_eq!(v["round"], 1);
    let games = playing(&v);
    assert_eq!(games.len(), 2);
    // A late entrant joins during round 1: a half point for it.
    let mut late = Client::new(&app);
    late.signup("Elate").await;
    assert_eq!(
        late.post(&format!("/api/tournaments/{id}/join"), json!({}))
            .await
            .status,
        StatusCode::NO_CONTENT
    );
    // Game 1 is played; in game 2 nobody moves: Black loses by forfeit at the deadline and is
    // withdrawn.
    let (g1, b1, w1) = games[0].clone();
    decide(&mut players, &g1, index("E", &b1), index("E", &w1), true).await;
    let (g2, absent, present) = games[1].clone();
    state
        .clock()
        .advance(reversi_site::tournament::FORFEIT_GRACE_MS as i64 + 1_000);
    assert!(state.rounds().expire(&g2).await.unwrap());
    let g = org.get(&format!("/api/games/{g2}")).await.json;
    assert_eq!(g["game"]["status"], "finished", "{g}");
    assert_eq!(g["game"]["result"]["flagged"], "black", "{g}");
    let v = view(&mut org, &id).await;
    let row = |v: &Value, name: &str| {
        v["standings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["name"] == name)
            .unwrap()
            .clone()
    };
    assert_eq!(row(&v, &absent)["active"], false, "{v}");
    assert_eq!(row(&v, &absent)["forfeits"], 1);
    assert_eq!(row(&v, &present)["points"], 1.0);
    assert_eq!(row(&v, "Elate")["points"], 0.5);
    // The organiser pauses: no round 2 until resumed.
    assert_eq!(
        org.post(&format!("/api/tournaments/{id}/pause"), json!({}))
            .await
            .status,
        StatusCode::NO_CONTENT
    );
    state.clock().advance(60_000);
    state.tick_tournament(&id).await.unwrap();
    assert_eq!(view(&mut org, &id).await["round"], 1);
    assert_eq!(
        org.post(&format!("/api/tournaments/{id}/resume"), json!({}))
            .await
            .status,
        StatusCode::NO_CONTENT
    );
    state.tick_tournament(&id).await.unwrap();
    let v = view(&mut org, &id).await;
    assert_eq!(v["round"], 2);
    // Round 2 pairs the four still in (the absent one is out), the late entrant among them.
    let names: HashSet<String> = playing(&v).into_iter().flat_map(|(_, b, w)| [b, w]).collect();
    assert_eq!(names.len(), 4, "{v}");
    assert!(names.contains("Elate") && !names.contains(&absent), "{names:?}");
    // The organiser removes a player; removed players cannot come back by themselves.
    let victim = present.clone();
    let r = org
        .post(
            &format!("/api/tournaments/{id}/remove"),
            json!({ "name": victim }),
        )
        .await;
    assert_eq!(r.status, StatusCode::NO_CONTENT, "{}", r.text);
    let vi = index("E", &victim);
    let r = players[vi]
        .post(&format!("/api/tournaments/{id}/join"), json!({}))
        .await;
    assert_eq!(r.json["code"], "tournament_removed", "{}", r.text);
    // The absent one may come back.
    let ai = index("E", &absent);
    let r = players[ai]
        .post(&format!("/api/tournaments/{id}/join"), json!({}))
        .await;
    assert_eq!(r.status, StatusCode::NO_CONTENT, "{}", r.text);
    // Chat: entrants and others signed in; escaped where shown, so stored as sent.
    let r = players[0]
        .post(
            &format!("/api/tournaments/{id}/chat"),
            json!({ "text": "good luck <all>" }),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    assert_eq!(
        round_trip::<wire::TournamentChatLine>(&r.json).text,
        "good luck <all>"
    );
    let r = guest
        .post(&format!("/api/tournaments/{id}/chat"), json!({ "text": "hi" }))
        .await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED);
    let v = view(&mut guest, &id).await;
    assert_eq!(v["chat"][0]["text"], "good luck <all>");
    assert_eq!(v["me"]["join_error"], "account_required");
    // Cancel.
    assert_eq!(
        org.post(&format!("/api/tournaments/{id}/cancel"), json!({}))
            .await
            .status,
        StatusCode::NO_CONTENT
    );
    assert_eq!(view(&mut org, &id).await["status"], "cancelled");

    // Invitation only: not listed, not shown without the link, entered with it.
    let r = org
        .post(
            "/api/tournaments",
            json!({ "name": "Private", "format": "arena", "minutes": 30, "control": "1+0", "invite_only": true }),
        )
        .await;
    let (pid, invite) = (
        r.json["id"].as_str().unwrap().to_string(),
        r.json["invite"].as_str().unwrap().to_string(),
    );
    let list = players[0].get("/api/tournaments").await.json;
    assert!(!list.to_string().contains(&pid));
    assert!(org.get("/api/tournaments").await.text.contains(&pid));
    assert_eq!(
        players[0].get(&format!("/api/tournaments/{pid}")).await.status,
        StatusCode::NOT_FOUND
    );
    let r = players[0]
        .post(&format!("/api/tournaments/{pid}/join"), json!({}))
        .await;
    // Without the link, joining answers as for a tournament that does not exist.
    assert_eq!(r.json["code"], "not_found");
    let r = players[0]
        .post(
            &format!("/api/tournaments/{pid}/join"),
            json!({ "invite": invite }),
        )
        .await;
    assert_eq!(r.status, StatusCode::NO_CONTENT, "{}", r.text);
    assert_eq!(view(&mut players[0], &pid).await["me"]["entered"], true);
}

/// An arena: players are paired again as soon as their games end, scored 2/1/0 with the
/// streak bonus, and nobody is paired after the end.
async fn arena_pairs_again_at_once(db: String) {
    // The regular look comes once an hour here: the pairings after a game's end come from
    // that end itself.
    let state = AppState::new(reversi_server::Config {
        clock: reversi_server::time::Clock::adjustable(),
        tournament_tick: std::time::Duration::from_secs(3600),
        ..settings(&db)
    })
    .await
    .unwrap();
    let app = app(state.clone());
    let body = json!({
        "name": "Blitz arena", "format": "arena", "minutes": 10, "control": "1+0", "starts_in_minutes": 5,
    });
    let (mut org, mut players, id) = setup(&app, "A", 4, body).await;
    start(&state, &mut org, &id).await;
    state.tick_tournament(&id).await.unwrap();
    // Three waves: A0 wins every game (on fire from the third), the others lose to lower numbers.
    // Each wave is paired by the end of the previous one's last game, with no tick between.
    let mut wave_round = view(&mut org, &id).await["rounds_played"][0]["round"].clone();
    for wave in 1..=3 {
        let v = view(&mut org, &id).await;
        let games: Vec<_> = v["rounds_played"][0]["games"].as_array().unwrap().clone();
        assert_eq!(games.len(), 2, "wave {wave}: {v}");
        for g in games {
            let (b, w) = (
                index("A", g["black"].as_str().unwrap()),
                index("A", g["white"].as_str().unwrap()),
            );
            decide(&mut players, g["game"].as_str().unwrap(), b, w, b < w).await;
        }
        let end = std::time::Instant::now() + std::time::Duration::from_secs(10);
        loop {
            let v = view(&mut org, &id).await;
            let latest = &v["rounds_played"][0];
            if latest["round"] != wave_round && playing(&v).len() == 2 {
                wave_round = latest["round"].clone();
                break;
            }
            assert!(
                std::time::Instant::now() < end,
                "wave {wave} was not paired at its end: {v}"
            );
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
    }
    let v = view(&mut org, &id).await;
    let top = &v["standings"][0];
    assert_eq!(top["name"], "A0");
    // 2 + 2 + 4: on fire after two wins.
    assert_eq!(top["points"], 8.0, "{v}");
    assert_eq!(top["fire"], true);
    assert!(v["crosstable"].is_null());
    // The end comes with games under way: no new pairing, and it finishes when they have ended
    // (here at their first-move deadline, long past).
    let under_way = playing(&v);
    assert_eq!(under_way.len(), 2, "{v}");
    state.clock().advance(11 * 60_000);
    state.tick_tournament(&id).await.unwrap();
    for (gid, _, _) in &under_way {
        let _ = state.rounds().expire(gid).await.unwrap();
    }
    state.tick_tournament(&id).await.unwrap();
    let v = view(&mut org, &id).await;
    assert_eq!(v["status"], "finished", "{v}");
    let round = v["round"].clone();
    state.tick_tournament(&id).await.unwrap();
    assert_eq!(view(&mut org, &id).await["round"], round);
}

/// The organiser starts a tournament before its time once two players have entered; nobody
/// else may, and a started one cannot be started again.
async fn the_organiser_starts_early(db: String) {
    let (app, _state) = new_app(&db).await;
    let body = json!({ "name": "Early Swiss", "format": "swiss", "rounds": 3, "control": "3+2", "starts_in_minutes": 60 });
    let (mut org, mut players, id) = setup(&app, "E", 1, body).await;
    let start = format!("/api/tournaments/{id}/start");
    let r = org.post(&start, json!({})).await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.text);
    assert_eq!(r.json["code"], "tournament_too_few");
    let mut late = Client::new(&app);
    late.signup("E1").await;
    let r = late.post(&format!("/api/tournaments/{id}/join"), json!({})).await;
    assert_eq!(r.status, StatusCode::NO_CONTENT, "{}", r.text);
    let r = players[0].post(&start, json!({})).await;
    assert_eq!(r.json["code"], "tournament_not_organiser", "{}", r.text);
    let r = org.post(&start, json!({})).await;
    assert!(r.status.is_success(), "{}", r.text);
    let v = view(&mut org, &id).await;
    assert_eq!(
        (v["status"].as_str(), v["round"].as_i64()),
        (Some("running"), Some(1)),
        "{v}"
    );
    assert_eq!(playing(&v).len(), 1, "{v}");
    let r = org.post(&start, json!({})).await;
    assert_eq!(r.json["code"], "tournament_state", "{}", r.text);
}

/// Two instances on one PostgreSQL tick the same tournament at once: each round starts once.
async fn two_instances_start_each_round_once(db: String) {
    if !db.starts_with("postgres") {
        return;
    }
    let (app, a) = new_app(&db).await;
    let b = AppState::new(reversi_server::Config {
        clock: a.clock().clone(),
        ..settings(&db)
    })
    .await
    .unwrap();
    let body = json!({
        "name": "Shared Swiss", "format": "swiss", "rounds": 2, "control": "3+2", "starts_in_minutes": 5,
    });
    let (mut org, mut players, id) = setup(&app, "N", 6, body).await;
    a.clock().advance(6 * 60_000);
    for _ in 0..2 {
        for _ in 0..5 {
            let (x, y) = tokio::join!(a.tick_tournament(&id), b.tick_tournament(&id));
            x.unwrap();
            y.unwrap();
        }
        let v = view(&mut org, &id).await;
        let r = v["round"].as_i64().unwrap();
        let this: Vec<&Value> = v["rounds_played"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|x| x["round"] == r)
            .collect();
        assert_eq!(this.len(), 1);
        assert_eq!(this[0]["games"].as_array().unwrap().len(), 3, "{v}");
        for (gid, bl, wh) in playing(&v) {
            decide(&mut players, &gid, index("N", &bl), index("N", &wh), true).await;
        }
        a.clock()
            .advance(reversi_site::tournament::ROUND_BREAK_MS as i64 + 1);
    }
    let (x, y) = tokio::join!(a.tick_tournament(&id), b.tick_tournament(&id));
    x.unwrap();
    y.unwrap();
    let v = view(&mut org, &id).await;
    assert_eq!(v["status"], "finished", "{v}");
    let total: usize = v["rounds_played"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["games"].as_array().unwrap().len())
        .sum();
    assert_eq!(total, 6);
}

/// A restart in the middle of a round: the games under way go on, the finished ones count, and
/// a round claimed by an instance that stopped before making its games gets them at the next
/// tick.
async fn a_restart_mid_round_loses_nothing(db: String) {
    let tmp = tempfile::tempdir().unwrap();
    let db = if db.starts_with("sqlite") {
        format!("sqlite://{}", tmp.path().join("t.db").display())
    } else {
        db
    };
    let (app, state) = new_app(&db).await;
    let body = json!({
        "name": "Restart Swiss", "format": "swiss", "rounds": 3, "control": "3+2", "starts_in_minutes": 5,
    });
    let (mut org, mut players, id) = setup(&app, "T", 4, body).await;
    let v = start(&state, &mut org, &id).await;
    let games = playing(&v);
    let (g1, b1, w1) = games[0].clone();
    decide(&mut players, &g1, index("T", &b1), index("T", &w1), true).await;
    let (g2, b2, _) = games[1].clone();
    let r = players[index("T", &b2)].play_first(&g2).await;
    assert_eq!(r.status, StatusCode::OK);
    let clock = state.clock().clone();
    drop((app, state));

    // Another process on the same database.
    let (app, state) = new_app_on(&db, clock).await;
    for c in players.iter_mut().chain([&mut org]) {
        c.app = app.clone();
    }
    state.tick_tournament(&id).await.unwrap();
    let v = view(&mut org, &id).await;
    assert_eq!(v["round"], 1, "{v}");
    let (_, b2, w2) = playing(&v)[0].clone();
    let r = players[index("T", &w2)].play_first(&g2).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let r = players[index("T", &b2)]
        .post(&format!("/api/games/{g2}/resign"), json!({}))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    state
        .clock()
        .advance(reversi_site::tournament::ROUND_BREAK_MS as i64 + 1);
    state.tick_tournament(&id).await.unwrap();
    let v = view(&mut org, &id).await;
    assert_eq!(v["round"], 2, "{v}");
    let counted: i64 = v["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["games"].as_i64().unwrap())
        .sum();
    assert_eq!(counted, 4, "both games of round 1 count: {v}");

    // An instance claims round 3 and stops before making its game: the next look makes it.
    for (gid, b, w) in playing(&v) {
        decide(&mut players, &gid, index("T", &b), index("T", &w), true).await;
    }
    let lost = reversi_server::db::NewPairing {
        board: 1,
        black: 0,
        white: Some(1),
        game_id: Some("orphan3".into()),
    };
    assert!(state
        .db()
        .tournaments()
        .claim_round(&id, 3, &[lost], state.clock().now_ms())
        .await
        .unwrap());
    let v = view(&mut org, &id).await;
    assert_eq!(v["round"], 3);
    // (The look that follows a game's end, still under way, may be the one that makes it.)
    state.tick_tournament(&id).await.unwrap();
    let g = org.get("/api/games/orphan3").await;
    assert_eq!(g.status, StatusCode::OK, "{}", g.text);
    assert_eq!(g.json["game"]["online"]["tournament"], id.as_str());
    assert_eq!(g.json["game"]["status"], "playing");
}

on_both_databases!(
    the_organiser_starts_early,
    a_restart_mid_round_loses_nothing,
    double_round_robin_of_six,
    swiss_of_nine,
    entries_forfeits_and_the_organiser,
    arena_pairs_again_at_once,
    two_instances_start_each_round_once,
);
