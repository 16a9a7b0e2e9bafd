//! Multi-ProbCut (Buro): a shallow search predicts a deep one, and a node whose prediction lies
//! far enough outside the window is cut without the deep search.
//!
//! The prediction `deep ≈ a · shallow + b` and its error `sigma` were measured for each depth by
//! `reversi calibrate-probcut` (regression over positions from the WTHOR database); the table
//! below is its output. A confidence level `t` (in standard deviations) sets how selective the
//! search is.

/// Confidence levels, in hundredths of a standard deviation, from least to most selective
/// (none, then about 99 %, 98 %, 95 %, 91 %, 87 %, 80 % two-sided).
pub const CONFIDENCE: [u32; 7] = [u32::MAX, 260, 230, 196, 170, 150, 128];

/// Percentages matching [`CONFIDENCE`], for display.
pub const CONFIDENCE_PCT: [u32; 7] = [100, 99, 98, 95, 91, 87, 80];

/// Regression of a deep search on a shallow one, for one depth.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fit {
    /// Deep search depth.
    pub depth: u32,
    /// Shallow search depth.
    pub shallow: u32,
    /// Slope.
    pub a: f64,
    /// Intercept (discs).
    pub b: f64,
    /// Standard deviation of the residual (discs).
    pub sigma: f64,
}

/// The shallow depth used to predict a search of `depth`.
pub fn shallow_depth(depth: u32) -> u32 {
    // About half as deep, with the same parity (evaluations at odd and even depths differ).
    let s = depth / 2;
    if (depth - s) % 2 == 1 && s > 0 {
        s - 1
    } else {
        s
    }
}

include!("probcut_table.rs");

/// The fit for `depth`, if it was measured.
pub fn fit(depth: u32) -> Option<&'static Fit> {
    FITS.iter().find(|f| f.depth == depth)
}
