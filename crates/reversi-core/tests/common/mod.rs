//! A deliberately naive reference implementation of RULES.md, written from the text alone:
//! a grid of cells, square-by-square line walking, no bit tricks. The fast library is checked
//! against it.

#![allow(dead_code)]

use reversi_core::{Color, Rules, Square, Variant};

/// One cell of the reference board.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Cell {
    Missing,
    Empty,
    Disc(Color),
}

/// The reference position.
#[derive(Clone, Debug)]
pub struct RefBoard {
    pub w: i32,
    pub h: i32,
    pub cells: Vec<Cell>,
    pub side: Color,
    /// Discs left per player (None = unlimited).
    pub supply: Option<[u32; 2]>,
    /// 1880s: the centre squares still to be filled without flipping.
    pub free_centre: Vec<(i32, i32)>,
    pub fewest_wins: bool,
}

const DIRS: [(i32, i32); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
];

impl RefBoard {
    /// Builds the start position straight from the preset's description in RULES.md §4.
    pub fn start(variant: Variant) -> RefBoard {
        let (w, h) = match variant {
            Variant::Nxn(n) | Variant::NxnParallel(n) => (n as i32, n as i32),
            Variant::Grand | Variant::EightStars => (10, 10),
            _ => (8, 8),
        };
        let mut b = RefBoard {
            w,
            h,
            cells: vec![Cell::Empty; (w * h) as usize],
            side: Color::Black,
            supply: None,
            free_centre: Vec::new(),
            fewest_wins: variant == Variant::Anti,
        };
        if variant == Variant::EightStars {
            for (x, y) in [
                (0, 0),
                (1, 0),
                (0, 1),
                (9, 0),
                (8, 0),
                (9, 1),
                (0, 9),
                (0, 8),
                (1, 9),
                (9, 9),
                (8, 9),
                (9, 8),
            ] {
                b.set(x, y, Cell::Missing);
            }
        }
        if let Variant::BlackHole(Some(sq)) = variant {
            b.set(sq.col() as i32, sq.row() as i32, Cell::Missing);
        }
        let (cx, cy) = (w / 2 - 1, h / 2 - 1);
        match variant {
            Variant::Reversi1880(first) => {
                b.side = first;
                b.supply = Some([32, 32]);
                b.free_centre = vec![(cx, cy), (cx + 1, cy), (cx, cy + 1), (cx + 1, cy + 1)];
            }
            Variant::NxnParallel(_) => {
                b.set(cx, cy, Cell::Disc(Color::Black));
                b.set(cx, cy + 1, Cell::Disc(Color::Black));
                b.set(cx + 1, cy, Cell::Disc(Color::White));
                b.set(cx + 1, cy + 1, Cell::Disc(Color::White));
            }
            _ => {
                // §1: black on d5 and e4, white on d4 and e5.
                b.set(cx, cy + 1, Cell::Disc(Color::Black));
                b.set(cx + 1, cy, Cell::Disc(Color::Black));
                b.set(cx, cy, Cell::Disc(Color::White));
                b.set(cx + 1, cy + 1, Cell::Disc(Color::White));
            }
        }
        if let Variant::Xot(Some(i)) = variant {
            let line = reversi_core::rules::xot_openings().nth(i as usize).unwrap();
            for k in 0..8 {
                let sq = Square::parse(&line[2 * k..2 * k + 2]).unwrap();
                assert!(b.play(sq.col() as i32, sq.row() as i32));
            }
        }
        b
    }

    pub fn get(&self, x: i32, y: i32) -> Cell {
        if x < 0 || y < 0 || x >= self.w || y >= self.h {
            Cell::Missing
        } else {
            self.cells[(y * self.w + x) as usize]
        }
    }

    fn set(&mut self, x: i32, y: i32, c: Cell) {
        self.cells[(y * self.w + x) as usize] = c;
    }

    fn has_supply(&self, c: Color) -> bool {
        self.supply.is_none_or(|s| s[c.index()] > 0)
    }

    /// Discs flipped if `c` plays (x, y), walking each of the eight lines.
    pub fn flips_for(&self, c: Color, x: i32, y: i32) -> Vec<(i32, i32)> {
        let mut all = Vec::new();
        if self.get(x, y) != Cell::Empty || !self.free_centre.is_empty() {
            return all;
        }
        for (dx, dy) in DIRS {
            let mut run = Vec::new();
            let (mut cx, mut cy) = (x + dx, y + dy);
            while self.get(cx, cy) == Cell::Disc(!c) {
                run.push((cx, cy));
                cx += dx;
                cy += dy;
            }
            if !run.is_empty() && self.get(cx, cy) == Cell::Disc(c) {
                all.extend(run);
            }
        }
        all
    }

    pub fn moves_for(&self, c: Color) -> Vec<(i32, i32)> {
        if !self.has_supply(c) {
            return Vec::new();
        }
        if !self.free_centre.is_empty() {
            let mut v = self.free_centre.clone();
            v.sort_by_key(|&(x, y)| (y, x));
            return v;
        }
        let mut v = Vec::new();
        for y in 0..self.h {
            for x in 0..self.w {
                if !self.flips_for(c, x, y).is_empty() {
                    v.push((x, y));
                }
            }
        }
        v
    }

    pub fn moves(&self) -> Vec<(i32, i32)> {
        self.moves_for(self.side)
    }

    pub fn game_over(&self) -> bool {
        self.moves_for(Color::Black).is_empty() && self.moves_for(Color::White).is_empty()
    }

    /// Plays (x, y) for the side to move; false if illegal.
    pub fn play(&mut self, x: i32, y: i32) -> bool {
        if !self.moves().contains(&(x, y)) {
            return false;
        }
        let c = self.side;
        for (fx, fy) in self.flips_for(c, x, y) {
            self.set(fx, fy, Cell::Disc(c));
        }
        self.set(x, y, Cell::Disc(c));
        self.free_centre.retain(|&p| p != (x, y));
        if let Some(s) = &mut self.supply {
            s[c.index()] -= 1;
        }
        self.side = !c;
        true
    }

    pub fn pass(&mut self) {
        self.side = !self.side;
    }

    pub fn count(&self, c: Color) -> u32 {
        self.cells.iter().filter(|&&k| k == Cell::Disc(c)).count() as u32
    }

    /// Final score by §1: empties to the winner, split on a tie.
    pub fn final_score(&self) -> (u32, u32) {
        let (b, w) = (self.count(Color::Black), self.count(Color::White));
        let e = self.cells.iter().filter(|&&k| k == Cell::Empty).count() as u32;
        let black_wins = if self.fewest_wins { b < w } else { b > w };
        if b == w {
            (b + e / 2, w + e / 2)
        } else if black_wins {
            (b + e, w)
        } else {
            (b, w + e)
        }
    }

    /// The winner: most discs (fewest in anti) on the board; `None` for a tie.
    pub fn winner(&self) -> Option<Color> {
        let (b, w) = (self.count(Color::Black), self.count(Color::White));
        match (b.cmp(&w), self.fewest_wins) {
            (std::cmp::Ordering::Equal, _) => None,
            (std::cmp::Ordering::Greater, false) | (std::cmp::Ordering::Less, true) => Some(Color::Black),
            _ => Some(Color::White),
        }
    }

    /// Perft by the §3 convention, the slow way.
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.moves();
        if moves.is_empty() {
            if self.game_over() {
                return 1;
            }
            let mut n = self.clone();
            n.pass();
            return n.perft(depth - 1);
        }
        moves
            .into_iter()
            .map(|(x, y)| {
                let mut n = self.clone();
                assert!(n.play(x, y));
                n.perft(depth - 1)
            })
            .sum()
    }
}

/// Every preset, with the random ones at a few fixed choices.
pub fn all_presets() -> Vec<Variant> {
    let mut v = Variant::examples();
    for n in [8, 12, 14] {
        v.push(Variant::Nxn(n));
        v.push(Variant::NxnParallel(n));
    }
    for seed in [1, 2, 3] {
        v.push(Variant::BlackHole(None).resolve(seed));
        v.push(Variant::Xot(None).resolve(seed));
    }
    v
}

/// The rules for a resolved preset.
pub fn rules(v: Variant) -> Rules {
    assert!(v.is_resolved());
    Rules::new(v, 0)
}
