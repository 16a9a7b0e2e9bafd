//! The analysis board in a real headless Chromium: opened from a finished game's replay at a
//! ply, values on every legal move, a variation played and left, a position set up (and an
//! impossible one refused with its reason), a GGF pasted; in both languages, with screenshots
//! under `REVERSI_TEST_SCREENSHOTS`.
//!
//! Needs `REVERSI_TEST_CHROMIUM` and `REVERSI_TEST_CHROMEDRIVER` (`scripts/test` sets both);
//! without them the test says why and passes.

mod browser;

use browser::{screenshot_dir, Bench, Driver, DESKTOP, ONE_AT_A_TIME, PHONE};

/// Squares with a value pill on the board.
fn valued(d: &Driver) -> usize {
    d.find_all("#analysis-board .hint-pill").len()
}

/// Squares one may play on the board.
fn legal(d: &Driver) -> usize {
    d.find_all("#analysis-board .sq.playable").len()
}

/// The text of `css`, read in one script (the page redraws as values arrive, so an element
/// found in one WebDriver call may be gone by the next).
fn text(d: &Driver, css: &str) -> String {
    d.script(&format!(
        "return document.querySelector(\"{css}\")?.textContent || ''"
    ))
    .as_str()
    .unwrap_or("")
    .to_string()
}

/// Whether every legal move (or the forced pass) has its value.
fn all_valued(d: &Driver) -> bool {
    valued(d) == legal(d) && !d.find_all("#analysis-moves tbody tr").is_empty()
}

#[test]
fn the_analysis_board_from_a_replay_with_variations_set_up_and_paste() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let Some(mut bench) = Bench::start(|c| c) else {
        return;
    };
    // A finished game on one device (the middle legal move each turn: a game of the usual
    // length).
    let seated = bench
        .runtime
        .block_on(bench.state.rounds().create(reversi_server::round::NewGame {
            mode: reversi_site::game::Mode::Local,
            variant: "othello".into(),
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
        let Some(mv) = v.legal_moves.get(v.legal_moves.len() / 2).cloned() else {
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
    let total = bench
        .runtime
        .block_on(bench.state.rounds().view(&id, None))
        .unwrap()
        .0
        .moves
        .len();
    let shots = screenshot_dir();
    for (window, wname) in [(DESKTOP, "desktop"), (PHONE, "phone")] {
        for lang in ["en", "ru"] {
            let d = bench.browser(window, lang);
            // From the replay, at move 20: the board there, every legal move valued.
            d.open(&format!("/replay/{id}#ply-20"));
            d.wait("the replay", 20, |d| d.has("#replay-board svg"));
            d.click_css("#replay-analyse");
            d.wait("the analysis board", 20, |d| {
                d.url().contains("/analysis") && d.has("#analysis-board svg")
            });
            assert!(d.url().contains("ply=20"), "{}", d.url());
            d.wait("values on every legal move", 60, all_valued);
            // The best move stands out: its pill (or pills, when tied) holds the highest value,
            // and every other pill is shaded by what it loses.
            let shades = d.script(
                "return [...document.querySelectorAll('#analysis-board .hint-pill')].map(p => \
                 [p.classList.contains('best'), Number(p.nextSibling.textContent.replace('\\u2212', '-'))]);",
            );
            let shades: Vec<(bool, i64)> = serde_json::from_value(shades).unwrap();
            let top = shades.iter().map(|s| s.1).max().unwrap();
            assert!(
                !shades.is_empty() && shades.iter().all(|&(best, v)| best == (v == top)),
                "{shades:?}"
            );
            // The coach's sentences ride on every move of the table (shown on hover).
            let why = d.script(
                "return [...document.querySelectorAll('#analysis-moves tbody tr')].map(r => r.dataset.why || '');",
            );
            let why: Vec<String> = why
                .as_array()
                .unwrap()
                .iter()
                .map(|w| w.as_str().unwrap_or("").to_string())
                .collect();
            assert!(
                why.iter().all(|w| !w.is_empty() && !w.contains("coach-")),
                "{why:?}"
            );
            let praise = if lang == "ru" {
                "Это лучший ход."
            } else {
                "This is the best move."
            };
            assert!(why[0].starts_with(praise), "{why:?}");
            let title = d.text_of("h1");
            assert_eq!(
                title,
                if lang == "ru" {
                    "Доска анализа"
                } else {
                    "Analysis board"
                }
            );
            assert_eq!(
                d.find_all("#analysis-line .mv").len(),
                total,
                "the whole game is the main line"
            );
            // The line reads as a line: several moves to a row, not one (it was 61 rows).
            let rows = d.script(
                "return new Set([...document.querySelectorAll('#analysis-line .mv')].map(b => b.offsetTop)).size;",
            );
            let rows = rows.as_u64().unwrap() as usize;
            assert!(rows * 3 <= total, "{total} moves in {rows} rows");
            let current = text(&d, "#analysis-line .mv.current");
            assert!(
                current.starts_with("20."),
                "{current:?} at {}: {}",
                d.url(),
                text(&d, "#analysis-line")
            );
            if let Some(dir) = &shots {
                d.screenshot(Some(dir), &format!("analysis-{lang}-light-{wname}.png"));
            }
            // A variation: another move than the game's, then back to the game's line.
            let game_next = d.script(
                "return document.querySelector('#analysis-line .mv.current').nextElementSibling?.textContent",
            );
            let moves: Vec<String> = d
                .script("return Array.from(document.querySelectorAll('#analysis-board .sq.playable')).map(e => e.dataset.sq)")
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_str().unwrap().to_string())
                .collect();
            let next_in_game = game_next
                .as_str()
                .unwrap_or("")
                .split(". ")
                .nth(1)
                .unwrap_or("")
                .to_string();
            let alt = moves
                .iter()
                .find(|m| **m != next_in_game)
                .expect("another legal move")
                .clone();
            d.script(&format!("document.querySelector(\"#analysis-board .sq[data-sq='{alt}']\").dispatchEvent(new MouseEvent('click'))"));
            d.wait("the variation", 20, |d| {
                d.has("#analysis-line .variations") && text(d, "#analysis-line .mv.current").ends_with(&alt)
            });
            d.wait("values after the variation's move", 60, all_valued);
            d.click_css("#an-prev");
            d.wait("back to move 20", 20, |d| {
                text(d, "#analysis-line .mv.current").starts_with("20.")
            });
            // Deleting the variation leaves the game's line alone.
            d.script(&format!(
                "Array.from(document.querySelectorAll('#analysis-line .variations button')).find(b => b.textContent === '{alt}').click()"
            ));
            d.wait("in the variation", 20, |d| {
                text(d, "#analysis-line .mv.current").ends_with(&alt)
            });
            d.click_css("#an-delete");
            d.wait("the variation gone", 20, |d| !d.has("#analysis-line .variations"));
            assert_eq!(d.find_all("#analysis-line .mv").len(), total);

            // Set up a position: clearing the board is refused with the reason.
            d.click_css("#analysis-edit");
            d.wait("the editor", 10, |d| d.has("#editor-done"));
            d.click_css("#editor-clear");
            d.click_css("#editor-done");
            d.wait("the reason", 20, |d| !text(d, "#analysis-error").is_empty());
            assert!(
                text(&d, "#analysis-error").contains("d4"),
                "{}",
                text(&d, "#analysis-error")
            );
            // A real set-up: the start with one more black disc on e3, White to move.
            d.click_css("#analysis-edit");
            d.wait("the editor", 10, |d| d.has("#editor-done"));
            d.script(
                "const s = document.querySelector('#editor-side'); s.value = 'white'; s.dispatchEvent(new Event('change'));",
            );
            d.click_css("#analysis-board .sq[data-sq='e3']");
            d.click_css("#editor-done");
            d.wait("the set-up analysed", 60, |d| {
                text(d, "#analysis-error").is_empty() && legal(d) > 0 && all_valued(d)
            });
            assert!(d.url().contains("board="), "{}", d.url());

            // Paste a GGF game: its moves become the line.
            d.script("document.querySelector('details.analysis-tools').open = true;");
            let ggf = "(;GM[Othello]PB[a]PW[b]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[f5]W[d6]B[c3];)";
            d.script(&format!(
                "document.querySelector('#analysis-text').value = '{ggf}';"
            ));
            d.click_css("#analysis-load");
            d.wait("the pasted game as the line", 20, |d| {
                d.find_all("#analysis-line .mv").len() == 3
            });
            assert!(text(&d, "#analysis-line .mv.current").ends_with("c3"));
            assert!(!d.url().contains("board="), "the standard start: {}", d.url());
            d.wait("its values", 60, all_valued);
            assert!(!d.scrolls_sideways(), "no sideways scrolling ({wname})");

            // Two pasted games opened as replays: one link each.
            let two = format!("{ggf}\\n{ggf}");
            d.script(&format!(
                "document.querySelector('#analysis-text').value = '{two}'.replace('\\\\n', '\\n');"
            ));
            d.click_css("#analysis-import");
            d.wait("two replays", 20, |d| {
                d.find_all("#analysis-imported li a").len() == 2
            });
            d.click_css("#analysis-imported li a");
            d.wait("the replay", 20, |d| {
                d.has("#replay-board svg") && d.url().contains("/replay/")
            });
        }
    }
}

#[test]
fn the_database_tab_shows_the_games_of_a_position() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let Some(mut bench) = Bench::start(|c| c) else {
        return;
    };
    // Two years of WTHOR (1980 and 1981), their names read from WTHOR.JOU and WTHOR.TRN.
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/wthor");
    let db = bench.state.db().clone();
    let mut imported = 0;
    for year in [1980, 1981] {
        let file = reversi_server::explorer::read_wthor(&dir.join(format!("WTH_{year}.wtb"))).unwrap();
        imported += bench
            .runtime
            .block_on(reversi_server::explorer::store(&db, &file, &mut |_| {}))
            .unwrap();
    }
    assert!(imported > 100, "{imported}");
    let shots = screenshot_dir();
    for (window, wname, lang) in [(DESKTOP, "desktop", "en"), (PHONE, "phone", "ru")] {
        let d = bench.browser(window, lang);
        if wname == "phone" {
            // The phone reads it dark: every share of the results bar must still show.
            d.open("/");
            d.script("localStorage.setItem('theme', 'dark');");
        }
        d.open("/analysis?moves=f5d6&tab=db");
        d.wait("the database's moves", 30, |d| {
            !d.find_all("#ex-moves tbody tr").is_empty()
        });
        // The table stays on the screen, the names of who played a move cut to their column.
        let overflow = d.script(
            "const t = document.querySelector('#ex-moves').getBoundingClientRect();\
             const cells = [...document.querySelectorAll('#ex-moves td.players')];\
             return t.right > innerWidth + 0.5 || cells.some(c => c.getBoundingClientRect().right > t.right + 0.5);",
        );
        assert_eq!(
            overflow, false,
            "the database's table runs off the {wname} screen"
        );
        // The results bar is framed in a colour that stands out from the page (WCAG's 3:1 for
        // what is not text), so that Black's share shows on a dark page too.
        let contrast = d.script(
            "const lum = c => { const v = c.match(/[\\d.]+/g).slice(0, 3).map(x => { x /= 255; return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4; });\
               return 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2]; };\
             const bar = document.querySelector('#ex-moves .wdl-bar');\
             const page = getComputedStyle(document.body).backgroundColor;\
             const a = lum(getComputedStyle(bar).borderTopColor), b = lum(page);\
             return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);",
        );
        let contrast = contrast.as_f64().unwrap();
        assert!(
            contrast >= 3.0,
            "the results bar's frame has a contrast of {contrast:.2} on the {wname}"
        );
        if wname == "phone" {
            assert_eq!(d.script("return document.documentElement.dataset.theme;"), "dark");
        }
        let total = text(&d, "#ex-total");
        assert!(total.chars().any(|c| c.is_ascii_digit()), "{total}");
        let first = d
            .script("return document.querySelector('#ex-moves tbody tr').dataset.move")
            .as_str()
            .unwrap()
            .to_string();
        assert!(
            !d.find_all("#ex-games li").is_empty(),
            "the games that reached it are listed"
        );
        assert!(!d.scrolls_sideways(), "the database tab scrolls sideways");
        // The picture shows the database's table, not only the board above it.
        d.screenshot_from(
            shots.as_deref(),
            &format!("explorer-{lang}-{wname}.png"),
            Some(".tabs"),
        );
        // A click on the most played move plays it: the board and the tab move on.
        d.script(&format!(
            "document.querySelector(\"#ex-moves tr[data-move='{first}'] button\").click();"
        ));
        d.wait("the position after it", 30, |d| {
            d.url().contains(&format!("moves=f5d6{first}")) && !d.find_all("#ex-moves tbody tr").is_empty()
        });
        // A player filter narrows the count.
        d.script("const p = document.querySelector('#ex-player'); p.value = 'nobody such'; p.dispatchEvent(new Event('change'));");
        d.wait("no game for nobody", 20, |d| {
            d.find_all("#ex-moves tbody tr").is_empty()
        });
    }
}

/// Whether every legal move has its value and the caption says which engine (`device` or
/// `server`) gave them, in `lang`.
fn valued_by(d: &Driver, lang: &str, engine: &str) -> bool {
    let said = match (lang, engine) {
        ("en", "device") => "on this device",
        ("en", _) => "on the server",
        (_, "device") => "на этом устройстве",
        _ => "на сервере",
    };
    all_valued(d) && text(d, "#analysis-moves caption").contains(said)
}

/// Makes every page's analysis socket fail from the first script on (until the tab's
/// `sessionStorage` says `allow-analysis`), counting the tries in `window.__analysisSockets`.
fn refuse_the_analysis_socket(d: &Driver) {
    let source = "window.__refuseAnalysis = sessionStorage.getItem('allow-analysis') !== '1'; \
        window.__analysisSockets = 0; \
        const Real = window.WebSocket; \
        window.WebSocket = function (url, protocols) { \
          if (String(url).includes('/api/analysis/ws')) { \
            window.__analysisSockets++; \
            if (window.__refuseAnalysis) throw new Error('refused by the test'); \
          } \
          return new Real(url, protocols); \
        }; \
        Object.assign(window.WebSocket, Real); window.WebSocket.prototype = Real.prototype;";
    d.cmd(
        "POST",
        "/goog/cdp/execute",
        Some(serde_json::json!({ "cmd": "Page.addScriptToEvaluateOnNewDocument", "params": { "source": source } })),
    )
    .unwrap();
}

#[test]
fn the_engine_runs_on_the_device_with_the_server_refused() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let Some(mut bench) = Bench::start(|c| c) else {
        return;
    };
    for (window, lang) in [(DESKTOP, "en"), (PHONE, "ru")] {
        let d = bench.browser(window, lang);
        refuse_the_analysis_socket(&d);
        // A middlegame out of the book: every value is searched here, in the page's worker.
        d.open("/analysis?variant=othello&moves=f5f6e6f4g5e7e3f3c5c4");
        d.wait("the analysis board", 20, |d| d.has("#analysis-board svg"));
        assert_eq!(
            d.script("return document.querySelector('#analysis-where').value"),
            "device"
        );
        d.wait("values on every legal move, from this device", 60, |d| {
            valued_by(d, lang, "device")
        });
        assert_eq!(
            d.script("return window.__analysisSockets"),
            0,
            "no socket was even tried"
        );
        // The values deepen on the device until the limit.
        let depth = |d: &Driver| {
            text(d, "#analysis-moves caption")
                .split(|c: char| !c.is_ascii_digit())
                .find_map(|n| n.parse::<u32>().ok())
                .unwrap_or(0)
        };
        let first = depth(&d);
        d.wait("a deeper search", 60, |d| {
            depth(d) > first
                || text(d, "#analysis-moves caption").contains(if lang == "en" {
                    "Done"
                } else {
                    "Готово"
                })
        });
        // A move on the board goes on from there at once (a busy worker is replaced).
        let before = d.find_all("#analysis-line .mv").len();
        d.script(
            "document.querySelector('#analysis-board .sq.playable').dispatchEvent(new MouseEvent('click'))",
        );
        d.wait("the next position valued", 30, |d| {
            d.find_all("#analysis-line .mv").len() == before + 1 && all_valued(d)
        });
        // An impossible request is refused by the device's engine with the server's words.
        d.open("/analysis?variant=othello&moves=f5f5");
        d.wait("the reason", 20, |d| {
            text(d, "#analysis-error").starts_with("moves:")
        });
        assert_eq!(d.script("return window.__analysisSockets"), 0);
        // The server's engine is one choice away, and remembered.
        d.script("sessionStorage.setItem('allow-analysis', '1')");
        d.open("/analysis?variant=othello&moves=f5d6c3d3c4f4");
        d.wait("the analysis board", 20, |d| d.has("#analysis-board svg"));
        d.script("const s = document.querySelector('#analysis-where'); s.value = 'server'; s.dispatchEvent(new Event('change'))");
        d.wait("values from the server", 60, |d| valued_by(d, lang, "server"));
        assert!(d.script("return window.__analysisSockets").as_u64().unwrap() >= 1);
        d.open("/analysis?variant=othello&moves=f5d6");
        d.wait("the choice kept", 20, |d| {
            d.has("#analysis-where")
                && d.script("return document.querySelector('#analysis-where').value") == "server"
        });
    }
}

/// The best move by the native solver (exact values) after `moves` from a puzzle's `board`.
fn best_native(board: &str, moves: &str) -> String {
    let req = reversi_site_api::analysis::PositionRequest {
        id: 0,
        variant: "othello".into(),
        moves: Some(moves.into()),
        board: Some(board.into()),
        text: None,
    };
    let game = reversi_analysis::game_of(&req).unwrap();
    let mut engine = reversi_engine::Engine::new(16, 1).unwrap();
    engine.set_book(None);
    let opts = reversi_engine::evaluate::EvalOptions {
        max_depth: 1,
        exact_empties: 30,
        time: None,
        book: false,
    };
    let stop = std::sync::atomic::AtomicBool::new(false);
    let values =
        reversi_engine::evaluate::evaluate_moves(&engine, game.position(), &opts, &stop, &mut |_| {});
    values[0].mv.to_string()
}

/// Clicks the first square the offline page lets the player play; whether there was one.
fn play_first_offline(d: &Driver) -> bool {
    d.script(
        "const s = document.querySelector('#offline-board .sq.playable'); \
         if (!s) return false; s.dispatchEvent(new MouseEvent('click')); return true;",
    )
    .as_bool()
    .unwrap_or(false)
}

#[test]
fn offline_the_computer_and_the_analysis_board_work_and_the_game_is_uploaded_later() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let Some(mut bench) = Bench::start(|c| c) else {
        return;
    };
    let d = bench.browser(DESKTOP, "en");
    d.sign_up("traveller");
    d.open("/");
    // One visit: the service worker keeps the site's shell, both languages and the engine.
    d.wait("the service worker in charge", 60, |d| {
        d.script("return !!(navigator.serviceWorker && navigator.serviceWorker.controller)") == true
    });
    bench.stop_server();

    // With the server gone: the page loads, and a game against the computer is played out.
    d.open("/offline");
    d.wait("the offline page from the cache", 20, |d| d.has("#offline-start"));
    d.script("document.querySelector('#offline-level').value = '1'");
    d.click_css("#offline-start");
    let end = std::time::Instant::now() + std::time::Duration::from_secs(180);
    loop {
        let status = text(&d, "#offline-status");
        if status.contains("won") || status.contains("Draw") {
            break;
        }
        assert!(std::time::Instant::now() < end, "the game did not end: {status}");
        if !play_first_offline(&d) {
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
    }
    assert!(
        text(&d, "#offline-status").contains("Black"),
        "the score is shown"
    );
    d.screenshot(screenshot_dir().as_deref(), "offline-en-desktop.png");
    let moves = d.find_all("#offline-moves .mv").len();
    assert!(moves >= 9, "a whole game: {moves} moves");
    // Kept on the device: a reload (still offline) lists it, and it can be looked at again.
    d.open("/offline");
    d.wait("the kept game", 20, |d| {
        d.find_all("#offline-games .offline-game").len() == 1
    });
    d.script("document.querySelector('#offline-games .offline-game button').click()");
    d.wait("the game again", 20, |d| {
        d.find_all("#offline-moves .mv").len() == moves
    });
    // The analysis board analyses on the device.
    d.open("/analysis?variant=othello&moves=f5f6e6f4g5e7e3f3c5c4");
    d.wait("values with no server", 60, all_valued);
    // A puzzle on the device: a wrong move is answered with the better one, then it is solved
    // move by move (the right moves found here by the native solver).
    d.open("/offline");
    let puzzle = |d: &Driver, what: &str| {
        d.script(&format!(
            "const z = document.querySelector('#offline-puzzle .offline-puzzle'); return z ? z.dataset.{what} : ''"
        ))
        .as_str()
        .unwrap_or("")
        .to_string()
    };
    d.wait("a puzzle", 30, |d| {
        puzzle(d, "state") == "todo" && d.has("#offline-puzzle .sq.playable")
    });
    let board = puzzle(&d, "board");
    let best = best_native(&board, "");
    d.script(&format!(
        "[...document.querySelectorAll('#offline-puzzle .sq.playable')].find(s => s.dataset.sq !== '{best}').dispatchEvent(new MouseEvent('click'))"
    ));
    d.wait("the wrong move refused", 30, |d| puzzle(d, "state") == "wrong");
    assert!(
        text(&d, "#offline-puzzle-verdict").contains(&best),
        "{}",
        text(&d, "#offline-puzzle-verdict")
    );
    d.click_css("#offline-puzzle-retry");
    for _ in 0..6 {
        d.wait("the player's turn", 30, |d| {
            matches!(puzzle(d, "state").as_str(), "todo" | "right" | "solved")
        });
        if puzzle(&d, "state") == "solved" {
            break;
        }
        let moves = puzzle(&d, "moves");
        let best = best_native(&board, &moves);
        d.script(&format!(
            "document.querySelector(\"#offline-puzzle .sq[data-sq='{best}']\").dispatchEvent(new MouseEvent('click'))"
        ));
        d.wait("the move judged", 30, |d| {
            puzzle(d, "moves") != moves && puzzle(d, "state") != "busy"
        });
        assert_ne!(puzzle(&d, "state"), "wrong", "{best} after {moves}");
    }
    assert_eq!(puzzle(&d, "state"), "solved");
    assert!(
        text(&d, "#offline-puzzle").contains("1 of 200"),
        "{}",
        text(&d, "#offline-puzzle")
    );
    // A page that needs the server says so.
    d.open("/lobby");
    d.wait("the lobby's plain words", 20, |d| {
        d.body_text().contains("cannot be reached")
    });

    // The server is back: the finished game goes to the account's archive.
    bench.start_server();
    d.open("/offline");
    d.wait("the upload button", 30, |d| {
        d.has("#offline-games .offline-upload")
    });
    d.click_css("#offline-games .offline-upload");
    d.wait("uploaded", 30, |d| d.has("#offline-games .offline-uploaded"));
    let replay = d
        .script("return document.querySelector('#offline-games .offline-uploaded').getAttribute('href')")
        .as_str()
        .unwrap()
        .to_string();
    let id = replay.trim_start_matches("/replay/");
    let game = bench.get(&format!("/api/games/{id}"));
    assert_eq!(
        game["game"]["moves"].as_array().map(Vec::len),
        Some(moves),
        "{game}"
    );
    // Kept as uploaded: no second upload is offered.
    d.open("/offline");
    d.wait("the list", 20, |d| d.has("#offline-games .offline-uploaded"));
    assert!(!d.has("#offline-games .offline-upload"));

    // On a phone, in Russian: a few moves against the computer.
    let p = bench.browser(PHONE, "ru");
    p.open("/offline");
    p.wait("the page", 20, |d| {
        d.has("#offline-start") && d.has("#offline-board svg")
    });
    for _ in 0..3 {
        p.wait("a move to play", 30, |d| d.has("#offline-board .sq.playable"));
        assert!(play_first_offline(&p));
        std::thread::sleep(std::time::Duration::from_millis(300));
    }
    p.wait("the computer's reply", 30, |d| {
        d.has("#offline-board .sq.playable")
    });
    assert!(
        text(&p, "#offline-status").contains("Ваш ход"),
        "{}",
        text(&p, "#offline-status")
    );
    assert!(!p.scrolls_sideways());
    p.screenshot(screenshot_dir().as_deref(), "offline-ru-phone.png");
}
