//! Puzzles in a real headless Chromium: the daily puzzle on the home page opens it; a
//! three-move puzzle solved by clicking (the replies played by the site), then the solution
//! stepped through; a wrong move on another shows the scores and the coach's reasons; a
//! signed-in player sees their puzzle rating move; in English and Russian, desktop and phone,
//! with screenshots under `REVERSI_TEST_SCREENSHOTS`.
//!
//! Needs `REVERSI_TEST_CHROMIUM` and `REVERSI_TEST_CHROMEDRIVER` (`scripts/test` sets both);
//! without them the test says why and passes.

mod browser;

use browser::{screenshot_dir, Bench, Driver, DESKTOP, ONE_AT_A_TIME, PHONE};
use reversi_site::puzzle::Puzzle;

fn click_square(d: &Driver, sq: &str) {
    d.wait(&format!("{sq} playable"), 20, |d| {
        d.has(&format!("#puzzle-board .sq.playable[data-sq='{sq}']"))
    });
    d.click_css(&format!("#puzzle-board .sq.playable[data-sq='{sq}']"));
}

fn status(d: &Driver) -> String {
    d.script("return document.querySelector('#puzzle-status')?.className || ''")
        .as_str()
        .unwrap_or("")
        .to_string()
}

#[test]
fn puzzles_are_solved_failed_and_rated_by_clicking() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let Some(mut bench) = Bench::start(|c| c) else {
        return;
    };
    let all = reversi_server::puzzles::all();
    let three: Vec<&Puzzle> = all.iter().filter(|p| p.player_moves() == 3).take(8).collect();
    let shots = screenshot_dir();
    for (i, (window, wname, lang)) in [
        (DESKTOP, "desktop", "en"),
        (PHONE, "phone", "ru"),
        (DESKTOP, "desktop", "ru"),
        (PHONE, "phone", "en"),
    ]
    .into_iter()
    .enumerate()
    {
        let d = bench.browser(window, lang);
        // The home page's daily puzzle leads to it.
        d.open("/");
        d.wait("the daily puzzle", 20, |d| d.has("#daily-puzzle svg"));
        if i < 2 {
            d.screenshot(shots.as_deref(), &format!("home-daily-{lang}-{wname}.png"));
        }
        d.click_css("#daily-puzzle");
        d.wait("the daily puzzle's page", 20, |d| {
            d.has("#puzzle-board svg") && d.url().ends_with("/puzzles/daily")
        });

        // A three-move puzzle, solved by clicking.
        let p = three[2 * i];
        d.open(&format!("/puzzles/{}", p.id));
        d.wait("the puzzle", 20, |d| d.has("#puzzle-board .sq.playable"));
        assert!(d.text_of("#puzzle-meta").contains(&p.id.to_string()));
        if i < 2 {
            d.screenshot(shots.as_deref(), &format!("puzzle-{lang}-{wname}.png"));
        }
        for k in 0..3 {
            let mine = p.line[2 * k].to_string();
            click_square(&d, &mine);
            // The site's answer redraws the board with the move on it; until then the old
            // board (still showing playable squares) is on the page.
            d.wait("the move on the board", 20, |d| {
                d.has(&format!("#puzzle-board .sq[data-sq='{mine}'] .disc"))
            });
            if k < 2 {
                // The reply is played on the board and the player's turn comes back.
                let reply = p.line[2 * k + 1].to_string();
                if reply != "pass" {
                    d.wait("the reply", 20, |d| {
                        d.has(&format!("#puzzle-board .sq[data-sq='{reply}'] .disc"))
                            && d.has("#puzzle-board .sq.playable")
                    });
                }
            }
        }
        d.wait("solved", 20, |d| status(d).contains("win"));
        assert!(d.has("#solution-steps button.mv"));
        d.click_css("#solution-steps button.mv[data-i='1']");
        d.wait("the solution's first move", 10, |d| {
            d.has(&format!("#puzzle-board .sq[data-sq='{}'] .last", p.line[0]))
        });
        if i < 2 {
            d.screenshot(shots.as_deref(), &format!("puzzle-solved-{lang}-{wname}.png"));
        }

        // Another, failed: the scores and the coach's reasons.
        let q = three[2 * i + 1];
        d.open(&format!("/puzzles/{}", q.id));
        d.wait("the puzzle", 20, |d| d.has("#puzzle-board .sq.playable"));
        let wrong = reversi_core::Bits::squares(q.position.legal_moves())
            .map(|s| s.to_string())
            .find(|s| *s != q.line[0].to_string())
            .unwrap();
        click_square(&d, &wrong);
        d.wait("failed", 30, |d| status(d).contains("loss"));
        assert!(d.text_of("#puzzle-verdict").contains(&q.line[0].to_string()));
        assert!(!d.find_all("#puzzle-coach li").is_empty(), "the coach says why");
        if i < 2 {
            d.screenshot(shots.as_deref(), &format!("puzzle-failed-{lang}-{wname}.png"));
        }
        assert!(
            !d.scrolls_sideways(),
            "{lang} {wname}: the puzzle page scrolls sideways"
        );

        // Signed in, a solved puzzle moves the rating shown.
        if i == 0 {
            d.sign_up("solver");
            let r = all.iter().find(|p| p.player_moves() == 1).unwrap();
            d.open(&format!("/puzzles/{}", r.id));
            d.wait("the puzzle", 20, |d| {
                d.has("#puzzle-board .sq.playable") && d.has("#puzzle-my-rating")
            });
            assert_eq!(d.text_of("#puzzle-my-rating"), "1500?");
            click_square(&d, &r.line[0].to_string());
            d.wait("rated", 20, |d| !d.text_of("#puzzle-rating-change").is_empty());
            d.wait("the new rating", 20, |d| {
                d.text_of("#puzzle-my-rating") != "1500?"
            });
            assert!(d.has("#puzzle-recent li.ok"));
            d.screenshot(shots.as_deref(), "puzzle-rated-en-desktop.png");
            // The profile shows it beside the game ratings.
            let shown = d.text_of("#puzzle-my-rating");
            d.open("/@/solver");
            d.wait("the profile", 20, |d| d.has("#puzzle-rating-box"));
            assert!(d.text_of("#puzzle-rating-box").contains(shown.as_str()));
        }
    }
}
