//! What an account keeps besides its password (issue 53): the settings that follow it from
//! browser to browser; and mail — an address becomes the account's when the link mailed to it
//! is followed, and a forgotten password is set anew by a link mailed to that address. The letters are read
//! from a real SMTP server — the sink `scripts/test` starts (aiosmtpd writing a Maildir:
//! `REVERSI_TEST_SMTP`, `REVERSI_TEST_MAILDIR`) — never from the server's insides.
//! Both databases.

use axum::http::StatusCode;
use reversi_server::email::RESET_LINK_MS;
use reversi_server::mail::Mailer;
use reversi_server::time::Clock;
use reversi_server::{app, AppState, Config};
use serde_json::{json, Value};

#[macro_use]
mod common;
mod online_common;
mod sink;

use online_common::{Client, Reply};
use sink::{secret_after, sink};

/// Who `c` is signed in as (`null` for nobody).
async fn who(c: &mut Client) -> Value {
    c.get("/api/account").await.json["user"]["name"].clone()
}

fn config(db: &str, clock: &Clock, mail: Option<Mailer>) -> Config {
    Config {
        clock: clock.clone(),
        mail,
        ..online_common::config(db)
    }
}

/// A tag no other run of this suite uses: the sink's Maildir is shared.
fn tag() -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    format!("{}x{nanos}", std::process::id())
}

async fn an_address_is_confirmed_and_a_forgotten_password_reset_by_mail(db: String) {
    let Some(sink) = sink() else { return };
    let clock = Clock::adjustable();
    let mailer = Mailer::new(
        &format!("smtp://{}", sink.smtp),
        "Reversi <noreply@reversi.test>",
        "http://reversi.test",
    )
    .unwrap();
    let app = app(AppState::new(config(&db, &clock, Some(mailer))).await.unwrap());
    let tag = tag();
    let address = format!("alice.{tag}@example.org");

    let mut alice = Client::new(&app);
    let Reply { status: s, .. } = alice
        .post(
            "/api/account/signup",
            json!({"name": "alice", "password": "first password 1"}),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED);
    let Reply { json: v, .. } = alice.get("/api/account/email").await;
    assert_eq!(
        v,
        json!({"mail": true, "email": null, "pending": null, "notify": false})
    );

    // A new address needs the password; a malformed one is refused by its part.
    let Reply {
        status: s, json: v, ..
    } = alice
        .post(
            "/api/account/email",
            json!({"email": address, "password": "wrong password"}),
        )
        .await;
    assert_eq!(
        (s, v["code"].as_str()),
        (StatusCode::UNAUTHORIZED, Some("wrong_credentials"))
    );
    let Reply {
        status: s, json: v, ..
    } = alice
        .post(
            "/api/account/email",
            json!({"email": "alice@localhost", "password": "first password 1"}),
        )
        .await;
    assert_eq!(
        (s, v["code"].as_str()),
        (StatusCode::BAD_REQUEST, Some("email_invalid"))
    );
    let typed = address.to_uppercase().replace("EXAMPLE.ORG", "Example.org");
    let Reply {
        status: s, json: v, ..
    } = alice
        .post(
            "/api/account/email",
            json!({"email": typed, "password": "first password 1", "lang": "en"}),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["pending"], json!(address));
    assert_eq!(v["email"], Value::Null);

    let letter = sink.letter_to(&address).await;
    assert!(
        letter.headers.contains("From: Reversi <noreply@reversi.test>"),
        "{}",
        letter.headers
    );
    assert!(letter.text.contains("Hello alice"), "{}", letter.text);
    assert!(letter.text.contains(&address), "{}", letter.text);
    let secret = secret_after(&letter.text, "http://reversi.test/verify/");
    assert_eq!(secret.len(), 32);

    // The link works in any browser, once.
    let mut phone = Client::new(&app);
    let Reply {
        status: s, json: v, ..
    } = phone
        .post("/api/account/email/verify", json!({"token": secret}))
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["email"], json!(address));
    let Reply {
        status: s, json: v, ..
    } = phone
        .post("/api/account/email/verify", json!({"token": secret}))
        .await;
    assert_eq!(
        (s, v["code"].as_str()),
        (StatusCode::BAD_REQUEST, Some("link_expired"))
    );
    let Reply { json: v, .. } = alice.get("/api/account/email").await;
    assert_eq!(
        v,
        json!({"mail": true, "email": address, "pending": null, "notify": false})
    );

    // Nobody else can take the address.
    let mut bob = Client::new(&app);
    bob.post(
        "/api/account/signup",
        json!({"name": "bob", "password": "bobs password 1"}),
    )
    .await;
    let Reply {
        status: s, json: v, ..
    } = bob
        .post(
            "/api/account/email",
            json!({"email": address, "password": "bobs password 1"}),
        )
        .await;
    assert_eq!(
        (s, v["code"].as_str()),
        (StatusCode::CONFLICT, Some("email_taken"))
    );

    // Forgotten: a reset asked for from another browser, by the address in any case; an
    // address nobody has gets the same answer.
    let mut stranger = Client::new(&app);
    let nobody = format!("nobody.{tag}@example.org");
    let Reply {
        status: s1, json: v1, ..
    } = stranger
        .post(
            "/api/account/reset",
            json!({"email": address.to_uppercase(), "lang": "ru"}),
        )
        .await;
    let Reply {
        status: s2, json: v2, ..
    } = stranger
        .post("/api/account/reset", json!({"email": nobody}))
        .await;
    assert_eq!((s1, &v1), (StatusCode::ACCEPTED, &json!({"queued": true})));
    assert_eq!((s2, &v2), (s1, &v1));
    let letter = sink.letter_to(&address).await;
    assert!(letter.text.contains("Здравствуйте, alice"), "{}", letter.text);
    let secret = secret_after(&letter.text, "http://reversi.test/reset/");

    // A password that is not allowed leaves the link working.
    let Reply {
        status: s, json: v, ..
    } = stranger
        .post(
            "/api/account/reset/confirm",
            json!({"token": secret, "password": "short"}),
        )
        .await;
    assert_eq!(
        (s, v["code"].as_str()),
        (StatusCode::BAD_REQUEST, Some("password_short"))
    );
    let Reply {
        status: s, json: v, ..
    } = stranger
        .post(
            "/api/account/reset/confirm",
            json!({"token": secret, "password": "second password 2"}),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["user"]["name"], "alice");
    assert_eq!(who(&mut stranger).await, "alice");
    // Every other session ended; the link is used up; the old password is gone.
    assert_eq!(who(&mut alice).await, Value::Null);
    let Reply { status: s, .. } = phone
        .post(
            "/api/account/reset/confirm",
            json!({"token": secret, "password": "third password 3"}),
        )
        .await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    let Reply { status: s, .. } = alice
        .post(
            "/api/account/login",
            json!({"name": "alice", "password": "first password 1"}),
        )
        .await;
    assert_eq!(s, StatusCode::UNAUTHORIZED);
    let Reply { status: s, .. } = alice
        .post(
            "/api/account/login",
            json!({"name": "alice", "password": "second password 2"}),
        )
        .await;
    assert_eq!(s, StatusCode::OK);
    assert!(
        sink.take_letters(&nobody).is_empty(),
        "a letter went to an address nobody has"
    );

    // A link an hour old no longer works.
    stranger
        .post("/api/account/reset", json!({"email": address}))
        .await;
    let secret = secret_after(&sink.letter_to(&address).await.text, "/reset/");
    clock.advance(RESET_LINK_MS + 1);
    let Reply {
        status: s, json: v, ..
    } = stranger
        .post(
            "/api/account/reset/confirm",
            json!({"token": secret, "password": "third password 3"}),
        )
        .await;
    assert_eq!(
        (s, v["code"].as_str()),
        (StatusCode::BAD_REQUEST, Some("link_expired"))
    );

    // A password changed since the link was mailed voids it.
    stranger
        .post("/api/account/reset", json!({"email": address}))
        .await;
    let secret = secret_after(&sink.letter_to(&address).await.text, "/reset/");
    let Reply { status: s, .. } = alice
        .post(
            "/api/account/password",
            json!({"current": "second password 2", "new": "third password 3"}),
        )
        .await;
    assert_eq!(s, StatusCode::OK);
    let Reply {
        status: s, json: v, ..
    } = stranger
        .post(
            "/api/account/reset/confirm",
            json!({"token": secret, "password": "fourth password 4"}),
        )
        .await;
    assert_eq!(
        (s, v["code"].as_str()),
        (StatusCode::BAD_REQUEST, Some("link_expired"))
    );

    // Three letters per address per quarter hour (the clock moved on an hour, so this one
    // began with the request above): the fourth is refused, and so is one for an address
    // nobody has (the refusal says nothing about who has an account).
    for _ in 0..2 {
        let Reply { status: s, .. } = stranger
            .post("/api/account/reset", json!({"email": address}))
            .await;
        assert_eq!(s, StatusCode::ACCEPTED);
    }
    let Reply {
        status: s, json: v, ..
    } = stranger
        .post("/api/account/reset", json!({"email": address}))
        .await;
    assert_eq!(
        (s, v["code"].as_str()),
        (StatusCode::TOO_MANY_REQUESTS, Some("reset_throttled"))
    );
    for _ in 0..3 {
        let Reply { status: s, .. } = stranger
            .post("/api/account/reset", json!({"email": nobody}))
            .await;
        assert_eq!(s, StatusCode::ACCEPTED);
    }
    let Reply {
        status: s, json: v, ..
    } = stranger
        .post("/api/account/reset", json!({"email": nobody}))
        .await;
    assert_eq!(
        (s, v["code"].as_str()),
        (StatusCode::TOO_MANY_REQUESTS, Some("reset_throttled"))
    );
    sink.take_letters(&address);

    // Removing the address (with the password) frees it.
    let Reply {
        status: s, json: v, ..
    } = alice
        .post(
            "/api/account/email",
            json!({"email": "", "password": "third password 3"}),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["email"], Value::Null);
}

async fn without_mail_the_site_says_a_password_cannot_be_reset(db: String) {
    let clock = Clock::adjustable();
    let app = app(AppState::new(config(&db, &clock, None)).await.unwrap());
    let mut guest = Client::new(&app);
    let Reply { json: v, .. } = guest.get("/api/account/email").await;
    assert_eq!(
        v,
        json!({"mail": false, "email": null, "pending": null, "notify": false})
    );
    let Reply {
        status: s, json: v, ..
    } = guest
        .post("/api/account/reset", json!({"email": "alice@example.org"}))
        .await;
    assert_eq!(
        (s, v["code"].as_str()),
        (StatusCode::SERVICE_UNAVAILABLE, Some("mail_unavailable"))
    );
    guest
        .post(
            "/api/account/signup",
            json!({"name": "carol", "password": "carols password"}),
        )
        .await;
    let Reply {
        status: s, json: v, ..
    } = guest
        .post(
            "/api/account/email",
            json!({"email": "carol@example.org", "password": "carols password"}),
        )
        .await;
    assert_eq!(
        (s, v["code"].as_str()),
        (StatusCode::SERVICE_UNAVAILABLE, Some("mail_unavailable"))
    );
    // A link that cannot be one is refused without a lookup.
    let Reply {
        status: s, json: v, ..
    } = guest
        .post(
            "/api/account/reset/confirm",
            json!({"token": "../../etc", "password": "whatever 123"}),
        )
        .await;
    assert_eq!(
        (s, v["code"].as_str()),
        (StatusCode::BAD_REQUEST, Some("link_expired"))
    );
}

async fn the_settings_follow_the_account(db: String) {
    let clock = Clock::adjustable();
    let app = app(AppState::new(config(&db, &clock, None)).await.unwrap());
    let mut desk = Client::new(&app);
    desk.post(
        "/api/account/signup",
        json!({"name": "erin", "password": "erins password"}),
    )
    .await;
    let Reply { json: v, .. } = desk.get("/api/account").await;
    assert_eq!(v["user"]["prefs"]["board"], Value::Null, "nothing set yet: {v}");
    let Reply {
        status: s, json: v, ..
    } = desk
        .post(
            "/api/account/prefs",
            json!({"board": "blue", "sound": false, "anim": "fast", "zen": true}),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    // A later change keeps what it does not name.
    let Reply { json: v, .. } = desk
        .post(
            "/api/account/prefs",
            json!({"discs": "gold", "coords": false, "premove": false}),
        )
        .await;
    let want = json!({"theme": null, "board": "blue", "discs": "gold", "coords": false, "sound": false,
        "tick": null, "anim": "fast", "zen": true, "premove": false, "confirm": null});
    assert_eq!(v["user"]["prefs"], want);
    // Another browser signed in to the account gets them.
    let mut phone = Client::new(&app);
    let Reply { json: v, .. } = phone
        .post(
            "/api/account/login",
            json!({"name": "erin", "password": "erins password"}),
        )
        .await;
    assert_eq!(v["user"]["prefs"], want);
    // A value the site does not know, or a key, is refused and changes nothing.
    for bad in [
        json!({"board": "purple"}),
        json!({"anim": 3}),
        json!({"volume": 11}),
    ] {
        let Reply {
            status: s, json: v, ..
        } = phone.post("/api/account/prefs", bad.clone()).await;
        assert_eq!(
            (s, v["code"].as_str()),
            (StatusCode::BAD_REQUEST, Some("bad_request")),
            "{bad}"
        );
    }
    let Reply { json: v, .. } = phone.get("/api/account").await;
    assert_eq!(v["user"]["prefs"], want);
    // A guest has nowhere to keep them but the browser.
    let Reply { status: s, .. } = Client::new(&app)
        .post("/api/account/prefs", json!({"zen": true}))
        .await;
    assert_eq!(s, StatusCode::UNAUTHORIZED);
}

async fn a_country_is_checked_and_shown_beside_the_name(db: String) {
    let clock = Clock::adjustable();
    let app = app(AppState::new(config(&db, &clock, None)).await.unwrap());
    let mut ann = Client::new(&app);
    ann.signup("ann").await;
    let mut bob = Client::new(&app);
    bob.signup("bob").await;
    // Any case is taken and kept as the code; nothing else is.
    let Reply {
        status: s, json: v, ..
    } = ann.post("/api/account/country", json!({"country": "ru"})).await;
    assert_eq!((s, &v["user"]["country"]), (StatusCode::OK, &json!("RU")), "{v}");
    for bad in [
        json!({"country": "UK"}),
        json!({"country": "Russia"}),
        json!({"country": 7}),
        json!({"flag": "RU"}),
    ] {
        let Reply {
            status: s, json: v, ..
        } = ann.post("/api/account/country", bad.clone()).await;
        assert_eq!(
            (s, v["code"].as_str()),
            (StatusCode::BAD_REQUEST, Some("bad_request")),
            "{bad}"
        );
    }
    assert_eq!(ann.get("/api/account").await.json["user"]["country"], "RU");
    assert_eq!(bob.get("/api/users/ann").await.json["country"], "RU");
    assert_eq!(bob.get("/api/users/bob").await.json["country"], Value::Null);
    // The games the account begins carry it, for both players' pages.
    let seek = ann
        .post("/api/seeks", json!({"control": "5+3", "colour": "black"}))
        .await;
    let seek = seek.json["id"].as_str().expect("a seek").to_string();
    let game = bob.post(&format!("/api/seeks/{seek}/accept"), json!({})).await;
    assert_eq!(game.status, StatusCode::CREATED, "{}", game.text);
    let online = &game.json["game"]["online"];
    assert_eq!(online["black"]["country"], "RU", "{online}");
    assert!(online["white"].get("country").is_none(), "{online}");
    // None again: the profile says so.
    let Reply { json: v, .. } = ann.post("/api/account/country", json!({"country": null})).await;
    assert!(v["user"].get("country").is_none(), "{v}");
    assert_eq!(bob.get("/api/users/ann").await.json["country"], Value::Null);
    // A guest has no profile to name one on.
    let Reply { status: s, .. } = Client::new(&app)
        .post("/api/account/country", json!({"country": "RU"}))
        .await;
    assert_eq!(s, StatusCode::UNAUTHORIZED);
}

/// Confirms `address` for the signed-in `c` (password `password`) through the mailed link.
async fn confirm(c: &mut Client, sink: &sink::Sink, address: &str, password: &str) {
    let Reply {
        status: s, json: v, ..
    } = c
        .post(
            "/api/account/email",
            json!({"email": address, "password": password}),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let letter = sink.letter_to(address).await;
    let secret = secret_after(&letter.text, "http://reversi.test/verify/");
    let Reply {
        status: s, json: v, ..
    } = c
        .post("/api/account/email/verify", json!({"token": secret}))
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");
}

/// Letters about play, for a player who asked for them: a correspondence challenge, then her
/// move in the game, sent while she is away and once for a move she has not made; and the old
/// address told when the address changes. They wait in the outbox (a restart loses none) and
/// are read from the real SMTP sink.
async fn letters_about_play_reach_those_who_asked(db: String) {
    let Some(sink) = sink() else { return };
    let clock = Clock::adjustable();
    let mailer = Mailer::new(
        &format!("smtp://{}", sink.smtp),
        "Reversi <noreply@reversi.test>",
        "http://reversi.test",
    )
    .unwrap();
    let state = AppState::new(config(&db, &clock, Some(mailer))).await.unwrap();
    let app = app(state.clone());
    let tag = tag();
    let (ann_at, old_at) = (format!("ann.{tag}@example.org"), format!("bob.{tag}@example.org"));
    let mut ann = Client::new(&app);
    let mut bob = Client::new(&app);
    ann.signup("ann").await;
    bob.signup("bob").await;
    confirm(&mut ann, &sink, &ann_at, "ann-secret-pw").await;
    confirm(&mut bob, &sink, &old_at, "bob-secret-pw").await;
    let Reply {
        status: s, json: v, ..
    } = ann
        .post("/api/account/notify", json!({"on": true, "lang": "ru"}))
        .await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(
        v,
        serde_json::to_value(reversi_site_api::NotifySetting { notify: true }).unwrap()
    );
    assert_eq!(ann.get("/api/account/email").await.json["notify"], true);

    // Bob challenges Ann to a correspondence game: she is told, in Russian.
    let Reply {
        status: s, json: v, ..
    } = bob
        .post(
            "/api/seeks",
            json!({"control": "1d", "to": "ann", "colour": "black"}),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    let seek = v["id"].as_str().unwrap().to_string();
    state.deliver_letters().await.unwrap();
    let letter = sink.letter_to(&ann_at).await;
    assert!(
        letter.text.contains("bob вызывает вас на заочную партию (1d"),
        "{}",
        letter.text
    );
    assert!(
        letter.text.contains("http://reversi.test/lobby"),
        "{}",
        letter.text
    );

    // Bob (Black) moves while Ann is on the site: the letter waits for her to leave.
    let Reply {
        status: s, json: v, ..
    } = ann.post(&format!("/api/seeks/{seek}/accept"), json!({})).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    let game = v["game"]["id"].as_str().unwrap().to_string();
    let Reply { status: s, .. } = bob.play_first(&game).await;
    assert_eq!(s, StatusCode::OK);
    state.deliver_letters().await.unwrap();
    assert!(
        sink.take_letters(&ann_at).is_empty(),
        "not while she is on the site"
    );
    clock.advance(reversi_server::people::ONLINE_MS + 1);
    state.deliver_letters().await.unwrap();
    let letter = sink.letter_to(&ann_at).await;
    assert!(
        letter.text.contains("Ваш ход в заочной партии с bob"),
        "{}",
        letter.text
    );
    assert!(
        letter.text.contains(&format!("http://reversi.test/game/{game}")),
        "{}",
        letter.text
    );

    // Ann moves, Bob (who did not ask) gets nothing; Bob moves again: one letter a game in
    // six hours.
    ann.play_first(&game).await;
    bob.play_first(&game).await;
    clock.advance(reversi_server::people::ONLINE_MS + 1);
    state.deliver_letters().await.unwrap();
    assert!(sink.take_letters(&ann_at).is_empty());
    assert!(sink.take_letters(&old_at).is_empty());
    assert_eq!(state.db().outbox().waiting().await.unwrap(), 0);

    // Letters off: nothing more.
    ann.post("/api/account/notify", json!({"on": false})).await;
    assert_eq!(ann.get("/api/account/email").await.json["notify"], false);

    // Bob's address changes: the old one is told, the new one masked.
    let new_at = format!("robert.{tag}@example.org");
    confirm(&mut bob, &sink, &new_at, "bob-secret-pw").await;
    state.deliver_letters().await.unwrap();
    let letter = sink.letter_to(&old_at).await;
    assert!(letter.text.contains("is now r…@example.org"), "{}", letter.text);
    assert!(!letter.text.contains(&new_at));
}

on_both_databases!(
    letters_about_play_reach_those_who_asked,
    the_settings_follow_the_account,
    a_country_is_checked_and_shown_beside_the_name,
    an_address_is_confirmed_and_a_forgotten_password_reset_by_mail,
    without_mail_the_site_says_a_password_cannot_be_reset,
);
