//! The cell-list text form of a set of cells: names in board order, one space apart (`a1 b2 north`).

use std::fmt;
use std::str::FromStr;

use crate::bitboard::BitSet;
use crate::cell::{Cell, ParseCellError};

/// A set of cells and edges in its cell-list text form.
///
/// `Display` writes the names in board order (`a1 b1 … a2 …`, then the edges) separated by
/// single spaces, and nothing for the empty set. `FromStr` reads names separated by whitespace
/// or commas, in any order and case; the empty text is the empty set. Whether the cells are on
/// a given board is for the caller to check (with [`Geometry::cells`]); a cell beyond the
/// bitboard's own layout is refused.
///
/// ```
/// use nash_board::{bitboard, Bitboard, CellList};
///
/// let set: Bitboard = bitboard![c3 a1 north];
/// assert_eq!(CellList(set).to_string(), "a1 c3 north");
/// assert_eq!("c3, A1 north".parse::<CellList<Bitboard>>().unwrap(), CellList(set));
/// assert!("a1 l1".parse::<CellList<Bitboard>>().is_err()); // past the 11x11 layout
/// ```
///
/// [`Geometry::cells`]: crate::Geometry::cells
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, Debug)]
pub struct CellList<B>(pub B);

impl<B: BitSet> CellList<B> {
    /// One name per element, in board order (for JSON arrays and the like).
    pub fn names(self) -> Vec<String> {
        self.0.iter().map(|c| c.to_string()).collect()
    }
}

impl<B: BitSet> fmt::Display for CellList<B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, c) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{c}")?;
        }
        Ok(())
    }
}

impl<B: BitSet> FromStr for CellList<B> {
    type Err = ParseCellError;

    fn from_str(s: &str) -> Result<CellList<B>, ParseCellError> {
        let mut set = B::EMPTY;
        for name in s.split(|c: char| c.is_whitespace() || c == ',').filter(|t| !t.is_empty()) {
            let cell: Cell = name.parse()?;
            let fits = cell.is_edge()
                || (cell.col() as usize) < B::STRIDE && (cell.row() as usize) < B::STRIDE;
            if !fits {
                return Err(ParseCellError {
                    input: name.to_owned(),
                    reason: "too far out for this board width",
                });
            }
            set.insert(cell);
        }
        Ok(CellList(set))
    }
}
