//! Positions: discs, side to move and the per-game state the rules need.

use crate::bits::{Bits, WideBits};
use crate::color::Color;
use crate::rules::{Goal, Rules, TieRule};
use crate::square::{Move, Square};
use crate::symmetry::Symmetry;

/// Why a move cannot be played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IllegalMove {
    /// The game is over.
    #[error("the game is over")]
    GameOver,
    /// A pass while the side to move has a legal move.
    #[error("cannot pass: {0} has a legal move")]
    PassNotForced(Color),
    /// The square is not on this board.
    #[error("{0} is not a square of this board")]
    OffBoard(Square),
    /// The square already holds a disc.
    #[error("{0} is occupied")]
    Occupied(Square),
    /// Placing there flips nothing (or breaks the free-opening rule).
    #[error("{0} is not a legal move for {1}")]
    NotLegal(Square, Color),
    /// The side to move has no legal move and must pass.
    #[error("{0} has no legal move and must pass")]
    MustPass(Color),
}

/// The final result of a game, scored by RULES.md §1: empties go to the winner; on a tie they
/// are split (an odd empty square left over on an odd board stays unassigned).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// Black's final count, empties included.
    pub black: u32,
    /// White's final count, empties included.
    pub white: u32,
    /// The winner; `None` for a draw.
    pub winner: Option<Color>,
    /// Black's result as a number (see [`Outcome::margin`]).
    pub black_margin: i32,
}

impl Outcome {
    /// The final count of `color`.
    pub fn count(&self, color: Color) -> u32 {
        match color {
            Color::Black => self.black,
            Color::White => self.white,
        }
    }

    /// The result as a number for `color` (RULES.md §1), positive when `color` won: the
    /// difference of the written score (`+18` for 41–23), in anti-reversi too, where fewer discs
    /// win and the empties still go to the winner (a 9-move wipe-out of white is written 13–51
    /// and is white's win by 38).
    pub fn margin(&self, color: Color) -> i32 {
        match color {
            Color::Black => self.black_margin,
            Color::White => -self.black_margin,
        }
    }
}

/// A position on a board that fits in the bit set `B`: `u64` for boards up to 8×8 (the fast path),
/// [`WideBits`] up to 16×16.
///
/// It carries everything the rules need to move and score: the playable squares, the side to
/// move, the disc supplies and the free-opening state; so it is self-contained.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position<B: Bits> {
    black: B,
    white: B,
    playable: B,
    /// Centre squares still to be filled in a free-opening (1880s) game.
    free_centre: B,
    side: Color,
    first: Color,
    width: u8,
    height: u8,
    /// Discs left to each player (`u8::MAX` = unlimited).
    supply: [u8; 2],
    goal: Goal,
    tie: TieRule,
}

const UNLIMITED: u8 = u8::MAX;

impl<B: Bits> Position<B> {
    /// The start position of `rules`. Panics if the board does not fit `B`.
    pub fn start(rules: &Rules) -> Position<B> {
        assert!(
            rules.width <= B::MAX_SIDE && rules.height <= B::MAX_SIDE,
            "board does not fit"
        );
        let s = rules.supply.unwrap_or(UNLIMITED);
        Position {
            black: B::from_wide(rules.start_black),
            white: B::from_wide(rules.start_white),
            playable: B::from_wide(rules.playable),
            free_centre: if rules.free_centre_opening {
                B::from_wide(rules.centre())
            } else {
                B::EMPTY
            },
            side: rules.start_to_move,
            first: rules.first,
            width: rules.width,
            height: rules.height,
            supply: [s, s],
            goal: rules.goal,
            tie: rules.tie,
        }
    }

    /// The position of `rules` with these discs and side to move instead of its start. Discs off
    /// the board are dropped. The supplies are reduced by the discs already on the board.
    pub fn with_discs(rules: &Rules, black: B, white: B, side: Color) -> Position<B> {
        let mut pos = Position::start(rules);
        pos.black = black & pos.playable;
        pos.white = white & pos.playable & !black;
        pos.side = side;
        if let Some(s) = rules.supply {
            // Without a record we assume alternate play: the first player placed the odd disc.
            let placed = (pos.black | pos.white).count() as u8;
            pos.supply[rules.first.index()] = s.saturating_sub(placed.div_ceil(2));
            pos.supply[(!rules.first).index()] = s.saturating_sub(placed / 2);
        }
        pos.free_centre &= !(pos.black | pos.white);
        pos
    }

    /// Black's discs.
    #[inline]
    pub fn black(&self) -> B {
        self.black
    }
    /// White's discs.
    #[inline]
    pub fn white(&self) -> B {
        self.white
    }
    /// The discs of `c`.
    #[inline]
    pub fn discs(&self, c: Color) -> B {
        match c {
            Color::Black => self.black,
            Color::White => self.white,
        }
    }
    /// The squares that exist.
    #[inline]
    pub fn playable(&self) -> B {
        self.playable
    }
    /// The empty squares that exist.
    #[inline]
    pub fn empties(&self) -> B {
        self.playable & !(self.black | self.white)
    }
    /// The side to move.
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }
    /// Who moved first in this game.
    pub fn first_player(&self) -> Color {
        self.first
    }
    /// Board width.
    pub fn width(&self) -> u8 {
        self.width
    }
    /// Board height.
    pub fn height(&self) -> u8 {
        self.height
    }
    /// The scoring goal.
    pub fn goal(&self) -> Goal {
        self.goal
    }
    /// The tie rule.
    pub fn tie_rule(&self) -> TieRule {
        self.tie
    }
    /// Discs left in `c`'s supply; `None` when unlimited.
    pub fn supply(&self, c: Color) -> Option<u8> {
        (self.supply[c.index()] != UNLIMITED).then_some(self.supply[c.index()])
    }
    /// Whether the 1880s free centre opening is still going on.
    pub fn in_free_opening(&self) -> bool {
        !self.free_centre.is_empty()
    }
    /// The colour of the disc on `sq`, if any.
    pub fn disc(&self, sq: Square) -> Option<Color> {
        if self.black.has(sq) {
            Some(Color::Black)
        } else if self.white.has(sq) {
            Some(Color::White)
        } else {
            None
        }
    }
    /// The number of discs of `c` on the board.
    pub fn count(&self, c: Color) -> u32 {
        self.discs(c).count()
    }

    /// Legal moves of `c` (whoever is to move).
    #[inline]
    pub fn moves_of(&self, c: Color) -> B {
        if self.supply[c.index()] == 0 {
            return B::EMPTY;
        }
        if !self.free_centre.is_empty() {
            return self.free_centre;
        }
        let (p, o) = (self.discs(c), self.discs(!c));
        B::moves(p, o) & self.playable
    }

    /// Legal moves of the side to move (empty when it must pass or the game is over).
    #[inline]
    pub fn legal_moves(&self) -> B {
        self.moves_of(self.side)
    }

    /// Whether `mv` is legal now.
    pub fn is_legal(&self, mv: Move) -> bool {
        self.check(mv).is_ok()
    }

    /// Whether neither side can move.
    pub fn is_game_over(&self) -> bool {
        self.legal_moves().is_empty() && self.moves_of(!self.side).is_empty()
    }

    /// Whether the side to move has no move but the game goes on.
    pub fn must_pass(&self) -> bool {
        self.legal_moves().is_empty() && !self.moves_of(!self.side).is_empty()
    }

    /// The discs `sq` would flip for the side to move (empty if it is not a legal move).
    pub fn flips(&self, sq: Square) -> B {
        if !self.legal_moves().has(sq) || !self.free_centre.is_empty() {
            return B::EMPTY;
        }
        B::flips(self.discs(self.side), self.discs(!self.side), sq)
    }

    /// Checks `mv` without playing it.
    pub fn check(&self, mv: Move) -> Result<(), IllegalMove> {
        let moves = self.legal_moves();
        match mv {
            Move::Pass if moves.is_empty() => {
                if self.moves_of(!self.side).is_empty() {
                    Err(IllegalMove::GameOver)
                } else {
                    Ok(())
                }
            }
            Move::Pass => Err(IllegalMove::PassNotForced(self.side)),
            Move::Play(sq) => {
                if moves.has(sq) {
                    Ok(())
                } else if self.is_game_over() {
                    Err(IllegalMove::GameOver)
                } else if !self.playable.has(sq) {
                    Err(IllegalMove::OffBoard(sq))
                } else if self.disc(sq).is_some() {
                    Err(IllegalMove::Occupied(sq))
                } else if moves.is_empty() {
                    Err(IllegalMove::MustPass(self.side))
                } else {
                    Err(IllegalMove::NotLegal(sq, self.side))
                }
            }
        }
    }

    /// Plays `mv` and returns the flipped discs.
    pub fn play(&mut self, mv: Move) -> Result<B, IllegalMove> {
        self.check(mv)?;
        Ok(self.play_unchecked(mv))
    }

    /// Plays a move known to be legal; returns the flipped discs.
    #[inline]
    pub fn play_unchecked(&mut self, mv: Move) -> B {
        let Move::Play(sq) = mv else {
            self.side = !self.side;
            return B::EMPTY;
        };
        let bit = B::square(sq);
        let flipped = if self.free_centre.is_empty() {
            B::flips(self.discs(self.side), self.discs(!self.side), sq)
        } else {
            self.free_centre ^= bit;
            B::EMPTY
        };
        match self.side {
            Color::Black => {
                self.black |= flipped | bit;
                self.white ^= flipped;
            }
            Color::White => {
                self.white |= flipped | bit;
                self.black ^= flipped;
            }
        }
        let s = &mut self.supply[self.side.index()];
        if *s != UNLIMITED {
            *s -= 1;
        }
        self.side = !self.side;
        flipped
    }

    /// The position with the other side to move (no legality check).
    pub fn with_side(mut self, side: Color) -> Position<B> {
        self.side = side;
        self
    }

    /// The final score if the game ended now (RULES.md §1).
    pub fn score(&self) -> Outcome {
        let (b, w) = (self.count(Color::Black), self.count(Color::White));
        let e = self.empties().count();
        let winner_by_count = match (b.cmp(&w), self.goal) {
            (std::cmp::Ordering::Equal, _) => None,
            (std::cmp::Ordering::Greater, Goal::MostDiscs)
            | (std::cmp::Ordering::Less, Goal::FewestDiscs) => Some(Color::Black),
            _ => Some(Color::White),
        };
        let (black, white) = match winner_by_count {
            Some(Color::Black) => (b + e, w),
            Some(Color::White) => (b, w + e),
            None => (b + e / 2, w + e / 2),
        };
        // The difference of the written score; its sign says who won (in anti-reversi the
        // winner, with fewer discs, may have more written once the empties are added).
        let size = black.abs_diff(white) as i32;
        let black_margin = match winner_by_count {
            Some(Color::Black) => size,
            Some(Color::White) => -size,
            None => 0,
        };
        let winner = match (winner_by_count, self.tie) {
            (None, TieRule::SecondPlayerWins) => Some(!self.first),
            (w, _) => w,
        };
        Outcome {
            black,
            white,
            winner,
            black_margin,
        }
    }

    /// The final result, once the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        self.is_game_over().then(|| self.score())
    }

    /// The recorded result when `loser` resigns or runs out of time here (RULES.md §6): the
    /// board count with the empties to the winner if that is a win for the winner, otherwise
    /// the smallest win (33–31 on 64 squares; fewest discs in anti-reversi).
    pub fn conceded(&self, loser: Color) -> Outcome {
        let winner = !loser;
        let now = self.score();
        if now.winner == Some(winner) && now.margin(winner) > 0 {
            return now;
        }
        let n = self.playable.count();
        let (more, fewer) = (n / 2 + 1, n - (n / 2 + 1));
        let (w, l) = match self.goal {
            Goal::MostDiscs => (more, fewer),
            Goal::FewestDiscs => (fewer, more),
        };
        let (black, white) = if winner == Color::Black { (w, l) } else { (l, w) };
        let size = w.abs_diff(l) as i32;
        Outcome {
            black,
            white,
            winner: Some(winner),
            black_margin: if winner == Color::Black { size } else { -size },
        }
    }

    /// A 64-bit hash of everything that decides the future of the game.
    pub fn hash(&self) -> u64 {
        // Each word is absorbed on its own, so that no two fields can cancel each other out.
        let absorb = |h: u64, w: u64| mix(h ^ w, 0x9E37_79B9_7F4A_7C15);
        let mut h = match self.side {
            Color::Black => 0x243F_6A88_85A3_08D3,
            Color::White => 0x1319_8A2E_0370_7344,
        };
        for w in self.black.to_wide().0 {
            h = absorb(h, w);
        }
        for w in self.white.to_wide().0 {
            h = absorb(h, w ^ 0xA409_3822_299F_31D0);
        }
        for w in self.playable.to_wide().0 {
            h = absorb(h, w ^ 0x082E_FA98_EC4E_6C89);
        }
        let extra =
            (self.supply[0] as u64) << 8 | self.supply[1] as u64 | (self.free_centre.count() as u64) << 16;
        absorb(h, extra)
    }

    /// The position under a symmetry of the square board (holes move with it). Panics on a
    /// non-square board.
    pub fn transformed(&self, sym: Symmetry) -> Position<B> {
        assert_eq!(self.width, self.height, "symmetries need a square board");
        let n = self.width;
        let map = |b: B| -> B { sym.apply_set(b, n) };
        Position {
            black: map(self.black),
            white: map(self.white),
            playable: map(self.playable),
            free_centre: map(self.free_centre),
            ..*self
        }
    }

    /// The least of the eight symmetric images (by black, then white discs), and the symmetry that
    /// gives it: one representative for every class of equivalent positions.
    pub fn canonical(&self) -> (Position<B>, Symmetry) {
        Symmetry::ALL
            .into_iter()
            .map(|s| (self.transformed(s), s))
            .min_by_key(|(p, _)| (p.black.to_wide(), p.white.to_wide(), p.playable.to_wide(), p.side))
            .expect("eight symmetries")
    }
}

/// The 64-bit multiply-fold mixer (as in wyhash): fast and good enough for table indexing.
#[inline]
pub fn mix(a: u64, b: u64) -> u64 {
    let m = (a as u128).wrapping_mul((b ^ 0xA076_1D64_78BD_642F) as u128);
    (m as u64) ^ ((m >> 64) as u64)
}

/// A position on any supported board: the runtime choice between the 8×8 fast path and the wide
/// board. Sets of squares come back as [`WideBits`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AnyPosition {
    /// Up to 8×8 (a `u64` per colour).
    Small(Position<u64>),
    /// Up to 16×16.
    Wide(Position<WideBits>),
}

macro_rules! dispatch {
    ($self:expr, $p:ident => $e:expr) => {
        match $self {
            AnyPosition::Small($p) => $e,
            AnyPosition::Wide($p) => $e,
        }
    };
}

impl AnyPosition {
    /// The start position of `rules`, on the smallest bit set it fits.
    pub fn start(rules: &Rules) -> AnyPosition {
        if rules.fits_u64() {
            AnyPosition::Small(Position::start(rules))
        } else {
            AnyPosition::Wide(Position::start(rules))
        }
    }

    /// `rules`' board with the given discs and side to move.
    pub fn with_discs(rules: &Rules, black: WideBits, white: WideBits, side: Color) -> AnyPosition {
        if rules.fits_u64() {
            AnyPosition::Small(Position::with_discs(
                rules,
                u64::from_wide(black),
                u64::from_wide(white),
                side,
            ))
        } else {
            AnyPosition::Wide(Position::with_discs(rules, black, white, side))
        }
    }

    /// Black's discs.
    pub fn black(&self) -> WideBits {
        dispatch!(self, p => p.black().to_wide())
    }
    /// White's discs.
    pub fn white(&self) -> WideBits {
        dispatch!(self, p => p.white().to_wide())
    }
    /// The discs of `c`.
    pub fn discs(&self, c: Color) -> WideBits {
        dispatch!(self, p => p.discs(c).to_wide())
    }
    /// The squares that exist.
    pub fn playable(&self) -> WideBits {
        dispatch!(self, p => p.playable().to_wide())
    }
    /// Empty squares that exist.
    pub fn empties(&self) -> WideBits {
        dispatch!(self, p => p.empties().to_wide())
    }
    /// Board width.
    pub fn width(&self) -> u8 {
        dispatch!(self, p => p.width())
    }
    /// Board height.
    pub fn height(&self) -> u8 {
        dispatch!(self, p => p.height())
    }
    /// The side to move.
    pub fn side_to_move(&self) -> Color {
        dispatch!(self, p => p.side_to_move())
    }
    /// Discs left in `c`'s supply; `None` when unlimited.
    pub fn supply(&self, c: Color) -> Option<u8> {
        dispatch!(self, p => p.supply(c))
    }
    /// The colour on `sq`.
    pub fn disc(&self, sq: Square) -> Option<Color> {
        dispatch!(self, p => p.disc(sq))
    }
    /// Disc count of `c`.
    pub fn count(&self, c: Color) -> u32 {
        dispatch!(self, p => p.count(c))
    }
    /// Legal moves of the side to move.
    pub fn legal_moves(&self) -> WideBits {
        dispatch!(self, p => p.legal_moves().to_wide())
    }
    /// Legal moves of `c`.
    pub fn moves_of(&self, c: Color) -> WideBits {
        dispatch!(self, p => p.moves_of(c).to_wide())
    }
    /// Discs `sq` would flip for the side to move.
    pub fn flips(&self, sq: Square) -> WideBits {
        dispatch!(self, p => p.flips(sq).to_wide())
    }
    /// Whether neither side can move.
    pub fn is_game_over(&self) -> bool {
        dispatch!(self, p => p.is_game_over())
    }
    /// Whether the side to move must pass.
    pub fn must_pass(&self) -> bool {
        dispatch!(self, p => p.must_pass())
    }
    /// Checks a move.
    pub fn check(&self, mv: Move) -> Result<(), IllegalMove> {
        dispatch!(self, p => p.check(mv))
    }
    /// Plays a move; returns the flipped discs.
    pub fn play(&mut self, mv: Move) -> Result<WideBits, IllegalMove> {
        dispatch!(self, p => p.play(mv).map(Bits::to_wide))
    }
    /// The score if the game ended now.
    pub fn score(&self) -> Outcome {
        dispatch!(self, p => p.score())
    }
    /// The result, once the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        dispatch!(self, p => p.outcome())
    }
    /// The result when `loser` resigns or runs out of time (RULES.md §6).
    pub fn conceded(&self, loser: Color) -> Outcome {
        dispatch!(self, p => p.conceded(loser))
    }
    /// Position hash.
    pub fn hash(&self) -> u64 {
        dispatch!(self, p => p.hash())
    }
    /// The image under a symmetry (square boards only).
    pub fn transformed(&self, sym: Symmetry) -> AnyPosition {
        match self {
            AnyPosition::Small(p) => AnyPosition::Small(p.transformed(sym)),
            AnyPosition::Wide(p) => AnyPosition::Wide(p.transformed(sym)),
        }
    }
    /// The canonical image and the symmetry that gives it.
    pub fn canonical(&self) -> (AnyPosition, Symmetry) {
        match self {
            AnyPosition::Small(p) => {
                let (c, s) = p.canonical();
                (AnyPosition::Small(c), s)
            }
            AnyPosition::Wide(p) => {
                let (c, s) = p.canonical();
                (AnyPosition::Wide(c), s)
            }
        }
    }
    /// The position with another side to move.
    pub fn with_side(self, side: Color) -> AnyPosition {
        match self {
            AnyPosition::Small(p) => AnyPosition::Small(p.with_side(side)),
            AnyPosition::Wide(p) => AnyPosition::Wide(p.with_side(side)),
        }
    }
}
