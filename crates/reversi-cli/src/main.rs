//! `reversi`: play, study and test Reversi/Othello from the command line.

#![forbid(unsafe_code)]

mod cmd;
mod input;
mod out;
mod progress;
mod setup;

use clap::{Parser, Subcommand};

/// Reversi/Othello: every variant, a rules engine, game records.
#[derive(Parser)]
#[command(name = "reversi", version, about, long_about = None, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaves of the game tree to a depth (a move-generator test and benchmark).
    Perft(cmd::perft::Args),
    /// Draw a position: the board, legal moves, side to move, counts and score.
    Show(cmd::show::Args),
    /// Convert game records between formats: transcripts, GGF, WTHOR (read only).
    Convert(cmd::convert::Args),
    /// Solve the positions of an OBF file exactly (or win/loss/draw) and check expected scores.
    Solve(cmd::solve::Args),
    /// The engine's best move for a position, with its score and principal variation.
    Best(cmd::best::Args),
    /// Every legal move of a position with its value (book, exact or estimate) and depth, refined deeper and deeper.
    Eval(cmd::eval::Args),
    /// Review a game: every move against the engine's choice, and each player's losses.
    Analyze(cmd::analyze::Args),
    /// The fixed benchmark: node count (a fingerprint of the search) and speed.
    Bench(cmd::bench::Args),
    /// Measure the Multi-ProbCut regressions on WTHOR positions (writes the engine's table).
    CalibrateProbcut(cmd::calibrate::Args),
    /// Play a game in the terminal: against the computer, two people, or the computer against itself.
    Play(cmd::play::Args),
    /// Run the engine under the Go Text Protocol (GTP version 2, for Othello) on stdin/stdout.
    Gtp(cmd::gtp::Args),
    /// Run the engine under the NBoard protocol (the NBoard GUI) on stdin/stdout.
    Nboard(cmd::nboard::Args),
    /// Run a tournament between built-in levels and external engines, with a crosstable.
    Tournament(cmd::tournament::Args),
    /// Serve the web app: play in the browser against the computer or other people.
    Serve(cmd::serve::Args),
    /// Back up or restore the web app's SQLite database (a backup may be taken while it serves).
    Db(cmd::db::Args),
    /// Connect an engine to a Reversi site as a bot account: it plays whoever accepts or challenges it.
    Bot(cmd::bot::Args),
    /// Make a print-and-play kit: the board, a rules sheet and discs to cut out (PDF, SVG or PNG).
    Print(cmd::print::Args),
    /// Draw a game diagram: a position at any move, or the numbered game record.
    Diagram(cmd::diagram::Args),
    /// Opening books: build from game databases, deepen, merge, show, export and import.
    Book(cmd::book::Args),
    /// Train the learned evaluation: generate games, collect and label positions, fit, test.
    Train(cmd::train::Args),
    /// Puzzles from real games, proved by the exact solver.
    Puzzle(cmd::puzzle::Args),
    /// Problem sets with every move's exact score, and how a fixed-depth search does on them.
    Evaltest(cmd::evaltest::Args),
}

fn main() {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Perft(a) => cmd::perft::run(a),
        Command::Show(a) => cmd::show::run(a),
        Command::Convert(a) => cmd::convert::run(a),
        Command::Solve(a) => cmd::solve::run(a),
        Command::Best(a) => cmd::best::run(a),
        Command::Analyze(a) => cmd::analyze::run(a),
        Command::Eval(a) => cmd::eval::run(a),
        Command::Bench(a) => cmd::bench::run(a),
        Command::CalibrateProbcut(a) => cmd::calibrate::run(a),
        Command::Play(a) => cmd::play::run(a),
        Command::Gtp(a) => cmd::gtp::run(a),
        Command::Nboard(a) => cmd::nboard::run(a),
        Command::Tournament(a) => cmd::tournament::run(a),
        Command::Serve(a) => cmd::serve::run(a),
        Command::Db(a) => cmd::db::run(a),
        Command::Bot(a) => cmd::bot::run(a),
        Command::Print(a) => cmd::print::run(a),
        Command::Diagram(a) => cmd::diagram::run(a),
        Command::Book(a) => cmd::book::run(a),
        Command::Train(a) => cmd::train::run(a),
        Command::Puzzle(a) => cmd::puzzle::run(a),
        Command::Evaltest(a) => cmd::evaltest::run(a),
    };
    if let Err(e) = result {
        if out::is_broken_pipe(&e) {
            // The reader of our output went away (`reversi … | head`): nothing is wrong.
            std::process::exit(0);
        }
        eprintln!("error: {e:#}");
        std::process::exit(1);
    }
}
