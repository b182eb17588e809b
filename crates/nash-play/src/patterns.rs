//! Local patterns of a move and their learned weights: the twelve cells around an empty cell
//! (its six neighbours and its six bridge partners) seen from the player to move, and a weight
//! (a Bradley-Terry strength, Coulom 2007) for the inner ring of six and for the whole pattern
//! of twelve. The Monte Carlo players order and weigh the children of a node by them
//! (`order=patterns`); `cargo xtask patterns` learns them from positions the solver decides.
//!
//! A pattern is read for the player to move: a stone of theirs is "mine", an off-board
//! neighbour beyond their own edge is "mine" too (it connects as a stone would), beyond the
//! opponent's edge "theirs", beyond both (a corner) a fourth state. For White the board is
//! read transposed, so that both players' patterns are Black's (the transposition exchanges
//! the colours and the edges); the 180° rotation, the one symmetry left, is divided out by
//! keeping the smaller of a code and its rotation. A code has two bits a cell: 0 empty, 1 mine,
//! 2 theirs, 3 a corner; the inner ring is the low twelve bits.
//!
//! The matcher allocates once, at its construction (a table of each cell's twelve
//! surroundings for each player); reading a pattern is twelve lookups.

use std::sync::OnceLock;

use nash_board::{BitSet, Cell, Color, Geometry, Position};

/// Cells of a pattern: the six neighbours, then the six bridge partners. Directions as
/// (column, row) offsets, in pairs of opposites so that the 180° rotation swaps slots `2i` and
/// `2i + 1`.
const DIRECTIONS: [(i32, i32); 12] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, -1),
    (-1, 1),
    (1, 1),
    (-1, -1),
    (2, -1),
    (-2, 1),
    (1, -2),
    (-1, 2),
];

/// Slot values beyond the board: past a row edge (Black's), past a column edge (White's),
/// past both.
const OFF_ROW: u16 = u16::MAX;
const OFF_COL: u16 = u16::MAX - 1;
const OFF_BOTH: u16 = u16::MAX - 2;

/// Codes of the inner ring (six cells, twelve bits).
pub const RING_CODES: usize = 1 << 12;

/// The code with its cells rotated by 180°: each pair of opposite slots swapped.
const fn rotate(code: u32) -> u32 {
    const EVEN: u32 = 0x33_3333;
    ((code & EVEN) << 2) | ((code >> 2) & EVEN)
}

/// The canonical code of a pattern of twelve cells (or of six, in the low twelve bits): the
/// smaller of it and its rotation.
pub const fn canonical(code: u32) -> u32 {
    let r = rotate(code);
    if r < code {
        r
    } else {
        code
    }
}

/// The pattern codes of every empty cell of a board.
#[derive(Clone, Debug)]
pub struct Matcher<B: BitSet> {
    /// For each player to move (Black, White) and each cell bit, its twelve slots: a cell bit
    /// or one of the `OFF_*` values.
    slots: [Box<[[u16; 12]]>; 2],
    _board: std::marker::PhantomData<B>,
}

impl<B: BitSet> Matcher<B> {
    /// The matcher of `geom`'s cells.
    pub fn new(geom: &'static Geometry<B>) -> Matcher<B> {
        let (cols, rows) = (geom.cols() as i32, geom.rows() as i32);
        let slots = [Color::Black, Color::White].map(|mover| {
            let mut table = vec![[OFF_BOTH; 12]; B::CAPACITY].into_boxed_slice();
            for cell in geom.cells().iter() {
                let (c, r) = (i32::from(cell.col()), i32::from(cell.row()));
                for (k, &(dc, dr)) in DIRECTIONS.iter().enumerate() {
                    // White reads the board transposed.
                    let (dc, dr) = if mover == Color::White { (dr, dc) } else { (dc, dr) };
                    let (nc, nr) = (c + dc, r + dr);
                    let off_col = !(0..cols).contains(&nc);
                    let off_row = !(0..rows).contains(&nr);
                    table[B::bit_of(cell)][k] = match (off_row, off_col) {
                        (false, false) => B::bit_of(Cell::at(nc as u8, nr as u8)) as u16,
                        (true, false) => OFF_ROW,
                        (false, true) => OFF_COL,
                        (true, true) => OFF_BOTH,
                    };
                }
            }
            table
        });
        Matcher { slots, _board: std::marker::PhantomData }
    }

    /// The raw code (not canonical) of the pattern around the cell at `bit` for `mover`, whose
    /// stones are `mine` and the opponent's `theirs`.
    pub fn code(&self, mine: B, theirs: B, mover: Color, bit: usize) -> u32 {
        self.read(mine, theirs, mover, bit, 12)
    }

    /// The canonical code of the inner ring (the six neighbours) around the cell at `bit` for
    /// `mover`: six lookups, for the playouts.
    #[inline]
    pub fn ring_code(&self, mine: B, theirs: B, mover: Color, bit: usize) -> u32 {
        canonical(self.read(mine, theirs, mover, bit, 6))
    }

    /// The raw code of the first `slots` cells of the pattern.
    #[inline]
    fn read(&self, mine: B, theirs: B, mover: Color, bit: usize, slots: usize) -> u32 {
        let (own_edge, their_edge) =
            if mover == Color::Black { (OFF_ROW, OFF_COL) } else { (OFF_COL, OFF_ROW) };
        let mut code = 0u32;
        for (k, &s) in self.slots[mover.index()][bit][..slots].iter().enumerate() {
            let state = if s == own_edge {
                1
            } else if s == their_edge {
                2
            } else if s == OFF_BOTH {
                3
            } else if mine.has_bit(usize::from(s)) {
                1
            } else if theirs.has_bit(usize::from(s)) {
                2
            } else {
                0
            };
            code |= state << (2 * k);
        }
        code
    }

    /// The canonical codes (inner ring, whole pattern) of the move at `bit` in `pos`, for the
    /// player to move.
    pub fn codes(&self, pos: &Position<B>, bit: usize) -> (u32, u32) {
        let mover = pos.to_move();
        let code = self.code(pos.stones(mover), pos.stones(!mover), mover, bit);
        (canonical(code & 0xFFF), canonical(code))
    }
}

/// Learned strengths: one for each inner ring, and one for each whole pattern seen often
/// enough in training (the others count 1). A move's strength is their product.
#[derive(Clone, Debug)]
pub struct Weights {
    ring: Box<[f32]>,
    /// Whole patterns, sorted by code.
    full: Box<[(u32, f32)]>,
}

impl Weights {
    /// Weights from the two tables (rings by canonical code, whole patterns in any order);
    /// missing rings count 1.
    pub fn new(ring: &[(u32, f32)], full: &[(u32, f32)]) -> Weights {
        let mut r = vec![1.0; RING_CODES].into_boxed_slice();
        for &(code, g) in ring {
            r[code as usize & (RING_CODES - 1)] = g;
        }
        let mut f: Box<[(u32, f32)]> = full.into();
        f.sort_by_key(|e| e.0);
        Weights { ring: r, full: f }
    }

    /// Reads the text of a weights file: lines `ring CODE WEIGHT` and `full CODE WEIGHT`, `#`
    /// comments and blank lines.
    pub fn parse(text: &str) -> Result<Weights, String> {
        let (mut ring, mut full) = (Vec::new(), Vec::new());
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let bad = || format!("pattern weights line {}: bad line {line:?}", i + 1);
            let mut f = line.split_whitespace();
            let (Some(kind), Some(code), Some(w), None) = (f.next(), f.next(), f.next(), f.next())
            else {
                return Err(bad());
            };
            let code: u32 = code.parse().map_err(|_| bad())?;
            let w: f32 = w.parse().map_err(|_| bad())?;
            if !(w.is_finite() && w > 0.0) {
                return Err(bad());
            }
            match kind {
                "ring" if (code as usize) < RING_CODES => ring.push((code, w)),
                "full" if code < 1 << 24 => full.push((code, w)),
                _ => return Err(bad()),
            }
        }
        Ok(Weights::new(&ring, &full))
    }

    /// The weights file's text (the trainer writes it; [`Weights::parse`] reads it back).
    pub fn format(&self, header: &str) -> String {
        let mut s = String::new();
        for line in header.lines() {
            s.push_str("# ");
            s.push_str(line);
            s.push('\n');
        }
        for (code, &w) in self.ring.iter().enumerate() {
            if w != 1.0 {
                s.push_str(&format!("ring {code} {w}\n"));
            }
        }
        for &(code, w) in self.full.iter() {
            s.push_str(&format!("full {code} {w}\n"));
        }
        s
    }

    /// The strength of a move with these canonical codes.
    pub fn gamma(&self, ring: u32, full: u32) -> f32 {
        let r = self.ring[ring as usize & (RING_CODES - 1)];
        match self.full.binary_search_by_key(&full, |e| e.0) {
            Ok(i) => r * self.full[i].1,
            Err(_) => r,
        }
    }

    /// The strength of an inner ring alone (its canonical code).
    #[inline]
    pub fn ring_gamma(&self, ring: u32) -> f32 {
        self.ring[ring as usize & (RING_CODES - 1)]
    }

    /// The number of whole patterns with a weight of their own.
    pub fn full_len(&self) -> usize {
        self.full.len()
    }
}

/// The weights shipped with the crate (`src/patterns.txt`, written by `cargo xtask patterns`).
pub fn builtin() -> &'static Weights {
    static W: OnceLock<Weights> = OnceLock::new();
    W.get_or_init(|| {
        Weights::parse(include_str!("patterns.txt")).expect("the shipped weights file parses")
    })
}
