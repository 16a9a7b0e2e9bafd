//! Online play in a real headless Chromium: two strangers sign up in two browsers (one a phone
//! in Russian), both click the same quick-pairing pool on the home page, are paired, and play a
//! blitz game to the end by clicking, both clocks running; a third browser watches live and
//! chats in the spectators' room; the home page's board follows the game (uncounted); the
//! server restarts mid-game, down for 7 s, and both clocks
//! resume where they stopped (the downtime is not charged) while the pages reconnect by
//! themselves; in a second outage a move waits on the board and is played once it is back; both profiles then show the new ratings, provisional. With
//! `REVERSI_TEST_SCREENSHOTS=DIR` it saves the screenshots of `docs/screenshots/` on the way.
//!
//! Needs `REVERSI_TEST_CHROMIUM` and `REVERSI_TEST_CHROMEDRIVER` (`scripts/test` sets both).

mod browser;

use browser::{screenshot_dir, Bench, Driver, DESKTOP, ONE_AT_A_TIME, PHONE};
use std::time::{Duration, Instant};

fn lock() -> std::sync::MutexGuard<'static, ()> {
    ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner())
}

/// Sends `text` in the game's chat box.
fn say(d: &Driver, text: &str) {
    d.script(&format!(
        "document.querySelector('#chat-input').value = {text:?};"
    ));
    d.click_css("#chat-send");
}

#[test]
fn strangers_meet_in_a_pool_play_blitz_and_see_their_ratings() {
    let _one = lock();
    let Some(mut bench) = Bench::start(|c| c) else {
        return;
    };
    let shots = screenshot_dir();
    let ann = bench.browser(DESKTOP, "en");
    let bob = bench.browser(PHONE, "ru");
    ann.sign_up("Ann");
    bob.sign_up("Bob");

    // The home page shows the pools; one click waits in 3+2.
    ann.open("/");
    ann.wait("the pools", 20, |d| d.has("#home-pools .pool[data-pool='3+2']"));
    ann.screenshot(shots.as_deref(), "online-home-en-desktop.png");
    ann.click_css("#home-pools .pool[data-pool='3+2']");
    ann.wait("waiting in the pool", 20, |d| {
        d.url().ends_with("/lobby") && d.has(".pool.waiting[data-pool='3+2']")
    });
    ann.screenshot(shots.as_deref(), "lobby-en-desktop.png");
    bob.open("/");
    bob.wait("the pools", 20, |d| d.has("#home-pools .pool[data-pool='3+2']"));
    bob.click_css("#home-pools .pool[data-pool='3+2']");
    for d in [&ann, &bob] {
        d.wait("the paired game", 30, |d| {
            d.url().contains("/game/") && d.has("#clock-black")
        });
    }
    let id = ann.url().rsplit('/').next().unwrap().to_string();
    assert!(bob.url().ends_with(&id), "{} and {}", ann.url(), bob.url());
    assert!(
        ann.text_of("#game-head").contains("3+2"),
        "{}",
        ann.text_of("#game-head")
    );
    assert!(
        ann.text_of("#game-head").contains("Rated"),
        "{}",
        ann.text_of("#game-head")
    );

    // Whose move it is, site-wide: the header counts the games waiting for the player (on
    // every page), and the tab's title says it; the other player sees no count.
    let black = bench.get(&format!("/api/games/{id}"))["game"]["online"]["black"]["name"].clone();
    let (first, second) = if black == "Ann" {
        (&ann, &bob)
    } else {
        (&bob, &ann)
    };
    first.wait("the count of games waiting", 20, |d| {
        d.text_of("#turn-count") == "1"
    });
    let title = first.script("return document.title;");
    assert!(title.as_str().unwrap().starts_with("(1) "), "{title}");
    assert!(!second.has("#turn-count"), "{}", second.text_of("header"));
    let name = if black == "Ann" {
        "your-turn-en-desktop.png"
    } else {
        "your-turn-ru-phone.png"
    };
    first.screenshot(shots.as_deref(), name);
    // A guest watching is asked to sign in instead of a chat box that refuses.
    let guest = bench.browser(DESKTOP, "en");
    guest.open(&format!("/game/{id}"));
    guest.wait("the game", 20, |d| d.has("#board-wrap svg"));
    assert!(guest.has("#chat-sign-in") && !guest.has("#chat-input"));
    drop(guest);

    // A third person watches live and talks in the spectators' room.
    let fan = bench.browser(DESKTOP, "en");
    fan.sign_up("Fan");
    fan.open(&format!("/game/{id}"));
    fan.wait("the game", 20, |d| d.has("#chat-input"));
    assert!(fan.text_of("#chat-title").contains("Spectators"));
    say(&fan, "<b>go</b> both!");
    fan.wait("the message", 10, |d| {
        d.text_of("#chat-lines").contains("<b>go</b> both!")
    });
    assert!(!fan.has("#chat-lines b"), "a chat message became markup");
    // The players talk in theirs, and do not see the spectators'.
    say(&ann, "good luck");
    bob.wait("Ann's message", 10, |d| {
        d.text_of("#chat-lines").contains("good luck")
    });
    fan.wait("still only the spectators' line", 2, |d| {
        !d.text_of("#chat-lines").contains("good luck")
    });
    assert!(
        !bob.text_of("#chat-lines").contains("both!"),
        "{}",
        bob.text_of("#chat-lines")
    );

    // Play it out by clicking, whoever is to move; the clock of the side to move runs.
    let end = Instant::now() + Duration::from_secs(400);
    let mut clicks = 0;
    let mut saw_running = false;
    let mut restarted = false;
    let mut tv: Option<Driver> = None;
    while !(ann.has("#result-dialog[open]") && bob.has("#result-dialog[open]")) {
        assert!(Instant::now() < end, "the game did not end: {}", ann.body_text());
        let moved = ann.play_any(clicks * 7 + 3) || bob.play_any(clicks * 5 + 1);
        if moved {
            clicks += 1;
        } else {
            std::thread::sleep(Duration::from_millis(40));
        }
        if clicks == 1 {
            // The first move passed the turn: the counts follow at once.
            second.wait("the turn's count", 20, |d| d.text_of("#turn-count") == "1");
            first.wait("no count", 20, |d| !d.has("#turn-count"));
        }
        if clicks == 6 && !saw_running {
            std::thread::sleep(Duration::from_millis(300));
            saw_running = ann.has(".clock.running") && bob.has(".clock.running");
            assert!(
                saw_running,
                "no clock runs after both first moves: {} / {} / {}",
                ann.script("return document.querySelector('#player-top').outerHTML + document.querySelector('#player-bottom').outerHTML;"),
                bob.script("return document.querySelector('#player-top').outerHTML;"),
                bench.get(&format!("/api/games/{id}"))["game"]["online"]
            );
            ann.screenshot(shots.as_deref(), "online-game-en-desktop.png");
            bob.screenshot(shots.as_deref(), "online-game-ru-phone.png");
            fan.screenshot(shots.as_deref(), "online-spectator-en-desktop.png");
        }
        if clicks == 7 && tv.is_none() {
            // Someone opens the home page: its big board follows this game, the featured
            // one, without being counted as a spectator.
            let home = bench.browser(DESKTOP, "en");
            home.open("/");
            home.wait("the featured game on the home board", 20, |d| {
                d.has(&format!("#hero-board .featured-game[data-game='{id}']"))
            });
            home.screenshot(shots.as_deref(), "home-featured-en-desktop.png");
            tv = Some(home);
        }
        if clicks == 9 {
            let game = bench.get(&format!("/api/games/{id}"))["game"].clone();
            let discs =
                (game["black_count"].as_u64().unwrap() + game["white_count"].as_u64().unwrap()) as usize;
            let home = tv.as_ref().expect("the home page is open");
            home.wait("the featured board follows the moves", 20, |d| {
                d.find_all("#hero-board .disc").len() == discs
            });
            assert_eq!(
                game["presence"]["spectators"], 1,
                "only the fan watches: {}",
                game["presence"]
            );
        }
        if clicks == 10 && !restarted {
            restarted = true;
            restart_mid_game(&mut bench, &ann, &bob, &id);
            a_move_waits_for_the_server(&mut bench, &ann, &bob, &id);
        }
    }
    assert!(saw_running);
    assert!(restarted, "the game ended before the restart");
    assert!(!ann.has(".clock.running"), "a clock runs after the end");

    // Both profiles show the new blitz rating, provisional.
    let game = bench.get(&format!("/api/games/{id}"));
    let online = &game["game"]["online"];
    for (d, name, color) in [
        (&ann, "Ann", "black"),
        (&bob, "Bob", "white"),
        (&ann, "Ann", "white"),
    ] {
        if online[color]["name"] != name {
            continue;
        }
        let diff = online[color]["diff"].as_i64().expect("the rating changed");
        d.open(&format!("/@/{name}"));
        d.wait("the profile", 20, |d| {
            d.has("#ratings .rating-box[data-category='blitz']")
        });
        let shown = d.text_of("#ratings .rating-box[data-category='blitz'] strong");
        assert_eq!(shown, format!("{}?", 1500 + diff), "{name}");
        assert!(d.has("#rating-chart circle"));
        assert!(d.has("#rating-chart text.date"), "the chart has no dates");
        // The game is listed from the player's side: the opponent, the rating change.
        d.wait("the profile's games", 20, |d| {
            d.has("#profile-games .player-game")
        });
        let opponent = if name == "Ann" { "Bob" } else { "Ann" };
        let row = d.text_of("#profile-games .player-game .g-players");
        assert!(row.contains(opponent), "{row}");
        let change = match diff {
            1.. => format!("+{diff}"),
            0 => "±0".to_string(),
            _ => format!("−{}", -diff),
        };
        assert_eq!(d.text_of("#profile-games .player-game .diff"), change);
    }
    ann.open("/@/Bob");
    ann.wait("Bob's profile", 20, |d| d.has("#rating-chart"));
    ann.screenshot(shots.as_deref(), "profile-en-desktop.png");
    bob.open("/@/Bob");
    bob.wait("the profile", 20, |d| d.has("#rating-chart"));
    bob.screenshot(shots.as_deref(), "profile-ru-phone.png");
    bob.open("/lobby");
    bob.wait("the lobby", 20, |d| d.has("#pools .pool"));
    assert!(!bob.scrolls_sideways(), "the lobby scrolls sideways on a phone");
    bob.screenshot(shots.as_deref(), "lobby-ru-phone.png");
    // Six regulars play a season of rated blitz among themselves, so that the leaderboard has
    // established players (a rating stops being provisional after a dozen or so games).
    season(&bench);
    ann.open("/players/blitz");
    ann.wait("the leaderboard", 20, |d| d.has("#board-list table"));
    assert!(
        ann.text_of("#board-list").contains("Regular1"),
        "{}",
        ann.text_of("#board-list")
    );
    assert!(
        !ann.text_of("#board-list > table").contains("Ann"),
        "a provisional player is listed among the established"
    );
    assert!(
        ann.text_of("#provisional-board").contains("Ann"),
        "the provisional players are not listed apart"
    );
    ann.screenshot(shots.as_deref(), "leaderboard-en-desktop.png");
    bob.open("/players/blitz");
    bob.wait("the leaderboard", 20, |d| d.has("#board-list table"));
    bob.screenshot(shots.as_deref(), "leaderboard-ru-phone.png");
}

/// The time left on both clocks (ms, Black's and White's) and the side whose clock runs, as
/// the server has them now.
fn clocks(bench: &Bench, id: &str) -> (i64, i64, String) {
    let g = bench.get(&format!("/api/games/{id}"));
    let c = &g["game"]["online"]["clock"];
    (
        c["black_ms"].as_i64().unwrap(),
        c["white_ms"].as_i64().unwrap(),
        c["running"].as_str().unwrap_or("").to_string(),
    )
}

/// The clock `color` shows in `d`'s page, in seconds (`m:ss`, or `s.t` under ten seconds).
fn shown_seconds(d: &Driver, color: &str) -> f64 {
    // `text_of` reads a clock the page redrew meanwhile (a stale element) again.
    let text = d.text_of(&format!("#clock-{color}"));
    let parts: Vec<f64> = text
        .split(':')
        .map(|p| p.trim().parse::<f64>().unwrap_or(f64::NAN))
        .collect();
    match parts[..] {
        [m, s] => m * 60.0 + s,
        [s] => s,
        _ => f64::NAN,
    }
}

/// While the server is down the player to move still moves: the move waits on the dimmed board,
/// seen, and is played the moment the page is live again.
fn a_move_waits_for_the_server(bench: &mut Bench, ann: &Driver, bob: &Driver, id: &str) {
    let before = bench.get(&format!("/api/games/{id}"))["game"]["ply"]
        .as_u64()
        .unwrap();
    bench.stop_server();
    for d in [ann, bob] {
        d.wait("the page offline", 30, |d| {
            d.has(".conn.off") && d.has("#board-wrap.offline")
        });
    }
    let mover = if ann.has("#board-wrap.my-turn") { ann } else { bob };
    mover.click_css("#board-wrap g.sq.playable");
    mover.wait("the move waiting on the board", 10, |d| {
        d.has("#board-wrap .ghost.queued")
    });
    let square = mover.script(
        "return document.querySelector('#board-wrap .ghost.queued').closest('[data-sq]').dataset.sq;",
    );
    assert_eq!(
        mover.find_all("#board-wrap g.sq.playable").len(),
        0,
        "one move waits, no second"
    );
    bench.start_server();
    let end = Instant::now() + Duration::from_secs(30);
    loop {
        let game = bench.get(&format!("/api/games/{id}"))["game"].clone();
        if game["ply"].as_u64() == Some(before + 1) {
            assert_eq!(
                game["moves"][before as usize], square,
                "the waiting move was played"
            );
            break;
        }
        assert!(
            Instant::now() < end,
            "the waiting move {square} was not sent: {game}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    mover.wait("the move played on the page", 20, |d| {
        !d.has("#board-wrap .ghost.queued") && d.ply() == before as usize + 1
    });
}

/// Restarts the server in the middle of the game with 7 s of downtime: both clocks come back
/// as they stood (the running one is not charged the downtime), both pages reconnect and show
/// them, and the game goes on.
fn restart_mid_game(bench: &mut Bench, ann: &Driver, bob: &Driver, id: &str) {
    let (black, white, running) = clocks(bench, id);
    assert!(!running.is_empty(), "a clock runs");
    bench.restart(Duration::from_secs(7));
    for d in [ann, bob] {
        d.wait("the page back on the new server", 30, |d| {
            d.has(".clock.running") && !d.has(".conn.off")
        });
    }
    let (black2, white2, running2) = clocks(bench, id);
    assert_eq!(running2, running, "the same side's clock runs");
    let (ran, still, ran2, still2) = if running == "black" {
        (black, white, black2, white2)
    } else {
        (white, black, white2, black2)
    };
    assert_eq!(still2, still, "the waiting side's clock moved");
    // The running clock lost what the restart itself took (a second or two), not the 7 s of
    // downtime (the downtime is measured from the last heartbeat, up to a second before the
    // stop: the clock may get that second back).
    let lost = ran - ran2;
    assert!(
        (-1_500..5_000).contains(&lost),
        "the running clock lost {lost} ms over a 7 s downtime"
    );
    for d in [ann, bob] {
        let shown = shown_seconds(d, &running);
        assert!(
            (shown - ran2 as f64 / 1000.0).abs() < 4.0,
            "{running}'s clock shows {shown} s, the server has {} ms",
            ran2
        );
        let waiting = if running == "black" { "white" } else { "black" };
        let shown = shown_seconds(d, waiting);
        assert!(
            (shown - still as f64 / 1000.0).abs() < 1.5,
            "{waiting}'s clock shows {shown} s, had {still} ms"
        );
    }
}

/// Six accounts play 30 rated 3+2 games each, through the server's state (the moves of the
/// strongest-looking pick: the first legal square for "Regular1", the last for the others).
fn season(bench: &Bench) {
    use reversi_server::lobby::Entrant;
    use reversi_site::clock::TimeControl;
    let state = &bench.state;
    let rt = &bench.runtime;
    let ids: Vec<String> = (1..=6)
        .map(|i| {
            let (id, name) = (format!("regular{i}id"), format!("Regular{i}"));
            let hash = reversi_site::account::hash_password("regular-password");
            let key = reversi_site::account::skeleton(&name);
            assert!(rt
                .block_on(state.db().accounts().create_user(&id, &name, &key, &hash, 0))
                .unwrap());
            id
        })
        .collect();
    let entrant = |i: usize| Entrant {
        key: ids[i].clone(),
        name: Some(format!("Regular{}", i + 1)),
        bot: false,
        rating: Some(
            rt.block_on(
                state
                    .db()
                    .ratings()
                    .rating(&ids[i], reversi_site::rating::Category::Blitz),
            )
            .unwrap(),
        ),
    };
    for round in 0..30 {
        for i in 0..6 {
            let j = (i + 1 + round % 5) % 6;
            if i > j && round % 2 == 0 || i < j && round % 2 == 1 {
                continue;
            }
            let control = TimeControl::fischer(180, 2).unwrap();
            let (id, tokens) = rt
                .block_on(state.create_online(
                    entrant(i),
                    entrant(j),
                    reversi_core::Variant::Othello,
                    control,
                    true,
                ))
                .unwrap();
            loop {
                let (v, _) = rt.block_on(state.rounds().view(&id, None)).unwrap();
                let Some(side) = v.to_move else { break };
                let black = side == reversi_site_api::Side::Black;
                let first = (black && i == 0) || (!black && j == 0);
                let mv = if first {
                    v.legal_moves.first()
                } else {
                    v.legal_moves.last()
                };
                let mv = mv.cloned().unwrap_or_else(|| "pass".into());
                let token = &tokens[side.index()];
                rt.block_on(state.rounds().play(&id, Some(token), &mv, None, false))
                    .unwrap();
            }
        }
    }
}
