//! Game records and test-position files: OBF, GGF and WTHOR.

/// GGF game records (the Generic Game Server's format): players, result, variant, start and moves.
pub mod ggf;
/// OBF test positions (the FFO endgame suite): board, side to move and scored moves, one a line.
pub mod obf;
/// WTHOR binary databases: game files (`.wtb`), players (`.jou`) and tournaments (`.trn`).
pub mod wthor;
