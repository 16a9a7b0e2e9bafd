//! The web app in a real headless Chromium, driven through ChromeDriver: a game against the
//! computer to the end and its review, a friend joining from the invite link in a second
//! browser, a forced pass seen on screen, finished games that stay finished, every page in
//! Russian with no English left, no sideways scrolling on a phone, an address confirmed and a
//! forgotten password reset from the mailed links, and (with
//! `REVERSI_TEST_SCREENSHOTS=DIR`) the screenshots of `docs/screenshots/`.
//!
//! Needs `REVERSI_TEST_CHROMIUM` and `REVERSI_TEST_CHROMEDRIVER` (`scripts/test` sets both);
//! without them each test says why and passes.

mod browser;
mod sink;

use browser::{screenshot_dir, Bench, Driver, DESKTOP, ONE_AT_A_TIME, PHONE};
use reversi_server::mail::Mailer;
use reversi_server::Config;
use serde_json::Value;
use std::time::{Duration, Instant};

fn lock() -> std::sync::MutexGuard<'static, ()> {
    ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner())
}

/// Starts a game against the computer at `level` from the home page's options.
fn start_vs_computer(d: &Driver, level: u32, variant: &str) -> String {
    d.open("/");
    d.click_css("details.more summary");
    d.script(&format!(
        "const v = document.querySelector('#variant'); v.value = '{variant}'; v.dispatchEvent(new Event('change'));\
         const l = document.querySelector('#level'); l.value = '{level}'; l.dispatchEvent(new Event('change'));"
    ));
    d.click_css("#start");
    d.wait("the game page", 20, |d| {
        d.url().contains("/game/") && d.has("#board-wrap svg")
    });
    d.url().rsplit('/').next().unwrap().to_string()
}

/// Plays (clicking) until the game ends or `stop` says so; the moves clicked.
fn play_until(d: &Driver, secs: u64, mut stop: impl FnMut(&Driver) -> bool) -> usize {
    let end = Instant::now() + Duration::from_secs(secs);
    let mut clicks = 0;
    while !d.has("#result-dialog[open]") && !stop(d) {
        assert!(Instant::now() < end, "the game did not go on: {}", d.body_text());
        if d.play_any(clicks * 7 + 3) {
            clicks += 1;
        } else {
            std::thread::sleep(Duration::from_millis(40));
        }
    }
    clicks
}

#[test]
fn play_the_computer_then_review_in_both_languages() {
    let _one = lock();
    let Some(mut bench) = Bench::start(|c| c) else {
        return;
    };
    let d = bench.browser(DESKTOP, "en");
    d.open("/");
    d.wait("the home page", 20, |d| d.has("#strengths"));
    assert!(d.body_text().contains("Play the computer"), "{}", d.body_text());
    // One click on a named strength starts the game.
    d.click_css(".strength[data-level='1']");
    d.wait("the game page", 20, |d| {
        d.url().contains("/game/") && d.has("#board-wrap svg")
    });
    let id = d.url().rsplit('/').next().unwrap().to_string();
    assert!(
        d.text_of("#game-head").contains("Beginner (level 1)"),
        "{}",
        d.text_of("#game-head")
    );
    // Nothing to take back before the first move.
    assert!(d.has("#undo[disabled]"), "undo is disabled at the start");
    let clicks = play_until(&d, 240, |_| false);
    assert!(clicks >= 3, "played {clicks} moves by clicking");

    // The result shown agrees with the server's, said to the player, each score next to its
    // colour.
    let game = bench.get(&format!("/api/games/{id}"))["game"].clone();
    assert_eq!(game["status"], "finished", "{game}");
    let (b, w) = (&game["result"]["black"], &game["result"]["white"]);
    let you = if game["players"]["black"] == "human" {
        "black"
    } else {
        "white"
    };
    let won = game["result"]["winner"].as_str().map(|c| c == you);
    let expected = match won {
        Some(true) => format!("You won · Black {b} – {w} White"),
        Some(false) => format!("You lost · Black {b} – {w} White"),
        None => format!("Draw · Black {b} – {w} White"),
    };
    assert_eq!(d.text_of("#result-text"), expected);
    assert_eq!(d.text_of("#status"), expected);
    for button in ["#rematch", "#review", "#dialog-new-game"] {
        assert!(d.has(&format!("#result-dialog {button}")), "{button}");
    }
    d.click_css("#result-close");
    d.wait("the dialog to close", 10, |d| !d.has("#result-dialog[open]"));
    // A finished game offers no undo, hint, resign or abort.
    for gone in ["#undo", "#hint", "#resign", "#abort"] {
        assert!(!d.has(gone), "{gone} on a finished game");
    }
    assert!(d.has("#side-rematch") && d.has("#new-game"));

    // Every move of the record shows its position; the live board comes back.
    d.script("document.querySelector(\"#moves button.mv[data-ply='3']\").click();");
    d.wait("the history bar", 10, |d| {
        d.text_of("#history-bar").contains("move 3 of")
    });
    d.click_css("#back-live");
    d.wait("the live board", 10, |d| !d.has("#history-bar:not([hidden])"));

    // Russian, remembered.
    d.click_css("#lang");
    d.wait("Russian on the game page", 10, |d| {
        d.text_of("#status").starts_with(match won {
            Some(true) => "Вы выиграли",
            Some(false) => "Вы проиграли",
            None => "Ничья",
        })
    });
    assert_eq!(d.text_of("#lang"), "EN");
    d.open("/");
    d.wait("the Russian home page", 20, |d| {
        d.body_text().contains("Игра с компьютером")
    });
    // The game is among "your games".
    d.wait("your games", 10, |d| {
        d.has(&format!("#my-games a[href='/game/{id}']"))
    });

    // The archive lists the finished game; its replay steps with buttons, keys and the list.
    d.open("/archive");
    d.wait("the archive", 20, |d| d.has("#archive"));
    d.click_css(&format!("tr[data-id='{id}'] a.replay-link"));
    d.wait("the replay", 20, |d| d.has("#replay-board svg"));
    let n = game["moves"].as_array().unwrap().len();
    assert_eq!(d.text_of("#ply-label"), format!("Ход {n} из {n}"));
    d.click_css("#replay-first");
    assert_eq!(d.text_of("#ply-label"), "Начальная позиция");
    d.keys("\u{E014}\u{E014}\u{E014}");
    assert_eq!(d.text_of("#ply-label"), format!("Ход 3 из {n}"));
    d.script("document.querySelector(\"#replay-list button[data-ply='5']\").click();");
    assert_eq!(d.text_of("#ply-label"), format!("Ход 5 из {n}"));
    // The analysis: asked for, done, charted.
    d.click_css("#analyse");
    d.wait("the analysis chart", 90, |d| d.has("#chart svg"));
    assert!(d.text_of("#analysis-status").starts_with("Проанализировано"));
    assert_eq!(d.find_all("#totals tbody tr").len(), 2);
    assert!(d.text_of("#chart").contains("Оценка после каждого хода"));
    // The coach explains the first mistake, in Russian.
    d.script("document.querySelector('#replay-list button.mistake').click();");
    assert!(
        d.text_of("#verdict").contains("Потеряно"),
        "{}",
        d.text_of("#verdict")
    );
    let why = d.text_of("#coach");
    assert!(!why.is_empty() && !why.contains("coach-"), "{why}");
    // The board rings where the better move was, the one the verdict names.
    let better = d.script(
        "const c = document.querySelector('#replay-board circle.better'); return c && c.closest('[data-sq]').dataset.sq;",
    );
    let better = better.as_str().expect("a ring where the better move was");
    assert!(
        d.text_of("#verdict").contains(better),
        "{better}: {}",
        d.text_of("#verdict")
    );
    d.screenshot(screenshot_dir().as_deref(), "replay-coach-ru-desktop.png");

    // The rules of a variant, both languages.
    d.open("/rules/eight-stars");
    d.wait("the rules", 20, |d| d.has("#rules-text"));
    assert_eq!(d.text_of("#rules-title"), "Восьмизвёздное Отелло");
    assert_eq!(d.find_all(".rules-board rect.hole").len(), 12);
    d.click_css("#lang");
    d.wait("English rules", 10, |d| {
        d.text_of("#rules-title") == "Eight Stars"
    });
}

#[test]
fn a_friend_takes_the_seat_from_the_invite_link() {
    let _one = lock();
    let Some(mut bench) = Bench::start(|c| c) else {
        return;
    };
    let a = bench.browser(DESKTOP, "en");
    a.open("/");
    a.click_css("#friend");
    a.wait("the invite link", 20, |d| d.has("#invite-link"));
    let link: String = a
        .script("return document.querySelector('#invite-link').value;")
        .as_str()
        .unwrap()
        .into();
    assert!(link.contains("#join="), "{link}");
    // The creator cannot move before the friend comes, but may abort.
    assert!(!a.has("#board-wrap g.sq.playable"));
    assert!(a.has("#abort"));
    assert!(a.text_of("#status").contains("Waiting for your friend"));

    // The friend, in another browser (in Russian), is offered the seat at once.
    let b = bench.browser(DESKTOP, "ru");
    b.open(&link);
    b.wait("the offered seat", 20, |d| d.has("#join"));
    assert!(!b.body_text().contains("Вы наблюдаете"), "{}", b.body_text());
    assert_eq!(b.text_of("#join"), "Играть белыми");
    b.click_css("#join");
    b.wait("the seat", 20, |d| {
        !d.has("#join") && d.text_of("#player-bottom").contains("Вы")
    });
    assert!(!b.url().contains("#join"), "the secret leaves the address bar");
    a.wait("the friend arrived", 20, |d| d.text_of("#status") == "Your move");

    // No engine help between people.
    for d in [&a, &b] {
        assert!(!d.has("#hint") && !d.has("#undo"), "{}", d.body_text());
    }
    // Abort until both have moved, then resign.
    assert!(a.play_any(0));
    assert!(a.has("#abort"));
    b.wait("white's turn", 20, |d| d.has("#board-wrap g.sq.playable"));
    assert!(b.play_any(0));
    a.wait("resign instead of abort", 20, |d| {
        d.has("#resign") && !d.has("#abort")
    });
    a.click_css("#resign");
    assert!(
        a.has("#resign-yes") && a.has("#resign-no"),
        "a confirmation in the page"
    );
    a.click_css("#resign-yes");
    b.wait("the result on the friend's page", 20, |d| {
        d.has("#result-dialog[open]")
    });
    assert!(
        b.text_of("#result-text").starts_with("Вы выиграли (сдача) · "),
        "{}",
        b.text_of("#result-text")
    );
    // The rematch: the friend asks, the creator hears of it.
    b.click_css("#rematch");
    b.wait("the rematch", 20, |d| {
        d.url().contains("/game/") && !d.url().contains(&link[link.len() - 20..])
    });
    a.wait("the offer", 20, |d| d.has("#rematch-offer"));
}

#[test]
fn a_friend_who_leaves_can_be_claimed_against() {
    let _one = lock();
    let Some(mut bench) = Bench::start(|c| c) else {
        return;
    };
    let a = bench.browser(DESKTOP, "en");
    a.open("/");
    a.click_css("#friend");
    a.wait("the invite link", 20, |d| d.has("#invite-link"));
    let link: String = a
        .script("return document.querySelector('#invite-link').value;")
        .as_str()
        .unwrap()
        .into();
    let b = bench.browser(PHONE, "ru");
    b.open(&link);
    b.wait("the offered seat", 20, |d| d.has("#join"));
    b.click_css("#join");
    a.wait("the friend arrived", 20, |d| d.text_of("#status") == "Your move");
    a.wait("the friend shown as connected", 20, |d| {
        d.has("#presence-white.here")
    });
    assert!(a.play_any(0));
    b.wait("white's turn", 20, |d| d.has("#board-wrap g.sq.playable"));
    assert!(b.play_any(0));
    // Someone watches: both players see the count.
    let fan = bench.browser(DESKTOP, "en");
    let game = a.url();
    fan.open(&game[game.find("/game/").unwrap()..]);
    a.wait("a spectator", 20, |d| d.text_of("#spectators") == "1 spectator");
    b.wait("a spectator", 20, |d| d.text_of("#spectators") == "1 зритель");
    // The friend leaves the page: the creator is told, and may claim after five minutes.
    b.open("/");
    a.wait("the friend gone", 20, |d| {
        d.has("#presence-white.gone") && d.text_of("#away-box").contains("left the game")
    });
    assert!(
        a.text_of("#claim-in").contains("claim the win in"),
        "{}",
        a.text_of("#away-box")
    );
    assert!(!a.has("#claim"));
    bench
        .state
        .clock()
        .advance(reversi_site::game::presence::CLAIM_AFTER_UNTIMED_MS as i64);
    // The page counts from the last state; a reload brings the server's count.
    a.open(&game[game.find("/game/").unwrap()..]);
    a.wait("the claim", 20, |d| d.has("#claim"));
    a.click_css("#claim");
    a.wait("the result", 20, |d| d.has("#result-dialog[open]"));
    assert!(
        a.text_of("#result-text")
            .starts_with("You won by forfeit · Black "),
        "{}",
        a.text_of("#result-text")
    );
    fan.wait("the result for the spectator", 20, |d| {
        d.text_of("#status").starts_with("Black won by forfeit · ")
    });
}

#[test]
fn a_forced_pass_stays_on_screen() {
    let _one = lock();
    let Some(mut bench) = Bench::start(|c| c) else {
        return;
    };
    let d = bench.browser(DESKTOP, "en");
    // 4×4 games against the computer pass often; play them until the person had to pass.
    let end = Instant::now() + Duration::from_secs(300);
    loop {
        assert!(Instant::now() < end, "no pass of the person's in many games");
        let id = start_vs_computer(&d, 1, "nxn:4");
        let mut seen = false;
        play_until(&d, 120, |d| {
            let g = bench_game(d, &id);
            let person_passed = g["moves"]
                .as_array()
                .unwrap()
                .iter()
                .enumerate()
                .any(|(i, m)| m == "pass" && i % 2 == 0);
            if person_passed && g["status"] == "playing" {
                seen = true;
            }
            seen
        });
        if seen {
            // The computer has moved again at once; the notice is still there.
            std::thread::sleep(Duration::from_millis(400));
            let notice = d.text_of("#notice");
            assert!(
                notice.contains("Black had no legal move and passed."),
                "notice: {notice:?}"
            );
            assert!(d.has("#moves button.mv.pass"), "the pass is in the move list");
            break;
        }
    }
}

/// The game `id` as the page holds it.
fn bench_game(d: &Driver, id: &str) -> Value {
    let js = format!(
        "const r = new XMLHttpRequest(); r.open('GET', '/api/games/{id}', false); r.send(); return JSON.parse(r.responseText).game;"
    );
    d.script(&js)
}

/// What a script writes when it shows a value that is not there: "null", "undefined", "NaN",
/// "[object Object]" (once, "nullnull" under a tournament's cards).
fn stray_words(d: &Driver) -> Vec<String> {
    let text = d.script("return document.body.innerText + ' ' + document.title;");
    let text = text.as_str().unwrap_or("");
    ["null", "undefined", "NaN", "[object"]
        .into_iter()
        .filter(|w| text.contains(w))
        .map(String::from)
        .collect()
}

/// Latin words on the page that are not names, notation or keys.
fn english_words(d: &Driver) -> Vec<String> {
    const ALLOWED: &[&str] = &["GGF", "XOT", "EN", "Tab", "Enter", "Home", "End"];
    let text = d.script("return document.body.innerText;");
    let text = text.as_str().unwrap_or("");
    let mut found = Vec::new();
    for word in text.split(|c: char| !c.is_ascii_alphanumeric()) {
        let letters = word.chars().filter(|c| c.is_ascii_alphabetic()).count();
        let notation = word.chars().any(|c| c.is_ascii_digit());
        if letters >= 2 && !notation && !ALLOWED.contains(&word) && !found.contains(&word.to_string()) {
            found.push(word.to_string());
        }
    }
    found
}

#[test]
fn every_page_in_russian_and_on_a_phone() {
    let _one = lock();
    let Some(mut bench) = Bench::start(|c| c) else {
        return;
    };
    // A finished game to show on the replay page.
    let seated = bench
        .runtime
        .block_on(bench.state.rounds().create(reversi_server::round::NewGame {
            mode: reversi_site::game::Mode::Local,
            variant: "nxn:4".into(),
            level: 1,
            color: None,
            tie: Default::default(),
        }))
        .unwrap();
    let id = seated.view.id.clone();
    loop {
        let (v, _) = bench
            .runtime
            .block_on(bench.state.rounds().view(&id, None))
            .unwrap();
        let Some(mv) = v.legal_moves.first().cloned() else {
            break;
        };
        bench
            .runtime
            .block_on(
                bench
                    .state
                    .rounds()
                    .play(&id, Some(&seated.token), &mv, None, false),
            )
            .unwrap();
    }
    for lang in ["ru", "en"] {
        let d = bench.browser(PHONE, lang);
        let pages = [
            "/".to_string(),
            "/archive".into(),
            "/rules/black-hole".into(),
            format!("/replay/{id}"),
            format!("/game/{id}"),
            "/lobby".into(),
            "/login".into(),
            "/signup".into(),
            "/reset".into(),
            "/account".into(),
            "/players/blitz".into(),
            "/analysis?moves=f5d6c3".into(),
            "/puzzles/1".into(),
            "/learn".into(),
            "/learn/stable".into(),
        ];
        for page in &pages {
            d.open(page);
            d.wait("the page", 20, |d| {
                d.has("main > *:not(.muted)") && !d.text_of("main").contains('…') || d.has("#board-wrap svg")
            });
            std::thread::sleep(Duration::from_millis(300));
            assert!(!d.scrolls_sideways(), "{lang} {page} scrolls sideways at 360 px");
            let header =
                d.script("return document.querySelector('header.site').getBoundingClientRect().height;");
            assert!(
                header.as_f64().unwrap() < 64.0,
                "{lang} {page}: the header wraps to {header} px at 360 px"
            );
            let stray = stray_words(&d);
            assert!(stray.is_empty(), "{lang} {page} shows {stray:?}");
            let words = english_words(&d);
            if lang == "ru" {
                assert!(words.is_empty(), "{page}: English words in Russian: {words:?}");
            } else {
                assert!(!words.is_empty(), "{page}: the scan finds the English words");
            }
        }
        // A game in progress, on a phone: no keyboard help.
        d.open("/");
        d.click_css(".strength[data-level='1']");
        d.wait("the game", 20, |d| d.has("#board-wrap svg"));
        assert!(!d.has(".meta .keys"), "keyboard help on a phone");
        assert!(!d.scrolls_sideways(), "{lang} game scrolls sideways");
        if lang == "ru" {
            assert!(english_words(&d).is_empty(), "{:?}", english_words(&d));
        }
        // A 16×16 board on a phone: squares of a usable size, scrolled inside the board's box.
        let big = start_vs_computer(&d, 1, "nxn:16");
        let width =
            d.script("return document.querySelector('#board-wrap svg').getBoundingClientRect().width;");
        assert!(
            width.as_f64().unwrap() >= 16.0 * 28.0,
            "{big}: board {width} px wide"
        );
        assert!(!d.scrolls_sideways(), "the page itself does not scroll sideways");
    }
}

#[test]
fn screenshots_of_every_page() {
    let Some(dir) = screenshot_dir() else { return };
    let _one = lock();
    let Some(mut bench) = Bench::start(|c| c) else {
        return;
    };
    for (window, wname) in [(DESKTOP, "desktop"), (PHONE, "phone")] {
        for lang in ["en", "ru"] {
            for theme in ["light", "dark"] {
                let d = bench.browser(window, lang);
                d.script(&format!("localStorage.setItem('theme', '{theme}');"));
                let name = |page: &str| format!("{page}-{lang}-{theme}-{wname}.png");
                d.open("/");
                d.wait("home", 20, |d| d.has("#strengths"));
                d.screenshot(Some(&dir), &name("home"));
                let id = start_vs_computer(&d, 3, "othello");
                play_until(&d, 60, |d| d.ply() >= 8);
                d.screenshot(Some(&dir), &name("game"));
                play_until(&d, 240, |_| false);
                d.click_css("#review");
                d.wait("replay", 20, |d| d.has("#replay-board svg"));
                d.click_css("#analyse");
                d.wait("chart", 120, |d| d.has("#chart svg"));
                d.script("const b = document.querySelector(\"#replay-list button[data-ply='20']\"); if (b) b.click();");
                d.screenshot(Some(&dir), &name("replay"));
                d.open("/rules/othello");
                d.wait("rules", 20, |d| d.has("#rules-text"));
                d.screenshot(Some(&dir), &name("rules"));
                let _ = id;
            }
        }
    }
}

/// On a phone the page never scrolls by itself: through 30 plies against the computer and when
/// a finished game opens, the window stays at the top, the opponent's bar and whose move it is
/// stay on the screen, and only the move strip scrolls (it did: 43 → 267 px over 12 moves).
#[test]
fn a_game_on_a_phone_never_scrolls_the_page() {
    let _one = lock();
    let Some(mut bench) = Bench::start(|c| c) else {
        return;
    };
    let d = bench.browser(PHONE, "en");
    let id = start_vs_computer(&d, 1, "othello");
    let on_screen = |d: &Driver, css: &str| -> bool {
        d.script(&format!(
            "const r = document.querySelector('{css}').getBoundingClientRect(); \
             return r.top >= 0 && r.bottom <= window.innerHeight;"
        ))
        .as_bool()
        .unwrap_or(false)
    };
    let mut plies = 0;
    let mut scrolls = Vec::new();
    play_until(&d, 240, |d| {
        scrolls.push(d.script("return window.scrollY;").as_f64().unwrap_or(-1.0));
        plies = d.ply();
        assert!(
            on_screen(d, "#player-top"),
            "the opponent's bar left the screen at ply {plies}"
        );
        assert!(
            on_screen(d, "#status"),
            "whose move it is left the screen at ply {plies}"
        );
        plies >= 30
    });
    d.screenshot(screenshot_dir().as_deref(), "game-midgame-en-phone.png");
    assert!(plies >= 30 || d.has("#result-dialog[open]"), "{plies} plies");
    assert!(
        scrolls.iter().all(|y| *y == 0.0),
        "the page scrolled: {scrolls:?}"
    );
    // The move strip scrolled to the latest move instead.
    let strip = d.script(
        "const m = document.querySelector('#moves'); return [m.scrollLeft, m.scrollWidth, m.clientWidth];",
    );
    assert!(
        strip[1].as_f64() > strip[2].as_f64(),
        "the strip is longer than the screen: {strip}"
    );
    assert!(
        strip[0].as_f64().unwrap_or(0.0) > 0.0,
        "the strip follows the game: {strip}"
    );
    // A finished game opens at the top.
    play_until(&d, 240, |_| false);
    d.open(&format!("/game/{id}"));
    d.wait("the finished game", 20, |d| d.has("#moves .mv.current"));
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(d.script("return window.scrollY;").as_f64(), Some(0.0));
    assert!(!d.scrolls_sideways());
}

/// Where the keyboard is: the square it is on (`d3`), or the focused element's id.
fn focus(d: &Driver) -> String {
    d.script(
        "const a = document.activeElement; \
         return a && a.closest('#board-wrap') ? (a.dataset.sq || 'board') : (a ? a.id || a.tagName : '');",
    )
    .as_str()
    .unwrap_or("")
    .to_string()
}

/// Playing with the keyboard: the board is one Tab stop, the arrows move between squares,
/// Enter plays, and after every move (and the computer's reply) the keys are still on the
/// board (they fell to the page's body, 20 Tabs away); a move typed in the box plays too, and a
/// wrong one is said.
#[test]
fn keyboard_play_keeps_focus_on_the_board() {
    let _one = lock();
    let Some(mut bench) = Bench::start(|c| c) else {
        return;
    };
    let d = bench.browser(DESKTOP, "en");
    start_vs_computer(&d, 1, "othello");
    assert_eq!(d.find_all("#board-wrap [tabindex='0']").len(), 1, "one Tab stop");
    d.script("document.querySelector(\"#board-wrap [tabindex='0']\").focus();");
    for round in 0..5 {
        d.wait("my move", 30, |d| d.has("#board-wrap g.sq.playable"));
        let here = focus(&d);
        assert!(here.len() == 2, "round {round}: the keys are on {here:?}");
        let target = d.script("return document.querySelector('#board-wrap g.sq.playable').dataset.sq;");
        let target = target.as_str().unwrap().to_string();
        let dc = target.as_bytes()[0] as i32 - here.as_bytes()[0] as i32;
        let dr = target[1..].parse::<i32>().unwrap() - here[1..].parse::<i32>().unwrap();
        let mut keys = String::new();
        for _ in 0..dc.abs() {
            keys.push(if dc > 0 { '\u{E014}' } else { '\u{E012}' });
        }
        for _ in 0..dr.abs() {
            keys.push(if dr > 0 { '\u{E015}' } else { '\u{E013}' });
        }
        d.keys(&keys);
        assert_eq!(focus(&d), target, "round {round}: the arrows lead to {target}");
        let before = d.ply();
        d.keys("\u{E007}");
        d.wait("the move and the reply", 30, |d| {
            d.ply() >= before + 2 || d.has("#result-dialog[open]")
        });
        assert_eq!(
            focus(&d),
            target,
            "round {round}: the keys stayed where the move was played"
        );
    }
    // The typed move: a wrong one is said, a legal one is played, the box keeps the keys.
    d.wait("my move", 30, |d| d.has("#board-wrap g.sq.playable"));
    d.script("document.querySelector('#move-input').focus();");
    d.keys("z9\u{E007}");
    d.wait("the notice", 10, |d| {
        d.text_of("#notice").contains("not a legal move")
    });
    let legal = d.script("return document.querySelector('#board-wrap g.sq.playable').dataset.sq;");
    let before = d.ply();
    d.keys(&format!("{}\u{E007}", legal.as_str().unwrap()));
    d.wait("the typed move", 30, |d| d.ply() > before);
    assert_eq!(focus(&d), "move-input");
}

/// A challenge by name reaches its player on whatever page they are (it was a tinted row in
/// the lobby, easy to miss, with no way to say no): Decline tells the challenger at once;
/// Accept takes both to the game.
#[test]
fn a_challenge_reaches_its_player_on_any_page() {
    let _one = lock();
    let Some(mut bench) = Bench::start(|c| c) else {
        return;
    };
    let shots = screenshot_dir();
    let ann = bench.browser(DESKTOP, "en");
    let bob = bench.browser(PHONE, "en");
    ann.sign_up("Ann");
    bob.sign_up("Bob");
    bob.open("/puzzles");
    let challenge = |d: &Driver| {
        d.open("/lobby");
        d.wait("the seek form", 20, |d| d.has("#seek-to"));
        d.script("document.querySelector('#seek-to').value = 'Bob';");
        d.click_css("#seek-create");
        d.wait("the challenge", 20, |d| d.has("#seeks [data-cancel]"));
    };
    challenge(&ann);
    // Bob, on the puzzles page, is told (the next read of his games, or his next page).
    bob.open("/rules");
    bob.wait("the challenge notice", 30, |d| d.has("#notices [data-challenge]"));
    assert!(
        bob.text_of("#notices").contains("Ann (1500) challenges you: 5+3"),
        "{}",
        bob.text_of("#notices")
    );
    assert!(!bob.scrolls_sideways());
    bob.screenshot(shots.as_deref(), "challenge-notice-en-phone.png");
    bob.click_css("#notices [data-decline-challenge]");
    bob.wait("the notice gone", 10, |d| !d.has("#notices [data-challenge]"));
    ann.wait("the answer", 20, |d| {
        d.text_of("#notices").contains("Bob declined your challenge")
    });
    assert!(
        !ann.has("#seeks [data-cancel]"),
        "the declined challenge left the lobby"
    );
    ann.screenshot(shots.as_deref(), "challenge-declined-en-desktop.png");

    // Again; this time Bob accepts from the notice and both are in the game.
    challenge(&ann);
    bob.open("/players");
    bob.wait("the challenge notice", 30, |d| {
        d.has("#notices [data-accept-challenge]")
    });
    bob.click_css("#notices [data-accept-challenge]");
    for d in [&ann, &bob] {
        d.wait("the game", 20, |d| {
            d.url().contains("/game/") && d.has("#board-wrap svg")
        });
    }
    assert_eq!(ann.url().rsplit('/').next(), bob.url().rsplit('/').next());
    assert!(!bob.has("#notices [data-challenge]"));
    ann.open("/account");
    ann.wait("the settings", 20, |d| d.has("#notify"));
    ann.screenshot(shots.as_deref(), "settings-en-desktop.png");
}

/// Plays exercise `n` of `lesson` on the page: a wrong square first (it is refused and the
/// board comes back), then the catalog's answer, and for an exercise of several moves the
/// answers the page reveals for each later step.
fn do_exercise(d: &Driver, lesson: &str, n: usize) {
    let e = &reversi_server::learn::catalog::find(lesson).unwrap().exercises[n];
    d.wait("the exercise's board", 20, |d| {
        d.has("#lesson-board g.sq[data-sq]") && d.has("#lesson-buttons button")
    });
    d.click_css(&format!("#lesson-board g.sq[data-sq='{}']", e.wrong));
    d.wait("the refusal", 20, |d| d.has("#lesson-status.loss"));
    d.wait("the board back", 20, |d| d.has("#exercise-show"));
    d.click_css(&format!("#lesson-board g.sq[data-sq='{}']", e.answer));
    for _ in 1..e.moves {
        if d.has("#lesson-done") || d.has("#exercise-next") {
            break;
        }
        d.wait("the reply", 20, |d| {
            d.has("#lesson-status.win") && d.has("#lesson-board g.sq.playable")
        });
        d.click_css("#exercise-show");
        d.wait("the answers", 20, |d| d.has("#lesson-board circle.answer"));
        let sq = d.script(
            "return document.querySelector('#lesson-board circle.answer').closest('[data-sq]').dataset.sq;",
        );
        d.click_css(&format!("#lesson-board g.sq[data-sq='{}']", sq.as_str().unwrap()));
    }
    d.wait("the exercise solved", 20, |d| {
        d.has("#exercise-next") || d.has("#lesson-done")
    });
}

/// A guest works through the first lessons by clicking, in both languages, on a phone and on a
/// desktop: a square that turns nothing and a wrong move are refused with a reason, the right
/// move solves the exercise, a finished lesson leads on, and the progress survives a reload.
#[test]
fn a_guest_learns_by_clicking() {
    let _one = lock();
    let Some(mut bench) = Bench::start(|c| c) else {
        return;
    };
    let shots = screenshot_dir();
    for (window, wname) in [(PHONE, "phone"), (DESKTOP, "desktop")] {
        for lang in ["en", "ru"] {
            let d = bench.browser(window, lang);
            d.open("/learn");
            d.wait("the lessons", 20, |d| d.has("a[data-lesson='place']"));
            assert_eq!(
                d.find_all(".lesson-list li").len(),
                reversi_server::learn::catalog::all().len()
            );
            assert!(!d.has(".lesson-list li.done"), "nothing done yet");
            d.screenshot(shots.as_deref(), &format!("learn-{lang}-{wname}.png"));
            d.click_css("#learn-next");
            d.wait("the first lesson", 20, |d| {
                d.url().ends_with("/learn/place") && d.has("#lesson-text p")
            });
            // The start position: no dots (finding the moves is the exercise); a1 turns nothing.
            d.wait("the board", 20, |d| d.has("#lesson-board g.sq[data-sq='a1']"));
            assert!(
                !d.has("#lesson-board circle.legal"),
                "the legal squares are not shown"
            );
            d.click_css("#lesson-board g.sq[data-sq='a1']");
            d.wait("the refusal", 20, |d| d.has("#lesson-status.loss"));
            let said = d.text_of("#lesson-status");
            assert!(said.contains("a1"), "{said}");
            d.click_css("#lesson-board g.sq[data-sq='d3']");
            d.wait("solved", 20, |d| d.has("#exercise-next"));
            d.click_css("#exercise-next");
            do_exercise(&d, "place", 1);
            d.wait("the lesson done", 20, |d| d.has("#lesson-done #lesson-next"));
            let stray = stray_words(&d);
            assert!(stray.is_empty(), "{lang}: {stray:?}");
            if lang == "ru" {
                assert!(english_words(&d).is_empty(), "{:?}", english_words(&d));
            }
            d.click_css("#lesson-next");
            d.wait("the second lesson", 20, |d| {
                d.url().ends_with("/learn/directions")
            });
            do_exercise(&d, "directions", 0);
            d.screenshot(shots.as_deref(), &format!("lesson-{lang}-{wname}.png"));
            assert!(
                !d.scrolls_sideways(),
                "{lang} {wname}: the lesson scrolls sideways"
            );
            // A reload keeps the finished lesson.
            d.open("/learn");
            d.wait("the lessons", 20, |d| d.has("a[data-lesson='place']"));
            assert!(
                d.has(".lesson-list li.done a[data-lesson='place']"),
                "{}",
                d.body_text()
            );
            assert!(!d.has(".lesson-list li.done a[data-lesson='directions']"));
            assert_eq!(
                d.script("return document.querySelector('#learn-next').getAttribute('href');"),
                "/learn/directions"
            );
            // The page about the game, with the champions.
            d.open("/about");
            d.wait("the champions", 20, |d| d.has("#champions tbody tr"));
            assert!(!d.scrolls_sideways(), "{lang} {wname}: /about scrolls sideways");
            assert!(stray_words(&d).is_empty(), "{:?}", stray_words(&d));
            d.screenshot(shots.as_deref(), &format!("about-{lang}-{wname}.png"));
        }
    }
    // The box edition's black-and-gold discs, chosen in a guest's settings, on every board.
    let d = bench.browser(DESKTOP, "en");
    d.open("/");
    d.click_css("#nav-settings");
    d.wait("the settings", 20, |d| d.has("#pref-discs [data-value='gold']"));
    let light = "return document.querySelector('svg.board radialGradient[id^=white] stop:nth-child(2)').getAttribute('stop-color');";
    assert_eq!(d.script(light), "#ededed");
    d.click_css("#pref-discs [data-value='gold']");
    d.wait("gold discs", 20, |d| d.script(light) == "#e2b13c");
    d.open("/learn/place");
    d.wait("the lesson's board", 20, |d| d.has("#lesson-board svg"));
    assert_eq!(d.script(light), "#e2b13c", "the choice stays for every board");
}

/// Types `text` into the input `css` as a person would have it (the value set, `input` fired).
fn type_into(d: &Driver, css: &str, text: &str) {
    d.script(&format!(
        "const e = document.querySelector({}); e.value = {}; e.dispatchEvent(new Event('input'));",
        serde_json::to_string(css).unwrap(),
        serde_json::to_string(text).unwrap()
    ));
}

/// Mail as a person uses it: an address given in the settings and confirmed from the link in
/// the letter (opened on a phone, in Russian), then a forgotten password asked for from the
/// sign-in page and set anew from the second letter's link; the phone is then signed in, the
/// secret is gone from its address bar, and the desktop's old session has ended.
#[test]
fn an_address_confirmed_and_a_password_reset_from_the_mailed_links() {
    let Some(sink) = sink::sink() else { return };
    let _one = lock();
    let smtp = format!("smtp://{}", sink.smtp);
    let Some(mut bench) = Bench::start(|c| Config {
        mail: Some(Mailer::new(&smtp, "Reversi <noreply@reversi.test>", "http://reversi.test").unwrap()),
        ..c
    }) else {
        return;
    };
    let shots = screenshot_dir();
    let address = format!("dora.{}@example.org", std::process::id());
    let desk = bench.browser(DESKTOP, "en");
    desk.sign_up("dora");
    desk.open("/account");
    desk.wait("the e-mail card", 20, |d| {
        d.text_of("#email-now").contains("No address")
    });
    type_into(&desk, "#email-new", &address);
    type_into(&desk, "#email-password", "dora-password-1");
    desk.click_css("#email-submit");
    desk.wait("the address waiting", 20, |d| {
        d.text_of("#email-pending").contains(&address)
    });
    desk.screenshot(shots.as_deref(), "settings-email-en-desktop.png");
    let letter = sink.wait_letter(&address);
    let verify = format!(
        "/verify/{}",
        sink::secret_after(&letter.text, "http://reversi.test/verify/")
    );

    let phone = bench.browser(PHONE, "ru");
    phone.open(&verify);
    phone.wait("the address confirmed", 20, |d| {
        d.text_of("#verify-msg").contains(&format!("Теперь {address}"))
    });
    assert!(
        !phone.url().contains("/verify/"),
        "the secret left the address bar: {}",
        phone.url()
    );
    desk.open("/account");
    desk.wait("the address confirmed", 20, |d| {
        d.text_of("#email-now").contains(&address)
    });
    assert!(!desk.has("#email-pending"));

    phone.open("/login");
    phone.click_css("#to-reset");
    phone.wait("the reset form", 20, |d| d.has("#reset-email"));
    type_into(&phone, "#reset-email", &address.to_uppercase());
    phone.click_css("#reset-submit");
    phone.wait("the letter promised", 20, |d| {
        d.text_of("#reset-msg").contains("ссылка уже отправлена")
    });
    phone.screenshot(shots.as_deref(), "reset-ru-phone.png");
    let letter = sink.wait_letter(&address);
    let secret = sink::secret_after(&letter.text, "http://reversi.test/reset/");
    phone.open(&format!("/reset/{secret}"));
    phone.wait("the new password's form", 20, |d| d.has("#reset-password"));
    assert!(
        !phone.url().contains(&secret),
        "the secret left the address bar: {}",
        phone.url()
    );
    type_into(&phone, "#reset-password", "short");
    phone.click_css("#reset-submit");
    phone.wait("a short password refused", 20, |d| {
        !d.text_of("#reset-msg").is_empty()
    });
    type_into(&phone, "#reset-password", "a brand new password");
    phone.click_css("#reset-submit");
    phone.wait("signed in with the new password", 20, |d| {
        d.has("#reset-done") && d.text_of("#nav-me") == "dora"
    });
    desk.open("/account");
    desk.wait("the desktop signed out", 20, |d| {
        d.has("a[href='/login?then=/account']")
    });
    assert!(!desk.has("#nav-me"));
}

/// The settings follow the account: chosen on a desktop (blue cloth, no coordinates, zen mode),
/// they are the phone's as soon as it signs in — its board has them, and in a game zen mode
/// hides the panel but keeps the buttons.
#[test]
fn the_settings_follow_the_account_to_another_browser() {
    let _one = lock();
    let Some(mut bench) = Bench::start(|c| c) else {
        return;
    };
    let shots = screenshot_dir();
    let desk = bench.browser(DESKTOP, "en");
    desk.sign_up("fern");
    desk.open("/account");
    desk.wait("the board's settings", 20, |d| d.has("#pref-board"));
    desk.click_css("#pref-board .seg[data-value='blue']");
    desk.click_css("#pref-coords");
    desk.click_css("#pref-zen");
    desk.wait("the settings stored", 20, |d| {
        d.script("return fetch('/api/account').then(r => r.json()).then(j => j.user.prefs.zen === true && j.user.prefs.board === 'blue' && j.user.prefs.coords === false);")
            == Value::Bool(true)
    });
    let phone = bench.browser(PHONE, "ru");
    phone.open("/login");
    phone.wait("the sign-in form", 20, |d| d.has("#auth-name"));
    type_into(&phone, "#auth-name", "fern");
    type_into(&phone, "#auth-password", "fern-password-1");
    phone.click_css("#auth-submit");
    phone.wait("signed in", 20, |d| d.has("#nav-me"));
    let root = |d: &Driver, k: &str| d.script(&format!("return document.documentElement.dataset.{k};"));
    phone.wait("the account's look", 20, |d| {
        root(d, "board") == "blue" && root(d, "coords") == "off" && root(d, "zen") == "on"
    });
    phone.open("/account");
    phone.wait("the settings", 20, |d| {
        d.has("#pref-board .seg.on[data-value='blue']")
    });
    assert!(
        !phone.scrolls_sideways(),
        "the settings scroll sideways on a phone"
    );
    phone.screenshot(shots.as_deref(), "settings-board-ru-phone.png");
    start_vs_computer(&phone, 1, "othello");
    let shown = |css: &str| {
        phone.script(&format!(
            "const e = document.querySelector('{css}'); return !!e && getComputedStyle(e).display !== 'none';"
        ))
    };
    assert_eq!(shown("#moves"), Value::Bool(false), "zen mode hides the moves");
    assert_eq!(
        shown("#controls"),
        Value::Bool(true),
        "zen mode keeps the buttons"
    );
    assert_eq!(shown("#board-wrap .coord"), Value::Bool(false), "no coordinates");
}

/// People as players meet them: Ann follows Bob from his profile (he shows on her home page)
/// and reports him; Bob, on a phone, blocks Ann; Mia, made a moderator, finds both reports on
/// her desk, mutes Bob with a note (the report leaves the queue, the log says it) and reads the
/// rest in Russian.
#[test]
fn players_follow_block_report_and_a_moderator_acts() {
    let _one = lock();
    let Some(mut bench) = Bench::start(|c| c) else {
        return;
    };
    let shots = screenshot_dir();
    let ann = bench.browser(DESKTOP, "en");
    let bob = bench.browser(PHONE, "en");
    let mia = bench.browser(DESKTOP, "en");
    ann.sign_up("Ann");
    bob.sign_up("Bob");
    mia.sign_up("Mia");

    // Ann follows Bob; he appears, online, among the players she follows.
    ann.open("/@/Bob");
    ann.wait("the profile's buttons", 20, |d| d.has("#relation-bar #follow"));
    assert_eq!(ann.text_of("#followers"), "0 followers");
    ann.click_css("#follow");
    ann.wait("following", 10, |d| d.text_of("#follow") == "Unfollow");
    assert_eq!(ann.text_of("#followers"), "1 follower");
    ann.open("/");
    ann.wait("the players she follows", 20, |d| {
        d.has("#following li.followed[data-name='Bob'] .presence.here")
    });

    // Ann reports Bob; a report needs a reason.
    ann.open("/@/Bob");
    ann.wait("the profile's buttons", 20, |d| d.has("#report-open"));
    ann.click_css("#report-open");
    ann.wait("the report form", 10, |d| d.has("#report-form:not([hidden])"));
    type_into(&ann, "#report-text", "He insulted me in the chat of our game.");
    ann.click_css("#report-send");
    ann.wait("the refusal", 10, |d| {
        d.text_of("#relation-status") == "Choose why you report this player."
    });
    ann.script("document.querySelector('#report-reason').value = 'abuse';");
    ann.click_css("#report-send");
    ann.wait("the thanks", 10, |d| {
        d.text_of("#relation-status").starts_with("Thank you")
    });

    // Bob, on his phone, blocks Ann (no Follow button while she is blocked) and reports her.
    bob.open("/@/Ann");
    bob.wait("the profile's buttons", 20, |d| d.has("#block"));
    bob.click_css("#block");
    bob.wait("blocked", 10, |d| {
        d.text_of("#block") == "Unblock" && !d.has("#follow")
    });
    bob.click_css("#report-open");
    bob.script("document.querySelector('#report-reason').value = 'spam';");
    type_into(&bob, "#report-text", "Sends the same link in every chat.");
    bob.click_css("#report-send");
    bob.wait("the thanks", 10, |d| {
        d.text_of("#relation-status").starts_with("Thank you")
    });
    assert!(!bob.scrolls_sideways());
    assert!(!bob.text_of("#relation-bar").contains("null"));
    bob.screenshot(shots.as_deref(), "profile-people-en-phone.png");

    // Not a moderator: the desk says so. Made one, Mia has the link and the queue.
    mia.open("/mod");
    mia.wait("the refusal", 20, |d| {
        d.body_text().contains("Only a moderator may do this.")
    });
    let state = bench.state.clone();
    bench.runtime.block_on(async {
        let (u, _) = state
            .db()
            .accounts()
            .user_named(&reversi_site::account::skeleton("Mia"), "Mia")
            .await
            .unwrap()
            .unwrap();
        let now = state.clock().now_ms();
        state
            .db()
            .moderation()
            .act_on_account(
                &u.id,
                reversi_server::db::moderation::AccountAction::Grant,
                None,
                None,
                "test",
                now,
            )
            .await
            .unwrap();
    });
    mia.open("/");
    mia.wait("the desk's link", 20, |d| d.has("#nav-mod"));
    mia.click_css("#nav-mod");
    mia.wait("the queue", 20, |d| d.find_all("#reports li.report").len() == 2);
    let queue = mia.text_of("#reports");
    assert!(queue.contains("Bob, reported by Ann"), "{queue}");
    assert!(
        queue.contains("He insulted me in the chat of our game."),
        "{queue}"
    );
    mia.screenshot(shots.as_deref(), "moderation-en-desktop.png");

    // An action needs a note; with one, Bob is muted and his report leaves the queue.
    let bob_report = "#reports li[data-report='1']";
    mia.click_css(&format!("{bob_report} [data-action='mute']"));
    mia.wait("the note asked for", 10, |d| {
        d.text_of("#mod-status").starts_with("Write a note first")
    });
    type_into(&mia, &format!("{bob_report} .mod-note"), "insults in chat");
    mia.click_css(&format!("{bob_report} [data-action='mute']"));
    mia.wait("one report left", 10, |d| {
        d.find_all("#reports li.report").len() == 1
    });
    assert!(mia.text_of("#reports").contains("Ann, reported by Bob"));
    mia.click_css("#mod-tab-log");
    mia.wait("the log", 10, |d| d.has("#mod-log"));
    let log = mia.text_of("#mod-log");
    assert!(log.contains("muted") && log.contains("insults in chat"), "{log}");

    // In Russian.
    mia.click_css("#lang");
    mia.wait("Russian", 20, |d| d.text_of("#nav-mod") == "Модерация");
    mia.click_css("#mod-tab-open");
    mia.wait("the queue in Russian", 20, |d| {
        d.text_of("#reports").contains("Ann, жалоба от Bob")
    });
    mia.screenshot(shots.as_deref(), "moderation-ru-desktop.png");

    // A correspondence pool reads in Russian too (it was the untranslated "1d").
    mia.open("/");
    mia.wait("the pools", 20, |d| d.has("#pools [data-pool='1d']"));
    assert_eq!(mia.text_of("#pools [data-pool='1d'] strong"), "1 день");
}

/// A game on one device names each colour once (it read "White White") and, over, offers to
/// play again rather than a rematch "with the colours swapped" between the same two people.
#[test]
fn a_game_on_one_device_names_each_colour_once() {
    let _one = lock();
    let Some(mut bench) = Bench::start(|c| c) else {
        return;
    };
    let d = bench.browser(DESKTOP, "en");
    d.open("/");
    d.wait("the home page", 20, |d| d.has("#local"));
    d.click_css("#local");
    d.wait("the game", 20, |d| {
        d.url().contains("/game/") && d.has("#player-top .name")
    });
    assert_eq!(d.text_of("#player-bottom .name"), "Black");
    assert_eq!(d.text_of("#player-top .name"), "White");
    let id = d.url().rsplit('/').next().unwrap().to_string();
    let status = d.script(&format!(
        "return fetch('/api/games/{id}/resign', {{method: 'POST', headers: {{'Content-Type': 'application/json'}}, body: JSON.stringify({{color: 'black'}})}}).then(r => r.status);"
    ));
    assert_eq!(status, 200, "{status}");
    d.open(&format!("/game/{id}"));
    d.wait("the finished game", 20, |d| d.has("#side-rematch"));
    assert_eq!(d.text_of("#side-rematch"), "Play again");
}

/// The moves of game `id` as the server has them.
fn moves_of(d: &Driver, id: &str) -> Vec<String> {
    bench_game(d, id)["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect()
}

#[test]
fn people_premove_confirm_taps_on_a_phone_and_take_moves_back() {
    let _one = lock();
    let shots = screenshot_dir();
    let Some(mut bench) = Bench::start(|c| c) else {
        return;
    };
    let a = bench.browser(DESKTOP, "en");
    a.open("/");
    a.click_css("#friend");
    a.wait("the invite link", 20, |d| d.has("#invite-link"));
    let link: String = a
        .script("return document.querySelector('#invite-link').value;")
        .as_str()
        .unwrap()
        .into();
    let id = a.url().rsplit('/').next().unwrap().to_string();
    // The friend plays on a phone and has asked to confirm every move.
    let b = bench.browser(PHONE, "en");
    b.open("/");
    b.script("localStorage.setItem('confirm', 'on');");
    b.open(&link);
    b.wait("the offered seat", 20, |d| d.has("#join"));
    b.click_css("#join");
    a.wait("the friend arrived", 20, |d| d.text_of("#status") == "Your move");
    assert!(a.has("#board-wrap g.sq.playable[data-sq='f5']"));
    a.click_css("#board-wrap g.sq.playable[data-sq='f5']");

    // While White thinks, Black chooses c3 as a premove: shown, nothing sent.
    a.wait("White to move", 20, |d| d.has("#board-wrap g.sq.premovable"));
    assert!(
        !a.has("#board-wrap g.sq.playable"),
        "a premove square is not a move now"
    );
    a.click_css("#board-wrap g.sq.premovable[data-sq='c3']");
    a.wait("the premove", 20, |d| d.has("#board-wrap .ghost.premove"));
    a.screenshot(shots.as_deref(), "premove-en-desktop.png");
    assert_eq!(moves_of(&a, &id), ["f5"]);

    // White taps d6 on the phone: a see-through disc and Confirm; nothing sent until then.
    b.wait("White's turn", 20, |d| {
        d.has("#board-wrap g.sq.playable[data-sq='d6']")
    });
    b.click_css("#board-wrap g.sq.playable[data-sq='d6']");
    b.wait("the confirmation", 20, |d| {
        d.has("#confirm-move") && d.has("#board-wrap .ghost.pending")
    });
    assert_eq!(b.text_of("#confirm-move"), "Play d6");
    b.screenshot(shots.as_deref(), "confirm-move-en-phone.png");
    assert_eq!(moves_of(&a, &id), ["f5"]);
    b.click_css("#confirm-move");
    // d6 is played, and Black's premove follows at once.
    let end = Instant::now() + Duration::from_secs(20);
    while moves_of(&a, &id).len() < 3 {
        assert!(
            Instant::now() < end,
            "the premove was not played: {:?}",
            moves_of(&a, &id)
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(moves_of(&a, &id), ["f5", "d6", "c3"]);
    a.wait("the premove gone", 20, |d| !d.has("#board-wrap .ghost"));

    // Black asks to take c3 back: White declines; Black asks again and White accepts.
    a.wait("the takeback button", 20, |d| d.has("#takeback"));
    a.click_css("#takeback");
    a.wait("the offer waiting", 20, |d| d.has("#takeback-cancel"));
    b.wait("the offer", 20, |d| d.has("#takeback-accept"));
    b.click_css("#takeback-decline");
    a.wait("the offer declined", 20, |d| {
        !d.has("#takeback-offer") && d.has("#takeback")
    });
    assert_eq!(moves_of(&a, &id).len(), 3);
    a.click_css("#takeback");
    b.wait("the offer again", 20, |d| d.has("#takeback-accept"));
    b.screenshot(shots.as_deref(), "takeback-offer-en-phone.png");
    b.click_css("#takeback-accept");
    a.wait("Black to move again", 20, |d| d.text_of("#status") == "Your move");
    assert_eq!(moves_of(&a, &id), ["f5", "d6"]);
    assert!(!a.has("#takeback-offer") && !b.has("#takeback-offer"));
}

/// A page's `fetch` of `path` with `body` (JSON), as its own script would send it; the answer's
/// JSON.
fn fetch_json(d: &Driver, method: &str, path: &str, body: &str) -> Value {
    d.script(&format!(
        "const r = new XMLHttpRequest(); r.open('{method}', '{path}', false); \
         r.setRequestHeader('Content-Type', 'application/json'); r.send({}); return JSON.parse(r.responseText);",
        serde_json::to_string(body).unwrap()
    ))
}

#[test]
fn conditional_premoves_are_left_and_answer_in_a_correspondence_game() {
    let _one = lock();
    let shots = screenshot_dir();
    let Some(mut bench) = Bench::start(|c| c) else {
        return;
    };
    let ann = bench.browser(DESKTOP, "en");
    let bob = bench.browser(DESKTOP, "ru");
    ann.sign_up("Ann");
    bob.sign_up("Bob");
    let seek = fetch_json(
        &ann,
        "POST",
        "/api/seeks",
        r#"{"control": "3d", "to": "Bob", "colour": "black"}"#,
    );
    let seek = seek["id"].as_str().expect("the challenge").to_string();
    let game = fetch_json(&bob, "POST", &format!("/api/seeks/{seek}/accept"), "{}");
    let id = game["game"]["id"].as_str().expect("the game").to_string();
    ann.open(&format!("/game/{id}"));
    ann.wait("Ann's move", 20, |d| {
        d.has("#board-wrap g.sq.playable[data-sq='f5']")
    });
    // On her own move there is nothing to leave.
    assert!(!ann.has("#conditional-lines"));
    ann.click_css("#board-wrap g.sq.playable[data-sq='f5']");
    ann.wait("the conditional box", 20, |d| {
        d.has("#conditional-box:not([hidden]) summary")
    });
    ann.click_css("#conditional-box summary");
    type_into(&ann, "#conditional-lines", "d6 a1");
    ann.click_css("#conditional-save");
    ann.wait("the line at fault", 20, |d| {
        d.text_of("#conditional-status").contains("Line 1: move 2")
    });
    type_into(&ann, "#conditional-lines", "d6 c3\nf6 e6");
    ann.click_css("#conditional-save");
    ann.wait("the lines kept", 20, |d| {
        d.text_of("#conditional-status").starts_with("2 lines kept")
    });
    ann.screenshot(shots.as_deref(), "conditional-premoves-en-desktop.png");
    // Bob plays d6: Ann's c3 follows by itself, on both pages.
    bob.open(&format!("/game/{id}"));
    bob.wait("Bob's move", 20, |d| {
        d.has("#board-wrap g.sq.playable[data-sq='d6']")
    });
    assert!(!bob.body_text().contains("d6 c3"), "the lines are Ann's alone");
    bob.click_css("#board-wrap g.sq.playable[data-sq='d6']");
    bob.wait("c3 answered", 20, |d| d.ply() == 3);
    ann.wait("c3 on Ann's page", 20, |d| d.ply() == 3);
    assert_eq!(
        bench_game(&ann, &id)["moves"],
        serde_json::json!(["f5", "d6", "c3"])
    );
}

#[test]
fn the_home_board_starts_a_game_and_xot_shows_its_opening_line() {
    let _one = lock();
    let Some(mut bench) = Bench::start(|c| c) else {
        return;
    };
    let d = bench.browser(PHONE, "en");
    // With nobody playing online the big board is Black's first move against the computer.
    d.open("/");
    d.wait("the board to play", 20, |d| {
        d.find_all("#hero-board g.sq.playable").len() == 4
    });
    assert!(d.text_of("#hero-caption").starts_with("Play the first move"));
    d.click_css("#hero-board g.sq[data-sq='f5']");
    d.wait("the game page", 20, |d| {
        d.url().contains("/game/") && d.has("#board-wrap svg")
    });
    let id = d.url().rsplit('/').next().unwrap().to_string();
    assert_eq!(moves_of(&d, &id).first().map(String::as_str), Some("f5"));
    assert_eq!(
        bench.get(&format!("/api/games/{id}"))["game"]["players"]["black"],
        "human"
    );

    // An XOT game: its eight preset moves lead the record, apart, and the game's own go on
    // from move 5.
    let id = start_vs_computer(&d, 1, "xot");
    d.wait("the preset line", 20, |d| {
        d.find_all("#moves .preset-mv").len() == 8
    });
    let preset = bench.get(&format!("/api/games/{id}"))["game"]["preset"].clone();
    let shown: Vec<String> = (1..=8)
        .map(|k| {
            d.script(&format!(
                "return document.querySelectorAll('#moves .preset-mv')[{}].textContent;",
                k - 1
            ))
            .as_str()
            .unwrap()
            .to_string()
        })
        .collect();
    assert_eq!(serde_json::to_value(&shown).unwrap(), preset);
    play_until(&d, 60, |d| d.ply() >= 1);
    let first_row =
        d.script("return document.querySelector('#moves tbody:not(.preset-moves) th').textContent;");
    assert_eq!(first_row, "5");
}

#[test]
fn a_player_names_a_country_and_waits_in_a_widening_pool() {
    let _one = lock();
    let Some(mut bench) = Bench::start(|c| c) else {
        return;
    };
    let d = bench.browser(DESKTOP, "ru");
    d.sign_up("Anna_Petrova");
    d.open("/account");
    d.wait("the country", 20, |d| d.has("#country"));
    d.script(
        "const s = document.querySelector('#country'); s.value = 'RU'; s.dispatchEvent(new Event('change'));",
    );
    d.wait("saved", 20, |d| d.text_of("#country-msg") == "Сохранено.");
    d.open("/@/Anna_Petrova");
    d.wait("the profile", 20, |d| d.has(".profile-head .flag"));
    assert_eq!(
        d.script("return document.querySelector('.profile-head .flag').getAttribute('aria-label');"),
        "Россия"
    );
    assert_eq!(d.text_of(".profile-head .avatar"), "AP");
    d.screenshot(screenshot_dir().as_deref(), "profile-country-ru-desktop.png");
    // A waiting player sees how wide a range of ratings they accept, growing.
    d.open("/lobby");
    d.wait("the pools", 20, |d| d.has("#pools button[data-pool='3+2']"));
    d.click_css("#pools button[data-pool='3+2']");
    d.wait("the range", 20, |d| d.text_of("#pool-range").contains("±"));
    let gap = |d: &Driver| -> u32 {
        d.text_of("#pool-range")
            .split('±')
            .nth(1)
            .and_then(|s| s.split(',').next())
            .and_then(|s| s.trim().parse().ok())
            .unwrap_or(0)
    };
    let first = gap(&d);
    d.screenshot(screenshot_dir().as_deref(), "pool-range-ru-desktop.png");
    d.wait("a wider range", 10, |d| gap(d) >= first + 20);
    d.click_css("#pools button[data-pool='3+2']");
    d.wait("out of the pool", 20, |d| !d.has("#pool-range"));
}
