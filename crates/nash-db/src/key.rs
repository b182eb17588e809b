//! Canonical keys: a position and its images under the board's symmetries share one key.
//!
//! A key is exact (no hash, so no collisions): the board's columns and rows, the side to move,
//! and every cell's state packed two bits a cell, row by row. Of the keys of a position's images
//! (the 180° rotation; on square boards also the two diagonal reflections, which swap the
//! colours and so the side to move) the least, compared as bytes, is the canonical one. The
//! [`Frame`] remembers which symmetry produced it, so that cells stored in the canonical frame
//! (a winning move, a carrier) are mapped back to the position asked about.

use std::fmt;

use nash_board::{AnyPosition, BitSet, Cell, Color, Position, Symmetry, MAX_SIDE};

/// Bytes before the packed cells: columns, rows, side to move.
const PREFIX: usize = 3;

/// The canonical key of a position (see the module docs).
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Key(Box<[u8]>);

/// How a position relates to its canonical image: the symmetry that maps it there.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Frame {
    /// The symmetry from the position to the canonical image.
    pub symmetry: Symmetry,
}

/// Why bytes do not form a key.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
#[error("invalid position key: {0}")]
pub struct KeyError(&'static str);

impl Key {
    /// The canonical key of `pos`, and the frame that maps `pos` onto the canonical image.
    pub fn of<B: BitSet>(pos: &Position<B>) -> (Key, Frame) {
        let geom = pos.geometry();
        let mut best: Option<(Vec<u8>, Symmetry)> = None;
        for &sym in geom.symmetries() {
            let bytes = image_bytes(pos, sym);
            match &best {
                Some((b, _)) if *b <= bytes => {}
                _ => best = Some((bytes, sym)),
            }
        }
        let (bytes, symmetry) =
            best.unwrap_or_else(|| (image_bytes(pos, Symmetry::Identity), Symmetry::Identity));
        (Key(bytes.into_boxed_slice()), Frame { symmetry })
    }

    /// The key as stored.
    pub fn as_bytes(&self) -> &[u8] {
        &self.0
    }

    /// A key read back from its bytes, checked for shape (size, side to move, cell states).
    pub fn from_bytes(bytes: &[u8]) -> Result<Key, KeyError> {
        let [cols, rows, to_move, cells @ ..] = bytes else { return Err(KeyError("too short")) };
        let (cols, rows) = (*cols as usize, *rows as usize);
        if cols == 0 || rows == 0 || cols > MAX_SIDE || rows > MAX_SIDE {
            return Err(KeyError("board size out of range"));
        }
        if *to_move > 1 {
            return Err(KeyError("side to move is neither black nor white"));
        }
        if cells.len() != (cols * rows).div_ceil(4) {
            return Err(KeyError("cell count does not match the board size"));
        }
        let key = Key(bytes.into());
        if (0..cols * rows).any(|i| key.state(i) == 3) {
            return Err(KeyError("a cell state is neither empty, black nor white"));
        }
        if (cols * rows..cells.len() * 4).any(|i| key.state(i) != 0) {
            return Err(KeyError("padding bits are set"));
        }
        Ok(key)
    }

    /// Columns of the board.
    pub fn cols(&self) -> usize {
        self.0[0] as usize
    }

    /// Rows of the board.
    pub fn rows(&self) -> usize {
        self.0[1] as usize
    }

    /// The side to move in the canonical image.
    pub fn to_move(&self) -> Color {
        if self.0[2] == 0 {
            Color::Black
        } else {
            Color::White
        }
    }

    /// Empty cells of the canonical image.
    pub fn empty_cells(&self) -> usize {
        (0..self.cols() * self.rows()).filter(|&i| self.state(i) == 0).count()
    }

    /// Stones on the board.
    pub fn stones(&self) -> usize {
        self.cols() * self.rows() - self.empty_cells()
    }

    /// The state of cell number `i` (row-major): 0 empty, 1 black, 2 white.
    fn state(&self, i: usize) -> u8 {
        (self.0[PREFIX + i / 4] >> ((i % 4) * 2)) & 3
    }

    /// Whether cell number `i` (row-major) is on the board.
    pub fn is_on_board(&self, i: u16) -> bool {
        usize::from(i) < self.cols() * self.rows()
    }

    /// Whether cell number `i` (row-major) is on the board and empty.
    pub fn is_empty_cell(&self, i: u16) -> bool {
        self.is_on_board(i) && self.state(usize::from(i)) == 0
    }

    /// The canonical image as a position (with no history).
    pub fn position(&self) -> AnyPosition {
        let mut any = AnyPosition::new(self.cols(), self.rows())
            .expect("a key's size was checked when it was made");
        nash_board::with_position!(&mut any, p => self.set_up(p));
        any
    }

    fn set_up<B: BitSet>(&self, p: &mut Position<B>) {
        let (mut black, mut white) = (B::EMPTY, B::EMPTY);
        for i in 0..self.cols() * self.rows() {
            let cell = self.cell(i as u16);
            match self.state(i) {
                1 => black.insert(cell),
                2 => white.insert(cell),
                _ => {}
            }
        }
        p.setup(Color::Black, black);
        p.setup(Color::White, white);
        p.set_to_move(self.to_move());
    }

    /// The cell of index `i` (row-major) on this key's board.
    pub fn cell(&self, i: u16) -> Cell {
        let cols = self.cols() as u16;
        Cell::at((i % cols) as u8, (i / cols) as u8)
    }

    /// The index (row-major) of a cell on this key's board, `None` for an edge or a cell off it.
    pub fn index(&self, cell: Cell) -> Option<u16> {
        let (c, r) = (cell.col() as usize, cell.row() as usize);
        (!cell.is_edge() && c < self.cols() && r < self.rows())
            .then(|| (r * self.cols() + c) as u16)
    }

    /// The board as a one-line SGF record (setup stones and the side to move), which every
    /// command reads as a position.
    pub fn sgf(&self) -> String {
        let mut s = format!("(;GM[11]SZ[{}", self.cols());
        if self.cols() != self.rows() {
            s.push_str(&format!(":{}", self.rows()));
        }
        s.push(']');
        for (state, ident) in [(1, "AB"), (2, "AW")] {
            let cells: Vec<String> = (0..self.cols() * self.rows())
                .filter(|&i| self.state(i) == state)
                .map(|i| format!("[{}]", self.cell(i as u16)))
                .collect();
            if !cells.is_empty() {
                s.push_str(ident);
                s.push_str(&cells.concat());
            }
        }
        s.push_str(&format!("PL[{}])", self.to_move().letter()));
        s
    }
}

impl fmt::Debug for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.sgf())
    }
}

impl Frame {
    /// A cell of the position asked about, in the canonical frame.
    pub fn to_canonical<B: BitSet>(self, pos: &Position<B>, cell: Cell) -> Cell {
        pos.geometry().map_cell(self.symmetry, cell)
    }

    /// A cell of the canonical frame, back on the position asked about.
    pub fn from_canonical<B: BitSet>(self, pos: &Position<B>, cell: Cell) -> Cell {
        pos.geometry().map_cell(self.symmetry.inverse(), cell)
    }
}

/// The key bytes of `pos`'s image under `sym`.
fn image_bytes<B: BitSet>(pos: &Position<B>, sym: Symmetry) -> Vec<u8> {
    let geom = pos.geometry();
    let (cols, rows) = (pos.cols(), pos.rows());
    // The image's stones of colour c are the images of the stones of colour map_color(c) (each
    // symmetry's colour map is its own inverse).
    let black = geom.map_set(sym, pos.stones(sym.map_color(Color::Black)));
    let white = geom.map_set(sym, pos.stones(sym.map_color(Color::White)));
    let to_move = sym.map_color(pos.to_move());
    let mut bytes = vec![0u8; PREFIX + (cols * rows).div_ceil(4)];
    bytes[0] = cols as u8;
    bytes[1] = rows as u8;
    bytes[2] = u8::from(to_move == Color::White);
    for r in 0..rows {
        for c in 0..cols {
            let cell = Cell::at(c as u8, r as u8);
            let state = if black.contains(cell) {
                1
            } else if white.contains(cell) {
                2
            } else {
                continue;
            };
            let i = r * cols + c;
            bytes[PREFIX + i / 4] |= state << ((i % 4) * 2);
        }
    }
    bytes
}
