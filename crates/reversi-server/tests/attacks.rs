//! The second attacker's run (issue 51), one test per failure it found, each against a real
//! server on loopback with many requests at once where the attack was a burst
//! ([`concurrency::burst`]): the throttles count before the work, credentials changes end what
//! old sessions could do, look-alike names, invitation-only tournaments, imports with passes,
//! guest floods, trickled bodies, fair analyses, and one consistent state after a move.

use reversi_server::Config;
use serde_json::{json, Value};
use std::time::Duration;

#[macro_use]
mod common;
mod concurrency;
use concurrency::{count, ip, Req, Site};

fn config(db: &str) -> Config {
    Config {
        database_url: db.to_string(),
        ai_workers: 1,
        hash_mib: 1,
        ai_time_scale: 0.25,
        rate_per_sec: 100_000.0,
        rate_burst: 100_000.0,
        ..Config::default()
    }
}

/// Signs `name` up from `from` with `password`; the cookies it got (`rv_session=…; rv_device=…`).
async fn signup(site: &Site, name: &str, password: &str, from: usize) -> String {
    let r = site
        .send(
            Req::post(
                "/api/account/signup",
                json!({ "name": name, "password": password }),
            )
            .from(ip(from)),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text);
    format!("{}; {}", r.cookie_pair("rv_session"), r.cookie_pair("rv_device"))
}

fn login(name: &str, password: &str, from: usize) -> Req {
    Req::post(
        "/api/account/login",
        json!({ "name": name, "password": password }),
    )
    .from(ip(from))
}

/// Who `cookies` sign in (`null` for nobody).
async fn me(site: &Site, cookies: &str) -> Value {
    site.send(Req::get("/api/account").cookies(cookies)).await.json["user"]["name"].clone()
}

// ---------- 1. concurrent guesses ----------

/// 60 wrong guesses at once from 60 addresses: only the account's allowance is checked (the
/// rest are refused before any hash); then 80 at once with the right password last: none gets
/// in. The owner's own browser (a known device) still signs in.
async fn concurrent_guesses_are_counted_before_the_hash(db: String) {
    let site = Site::start(config(&db)).await;
    let owner = signup(&site, "victim", "the right password", 0).await;
    let device = owner
        .split("; ")
        .find(|c| c.starts_with("rv_device="))
        .unwrap()
        .to_string();
    let guesses: Vec<Req> = (0..60)
        .map(|i| login("victim", &format!("guess {i}"), 100 + i))
        .collect();
    let replies = site.burst(guesses).await;
    let checked = count(&replies, 401);
    assert_eq!(
        checked,
        reversi_server::accounts::FAILURES_PER_ACCOUNT as usize,
        "only the account's allowance is hashed and checked"
    );
    assert_eq!(count(&replies, 429), 60 - checked);
    let mut reqs: Vec<Req> = (0..79)
        .map(|i| login("victim", &format!("again {i}"), 300 + i))
        .collect();
    reqs.push(login("victim", "the right password", 399));
    let replies = site.burst(reqs).await;
    assert_eq!(
        count(&replies, 200),
        0,
        "the right password does not get in during the lockout"
    );
    assert_eq!(count(&replies, 429), 80);
    // Not locked out: the owner's browser, from the owner's address.
    let r = site
        .send(login("victim", "the right password", 0).cookies(&device))
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    // A case or look-alike spelling of the name counts against the same account.
    let r = site.send(login("VICTIM", "wrong", 500)).await;
    assert_eq!(r.status, 429, "{}", r.text);
}

// ---------- 2. sign-up and tournament bursts ----------

/// 30 sign-ups at once from one address make exactly the address's allowance of accounts; 20
/// tournaments at once from one organiser make exactly the organiser's cap.
async fn bursts_of_signups_and_tournaments_get_their_caps(db: String) {
    let site = Site::start(config(&db)).await;
    let reqs: Vec<Req> = (0..30)
        .map(|i| {
            Req::post(
                "/api/account/signup",
                json!({ "name": format!("burst{i}x"), "password": "a long password" }),
            )
            .from(ip(7))
        })
        .collect();
    let replies = site.burst(reqs).await;
    assert_eq!(
        count(&replies, 201),
        reversi_server::config::SIGNUPS_PER_ADDRESS as usize
    );
    assert_eq!(
        count(&replies, 429),
        30 - reversi_server::config::SIGNUPS_PER_ADDRESS as usize
    );
    let made = replies.iter().find(|r| r.status == 201).unwrap();
    let cookies = made.cookie_pair("rv_session");
    let reqs: Vec<Req> = (0..20)
        .map(|i| {
            Req::post(
                "/api/tournaments",
                json!({ "name": format!("Cup {i}"), "format": "arena", "control": "3+2", "minutes": 30 }),
            )
            .cookies(&cookies)
            .from(ip(7))
        })
        .collect();
    let replies = site.burst(reqs).await;
    assert_eq!(
        count(&replies, 201),
        reversi_server::tournaments::OPEN_PER_ORGANISER as usize
    );
    assert!(replies
        .iter()
        .filter(|r| r.status != 201)
        .all(|r| r.json["code"] == "tournament_limit"));
}

// ---------- 3, 4, 5. a password change ends everything the old password gave ----------

/// A sign-in that read the account before the password changed and stores its session after:
/// the session signs nobody in (it belongs to the old credentials). And a burst of sign-ins
/// with the old password around a change: none leaves a session that works.
async fn a_password_change_ends_sign_ins_in_flight(db: String) {
    let site = Site::start(config(&db)).await;
    let cookies = signup(&site, "changer", "old password 1", 0).await;
    let key = reversi_site::account::skeleton("changer");
    // The sign-in's first half: the account and its credentials, read.
    let (user, _) = site
        .state
        .db()
        .accounts()
        .user_named(&key, "changer")
        .await
        .unwrap()
        .unwrap();
    // Meanwhile the owner changes the password.
    let r = site
        .send(
            Req::post(
                "/api/account/password",
                json!({ "current": "old password 1", "new": "new password 2" }),
            )
            .cookies(&cookies),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    // The sign-in's second half: the session, stored with what it read.
    let secret = "Z".repeat(32);
    let now = site.state.clock().now_ms();
    site.state
        .db()
        .accounts()
        .create_session(
            &reversi_server::session::hash_secret(&secret),
            &user.id,
            user.credential_gen,
            now,
            now + 3_600_000,
        )
        .await
        .unwrap();
    assert_eq!(me(&site, &format!("rv_session={secret}")).await, Value::Null);

    // The same through the API: old-password sign-ins racing a change.
    let mut reqs: Vec<Req> = (0..12)
        .map(|i| login("changer", "new password 2", 10 + i))
        .collect();
    reqs.push(
        Req::post(
            "/api/account/password",
            json!({ "current": "new password 2", "new": "third password 3" }),
        )
        .cookies(&r.cookie_pair("rv_session")),
    );
    let replies = site.burst(reqs).await;
    assert_eq!(replies[12].status, 200, "{}", replies[12].text);
    for r in &replies[..12] {
        if r.status == 200 {
            assert_eq!(
                me(&site, &r.cookie_pair("rv_session")).await,
                Value::Null,
                "an old sign-in"
            );
        }
    }
    assert_eq!(me(&site, &replies[12].cookie_pair("rv_session")).await, "changer");
}

/// An online game between two accounts, `attacker` holding a copy of the victim's session and
/// seat cookies; returns (game id, the victim's cookies with its seat, the opponent's cookies).
async fn online_game(site: &Site, victim: &str, other: &str) -> (String, String, String) {
    let v = signup(site, victim, "victim password", 1).await;
    let o = signup(site, other, "other password", 2).await;
    let r = site
        .send(
            Req::post("/api/seeks", json!({ "control": "10+5", "colour": "black" }))
                .cookies(&v)
                .from(ip(1)),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text);
    let seek = r.json["id"].as_str().unwrap().to_string();
    let r = site
        .send(
            Req::post(&format!("/api/seeks/{seek}/accept"), json!({}))
                .cookies(&o)
                .from(ip(2)),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text);
    let id = r.json["game"]["id"].as_str().unwrap().to_string();
    let o = format!("{o}; {}", r.cookie_pair(&format!("rv_{id}")));
    // The victim opens the game: its seat token comes with the page.
    let r = site.send(Req::get(&format!("/api/games/{id}")).cookies(&v)).await;
    assert_eq!(r.json["you"], json!(["black"]), "{}", r.text);
    let v = format!("{v}; {}", r.cookie_pair(&format!("rv_{id}")));
    (id, v, o)
}

async fn first_move(site: &Site, id: &str, cookies: &str) -> Req {
    let g = site
        .send(Req::get(&format!("/api/games/{id}")).cookies(cookies))
        .await;
    let mv = g.json["game"]["legal_moves"][0].as_str().unwrap().to_string();
    Req::post(
        &format!("/api/games/{id}/moves"),
        json!({ "move": mv, "ply": g.json["game"]["ply"] }),
    )
    .cookies(cookies)
}

/// Seats follow the account's sessions: once the password changed, a copy of the old session
/// and seat cookies neither moves nor resigns, over HTTP or a socket opened before; once the
/// account is deleted, the same. The owner, signed in again, plays on.
async fn seats_and_bot_tokens_follow_the_credentials(db: String) {
    let site = Site::start(config(&db)).await;
    let (id, stolen, _) = online_game(&site, "seatowner", "seatother").await;
    // The attacker's socket, opened while the stolen session was good.
    let (mut ws, _) = tokio_tungstenite::connect_async(ws_request(&site, &id, &stolen))
        .await
        .unwrap();
    next_of_type(&mut ws, "state").await;
    let r = site
        .send(
            Req::post(
                "/api/account/password",
                json!({ "current": "victim password", "new": "fresh password" }),
            )
            .cookies(&stolen),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let fresh = r.cookie_pair("rv_session");
    let mv = first_move(&site, &id, &stolen).await;
    let r = site.send(mv).await;
    assert!(r.status == 401 || r.status == 403, "{} {}", r.status, r.text);
    let r = site
        .send(Req::post(&format!("/api/games/{id}/resign"), json!({})).cookies(&stolen))
        .await;
    assert!(r.status == 401 || r.status == 403, "{} {}", r.status, r.text);
    use futures_util::SinkExt;
    ws.send(tokio_tungstenite::tungstenite::Message::Text(
        r#"{"type":"resign"}"#.into(),
    ))
    .await
    .unwrap();
    let e = next_of_type(&mut ws, "error").await;
    assert!(e["code"] == "no_seat" || e["code"] == "not_your_seat", "{e}");
    // The owner, with the new session (and the seat it finds by account), plays.
    let seat = stolen
        .split("; ")
        .find(|c| c.starts_with(&format!("rv_{id}=")))
        .unwrap();
    let owner = format!("{fresh}; {seat}");
    let r = site.send(first_move(&site, &id, &owner).await).await;
    assert_eq!(r.status, 200, "{}", r.text);

    // A bot token: revoked by a password change.
    let bot = signup(&site, "botowner", "bot password 1", 3).await;
    let r = site
        .send(Req::post("/api/account/bot", json!({ "password": "bot password 1" })).cookies(&bot))
        .await;
    let token = r.json["token"].as_str().unwrap().to_string();
    let bearer = |t: &str| Req::get("/api/account").header("Authorization", &format!("Bearer {t}"));
    assert_eq!(site.send(bearer(&token)).await.json["user"]["name"], "botowner");
    let r = site
        .send(
            Req::post(
                "/api/account/password",
                json!({ "current": "bot password 1", "new": "bot password 2" }),
            )
            .cookies(&bot),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(site.send(bearer(&token)).await.status, 401);

    // Deletion: the seat goes with the account.
    let (id, stolen, _) = online_game(&site, "deleted1", "survivor1").await;
    let r = site
        .send(Req::post("/api/account/delete", json!({ "password": "victim password" })).cookies(&stolen))
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let r = site
        .send(Req::post(&format!("/api/games/{id}/resign"), json!({})).cookies(&stolen))
        .await;
    assert!(r.status == 401 || r.status == 403, "{} {}", r.status, r.text);
}

fn ws_request(site: &Site, id: &str, cookies: &str) -> tokio_tungstenite::tungstenite::http::Request<()> {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let mut req = format!("ws://{}/api/games/{id}/ws", site.addr)
        .into_client_request()
        .unwrap();
    req.headers_mut().insert("cookie", cookies.parse().unwrap());
    req
}

type Socket = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// The next message of type `kind` (others skipped), within 20 s.
async fn next_of_type(ws: &mut Socket, kind: &str) -> Value {
    use futures_util::StreamExt;
    let end = tokio::time::Instant::now() + Duration::from_secs(20);
    loop {
        let msg = tokio::time::timeout_at(end, ws.next())
            .await
            .unwrap_or_else(|_| panic!("no {kind} message"))
            .unwrap()
            .unwrap();
        if let tokio_tungstenite::tungstenite::Message::Text(t) = msg {
            let v: Value = serde_json::from_str(&t).unwrap();
            if v["type"] == kind {
                return v;
            }
        }
    }
}

// ---------- 6, 7. one length for passwords; look-alike names ----------

async fn long_passwords_and_look_alike_names(db: String) {
    let site = Site::start(config(&db)).await;
    let cyrillic = "й".repeat(200);
    signup(&site, "russian", &cyrillic, 0).await;
    let r = site.send(login("russian", &cyrillic, 0)).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let too_long = "й".repeat(reversi_site::account::PASSWORD_MAX + 1);
    let r = site
        .send(
            Req::post(
                "/api/account/signup",
                json!({ "name": "russian2", "password": too_long }),
            )
            .from(ip(1)),
        )
        .await;
    assert_eq!(r.json["code"], "password_long", "{}", r.text);

    let config = Config {
        signups_per_address: 100,
        ..config(&db)
    };
    let site = Site::start(config).await;
    for (taken, look_alike) in [
        ("mike7", "rnike7"),
        ("wave", "vvave"),
        ("dime", "clime"),
        ("same", "s4me"),
    ] {
        signup(&site, taken, "a good password", 2).await;
        let r = site
            .send(
                Req::post(
                    "/api/account/signup",
                    json!({ "name": look_alike, "password": "a good password" }),
                )
                .from(ip(2)),
            )
            .await;
        assert_eq!(r.json["code"], "name_taken", "{look_alike}: {}", r.text);
    }
}

/// Accounts made under the old look-alike rules that the new rules see as one name both keep
/// signing in by their own names after the keys are made again; nobody new can take either.
async fn names_are_keyed_again_when_the_rules_grow(db: String) {
    let site = Site::start(config(&db)).await;
    let db = site.state.db();
    let hash = reversi_site::account::hash_password("older password");
    // Keys as the first rules made them (lower case only).
    assert!(db
        .accounts()
        .create_user("u-old-1", "mike", "mike", &hash, 1)
        .await
        .unwrap());
    assert!(db
        .accounts()
        .create_user("u-old-2", "rnike", "rnike", &hash, 2)
        .await
        .unwrap());
    db.meta().set_meta("name_key_version", "1").await.unwrap();
    let changed = db
        .accounts()
        .rekey_names(
            reversi_site::account::SKELETON_VERSION,
            reversi_site::account::skeleton,
        )
        .await
        .unwrap();
    assert_eq!(changed, 2);
    for name in ["mike", "rnike"] {
        let r = site.send(login(name, "older password", 5)).await;
        assert_eq!(r.status, 200, "{name}: {}", r.text);
        assert_eq!(r.json["user"]["name"], name);
    }
    let r = site
        .send(
            Req::post(
                "/api/account/signup",
                json!({ "name": "MIKE", "password": "a good password" }),
            )
            .from(ip(6)),
        )
        .await;
    assert_eq!(r.json["code"], "name_taken", "{}", r.text);
    // Done once: a second start changes nothing.
    let again = db
        .accounts()
        .rekey_names(
            reversi_site::account::SKELETON_VERSION,
            reversi_site::account::skeleton,
        )
        .await
        .unwrap();
    assert_eq!(again, 0);
}

// ---------- 8, 9. invitation-only tournaments ----------

/// An invitation-only tournament's game is not listed, a spectator of it does not see the
/// tournament, and an outsider who knows its id gets 404 from every route, reading or acting —
/// its chat included.
async fn invitation_only_tournaments_stay_private(db: String) {
    let site = Site::start(Config {
        signups_per_address: 100,
        ..config(&db)
    })
    .await;
    let org = signup(&site, "secretorg", "organiser password", 0).await;
    let r = site
        .send(
            Req::post(
                "/api/tournaments",
                json!({ "name": "Closed", "format": "swiss", "rounds": 1, "control": "10+5",
                        "invite_only": true, "starts_in_minutes": 0 }),
            )
            .cookies(&org),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text);
    let tid = r.json["id"].as_str().unwrap().to_string();
    let invite = r.json["invite"].as_str().unwrap().to_string();
    let mut players = Vec::new();
    for name in ["insider1", "insider2"] {
        let c = signup(&site, name, "insider password", 1).await;
        let r = site
            .send(
                Req::post(
                    &format!("/api/tournaments/{tid}/join"),
                    json!({ "invite": invite }),
                )
                .cookies(&c),
            )
            .await;
        assert_eq!(r.status, 204, "{}", r.text);
        players.push(c);
    }
    site.state.tick_tournament(&tid).await.unwrap();
    let v = site
        .send(Req::get(&format!("/api/tournaments/{tid}")).cookies(&players[0]))
        .await;
    assert_eq!(v.json["status"], "running", "{}", v.text);
    let outsider = signup(&site, "outsider", "outsider password", 2).await;

    // Not listed; a spectator sees no tournament; a player does.
    let listed = site.send(Req::get("/api/games?status=playing")).await;
    assert_eq!(listed.json["games"], json!([]), "{}", listed.text);
    assert_eq!(site.send(Req::get("/api/live")).await.json["games"], json!([]));
    let game = v.json["rounds_played"][0]["games"][0]["game"]
        .as_str()
        .unwrap()
        .to_string();
    let watched = site
        .send(Req::get(&format!("/api/games/{game}")).cookies(&outsider))
        .await;
    assert_eq!(watched.status, 200);
    assert_eq!(
        watched.json["game"]["online"]["tournament"],
        Value::Null,
        "{}",
        watched.text
    );
    let played = site
        .send(Req::get(&format!("/api/games/{game}")).cookies(&players[0]))
        .await;
    assert_eq!(played.json["game"]["online"]["tournament"], tid.as_str());

    // Every route answers the outsider as for a tournament that does not exist.
    let nothing = "nosuchid";
    for t in [tid.as_str(), nothing] {
        let reqs = [
            Req::get(&format!("/api/tournaments/{t}")),
            Req::post(&format!("/api/tournaments/{t}/chat"), json!({ "text": "hello" })),
            Req::post(&format!("/api/tournaments/{t}/join"), json!({})),
            Req::post(&format!("/api/tournaments/{t}/withdraw"), json!({})),
            Req::post(&format!("/api/tournaments/{t}/pause"), json!({})),
            Req::post(&format!("/api/tournaments/{t}/cancel"), json!({})),
            Req::get(&format!("/api/tournaments/{t}/files/crosstable.md")),
        ];
        for req in reqs {
            let path = req.path.clone();
            let r = site.send(req.cookies(&outsider)).await;
            assert_eq!(
                (r.status, r.json["code"].clone()),
                (404, json!("not_found")),
                "{path}: {}",
                r.text
            );
        }
    }
    // Having the link shows the page, but the chat is the players'.
    let r = site
        .send(Req::get(&format!("/api/tournaments/{tid}?invite={invite}")).cookies(&outsider))
        .await;
    assert_eq!(r.status, 200);
    let r = site
        .send(
            Req::post(
                &format!("/api/tournaments/{tid}/chat"),
                json!({ "text": "hi all" }),
            )
            .cookies(&players[1]),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text);
}

// ---------- 10. imports with passes ----------

/// Every game of WTHOR 1990 (2,986 games, 1,821 with a pass) reads and is stored as played:
/// as a transcript with implicit passes, with passes written `pa`, `pass` and `--`, and as GGF.
#[test]
fn every_wthor_game_of_a_year_imports_with_its_passes() {
    use reversi_server::import::{games_of, imported};
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/wthor/WTH_1990.wtb");
    let wthor = reversi_core::format::wthor::parse_games(&std::fs::read(root).unwrap()).unwrap();
    let mut with_passes = 0;
    for (i, w) in wthor.games.iter().enumerate() {
        let game = w.to_game().unwrap();
        let moves = game.moves();
        let passes = moves.iter().filter(|m| **m == reversi_core::Move::Pass).count();
        with_passes += usize::from(passes > 0);
        let written = |pass: &str| {
            moves
                .iter()
                .map(|m| match m {
                    reversi_core::Move::Pass => pass.to_string(),
                    m => m.to_string(),
                })
                .collect::<Vec<_>>()
                .join(" ")
        };
        let ggf = reversi_core::format::ggf::write_ggf(&reversi_core::format::ggf::GgfGame::from_game(
            &game,
            Default::default(),
        ));
        for text in [
            game.transcript(),
            written("pa"),
            written("pass"),
            written("--"),
            ggf,
        ] {
            let read = games_of(&text, "othello").unwrap_or_else(|e| panic!("game {i}: {e}\n{text}"));
            assert_eq!(read.len(), 1);
            let live = imported(&read[0], "t", 1_700_000_000_000).unwrap_or_else(|e| panic!("game {i}: {e}"));
            assert_eq!(live.game.moves(), moves, "game {i}: {text}");
        }
    }
    assert!(with_passes > 1000, "{with_passes} games with a pass");
}

/// Through the API: games with passes import (and replay), up to the address's daily quota;
/// a guest's imports go after 30 days, with everything stored about them.
async fn imports_take_passes_have_quotas_and_expire(db: String) {
    let site = Site::start(config(&db)).await;
    let text = "f5f6e6f4g5e7f7h5e3d3g4h4f3g6c4d7d6c6e8d8h3c5c3g3h6b4b3e2e1d2c2a3a5a4a2b5c8c7a6b6f8f1d1f2h2g7h8h7g8h1g1c1g2b2a1b1a7b7b8paa8";
    let r = site
        .send(Req::post("/api/import", json!({ "text": text })).from(ip(1)))
        .await;
    assert_eq!(r.status, 201, "{}", r.text);
    let id = r.json["games"][0]["id"].as_str().unwrap().to_string();
    let replay = site.send(Req::get(&format!("/api/games/{id}/replay"))).await;
    assert_eq!(replay.status, 200, "{}", replay.text);
    assert!(replay.text.contains("pass"), "{}", replay.text);
    // The quota: 200 games a day from one address, in imports of up to 20.
    let twenty = vec!["f5d6c3d3c4"; 20].join("\n");
    let reqs: Vec<Req> = (0..12)
        .map(|_| Req::post("/api/import", json!({ "text": twenty })).from(ip(2)))
        .collect();
    let replies = site.burst(reqs).await;
    assert_eq!(count(&replies, 201), 10, "200 games: ten imports of twenty");
    assert!(replies
        .iter()
        .filter(|r| r.status != 201)
        .all(|r| r.json["code"] == "import_quota"));
    // A guest's import is gone after 30 days.
    let later = site.state.clock().now_ms() + 31 * 86_400_000;
    let purged = site.state.db().purge_old(later).await.unwrap();
    assert!(purged.games >= 1, "{purged:?}");
    let r = site.send(Req::get(&format!("/api/games/{id}/replay"))).await;
    assert!(
        r.status == 404 || site.state.db().games().load_game(&id).await.unwrap().is_none(),
        "{}",
        r.text
    );
}

// ---------- 11, 12. guests: server-issued identities, limits per address ----------

/// A guest cookie the client made up is not a guest (a new one is issued); seeks made from one
/// address at once stop at the address's cap whatever identities they use; guests' seeks are
/// real-time; and the lobby shows the newest seeks first, so a flood cannot hide a new one.
async fn guest_floods_stop_at_the_address(db: String) {
    let site = Site::start(config(&db)).await;
    let forged = format!("rv_guest={}", "A".repeat(32));
    let r = site
        .send(
            Req::post("/api/seeks", json!({ "control": "5+0" }))
                .cookies(&forged)
                .from(ip(1)),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text);
    let issued = r
        .cookie("rv_guest")
        .expect("a guest identity issued by the server");
    assert_ne!(issued, "A".repeat(32));
    assert!(issued.contains('.'), "signed: {issued}");
    // 30 seeks at once from one address, each a new guest.
    let reqs: Vec<Req> = (0..30)
        .map(|_| Req::post("/api/seeks", json!({ "control": "5+0" })).from(ip(2)))
        .collect();
    let replies = site.burst(reqs).await;
    assert_eq!(count(&replies, 201), reversi_server::lobby::SEEKS_PER_ADDRESS);
    // A guest may not seek a correspondence game.
    let r = site
        .send(Req::post("/api/seeks", json!({ "control": "3d" })).from(ip(3)))
        .await;
    assert_eq!(r.json["code"], "seek_correspondence_needs_account", "{}", r.text);
    // A new seek from elsewhere is shown first.
    let r = site
        .send(Req::post("/api/seeks", json!({ "control": "3+2" })).from(ip(4)))
        .await;
    let newest = r.json["id"].clone();
    let lobby = site.send(Req::get("/api/lobby").from(ip(5))).await;
    assert_eq!(lobby.json["seeks"][0]["id"], newest, "{}", lobby.text);
}

/// Spectators' chat from one address with a new guest identity for every line: the address's
/// bucket holds (a burst, then one a second).
async fn chat_floods_stop_at_the_address(db: String) {
    let site = Site::start(config(&db)).await;
    let (id, _, _) = online_game(&site, "chatter1", "chatter2").await;
    let reqs: Vec<Req> = (0..60)
        .map(|i| {
            let guest = site.state.signer().sign("guest", &format!("{i:0>32}"));
            Req::post(
                &format!("/api/games/{id}/chat"),
                json!({ "text": format!("spam {i}") }),
            )
            .cookies(&format!("rv_guest={guest}"))
            .from(ip(9))
        })
        .collect();
    let replies = site.burst(reqs).await;
    let accepted = count(&replies, 200);
    for r in replies.iter().filter(|r| r.status != 200) {
        assert_eq!(r.json["code"], "chat_flood", "{}", r.text);
    }
    // Sent at once: the burst (and a line more should a second pass meanwhile).
    let burst = reversi_site::chat::ADDRESS_BURST as usize;
    assert!(
        (burst..=burst + 2).contains(&accepted),
        "{accepted} lines accepted"
    );
}

// ---------- 14. trickled bodies ----------

/// A body trickled a byte at a time is cut off at the deadline for the whole body, not kept
/// open for as long as the bytes keep coming.
#[tokio::test]
async fn a_trickled_body_meets_a_deadline() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let site = Site::start(Config {
        body_timeout: Duration::from_secs(2),
        ..config(common::SQLITE)
    })
    .await;
    let mut tcp = tokio::net::TcpStream::connect(site.addr).await.unwrap();
    let head = format!(
        "POST /api/games HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n",
        site.addr
    );
    tcp.write_all(head.as_bytes()).await.unwrap();
    let (mut rd, mut wr) = tcp.into_split();
    let trickle = tokio::spawn(async move {
        let mut sent = 0;
        for _ in 0..200 {
            tokio::time::sleep(Duration::from_millis(150)).await;
            if wr.write_all(b" ").await.is_err() {
                break;
            }
            sent += 1;
        }
        sent
    });
    let mut answer = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(60), rd.read_to_end(&mut answer)).await;
    let text = String::from_utf8_lossy(&answer).to_string();
    assert!(text.starts_with("HTTP/1.1 408"), "{text}");
    assert!(text.contains("body_timeout"), "{text}");
    trickle.abort();
    let sent = trickle.await.unwrap_or(0);
    assert!(sent < 200, "cut off before the body's end ({sent} bytes sent)");
}

// ---------- 15. fair analyses ----------

/// The first game of WTHOR 1990, as a transcript (a finished game).
fn wthor_1990_first() -> String {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/wthor/WTH_1990.wtb");
    let wthor = reversi_core::format::wthor::parse_games(&std::fs::read(root).unwrap()).unwrap();
    wthor.games[0].to_game().unwrap().transcript()
}

/// One address asking for many analyses gets its cap; another's first job is served before the
/// first one's second.
async fn analyses_are_served_in_turn(db: String) {
    let site = Site::start(config(&db)).await;
    let games = vec![wthor_1990_first(); 20].join("\n");
    let r = site
        .send(Req::post("/api/import", json!({ "text": games })).from(ip(1)))
        .await;
    assert_eq!(r.status, 201, "{}", r.text);
    let ids: Vec<String> = r.json["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap().to_string())
        .collect();
    let reqs: Vec<Req> = ids[..15]
        .iter()
        .map(|id| Req::post(&format!("/api/games/{id}/analysis"), json!({})).from(ip(1)))
        .collect();
    let replies = site.burst(reqs).await;
    let cap = reversi_server::analysis::ANALYSES_PER_REQUESTER as usize;
    assert_eq!(count(&replies, 202), cap);
    assert!(replies
        .iter()
        .filter(|r| r.status != 202)
        .all(|r| r.json["code"] == "analysis_limit"));
    // The queue's order, as a worker would take it.
    let db = site.state.db();
    let other = &ids[19];
    let asked = db
        .analyses()
        .request_analysis(other, 4, "ip:198.51.100.1", 3, 1000)
        .await
        .unwrap();
    assert_eq!(asked, Ok("queued".to_string()));
    let mut order = Vec::new();
    while let Some((id, _)) = db.analyses().claim_analysis("test-worker", 0).await.unwrap() {
        order.push(id);
    }
    // Whatever the worker of the running server took already is not in `order`: the other
    // address's job comes no later than second.
    let pos = order.iter().position(|id| id == other);
    assert!(pos.is_some_and(|p| p <= 1), "{order:?}");
}

// ---------- 16. one consistent state ----------

/// The state published right after a move against the computer says the computer thinks; no
/// state says it is the computer's turn with it not thinking.
#[tokio::test]
async fn the_state_after_a_move_says_the_computer_thinks() {
    let site = Site::start(config(common::SQLITE)).await;
    let r = site
        .send(Req::post(
            "/api/games",
            json!({ "mode": "ai", "level": 3, "color": "black" }),
        ))
        .await;
    let id = r.json["game"]["id"].as_str().unwrap().to_string();
    let cookies = r.cookie_pair(&format!("rv_{id}"));
    let (mut ws, _) = tokio_tungstenite::connect_async(ws_request(&site, &id, &cookies))
        .await
        .unwrap();
    next_of_type(&mut ws, "state").await;
    use futures_util::SinkExt;
    for _ in 0..4 {
        let g = site
            .send(Req::get(&format!("/api/games/{id}")).cookies(&cookies))
            .await;
        let mv = g.json["game"]["legal_moves"][0].as_str().unwrap().to_string();
        let ply = g.json["game"]["ply"].as_u64().unwrap();
        ws.send(tokio_tungstenite::tungstenite::Message::Text(
            json!({ "type": "move", "move": mv, "ply": ply })
                .to_string()
                .into(),
        ))
        .await
        .unwrap();
        // Every state until the human's turn comes back.
        loop {
            let s = next_of_type(&mut ws, "state").await;
            let g = &s["game"];
            if g["status"] != "playing" {
                return;
            }
            if g["to_move"] == "white" {
                assert_eq!(g["ai_thinking"], true, "{s}");
            } else {
                break;
            }
        }
    }
}

// ---------- also seen ----------

/// A spectator arriving sends the others a small presence event, not the whole state; the
/// metrics are rate limited; a request naming another host is refused.
#[tokio::test]
async fn presence_events_metrics_limits_and_hosts() {
    let site = Site::start(Config {
        metrics_token: Some("metrics-token-0123456789".into()),
        rate_per_sec: 1.0,
        rate_burst: 3.0,
        ..config(common::SQLITE)
    })
    .await;
    let r = site
        .send(Req::post("/api/games", json!({ "mode": "friend" })).from(ip(1)))
        .await;
    let id = r.json["game"]["id"].as_str().unwrap().to_string();
    let (mut first, _) = tokio_tungstenite::connect_async(ws_request(&site, &id, ""))
        .await
        .unwrap();
    next_of_type(&mut first, "state").await;
    let (mut second, _) = tokio_tungstenite::connect_async(ws_request(&site, &id, ""))
        .await
        .unwrap();
    next_of_type(&mut second, "state").await;
    // The first socket hears of the second: a presence event (after its own arrival's).
    loop {
        let p = next_of_type(&mut first, "presence").await;
        assert!(p.get("game").is_none(), "{p}");
        if p["presence"]["spectators"] == 2 {
            break;
        }
    }

    let scrape = || {
        Req::get("/metrics")
            .header("Authorization", "Bearer metrics-token-0123456789")
            .from(ip(2))
    };
    let replies: Vec<u16> = site
        .burst((0..6).map(|_| scrape()).collect())
        .await
        .iter()
        .map(|r| r.status)
        .collect();
    assert!(replies.contains(&429), "{replies:?}");

    // A page of a name pointed at this machine (DNS rebinding) names that host.
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut tcp = tokio::net::TcpStream::connect(site.addr).await.unwrap();
    tcp.write_all(b"GET / HTTP/1.1\r\nHost: rebound.evil.example\r\nConnection: close\r\n\r\n")
        .await
        .unwrap();
    let mut text = String::new();
    tcp.read_to_string(&mut text).await.unwrap();
    assert!(text.starts_with("HTTP/1.1 421"), "{text}");
    let ok = site.send(Req::get("/healthz")).await;
    assert_eq!(ok.status, 200);
}

on_both_databases!(
    concurrent_guesses_are_counted_before_the_hash,
    bursts_of_signups_and_tournaments_get_their_caps,
    a_password_change_ends_sign_ins_in_flight,
    seats_and_bot_tokens_follow_the_credentials,
    long_passwords_and_look_alike_names,
    names_are_keyed_again_when_the_rules_grow,
    invitation_only_tournaments_stay_private,
    imports_take_passes_have_quotas_and_expire,
    guest_floods_stop_at_the_address,
    chat_floods_stop_at_the_address,
    analyses_are_served_in_turn,
);
