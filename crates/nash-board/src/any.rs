//! A position of any supported size, for code that learns the board size at run time.

use std::fmt;

use crate::bitboard::{BitSet, Bitboard, WideBitboard};
use crate::geometry::BoardSizeError;
use crate::position::{PlayError, Position};
use crate::{fits_small, Diagram, ParseDiagramError, MAX_SIDE};
use crate::{Cell, Color, GameRecord, Move};

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

    /// The side to move.
    pub fn to_move(&self) -> Color {
        crate::with_position!(self, p => p.to_move())
    }

    /// Makes `color` the side to move.
    pub fn set_to_move(&mut self, color: Color) {
        crate::with_position!(self, p => p.set_to_move(color))
    }

    /// The winner, once one side has connected its edges.
    pub fn winner(&self) -> Option<Color> {
        crate::with_position!(self, p => p.winner())
    }

    /// How many cells are empty.
    pub fn empty_count(&self) -> usize {
        crate::with_position!(self, p => p.empty_cells().len())
    }

    /// Whether `cell` is on the board and empty.
    pub fn is_empty_cell(&self, cell: Cell) -> bool {
        crate::with_position!(self, p => p.empty_cells().contains(cell))
    }

    /// Plays `mv` for the side to move ([`Position::apply`]).
    pub fn apply(&mut self, mv: Move) -> Result<(), PlayError> {
        crate::with_position!(self, p => p.apply(mv))
    }

    /// Plays `mv` for `color` ([`Position::apply_as`]).
    pub fn apply_as(&mut self, color: Color, mv: Move) -> Result<(), PlayError> {
        crate::with_position!(self, p => p.apply_as(color, mv))
    }

    /// Takes the last step back; false when there is none ([`Position::undo`]).
    pub fn undo(&mut self) -> bool {
        crate::with_position!(self, p => p.undo())
    }

    /// Every step from the start, with its colour ([`Position::history`]).
    pub fn history(&self) -> Vec<(Color, Move)> {
        crate::with_position!(self, p => p.history())
    }

    /// The game record of the position ([`GameRecord::from_position`]).
    pub fn record(&self) -> GameRecord {
        crate::with_position!(self, p => GameRecord::from_position(p))
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

/// A family of types with one member per bitboard width, such as `SolverTable<B>` or a
/// player's searcher: what [`PerWidth`] holds for the board last used.
///
/// ```
/// use nash_board::{BitSet, WidthFamily};
/// struct Lists;
/// impl WidthFamily for Lists {
///     type Of<B: BitSet> = Vec<B>;
/// }
/// ```
pub trait WidthFamily {
    /// The member for the bitboard `B`.
    type Of<B: BitSet>;
}

/// The bitboards an [`AnyPosition`] holds: [`Bitboard`] and [`WideBitboard`]. Generic code
/// that keeps state in a [`PerWidth`] takes `B: Width` rather than `B: BitSet`.
pub trait Width: BitSet {
    /// `held`'s slot for this width, after dropping the value of the other width (so that
    /// at most one is alive).
    fn slot<F: WidthFamily>(held: &mut PerWidth<F>) -> &mut Option<F::Of<Self>>;
}

impl Width for Bitboard {
    fn slot<F: WidthFamily>(held: &mut PerWidth<F>) -> &mut Option<F::Of<Bitboard>> {
        held.wide = None;
        &mut held.small
    }
}

impl Width for WideBitboard {
    fn slot<F: WidthFamily>(held: &mut PerWidth<F>) -> &mut Option<F::Of<WideBitboard>> {
        held.small = None;
        &mut held.wide
    }
}

/// The state kept for the board last used, whatever its width: one value of the family `F`
/// for the width of the positions asked about, rebuilt when a position of the other width
/// comes (the old one is dropped first) or when the caller finds it stale. This is how the
/// layers above the board keep a generic searcher or table between positions that come as
/// [`AnyPosition`].
pub struct PerWidth<F: WidthFamily> {
    small: Option<F::Of<Bitboard>>,
    wide: Option<F::Of<WideBitboard>>,
}

impl<F: WidthFamily> PerWidth<F> {
    /// Nothing held.
    pub fn new() -> PerWidth<F> {
        PerWidth { small: None, wide: None }
    }

    /// The value for `pos`'s width if one is held and `current` accepts it, otherwise a new
    /// one from `fresh` (the value of the other width is dropped either way).
    pub fn get<B: Width>(
        &mut self,
        pos: &Position<B>,
        current: impl FnOnce(&F::Of<B>) -> bool,
        fresh: impl FnOnce() -> F::Of<B>,
    ) -> &mut F::Of<B> {
        // Only `pos`'s type is needed: it names the width.
        let _ = pos;
        let slot = B::slot(self);
        if !slot.as_ref().is_some_and(current) {
            // Free the old value before building the new one.
            *slot = None;
        }
        slot.get_or_insert_with(fresh)
    }

    /// The value for `pos`'s width, a default one when none is held.
    pub fn get_or_default<B: Width>(&mut self, pos: &Position<B>) -> &mut F::Of<B>
    where
        F::Of<B>: Default,
    {
        self.get(pos, |_| true, Default::default)
    }

    /// Drops what is held (a new game, a cleared table).
    pub fn clear(&mut self) {
        self.small = None;
        self.wide = None;
    }

    /// Whether a value is held.
    pub fn is_empty(&self) -> bool {
        self.small.is_none() && self.wide.is_none()
    }
}

impl<F: WidthFamily> Default for PerWidth<F> {
    fn default() -> PerWidth<F> {
        PerWidth::new()
    }
}

impl<F: WidthFamily> fmt::Debug for PerWidth<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let held = match (&self.small, &self.wide) {
            (Some(_), _) => "small",
            (_, Some(_)) => "wide",
            _ => "nothing",
        };
        f.debug_struct("PerWidth").field("held", &held).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A family that records the board side its value was made for.
    struct Sides;

    impl WidthFamily for Sides {
        type Of<B: BitSet> = (usize, std::marker::PhantomData<B>);
    }

    fn make<B: BitSet>(side: usize) -> impl FnOnce() -> (usize, std::marker::PhantomData<B>) {
        move || (side, std::marker::PhantomData)
    }

    #[test]
    fn per_width_keeps_one_value_for_the_width_last_asked() {
        let small = Position::<Bitboard>::new(5, 5).expect("5x5");
        let wide = Position::<WideBitboard>::new(13, 13).expect("13x13");
        let mut held = PerWidth::<Sides>::new();
        assert!(held.is_empty());
        assert_eq!(held.get(&small, |_| true, make(5)).0, 5);
        // Kept while current, rebuilt when stale.
        assert_eq!(held.get(&small, |_| true, make(6)).0, 5);
        assert_eq!(held.get(&small, |v| v.0 == 6, make(6)).0, 6);
        // The other width's value replaces it: a small one is built afresh afterwards.
        assert_eq!(held.get(&wide, |_| true, make(13)).0, 13);
        assert_eq!(format!("{held:?}"), "PerWidth { held: \"wide\" }");
        assert_eq!(held.get(&small, |_| true, make(7)).0, 7);
        held.clear();
        assert!(held.is_empty());
    }
}
