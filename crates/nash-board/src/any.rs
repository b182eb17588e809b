//! A position of any supported size, for code that learns the board size at run time.

use std::fmt;

use crate::bitboard::{Bitboard, WideBitboard};
use crate::geometry::BoardSizeError;
use crate::position::Position;
use crate::{fits_small, Diagram, ParseDiagramError, MAX_SIDE};

/// A position on the narrowest bitboard that holds it: boards up to 11×11 use the single-`u128`
/// [`Bitboard`], larger ones (up to 19×19) the [`WideBitboard`].
///
/// Use [`with_position!`](crate::with_position) to run generic code on either.
// The variants differ in size, but positions are made once per command or search and then
// used in place: boxing the wide one would cost an indirection on every access instead.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum AnyPosition {
    /// Up to 11×11.
    Small(Position<Bitboard>),
    /// Up to 19×19.
    Wide(Position<WideBitboard>),
}

impl AnyPosition {
    /// The empty board with `cols` columns and `rows` rows.
    pub fn new(cols: usize, rows: usize) -> Result<AnyPosition, BoardSizeError> {
        if cols == 0 || rows == 0 {
            Err(BoardSizeError { cols, rows, max: MAX_SIDE })
        } else if fits_small(cols, rows) {
            Position::new(cols, rows).map(AnyPosition::Small)
        } else if cols <= MAX_SIDE && rows <= MAX_SIDE {
            Position::new(cols, rows).map(AnyPosition::Wide)
        } else {
            Err(BoardSizeError { cols, rows, max: MAX_SIDE })
        }
    }

    /// Number of columns.
    pub fn cols(&self) -> usize {
        crate::with_position!(self, p => p.cols())
    }

    /// Number of rows.
    pub fn rows(&self) -> usize {
        crate::with_position!(self, p => p.rows())
    }

    /// The position a diagram shows.
    pub fn from_diagram(d: &Diagram) -> Result<AnyPosition, ParseDiagramError> {
        if d.cols > MAX_SIDE || d.rows > MAX_SIDE {
            let reason = BoardSizeError { cols: d.cols, rows: d.rows, max: MAX_SIDE }.to_string();
            return Err(ParseDiagramError { line: 0, reason });
        }
        if fits_small(d.cols, d.rows) {
            d.to_position().map(AnyPosition::Small)
        } else {
            d.to_position().map(AnyPosition::Wide)
        }
    }
}

impl fmt::Display for AnyPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        crate::with_position!(self, p => fmt::Display::fmt(p, f))
    }
}

/// Runs an expression on the position inside an [`AnyPosition`], whichever width it has:
/// `with_position!(any, p => p.cols())`. Works with `&AnyPosition` and `&mut AnyPosition`.
#[macro_export]
macro_rules! with_position {
    ($any:expr, $p:ident => $body:expr) => {
        match $any {
            $crate::AnyPosition::Small($p) => $body,
            $crate::AnyPosition::Wide($p) => $body,
        }
    };
}
