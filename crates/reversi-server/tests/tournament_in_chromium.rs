//! A tournament in a real headless Chromium: an organiser makes a two-round Swiss on the
//! tournaments page, three players (one a phone in Russian) join it from its page in their own
//! browsers, round 1 pairs two of them when the start comes and takes them to their game, which
//! they play by clicking until one resigns; the organiser's page shows the standings and the
//! crosstable change without a reload, and round 2 starts by itself after the break. With
//! `REVERSI_TEST_SCREENSHOTS=DIR` it saves the tournament screenshots of `docs/screenshots/`.
//!
//! Needs `REVERSI_TEST_CHROMIUM` and `REVERSI_TEST_CHROMEDRIVER` (`scripts/test` sets both).

mod browser;

use browser::{screenshot_dir, Bench, Driver, DESKTOP, ONE_AT_A_TIME, PHONE};
use serde_json::Value;
use std::time::{Duration, Instant};

fn lock() -> std::sync::MutexGuard<'static, ()> {
    ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner())
}

/// The current round's games of tournament `id`: (game, black's name, white's name, status).
fn round_games(bench: &Bench, id: &str) -> (i64, Vec<(String, String, String, String)>) {
    let v = bench.get(&format!("/api/tournaments/{id}"));
    let round = v["round"].as_i64().unwrap_or(0);
    let games = v["rounds_played"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|r| r["round"].as_i64() == Some(round))
        .flat_map(|r| r["games"].as_array().cloned().unwrap_or_default())
        .map(|g: Value| {
            let s = |k: &str| g[k].as_str().unwrap_or_default().to_string();
            (s("game"), s("black"), s("white"), s("status"))
        })
        .collect();
    (round, games)
}

/// Plays the current round: both players of each game are taken to it by their tournament
/// page, make two moves each by clicking, then White resigns.
fn play_round(bench: &Bench, id: &str, players: &[(&str, &Driver)]) {
    let (_, games) = round_games(bench, id);
    assert!(!games.is_empty());
    let by = |name: &str| players.iter().find(|(n, _)| *n == name).map(|(_, d)| *d).unwrap();
    for (gid, black, white, _) in games {
        let (b, w) = (by(&black), by(&white));
        for d in [b, w] {
            d.wait("taken to the tournament game", 30, |d| {
                d.url().ends_with(&format!("/game/{gid}")) && d.has("#board-wrap")
            });
        }
        assert!(
            b.text_of("#game-tournament").len() > 2,
            "no link back to the tournament"
        );
        let end = Instant::now() + Duration::from_secs(60);
        let mut n = 0;
        while b.ply() < 4 {
            assert!(Instant::now() < end, "the game did not go on: {}", b.body_text());
            if b.play_any(n) || w.play_any(n + 1) {
                n += 1;
            } else {
                std::thread::sleep(Duration::from_millis(50));
            }
        }
        w.wait("the resign button", 20, |d| d.has("#resign"));
        w.click_css("#resign");
        w.wait("the confirmation", 10, |d| d.has("#resign-yes"));
        w.click_css("#resign-yes");
        w.wait("the result", 20, |d| d.has("#result-dialog[open]"));
        // A tournament game offers no rematch: the tournament pairs the next one.
        assert!(!w.has("#rematch"), "a rematch is offered in a tournament");
    }
}

#[test]
fn a_swiss_is_made_joined_and_played_in_three_browsers() {
    let _one = lock();
    let Some(mut bench) = Bench::start(|c| c) else {
        return;
    };
    let shots = screenshot_dir();
    let org = bench.browser(DESKTOP, "en");
    org.sign_up("Org");
    org.open("/tournaments");
    org.wait("the form", 20, |d| d.has("#t-form"));
    org.script(
        "document.querySelector('#t-name').value = 'Thursday Swiss';\
         document.querySelector('#t-size').value = '2';\
         document.querySelector('#t-control').value = '3+2';\
         document.querySelector('#t-starts').value = '1';",
    );
    org.click_css("#t-create");
    org.wait("the tournament page", 20, |d| {
        d.url().contains("/tournament/") && d.has("#t-title")
    });
    assert_eq!(org.text_of("#t-title"), "Thursday Swiss");
    let id = org.url().rsplit('/').next().unwrap().to_string();

    let ann = bench.browser(DESKTOP, "en");
    let bob = bench.browser(PHONE, "ru");
    let cyd = bench.browser(DESKTOP, "en");
    for (d, name) in [(&ann, "Ann"), (&bob, "Bob"), (&cyd, "Cyd")] {
        d.sign_up(name);
        d.open(&format!("/tournament/{id}"));
        d.wait("the join button", 20, |d| d.has("#t-join"));
        d.click_css("#t-join");
        d.wait("entered", 20, |d| d.has("#t-withdraw"));
    }
    org.wait("three entrants", 20, |d| {
        d.find_all("#t-standings tbody tr").len() == 3
    });
    assert!(
        bob.text_of("#t-join, #t-withdraw").contains("Выбыть"),
        "{}",
        bob.body_text()
    );

    org.open("/tournaments");
    org.wait("the list", 20, |d| {
        d.has(&format!("#t-upcoming tr[data-tournament='{id}']"))
    });
    org.screenshot(shots.as_deref(), "tournaments-en-desktop.png");
    bob.open("/tournaments");
    bob.wait("the list", 20, |d| {
        d.has(&format!("#t-upcoming tr[data-tournament='{id}']"))
    });
    assert!(
        !bob.scrolls_sideways(),
        "the tournament list scrolls sideways on a phone"
    );
    bob.screenshot(shots.as_deref(), "tournaments-ru-phone.png");
    for d in [&org, &ann, &bob, &cyd] {
        d.open(&format!("/tournament/{id}"));
        d.wait("the tournament page", 20, |d| d.has("#t-standings"));
    }
    // Before the start: a countdown, no "Round 0", and the organiser may start it now.
    assert!(
        org.text_of("#t-status").starts_with("Starts in 0:"),
        "{}",
        org.text_of("#t-status")
    );
    assert!(!org.body_text().contains("Round 0"), "{}", org.body_text());
    assert!(org.has("#t-start") && !ann.has("#t-start"));
    assert!(
        bob.text_of("#t-status").starts_with("Начало через"),
        "{}",
        bob.text_of("#t-status")
    );

    // The start comes (the server's clock moves on a minute): round 1 pairs two, one has a bye.
    bench.state.clock().advance(61_000);
    let players = [("Ann", &ann), ("Bob", &bob), ("Cyd", &cyd)];
    org.wait("round 1", 30, |d| d.has("#tournament[data-round='1'] #t-games"));
    let (_, games) = round_games(&bench, &id);
    assert_eq!(games.len(), 1);
    play_round(&bench, &id, &players);
    let (_, games) = round_games(&bench, &id);
    let winner = games[0].1.clone(); // Black: White resigned
                                     // The organiser's page follows without a reload: the winner's point, the crosstable.
    org.wait("the standings after round 1", 20, |d| {
        d.text_of(&format!(
            "#t-standings tr[data-player='{winner}'] td:nth-child(4)"
        )) == "1"
    });
    org.wait("the crosstable", 20, |d| {
        d.text_of("#t-crosstable").contains("1 ")
    });
    // Round 2 comes by itself after the break, and pairs the one who sat out.
    org.wait("round 2", 40, |d| d.has("#tournament[data-round='2'] #t-games"));
    let (_, games) = round_games(&bench, &id);
    assert_eq!(games.len(), 1);
    // (the latest round first)
    let v = bench.get(&format!("/api/tournaments/{id}"));
    let bye = v["rounds_played"][1]["byes"][0].as_str().unwrap().to_string();
    assert!(
        games[0].1 == bye || games[0].2 == bye,
        "{games:?}: {bye} sat out round 1"
    );
    // Absent parts of the page leave nothing behind (once, "nullnull" under the cards).
    assert!(!org.body_text().contains("null"), "{}", org.body_text());
    org.screenshot(shots.as_deref(), "tournament-running-en-desktop.png");
    // Each round's games keep their board numbers (once, every one read "0").
    assert_eq!(org.text_of(".t-rounds details[open] tr td:first-child"), "1");
    play_round(&bench, &id, &players);
    // Bob's page in Russian, on a phone.
    bob.open(&format!("/tournament/{id}"));
    bob.wait("the tournament page", 20, |d| d.has("#t-standings"));
    bob.screenshot(shots.as_deref(), "tournament-running-ru-phone.png");
    org.wait("the end", 40, |d| d.has("#tournament[data-status='finished']"));
    assert!(org.has("#t-crosstable") && org.has("a[href$='/files/games.ggf']"));
    // The winner is named on the podium, first of the standings.
    let first = org.text_of("#t-standings tbody tr:first-child td:nth-child(2) a");
    assert!(
        org.text_of("#t-podium h2").contains(&first),
        "{}",
        org.text_of("#t-podium")
    );
    org.screenshot(shots.as_deref(), "tournament-finished-en-desktop.png");
    // One player's games: Ann played both rounds.
    org.click_css("button[data-games-of='Ann']");
    org.wait("Ann's games", 10, |d| d.find_all("#t-player-games tr").len() == 2);
    bob.wait("the end", 40, |d| d.has("#tournament[data-status='finished']"));
    assert!(
        bob.text_of("#t-status").contains("Завершён"),
        "{}",
        bob.text_of("#t-status")
    );
    assert!(
        !bob.scrolls_sideways(),
        "the tournament page scrolls sideways on a phone"
    );
    bob.screenshot(shots.as_deref(), "tournament-finished-ru-phone.png");
    let v = bench.get(&format!("/api/tournaments/{id}"));
    let points: f64 = v["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["points"].as_f64().unwrap())
        .sum();
    // Two games and two byes.
    assert_eq!(points, 4.0, "{v}");
}
