//! The Hex board for Nash: cells and edges, bitboards, positions with undoable play,
//! incremental winner detection and hashing, symmetries, and the text forms Hex tools use
//! (cell names, move lists, board diagrams and SGF).
//!
//! Conventions, shared with Benzene, HexGui and SGF (`GM[11]`): Black moves first and connects
//! top and bottom; White connects left and right. A cell is column letter + row number with
//! row 1 at the top, so `a1` is an acute corner whose neighbours are `b1` and `a2`.

mod any;
mod bitboard;
mod cell;
mod cell_list;
mod color;
pub mod diagram;
mod geometry;
mod moves;
mod position;
pub mod sgf;
pub mod svg;
mod zobrist;

pub use any::AnyPosition;
pub use bitboard::{BitSet, Bitboard, Bits, Cells, TinyBitboard, WideBitboard};
pub use cell::{Cell, Edge, ParseCellError};
pub use cell_list::CellList;
pub use color::{Color, ParseColorError};
pub use diagram::{Diagram, ParseDiagramError};
pub use geometry::{BoardSizeError, Geometry, Symmetry};
pub use moves::{Move, MoveList, MoveListError, ParseMoveError};
pub use position::{PlayError, Position};
pub use sgf::{GameRecord, SgfError};

/// The position type for boards up to 11×11.
pub type SmallPosition = Position<Bitboard>;
/// The position type for boards up to 19×19.
pub type WidePosition = Position<WideBitboard>;

/// The largest board side Nash supports.
pub const MAX_SIDE: usize = <WideBitboard as BitSet>::STRIDE;

/// Whether a board of this size fits the fast single-`u128` [`Bitboard`].
pub fn fits_small(cols: usize, rows: usize) -> bool {
    cols <= <Bitboard as BitSet>::STRIDE && rows <= <Bitboard as BitSet>::STRIDE
}

/// The Zobrist key xored into [`Position::hash`] when White is to move.
pub const WHITE_TO_MOVE_KEY: u64 = zobrist::WHITE_TO_MOVE;
