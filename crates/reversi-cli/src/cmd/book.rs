//! `reversi book`: build, deepen, merge, inspect and convert opening books (see
//! `reversi_engine::book` for the format, `reversi_train::book` for the build).

use super::engine_args::load_book as load;
use crate::out::outln;
use crate::setup::PositionArgs;
use anyhow::{bail, Context, Result};
use reversi_core::{AnyPosition, Color, Game, Square};
use reversi_engine::book::{canonical, Book, BookMeta, BookValueKind};
use reversi_engine::levels::MAX_LEVEL;
use reversi_train::book::{self as build, Budgets};
use reversi_train::sources;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

/// Arguments of `reversi book`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "The shipped book was made with `reversi book build` and its defaults; \
docs/engine.md (\"Opening book\") gives the command, its time and the book's figures."
)]
pub struct Args {
    #[command(subcommand)]
    step: Step,
}

#[derive(clap::Subcommand, Debug)]
enum Step {
    /// Build (or resume building) a book from WTHOR and Logistello games: positions reached by
    /// enough games, scored by the engine, grown along lines within the error budgets.
    Build(BuildArgs),
    /// Re-score every position below a level at that level.
    Deepen(DeepenArgs),
    /// Merge books: each position keeps its deeper score; values recomputed.
    Merge(MergeArgs),
    /// What a book holds: positions by ply and level, the start's value.
    Info(FileArg),
    /// A position's moves with their book values.
    Show(ShowArgs),
    /// Write a book in the text format (one position a line).
    Export(ConvertArgs),
    /// Read the text format into a book file.
    Import(ConvertArgs),
}

#[derive(clap::Args, Debug)]
struct BuildArgs {
    /// The book to write; if it exists, the build resumes from it.
    #[arg(long)]
    out: PathBuf,
    /// Folder of WTHOR `.wtb` files (`none` to leave them out).
    #[arg(long, default_value = "data/wthor")]
    wthor: String,
    /// Logistello's game log (`none` to leave it out).
    #[arg(long, default_value = "data/logistello/logbook.gam.gz")]
    logistello: String,
    /// Positions of the games up to this ply.
    #[arg(long, default_value_t = 18)]
    max_ply: u32,
    /// Games that must reach a position for it to enter the book.
    #[arg(long, default_value_t = 3)]
    min_games: u32,
    /// Engine level that scores the leaves (1–30).
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=MAX_LEVEL as i64))]
    level: u32,
    /// Learning: the most a followed move may lose against the best, in discs.
    #[arg(long, default_value_t = 2)]
    per_move_error: i32,
    /// Learning: the most a line may lose in all, in discs.
    #[arg(long, default_value_t = 4)]
    cumulative_error: i32,
    /// Learning adds no position beyond this ply.
    #[arg(long, default_value_t = 24)]
    learn_ply: u32,
    /// Rounds of learning (each scores the positions it added).
    #[arg(long, default_value_t = 2)]
    rounds: u32,
    /// The error the book states for its values, in discs (checked: the start's value must be
    /// within it).
    #[arg(long, default_value_t = 2)]
    error: u8,
    /// Seed recorded in the book (the build itself draws nothing at random).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Scoring threads.
    #[arg(long, default_value_t = 1, value_parser = super::engine_args::threads)]
    threads: usize,
}

#[derive(clap::Args, Debug)]
struct DeepenArgs {
    /// The book to deepen (rewritten in place).
    book: PathBuf,
    /// The level to score at (1–30).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=MAX_LEVEL as i64))]
    level: u32,
    /// Scoring threads.
    #[arg(long, default_value_t = 1, value_parser = super::engine_args::threads)]
    threads: usize,
}

#[derive(clap::Args, Debug)]
struct MergeArgs {
    /// The books to merge.
    #[arg(required = true, num_args = 2..)]
    books: Vec<PathBuf>,
    /// The merged book.
    #[arg(long)]
    out: PathBuf,
}

#[derive(clap::Args, Debug)]
struct FileArg {
    /// A book file (`default`: the one shipped in the binary).
    #[arg(default_value = "default")]
    book: String,
}

#[derive(clap::Args, Debug)]
struct ShowArgs {
    #[command(flatten)]
    pos: PositionArgs,
    /// A book file (`default`: the one shipped in the binary).
    #[arg(long, default_value = "default")]
    book: String,
    /// One JSON object instead of a table.
    #[arg(long)]
    json: bool,
}

#[derive(clap::Args, Debug)]
struct ConvertArgs {
    /// The file to read (`default` for export: the shipped book).
    input: String,
    /// The file to write.
    output: PathBuf,
}

/// Runs the command.
pub fn run(a: Args) -> Result<()> {
    match a.step {
        Step::Build(b) => build_book(b),
        Step::Deepen(d) => deepen(d),
        Step::Merge(m) => merge(m),
        Step::Info(f) => info(&*load(&f.book)?),
        Step::Show(s) => show(s),
        Step::Export(c) => {
            let book = load(&c.input)?;
            std::fs::write(&c.output, book.to_text())
                .with_context(|| format!("cannot write {}", c.output.display()))?;
            outln!("{} positions written to {}", book.len(), c.output.display())?;
            Ok(())
        }
        Step::Import(c) => {
            let text = crate::input::read_text(&c.input)?;
            let mut book = Book::from_text(&text).with_context(|| format!("cannot read {}", c.input))?;
            book.negamax();
            save(&book, &c.output)?;
            outln!(
                "{} positions read; book {}",
                book.len(),
                describe_file(&book, &c.output)
            )?;
            Ok(())
        }
    }
}

/// A book to change: read (or copied from the shipped one).
fn load_owned(path: &str) -> Result<Book> {
    Ok(Arc::unwrap_or_clone(super::engine_args::load_book(path)?))
}

/// Writes `book` compressed, through a temporary file so that an interruption leaves the old
/// file whole.
fn save(book: &Book, path: &Path) -> Result<()> {
    let tmp = path.with_extension("rvb.tmp");
    std::fs::write(&tmp, book.to_compressed()).with_context(|| format!("cannot write {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("cannot write {}", path.display()))?;
    Ok(())
}

fn describe_file(book: &Book, path: &Path) -> String {
    format!("{} (content hash {:016x})", path.display(), book.content_hash())
}

/// Scores what is below `level`, saving as it goes.
fn score(book: &mut Book, level: u32, threads: usize, out: &Path, what: &str) -> Result<build::ScoreStats> {
    let b = crate::progress::bar(0, what);
    let mut last_save = Instant::now();
    let stats = build::score(
        book,
        level,
        threads,
        500,
        &mut |book| {
            // At most one save a minute: a resumed build loses a minute's work at worst.
            if last_save.elapsed().as_secs() >= 60 {
                last_save = Instant::now();
                save(book, out).map_err(|e| reversi_train::TrainError::format(out, e.to_string()))?;
            }
            Ok(())
        },
        &|done, total| {
            b.set_length(total);
            b.set_position(done);
        },
    )?;
    b.finish_and_clear();
    Ok(stats)
}

fn build_book(a: BuildArgs) -> Result<()> {
    let start = Instant::now();
    let mut book = if a.out.exists() {
        let b = load_owned(&a.out.display().to_string())?;
        outln!("resuming {} ({} positions)", a.out.display(), b.len())?;
        b
    } else {
        Book::default()
    };
    book.meta = BookMeta {
        error: a.error,
        seed: a.seed,
    };
    let mut games = Vec::new();
    if a.wthor != "none" {
        games.extend(sources::wthor_games(Path::new(&a.wthor))?);
    }
    if a.logistello != "none" {
        games.extend(sources::logistello_games(Path::new(&a.logistello))?);
    }
    let collected = build::collect(&games, a.max_ply, a.min_games);
    outln!(
        "{} games: {} positions up to ply {} reached by at least {} games",
        games.len(),
        collected.len(),
        a.max_ply,
        a.min_games
    )?;
    book.extend(collected);
    save(&book, &a.out)?;
    let mut searches = 0;
    let s = score(&mut book, a.level, a.threads, &a.out, "scoring")?;
    searches += s.searches;
    book.negamax();
    save(&book, &a.out)?;
    let budgets = Budgets {
        per_move: a.per_move_error,
        cumulative: a.cumulative_error,
        max_ply: a.learn_ply,
    };
    for round in 1..=a.rounds {
        let added = build::learn(&mut book, budgets);
        outln!("learning round {round}: {added} positions added")?;
        if added == 0 {
            break;
        }
        let s = score(&mut book, a.level, a.threads, &a.out, &format!("round {round}"))?;
        searches += s.searches;
        book.negamax();
        save(&book, &a.out)?;
    }
    outln!("{searches} searches in {:.0} s", start.elapsed().as_secs_f64())?;
    info(&book)?;
    outln!("written: {}", describe_file(&book, &a.out))?;
    check_start(&book)
}

/// The book must not contradict that 8×8 Othello is a draw (RULES.md §5) beyond its stated
/// error.
fn check_start(book: &Book) -> Result<()> {
    let (p, o) = reversi_train::replay::START;
    if let Some(v) = book.value(p, o) {
        if v.abs() > book.meta.error as i32 {
            bail!(
                "the start's value is {v:+}, beyond the book's stated error of {} discs (8×8 is a draw \
                 with perfect play): deepen the book or state a larger --error",
                book.meta.error
            );
        }
    }
    Ok(())
}

fn deepen(a: DeepenArgs) -> Result<()> {
    let mut book = load_owned(&a.book.display().to_string())?;
    let s = score(&mut book, a.level, a.threads, &a.book, "deepening")?;
    book.negamax();
    save(&book, &a.book)?;
    outln!(
        "{} positions rescored at level {} ({} searches)",
        s.scored,
        a.level,
        s.searches
    )?;
    outln!("written: {}", describe_file(&book, &a.book))?;
    check_start(&book)
}

fn merge(a: MergeArgs) -> Result<()> {
    let mut merged = Book::default();
    for path in &a.books {
        let b = load(&path.display().to_string())?;
        merged.meta.error = merged.meta.error.max(b.meta.error);
        merged.meta.seed ^= b.meta.seed;
        merged.extend(b.entries().iter().copied());
    }
    merged.negamax();
    save(&merged, &a.out)?;
    outln!(
        "{} positions; written: {}",
        merged.len(),
        describe_file(&merged, &a.out)
    )?;
    Ok(())
}

fn info(book: &Book) -> Result<()> {
    let scored = book.entries().iter().filter(|e| e.scored()).count();
    let plies = book.plies();
    outln!("positions: {} ({} scored)", book.len(), scored)?;
    outln!("deepest: ply {}", plies.len().saturating_sub(1))?;
    let by_ply: Vec<String> = plies
        .iter()
        .enumerate()
        .map(|(i, n)| format!("{i}:{n}"))
        .collect();
    outln!("by ply: {}", by_ply.join(" "))?;
    let mut levels = std::collections::BTreeMap::new();
    for e in book.entries() {
        *levels.entry(e.level).or_insert(0usize) += 1;
    }
    let levels: Vec<String> = levels.iter().map(|(l, n)| format!("{l}:{n}")).collect();
    outln!("by level: {}", levels.join(" "))?;
    let (p, o) = reversi_train::replay::START;
    match book.value(p, o) {
        Some(v) => outln!("start value: {v:+} (stated error ±{} discs)", book.meta.error)?,
        None => outln!("start value: not in the book")?,
    }
    outln!("content hash: {:016x}", book.content_hash())?;
    Ok(())
}

/// The 8×8 bitboards of a game's position (side to move first).
pub fn bitboards(game: &Game) -> Result<(u64, u64)> {
    match game.position() {
        AnyPosition::Small(pos) if reversi_engine::position_search::is_plain_8x8(pos) => {
            let side = pos.side_to_move();
            Ok((pos.discs(side), pos.discs(side.opponent())))
        }
        _ => bail!("the opening book is for standard 8×8 Othello"),
    }
}

fn kind_name(k: BookValueKind) -> &'static str {
    match k {
        BookValueKind::Book => "book",
        BookValueKind::Leaf => "leaf",
        BookValueKind::Final => "final",
    }
}

fn show(a: ShowArgs) -> Result<()> {
    let book = load(&a.book)?;
    let game = a.pos.game()?;
    let (p, o) = bitboards(&game)?;
    let moves = book.moves(p, o);
    let side = game.position().side_to_move();
    let name = |sq: u8| Square::from_bit8(sq as u32).to_string();
    if a.json {
        let list: Vec<serde_json::Value> = moves
            .iter()
            .map(|m| {
                serde_json::json!({
                    "move": name(m.square), "value": m.value, "kind": kind_name(m.kind), "games": m.games
                })
            })
            .collect();
        let e = book.get(p, o);
        let out = serde_json::json!({
            "in_book": e.is_some(),
            "value": e.map(|e| e.value),
            "level": e.map(|e| e.level),
            "games": e.map(|e| e.games),
            "moves": list,
        });
        outln!("{}", serde_json::to_string_pretty(&out)?)?;
        return Ok(());
    }
    let Some(e) = book.get(p, o) else {
        let (cp, co, _) = canonical(p, o);
        let unscored = book.index_of(cp, co).is_some();
        outln!(
            "not in the book{}",
            if unscored { " (listed, not scored yet)" } else { "" }
        )?;
        return Ok(());
    };
    let who = if side == Color::Black { "Black" } else { "White" };
    outln!(
        "{who} to move: value {:+} (level {}, {} games, stated error ±{})",
        e.value,
        e.level,
        e.games,
        book.meta.error
    )?;
    for m in &moves {
        outln!(
            "  {}  {:+3}  {:<5} {:>7} games",
            name(m.square),
            m.value,
            kind_name(m.kind),
            m.games
        )?;
    }
    Ok(())
}
