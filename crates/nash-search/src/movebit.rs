//! A move as the solvers' compact records keep it (table entries, tree nodes, reply tables): a
//! cell's bit index in two bytes, with "no move" as `None` of an `Option<MoveBit>`, which takes
//! no more room (the index is stored plus one in a [`NonZeroU16`]) and is the all-zero bytes of
//! a fresh table entry.

use std::num::NonZeroU16;

use nash_board::{BitSet, Cell};

/// A cell's bit index, as a move of a compact record.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(crate) struct MoveBit(NonZeroU16);

impl MoveBit {
    /// The move to `cell`.
    #[inline]
    pub(crate) fn of<B: BitSet>(cell: Cell) -> MoveBit {
        MoveBit::from_bit(B::bit_of(cell))
    }

    /// The move to the cell of bit index `bit` (below [`BitSet::CAPACITY`], far below
    /// `u16::MAX`).
    #[inline]
    pub(crate) fn from_bit(bit: usize) -> MoveBit {
        debug_assert!(bit < usize::from(u16::MAX));
        MoveBit(NonZeroU16::MIN.saturating_add(bit as u16))
    }

    /// The bit index of the move's cell.
    #[inline]
    pub(crate) fn bit(self) -> usize {
        usize::from(self.0.get() - 1)
    }

    /// The move's cell.
    #[inline]
    pub(crate) fn cell<B: BitSet>(self) -> Cell {
        B::cell_of(self.bit())
    }
}

/// The record of an optional move.
#[inline]
pub(crate) fn of<B: BitSet>(mv: Option<Cell>) -> Option<MoveBit> {
    mv.map(MoveBit::of::<B>)
}

/// The cell of an optional recorded move.
#[inline]
pub(crate) fn cell<B: BitSet>(mv: Option<MoveBit>) -> Option<Cell> {
    mv.map(MoveBit::cell::<B>)
}
