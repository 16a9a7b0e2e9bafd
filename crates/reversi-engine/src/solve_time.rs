//! How long the exact solver takes: a measured model of this solver on positions from real
//! games (`data/evaltest`: 1,959 moves with 23 empties solved in 0.74 s each, 1,600 with 19
//! empties in 42 ms: ×2.05 per empty, on this project's 2-core machine). A search under a time
//! limit solves exactly from as many empties as the model fits in a quarter of the limit (hard
//! positions take several times the typical), under a level ([`crate::levels`]) and under a
//! clock ([`crate::clock`]) alike.

use std::time::Duration;

/// The longest time the model answers (far beyond any limit a search is given).
const MODEL_CAP_SECS: f64 = 1e9;

/// The expected time of an exact solve of a typical position with `empties` empties from a real
/// game (see the module's note for the measurements behind it).
pub fn exact_solve_time(empties: u32) -> Duration {
    // 1.5 s at 24 empties (a root solve costs about twice the best move's), ×2.05 per empty.
    let secs = 1.5 * 2.05f64.powi(empties as i32 - 24);
    Duration::from_secs_f64(secs.min(MODEL_CAP_SECS))
}

/// The most empties the exact solver is started at when a move may take `limit`: the model's
/// time within a quarter of it.
pub fn exact_fits(limit: Duration) -> u32 {
    (1..=60)
        .take_while(|&n| exact_solve_time(n) * 4 <= limit)
        .last()
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_model_doubles_per_empty_and_fits_a_quarter() {
        assert!((exact_solve_time(24).as_secs_f64() - 1.5).abs() < 1e-9);
        let r = exact_solve_time(21).as_secs_f64() / exact_solve_time(20).as_secs_f64();
        assert!((r - 2.05).abs() < 1e-6, "{r}");
        let n = exact_fits(Duration::from_secs(6));
        assert_eq!(n, 24, "1.5 s × 4 = 6 s");
        assert!(exact_solve_time(n + 1) * 4 > Duration::from_secs(6));
        assert_eq!(exact_fits(Duration::ZERO), 0);
        assert_eq!(exact_fits(Duration::MAX / 8), 60);
    }
}
