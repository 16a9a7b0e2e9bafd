//! Tournaments (work in progress).
