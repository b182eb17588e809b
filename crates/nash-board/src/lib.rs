//! The Hex board for Nash: cells and edges, bitboards, positions with undoable play,
//! incremental winner detection and hashing, symmetries, and the text forms Hex tools use
//! (cell names, move lists, board diagrams and SGF).
//!
//! Conventions, shared with Benzene, HexGui and SGF (`GM[11]`): Black moves first and connects
//! top and bottom; White connects left and right. A cell is column letter + row number with
//! row 1 at the top, so `a1` is an acute corner whose neighbours are `b1` and `a2`.
//!
//! # From a move list to a winner
//!
//! ```
//! use nash_board::{BitSet, CellList, Color, Edge, MoveList, SmallPosition};
//!
//! // A 3x3 game: Black goes down column b, White tries the a-b gap.
//! let mut pos = SmallPosition::square(3)?;
//! let moves: MoveList = "b1 a2 b2".parse()?;
//! moves.play_on(&mut pos)?;
//! assert_eq!(pos.to_move(), Color::White);
//! assert_eq!(pos.winner(), None);
//!
//! // The diagram is the position's `Display` (and reads back with `FromStr`).
//! let diagram = pos.to_string();
//! assert!(diagram.starts_with("   a  b  c\n1  .  B  .  1\n"));
//! assert_eq!(diagram.parse::<SmallPosition>()?, pos);
//!
//! // Sets of cells are bitboards; `CellList` is their text form.
//! let b2 = "b2".parse()?;
//! assert_eq!(CellList(pos.group(b2)).to_string(), "b1 b2");
//! assert!(pos.connected_to(b2, Edge::North));
//! let both_wins = CellList(pos.empty_cells()).to_string();
//! assert_eq!(both_wins, "a1 c1 c2 a3 b3 c3");
//!
//! // A child's hash without playing it, then the move itself: Black's b3 wins.
//! pos.pass();
//! let b3 = "b3".parse()?;
//! let expected = pos.hash_after(b3);
//! pos.play(b3)?;
//! assert_eq!(pos.hash(), expected);
//! assert_eq!(pos.winner(), Some(Color::Black));
//!
//! // A finished game takes no more moves when it is read as a record.
//! let err = "b1 a2 b2 pass b3 c3".parse::<MoveList>()?.play_on(&mut SmallPosition::square(3)?);
//! assert_eq!(err.unwrap_err().to_string(), "move 6 (c3): the game is over: black has won");
//!
//! // Undo takes the steps back one by one.
//! assert!(pos.undo());
//! assert_eq!(pos.winner(), None);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#[cfg(feature = "count-allocations")]
pub mod alloc_count;
mod any;
mod bitboard;
mod cell;
mod cell_list;
pub mod clock;
mod color;
pub mod diagram;
mod geometry;
mod index;
mod moves;
mod position;
pub mod sgf;
mod stop;
pub mod svg;
mod zobrist;

pub use any::{AnyPosition, PerWidth, Width, WidthFamily};
pub use bitboard::{BitSet, Bitboard, Bits, Cells, TinyBitboard, WideBitboard};
pub use cell::{Cell, Edge, ParseCellError};
pub use cell_list::CellList;
pub use color::{Color, ParseColorError};
pub use diagram::{Diagram, ParseDiagramError};
pub use geometry::{BoardSizeError, Geometry, Symmetry};
pub use index::OptIndex;
pub use moves::{Move, MoveList, MoveListError, ParseMoveError};
pub use position::{PlayError, Position};
pub use sgf::{GameRecord, SgfError};
pub use stop::{Stop, StopCause};

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
