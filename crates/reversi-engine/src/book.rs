//! The opening book: 8×8 positions, canonical under the eight symmetries, each with a negamax
//! value, the best move that leaves the book (the "leaf") and its value, the level that scored
//! it and how many games of the sources went through it.
//!
//! A value is in discs for the side to move. The value of a position is the best of its leaf
//! value and the negated values of its children in the book (passes followed through), so the
//! book answers for every move it knows, and the engine searches the others. The book is read
//! from bytes (compressed [file format](Book::from_compressed)) or text ([`Book::from_text`]);
//! building it (reading games, searching leaves) lives in `reversi-train`.

use reversi_core::bitboard::{flips, moves};
use reversi_core::Symmetry;
use std::fmt;

/// Magic bytes at the start of an uncompressed book.
pub const MAGIC: &[u8; 4] = b"RVBK";
/// The format version this build reads and writes.
pub const VERSION: u16 = 1;
/// Bytes of the header before the records.
pub const HEADER_BYTES: usize = 32;
/// Bytes of one record.
pub const RECORD_BYTES: usize = 24;
/// The most positions a book may hold (40 M: about 1 GiB in memory), so that a damaged or
/// hostile file is refused by its header before anything is allocated.
pub const MAX_POSITIONS: u32 = 40_000_000;
/// `leaf_value` of a position whose every move is in the book.
pub const NO_LEAF: i8 = i8::MIN;
/// `leaf_move` of a position without a leaf.
pub const NO_LEAF_MOVE: u8 = 64;

/// The default book shipped in the binary (see `book/README.md`).
pub static EMBEDDED: &[u8] = include_bytes!("../book/book-fbd246333dfbb118.rvb");
/// The file name of the embedded book (its content hash).
pub const EMBEDDED_NAME: &str = "book-fbd246333dfbb118.rvb";

/// The lowest level that plays from the book: below it the engine's mistakes are its charm, and
/// a book would make a beginner's opening look like a master's.
pub const MIN_BOOK_LEVEL: u32 = 5;

/// How far below the best book value a level may choose a move, in discs: variety for people
/// at the middle levels, none at the strongest. `None` below [`MIN_BOOK_LEVEL`].
pub fn margin_for_level(level: u32) -> Option<i32> {
    match level {
        0..MIN_BOOK_LEVEL => None,
        MIN_BOOK_LEVEL..=10 => Some(2),
        11..=20 => Some(1),
        _ => Some(0),
    }
}

/// One position of the book, in its canonical orientation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Discs of the side to move.
    pub player: u64,
    /// Discs of the other side.
    pub opponent: u64,
    /// Negamax value for the side to move, in discs.
    pub value: i8,
    /// The level that scored the leaf (`0`: not scored yet; such entries take no part in
    /// lookups).
    pub level: u8,
    /// Value of the best move that leaves the book, or [`NO_LEAF`].
    pub leaf_value: i8,
    /// That move (a bit index in this orientation), or [`NO_LEAF_MOVE`].
    pub leaf_move: u8,
    /// Games of the sources that went through this position (0 for lines the book learned).
    pub games: u32,
}

impl Entry {
    /// An unscored entry for `(player, opponent)` (canonicalised).
    pub fn new(player: u64, opponent: u64, games: u32) -> Entry {
        let (player, opponent, _) = canonical(player, opponent);
        Entry {
            player,
            opponent,
            value: 0,
            level: 0,
            leaf_value: NO_LEAF,
            leaf_move: NO_LEAF_MOVE,
            games,
        }
    }

    /// Whether a search has scored it.
    pub fn scored(&self) -> bool {
        self.level > 0
    }

    /// Plies from the standard start (discs on the board minus the four of the start).
    pub fn ply(&self) -> u32 {
        (self.player | self.opponent).count_ones().saturating_sub(4)
    }

    fn key(&self) -> (u64, u64) {
        (self.player, self.opponent)
    }
}

/// Where a move's value comes from, when the book answers for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BookValueKind {
    /// The move leads to a position in the book: its negamax value.
    Book,
    /// The move is the position's best way out of the book: a search value at the entry's level.
    Leaf,
    /// The move ends the game: the exact final margin.
    Final,
}

/// One move of a book position with its value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMove {
    /// The square, as a bit index of the position asked about (not the canonical one).
    pub square: u8,
    /// Value for the side to move, in discs.
    pub value: i32,
    /// Where the value comes from.
    pub kind: BookValueKind,
    /// Games of the sources through the position after the move (0 for leaves).
    pub games: u32,
}

/// Why bytes are not a book.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BookError {
    /// Not zstd, or the stream is damaged.
    Compression(String),
    /// The magic bytes are wrong.
    BadMagic,
    /// Written by another version of the format.
    Version(u16),
    /// More positions than [`MAX_POSITIONS`].
    TooLarge(u32),
    /// The length does not match the header's count.
    Length {
        /// Bytes expected.
        expected: usize,
        /// Bytes found.
        found: usize,
    },
    /// The checksum in the header does not match the records.
    Checksum,
    /// A record that cannot be right.
    Record {
        /// Its index (0-based).
        index: usize,
        /// What is wrong.
        why: &'static str,
    },
    /// A line of the text format that cannot be read.
    Text {
        /// Line number (1-based).
        line: usize,
        /// What is wrong.
        why: String,
    },
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BookError::Compression(e) => {
                write!(
                    f,
                    "not a zstd-compressed book ({e}); give a file made by `reversi book build` or `import`"
                )
            }
            BookError::BadMagic => {
                write!(
                    f,
                    "not a book file (bad magic bytes); give a file made by `reversi book build` or `import`"
                )
            }
            BookError::Version(v) => write!(f, "book format version {v}; this build reads version {VERSION}"),
            BookError::TooLarge(n) => write!(
                f,
                "the book claims {n} positions; at most {MAX_POSITIONS} are read"
            ),
            BookError::Length { expected, found } => {
                write!(
                    f,
                    "the book is truncated or padded: {found} bytes where {expected} were expected"
                )
            }
            BookError::Checksum => write!(f, "the book's checksum does not match its records (damaged file)"),
            BookError::Record { index, why } => write!(f, "record {index}: {why}"),
            BookError::Text { line, why } => write!(f, "line {line}: {why}"),
        }
    }
}

impl std::error::Error for BookError {}

/// What the header says of how the book was made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct BookMeta {
    /// The stated error of the book's values, in discs: how far the start position's value
    /// may be from the truth (0: a draw, RULES.md §5).
    pub error: u8,
    /// The seed it was built from.
    pub seed: u64,
}

/// An opening book: entries sorted by their canonical discs.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Book {
    entries: Vec<Entry>,
    /// How it was made.
    pub meta: BookMeta,
}

/// The least of the eight images of `(p, o)` and the symmetry that gives it (the book's key).
pub use reversi_core::symmetry::canonical_u64 as canonical;

/// FNV-1a over the records: the header's checksum and the content hash in the file's name.
pub fn checksum(records: &[u8]) -> u64 {
    records.iter().fold(0xCBF2_9CE4_8422_2325u64, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01B3)
    })
}

/// The position after `sq` from the mover's view of the next side to move: `(player, opponent,
/// sign)` where `sign` turns the child's value into the mover's (`-1`, or `+1` when the
/// opponent must pass), or `Err(final margin for the mover)` when the move ends the game.
pub fn child(p: u64, o: u64, sq: u32) -> Result<(u64, u64, i32), i32> {
    let f = flips(p, o, sq);
    let (np, no) = (o & !f, p | f | (1u64 << sq));
    if moves(np, no) != 0 {
        Ok((np, no, -1))
    } else if moves(no, np) != 0 {
        Ok((no, np, 1))
    } else {
        Err(crate::endgame::final_score(no, np))
    }
}

/// The embedded book, read once per process and kept once.
fn embedded_arc() -> &'static std::sync::Arc<Book> {
    static B: std::sync::OnceLock<std::sync::Arc<Book>> = std::sync::OnceLock::new();
    B.get_or_init(|| {
        std::sync::Arc::new(Book::from_compressed(EMBEDDED).expect("the embedded book is valid"))
    })
}

impl Book {
    /// A book of `entries` (canonicalised, duplicates merged as [`Book::extend`] does).
    pub fn from_entries(entries: Vec<Entry>, meta: BookMeta) -> Book {
        let mut book = Book {
            entries: Vec::new(),
            meta,
        };
        book.extend(entries);
        book
    }

    /// The book shipped in the binary.
    pub fn embedded() -> &'static Book {
        embedded_arc()
    }

    /// The book shipped in the binary, shared (engines hold it without copying it).
    pub fn embedded_shared() -> std::sync::Arc<Book> {
        embedded_arc().clone()
    }

    /// Adds `entries`; an entry already there keeps the higher level's scores and the larger
    /// game count.
    pub fn extend(&mut self, entries: impl IntoIterator<Item = Entry>) {
        self.entries.extend(entries.into_iter().map(|mut e| {
            let (p, o, s) = canonical(e.player, e.opponent);
            if e.leaf_move != NO_LEAF_MOVE {
                e.leaf_move = s.apply_u64(1u64 << e.leaf_move).trailing_zeros() as u8;
            }
            e.player = p;
            e.opponent = o;
            e
        }));
        self.entries
            .sort_by(|a, b| a.key().cmp(&b.key()).then(b.level.cmp(&a.level)));
        self.entries.dedup_by(|later, kept| {
            if later.key() != kept.key() {
                return false;
            }
            kept.games = kept.games.max(later.games);
            true
        });
    }

    /// How many positions it holds.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// All entries, sorted by their canonical discs.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The entries, to change their scores (their positions must stay as they are).
    pub fn entries_mut(&mut self) -> &mut [Entry] {
        &mut self.entries
    }

    /// The entry of `(p, o)` (side to move first), scored or not, whatever its orientation.
    pub fn entry(&self, p: u64, o: u64) -> Option<&Entry> {
        let (cp, co, _) = canonical(p, o);
        self.index_of(cp, co).map(|i| &self.entries[i])
    }

    /// The index of a canonical position.
    pub fn index_of(&self, cp: u64, co: u64) -> Option<usize> {
        self.entries.binary_search_by(|e| e.key().cmp(&(cp, co))).ok()
    }

    /// The scored entry of `(p, o)`.
    pub fn get(&self, p: u64, o: u64) -> Option<&Entry> {
        self.entry(p, o).filter(|e| e.scored())
    }

    /// The value the book gives `(p, o)` for the side to move.
    pub fn value(&self, p: u64, o: u64) -> Option<i32> {
        self.get(p, o).map(|e| e.value as i32)
    }

    /// Every move of `(p, o)` the book has a value for, best first (ties by square). Empty
    /// when the position is not in the book.
    pub fn moves(&self, p: u64, o: u64) -> Vec<BookMove> {
        let Some(e) = self.get(p, o) else {
            return Vec::new();
        };
        let leaf = self.leaf_square(e, p, o);
        let mut out = Vec::new();
        let mut legal = moves(p, o);
        while legal != 0 {
            let sq = legal.trailing_zeros();
            legal &= legal - 1;
            let known = match child(p, o, sq) {
                Err(margin) => Some((margin, BookValueKind::Final, 0)),
                Ok((cp, co, sign)) => self
                    .get(cp, co)
                    .map(|c| (sign * c.value as i32, BookValueKind::Book, c.games)),
            };
            let known = known.or_else(|| {
                (leaf == Some(sq as u8) && e.leaf_value != NO_LEAF).then_some((
                    e.leaf_value as i32,
                    BookValueKind::Leaf,
                    0,
                ))
            });
            if let Some((value, kind, games)) = known {
                out.push(BookMove {
                    square: sq as u8,
                    value,
                    kind,
                    games,
                });
            }
        }
        out.sort_by(|a, b| b.value.cmp(&a.value).then(a.square.cmp(&b.square)));
        out
    }

    /// The leaf move of `e` (the entry of `(p, o)`) in the orientation of `(p, o)`.
    fn leaf_square(&self, e: &Entry, p: u64, o: u64) -> Option<u8> {
        if e.leaf_move == NO_LEAF_MOVE {
            return None;
        }
        let s = Symmetry::ALL
            .into_iter()
            .find(|s| s.apply_u64(p) == e.player && s.apply_u64(o) == e.opponent)?;
        Some(s.inverse().apply_u64(1u64 << e.leaf_move).trailing_zeros() as u8)
    }

    /// The book's line from `(p, o)` starting with `first`: that move, then the best book move
    /// of each position after it while the book knows one, at most `max` moves. `None` stands
    /// for a pass.
    pub fn line(&self, p: u64, o: u64, first: u8, max: usize) -> Vec<Option<u8>> {
        let mut line = vec![Some(first)];
        let (mut bp, mut bo, mut sq) = (p, o, first as u32);
        while line.len() < max {
            let Ok((np, no, sign)) = child(bp, bo, sq) else {
                break;
            };
            let Some(next) = self.moves(np, no).first().copied() else {
                break;
            };
            if sign > 0 {
                line.push(None);
            }
            (bp, bo, sq) = (np, no, next.square as u32);
            line.push(Some(next.square));
        }
        line
    }

    /// A book move for `(p, o)`: the best (always the same one), or with `margin > 0` one drawn (from `seed`) among
    /// those within `margin` discs of the best. `None` when the book does not know the position
    /// or knows none of its moves.
    pub fn choose(&self, p: u64, o: u64, margin: i32, seed: u64) -> Option<BookMove> {
        let known = self.moves(p, o);
        let best = known.first()?.value;
        if margin <= 0 {
            // No variety: the same move every time (the first of equals, by square).
            return known.first().copied();
        }
        // Drawn with weights that fall with the loss (the best `margin + 1` times as likely
        // as a move `margin` discs worse), so that variety costs little on average.
        let weight = |m: &BookMove| (margin + 1 - (best - m.value)).max(0) as u64;
        let total: u64 = known.iter().map(weight).sum();
        let mut pick =
            reversi_core::position::mix(seed ^ p.rotate_left(17), o ^ 0x9E37_79B9_7F4A_7C15) % total;
        for m in &known {
            if pick < weight(m) {
                return Some(*m);
            }
            pick -= weight(m);
        }
        known.first().copied()
    }

    /// Computes every value from the leaves up: a position's value is the best of its leaf and
    /// its scored children (passes followed, final positions exact). Children have one disc
    /// more, so positions are visited from the fullest board down.
    pub fn negamax(&mut self) {
        let mut order: Vec<usize> = (0..self.entries.len()).collect();
        order.sort_by_key(|&i| {
            std::cmp::Reverse((self.entries[i].player | self.entries[i].opponent).count_ones())
        });
        for i in order {
            let e = self.entries[i];
            if !e.scored() {
                continue;
            }
            let mut best = (e.leaf_value != NO_LEAF).then_some(e.leaf_value as i32);
            let mut legal = moves(e.player, e.opponent);
            while legal != 0 {
                let sq = legal.trailing_zeros();
                legal &= legal - 1;
                let v = match child(e.player, e.opponent, sq) {
                    Err(m) => Some(m),
                    Ok((cp, co, sign)) => self.get(cp, co).map(|c| sign * c.value as i32),
                };
                if let Some(v) = v {
                    best = Some(best.map_or(v, |b| b.max(v)));
                }
            }
            self.entries[i].value = best.unwrap_or(0).clamp(-64, 64) as i8;
        }
    }

    /// The uncompressed file: header, then the records.
    pub fn to_raw(&self) -> Vec<u8> {
        let mut records = Vec::with_capacity(self.entries.len() * RECORD_BYTES);
        for e in &self.entries {
            records.extend_from_slice(&e.player.to_le_bytes());
            records.extend_from_slice(&e.opponent.to_le_bytes());
            records.push(e.value as u8);
            records.push(e.level);
            records.push(e.leaf_value as u8);
            records.push(e.leaf_move);
            records.extend_from_slice(&e.games.to_le_bytes());
        }
        let mut out = Vec::with_capacity(HEADER_BYTES + records.len());
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&0u16.to_le_bytes());
        out.extend_from_slice(&(self.entries.len() as u32).to_le_bytes());
        out.push(self.meta.error);
        out.extend_from_slice(&[0; 3]);
        out.extend_from_slice(&self.meta.seed.to_le_bytes());
        out.extend_from_slice(&checksum(&records).to_le_bytes());
        out.extend_from_slice(&records);
        out
    }

    /// The content hash of the records (the one in the header and the file's name).
    pub fn content_hash(&self) -> u64 {
        let raw = self.to_raw();
        checksum(&raw[HEADER_BYTES..])
    }

    /// Reads an uncompressed book, checking every record.
    pub fn from_raw(raw: &[u8]) -> Result<Book, BookError> {
        if raw.len() < HEADER_BYTES || &raw[..4] != MAGIC {
            return Err(BookError::BadMagic);
        }
        let u16_at = |i: usize| u16::from_le_bytes([raw[i], raw[i + 1]]);
        let u32_at = |i: usize| u32::from_le_bytes(raw[i..i + 4].try_into().expect("4 bytes"));
        let u64_at = |i: usize| u64::from_le_bytes(raw[i..i + 8].try_into().expect("8 bytes"));
        let version = u16_at(4);
        if version != VERSION {
            return Err(BookError::Version(version));
        }
        let count = u32_at(8);
        if count > MAX_POSITIONS {
            return Err(BookError::TooLarge(count));
        }
        let expected = HEADER_BYTES + count as usize * RECORD_BYTES;
        if raw.len() != expected {
            return Err(BookError::Length {
                expected,
                found: raw.len(),
            });
        }
        let records = &raw[HEADER_BYTES..];
        if checksum(records) != u64_at(24) {
            return Err(BookError::Checksum);
        }
        let meta = BookMeta {
            error: raw[12],
            seed: u64_at(16),
        };
        let mut entries = Vec::with_capacity(count as usize);
        for (index, r) in records.chunks_exact(RECORD_BYTES).enumerate() {
            let e = Entry {
                player: u64::from_le_bytes(r[0..8].try_into().expect("8 bytes")),
                opponent: u64::from_le_bytes(r[8..16].try_into().expect("8 bytes")),
                value: r[16] as i8,
                level: r[17],
                leaf_value: r[18] as i8,
                leaf_move: r[19],
                games: u32::from_le_bytes(r[20..24].try_into().expect("4 bytes")),
            };
            check_entry(&e).map_err(|why| BookError::Record { index, why })?;
            let (cp, co, _) = canonical(e.player, e.opponent);
            if (cp, co) != (e.player, e.opponent) {
                return Err(BookError::Record {
                    index,
                    why: "position not in its canonical orientation",
                });
            }
            if entries.last().is_some_and(|l: &Entry| l.key() >= e.key()) {
                return Err(BookError::Record {
                    index,
                    why: "records out of order or repeated",
                });
            }
            entries.push(e);
        }
        Ok(Book { entries, meta })
    }

    /// The compressed file (zstd).
    pub fn to_compressed(&self) -> Vec<u8> {
        zstd::stream::encode_all(&self.to_raw()[..], 19).expect("compressing into memory cannot fail")
    }

    /// Reads a compressed book; a stream that inflates beyond what its header can claim is
    /// refused by its length, not read to the end.
    pub fn from_compressed(bytes: &[u8]) -> Result<Book, BookError> {
        use std::io::Read;
        let limit = (HEADER_BYTES + MAX_POSITIONS as usize * RECORD_BYTES) as u64;
        let decoder = zstd::stream::Decoder::new(bytes).map_err(|e| BookError::Compression(e.to_string()))?;
        let mut raw = Vec::new();
        decoder
            .take(limit + 1)
            .read_to_end(&mut raw)
            .map_err(|e| BookError::Compression(e.to_string()))?;
        Book::from_raw(&raw)
    }

    /// The text format: a header of `#` comments, then one position a line:
    /// `BOARD VALUE LEVEL LEAF_MOVE LEAF_VALUE GAMES`, where BOARD is 64 characters `a1`…`h1`,
    /// `a2`…`h8` with `X` the side to move, `O` the other and `-` empty; LEAF_MOVE a square
    /// (`--` for none) and LEAF_VALUE a number (`--` for none). Values are discs for the side
    /// to move; LEVEL 0 marks a position not yet scored.
    pub fn to_text(&self) -> String {
        let mut s = String::with_capacity(64 + self.entries.len() * 84);
        s.push_str("# reversi opening book, text format 1\n");
        s.push_str("# board(64, X to move) value level leaf_move leaf_value games\n");
        s.push_str(&format!("# error {} seed {}\n", self.meta.error, self.meta.seed));
        for e in &self.entries {
            for sq in 0..64 {
                let bit = 1u64 << sq;
                s.push(if e.player & bit != 0 {
                    'X'
                } else if e.opponent & bit != 0 {
                    'O'
                } else {
                    '-'
                });
            }
            let leaf_move = if e.leaf_move == NO_LEAF_MOVE {
                "--".to_string()
            } else {
                square_name(e.leaf_move)
            };
            let leaf_value = if e.leaf_value == NO_LEAF {
                "--".to_string()
            } else {
                e.leaf_value.to_string()
            };
            s.push_str(&format!(
                " {} {} {leaf_move} {leaf_value} {}\n",
                e.value, e.level, e.games
            ));
        }
        s
    }

    /// Reads the text format ([`Book::to_text`]); positions need not be canonical.
    pub fn from_text(text: &str) -> Result<Book, BookError> {
        let mut meta = BookMeta::default();
        let mut entries = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let line_no = i + 1;
            let bad = |why: String| BookError::Text { line: line_no, why };
            let line = line.trim();
            if let Some(c) = line.strip_prefix('#') {
                let w: Vec<&str> = c.split_whitespace().collect();
                if let ["error", e, "seed", s] = w[..] {
                    meta.error = e
                        .parse()
                        .map_err(|_| bad(format!("error {e:?} is not 0..=255")))?;
                    meta.seed = s
                        .parse()
                        .map_err(|_| bad(format!("seed {s:?} is not a number")))?;
                }
                continue;
            }
            if line.is_empty() {
                continue;
            }
            if entries.len() >= MAX_POSITIONS as usize {
                return Err(bad(format!("more than {MAX_POSITIONS} positions")));
            }
            let f: Vec<&str> = line.split_whitespace().collect();
            if f.len() != 6 {
                return Err(bad(format!("{} fields where 6 were expected", f.len())));
            }
            let board = f[0].as_bytes();
            if board.len() != 64 {
                return Err(bad(format!("the board has {} characters, not 64", board.len())));
            }
            let (mut p, mut o) = (0u64, 0u64);
            for (sq, &c) in board.iter().enumerate() {
                match c {
                    b'X' | b'x' | b'*' => p |= 1 << sq,
                    b'O' | b'o' => o |= 1 << sq,
                    b'-' | b'.' => {}
                    _ => {
                        return Err(bad(format!(
                            "square {}: {:?} is not X, O or -",
                            square_name(sq as u8),
                            c as char
                        )))
                    }
                }
            }
            let num = |s: &str, what: &str, lo: i64, hi: i64| -> Result<i64, BookError> {
                match s.parse::<i64>() {
                    Ok(v) if (lo..=hi).contains(&v) => Ok(v),
                    _ => Err(bad(format!("{what} {s:?} is not a number in {lo}..={hi}"))),
                }
            };
            let value = num(f[1], "value", -64, 64)? as i8;
            let level = num(f[2], "level", 0, 255)? as u8;
            let leaf_move = if f[3] == "--" {
                NO_LEAF_MOVE
            } else {
                parse_square(f[3]).ok_or_else(|| bad(format!("leaf move {:?} is not a square", f[3])))?
            };
            let leaf_value = if f[4] == "--" {
                NO_LEAF
            } else {
                num(f[4], "leaf value", -64, 64)? as i8
            };
            let games = num(f[5], "games", 0, u32::MAX as i64)? as u32;
            let e = Entry {
                player: p,
                opponent: o,
                value,
                level,
                leaf_value,
                leaf_move,
                games,
            };
            check_entry(&e).map_err(|why| bad(why.to_string()))?;
            entries.push(e);
        }
        Ok(Book::from_entries(entries, meta))
    }

    /// Positions by ply (index = plies from the start).
    pub fn plies(&self) -> Vec<usize> {
        let mut by = vec![0usize; 61];
        for e in &self.entries {
            by[e.ply().min(60) as usize] += 1;
        }
        while by.len() > 1 && by.last() == Some(&0) {
            by.pop();
        }
        by
    }
}

/// What cannot be right in an entry, whatever its orientation.
fn check_entry(e: &Entry) -> Result<(), &'static str> {
    if e.player & e.opponent != 0 {
        return Err("a square holds discs of both sides");
    }
    if !(-64..=64).contains(&e.value) {
        return Err("value outside -64..=64");
    }
    if e.leaf_value != NO_LEAF && !(-64..=64).contains(&e.leaf_value) {
        return Err("leaf value outside -64..=64");
    }
    if e.leaf_move != NO_LEAF_MOVE {
        if e.leaf_move > 63 {
            return Err("leaf move is not a square");
        }
        if moves(e.player, e.opponent) & (1u64 << e.leaf_move) == 0 {
            return Err("leaf move is not legal in the position");
        }
    }
    if (e.leaf_move == NO_LEAF_MOVE) != (e.leaf_value == NO_LEAF) {
        return Err("a leaf needs both its move and its value");
    }
    if moves(e.player, e.opponent) == 0 {
        return Err("the side to move has no move (book positions are after any pass)");
    }
    Ok(())
}

fn square_name(sq: u8) -> String {
    format!("{}{}", (b'a' + sq % 8) as char, sq / 8 + 1)
}

fn parse_square(s: &str) -> Option<u8> {
    let b = s.as_bytes();
    if b.len() != 2 || !(b'a'..=b'h').contains(&b[0].to_ascii_lowercase()) || !(b'1'..=b'8').contains(&b[1]) {
        return None;
    }
    Some((b[0].to_ascii_lowercase() - b'a') + 8 * (b[1] - b'1'))
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: (u64, u64) = (0x0000_0008_1000_0000, 0x0000_0010_0800_0000);

    fn sq(s: &str) -> u32 {
        parse_square(s).unwrap() as u32
    }

    /// A small book: the start, the four first moves' positions (all one up to symmetry) and
    /// its three replies, scored by hand.
    fn small() -> Book {
        let (p, o) = START;
        let (p1, o1, _) = child(p, o, sq("f5")).unwrap();
        let mut start = Entry::new(p, o, 10);
        start.level = 5;
        let mut after = Entry::new(p1, o1, 10);
        after.level = 5;
        // White's best way out of the book after f5: d6 (perpendicular), +1 for White; the
        // leaf is stored in the canonical orientation.
        let (cp, co, s) = canonical(p1, o1);
        after.player = cp;
        after.opponent = co;
        after.leaf_move = s.apply_u64(1u64 << sq("d6")).trailing_zeros() as u8;
        after.leaf_value = 1;
        let mut b = Book::from_entries(vec![start, after], BookMeta { error: 2, seed: 7 });
        b.negamax();
        b
    }

    #[test]
    fn canonical_lookup_under_all_symmetries() {
        let b = small();
        let (p, o) = START;
        assert_eq!(b.value(p, o), Some(-1));
        let (p1, o1, _) = child(p, o, sq("f5")).unwrap();
        for s in Symmetry::ALL {
            let (sp, so) = (s.apply_u64(p1), s.apply_u64(o1));
            assert_eq!(b.value(sp, so), Some(1), "{s:?}");
            let m = b.moves(sp, so);
            assert_eq!(m.len(), 1);
            // The leaf move follows the symmetry.
            assert_eq!(
                m[0].square as u32,
                s.apply_u64(1u64 << sq("d6")).trailing_zeros(),
                "{s:?}"
            );
            assert_eq!(m[0].kind, BookValueKind::Leaf);
        }
        // Every first move is in the book (one position up to symmetry), each -1 for Black.
        let first = b.moves(p, o);
        assert_eq!(first.len(), 4);
        assert!(first
            .iter()
            .all(|m| m.value == -1 && m.kind == BookValueKind::Book));
    }

    #[test]
    fn binary_round_trip_and_typed_errors() {
        let b = small();
        let packed = b.to_compressed();
        assert_eq!(Book::from_compressed(&packed), Ok(b.clone()));
        let raw = b.to_raw();
        assert_eq!(raw.len(), HEADER_BYTES + 2 * RECORD_BYTES);
        assert_eq!(
            Book::from_raw(&raw[..raw.len() - 1]),
            Err(BookError::Length {
                expected: raw.len(),
                found: raw.len() - 1
            })
        );
        let mut bad = raw.clone();
        bad[0] = b'X';
        assert_eq!(Book::from_raw(&bad), Err(BookError::BadMagic));
        let mut bad = raw.clone();
        bad[4] = 9;
        assert_eq!(Book::from_raw(&bad), Err(BookError::Version(9)));
        let mut bad = raw.clone();
        bad[8..12].copy_from_slice(&u32::MAX.to_le_bytes());
        assert_eq!(Book::from_raw(&bad), Err(BookError::TooLarge(u32::MAX)));
        let mut bad = raw.clone();
        bad[HEADER_BYTES + 16] = 100;
        assert_eq!(Book::from_raw(&bad), Err(BookError::Checksum));
        // A record with discs on both sides of a square, checksum made right.
        let mut bad = raw.clone();
        bad.copy_within(HEADER_BYTES..HEADER_BYTES + 8, HEADER_BYTES + 8);
        let sum = checksum(&bad[HEADER_BYTES..]);
        bad[24..32].copy_from_slice(&sum.to_le_bytes());
        assert!(
            matches!(Book::from_raw(&bad), Err(BookError::Record { index: 0, .. })),
            "{:?}",
            Book::from_raw(&bad)
        );
        assert!(matches!(
            Book::from_compressed(b"not zstd"),
            Err(BookError::Compression(_))
        ));
    }

    #[test]
    fn text_round_trip_and_errors() {
        let b = small();
        let text = b.to_text();
        assert_eq!(Book::from_text(&text), Ok(b.clone()));
        let line = text.lines().nth(3).unwrap();
        let e = Book::from_text(&format!("{line}\n{}", line.replacen('-', "Z", 1))).unwrap_err();
        assert!(
            matches!(&e, BookError::Text { line: 2, why } if why.contains("is not X, O or -")),
            "{e}"
        );
        let e = Book::from_text(&line.replace(" 5 ", " 500 ")).unwrap_err();
        assert!(e.to_string().starts_with("line 1: level"), "{e}");
        let e = Book::from_text("XO 1 2").unwrap_err();
        assert_eq!(e.to_string(), "line 1: 3 fields where 6 were expected");
    }

    #[test]
    fn choose_keeps_within_the_margin() {
        let b = small();
        let (p, o) = START;
        for seed in 0..20 {
            let m = b.choose(p, o, 0, seed).unwrap();
            assert_eq!(m.value, -1);
        }
        assert_eq!(b.choose(START.1, START.0 | 1, 3, 0), None);
        assert_eq!(margin_for_level(1), None);
        assert_eq!(margin_for_level(30), Some(0));
    }

    #[test]
    fn embedded_book_says_the_start_is_a_draw_within_its_error() {
        let b = Book::embedded();
        assert!(b.len() > 10_000, "{} positions", b.len());
        let (p, o) = START;
        let v = b.value(p, o).expect("the start is in the book");
        assert!(
            v.abs() <= b.meta.error as i32,
            "start value {v}, stated error {}",
            b.meta.error
        );
    }
}
