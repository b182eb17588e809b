//! Bitboards: sets of cells and edges as fixed-width bit sets.
//!
//! Three widths exist. [`Bitboard`] is a single `u128` laid out with a row stride of 11, which
//! holds every board up to 11×11 plus the four edges. [`WideBitboard`] uses six `u64` words with
//! a stride of 19 for boards up to 19×19. [`TinyBitboard`] is a single `u64` with a stride of 7
//! for boards up to 7×7, which the solvers switch to internally. Code above this module is
//! generic over [`BitSet`] and monomorphized, so small boards pay nothing for large ones.
//!
//! Layout: a cell in column `c` and row `r` is bit `r * STRIDE + c`; the edges follow the cell
//! area at bits `STRIDE²` (north), `+1` (south), `+2` (west) and `+3` (east).
//!
//! This file holds the [`BitSet`] trait, its iterators and what every width shares (operators,
//! `Debug`, the `bitboard!` literal); `bitboard/scalar.rs` holds the single-integer widths and
//! `bitboard/wide.rs` the multi-word one.

use std::fmt;
use std::hash::Hash;
use std::iter::FusedIterator;
use std::ops::{
    BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Sub, SubAssign,
};
use std::sync::OnceLock;

use crate::cell::{Cell, Edge};
use crate::cell_list::CellList;
use crate::geometry::Geometry;

mod scalar;
mod wide;

pub use scalar::{Bitboard, TinyBitboard};
pub use wide::WideBitboard;

mod sealed {
    /// The private supertrait that seals [`BitSet`](super::BitSet).
    pub trait Sealed {}
}

/// Operations shared by the bitboard widths. Everything above the board crate is generic over
/// this trait.
///
/// The trait is sealed: only [`Bitboard`], [`TinyBitboard`] and [`WideBitboard`] implement it.
/// Code above relies on every implementation, and its [`BitSet::Table`], being plain integers
/// with no padding and no pointers, for which all-zero bytes are a valid value (the empty set,
/// or a table of zeros): the solvers' transposition table allocates zeroed memory and reads
/// carriers from it without writing them first. A new width must keep that true.
pub trait BitSet:
    sealed::Sealed
    + Copy
    + Eq
    + Ord
    + Hash
    + Default
    + fmt::Debug
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + Sub<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
    + SubAssign
    + FromIterator<Cell>
    + Extend<Cell>
    + IntoIterator<Item = Cell, IntoIter = Cells<Self>>
{
    /// Cells per row in the layout; also the largest side length this width supports.
    const STRIDE: usize;
    /// Bit index of the north edge; the other edges follow.
    const EDGE_BASE: usize = Self::STRIDE * Self::STRIDE;
    /// Number of meaningful bits: the cell area and the four edges.
    const CAPACITY: usize = Self::EDGE_BASE + 4;
    /// The empty set.
    const EMPTY: Self;
    /// Every cell bit of the layout, without edges.
    const AREA: Self;
    /// The four edge bits.
    const EDGES: Self;
    /// Layout column 0.
    const FIRST_COLUMN: Self;
    /// Layout column `STRIDE - 1`.
    const LAST_COLUMN: Self;

    /// A `u16` per bit index (union-find parents and the like), stored inline.
    type Table: Copy + AsRef<[u16]> + AsMut<[u16]> + fmt::Debug + Send + Sync;
    /// A table of zeros.
    const ZERO_TABLE: Self::Table;

    /// The set holding only bit `bit`.
    fn from_bit(bit: usize) -> Self;
    /// Whether bit `bit` is set.
    fn has_bit(self, bit: usize) -> bool;
    /// Sets bit `bit` in place (one word touched, for the hot path).
    #[inline]
    fn set_bit(&mut self, bit: usize) {
        *self |= Self::from_bit(bit);
    }
    /// Flips bit `bit` in place (one word touched, for the hot path).
    #[inline]
    fn toggle_bit(&mut self, bit: usize) {
        *self ^= Self::from_bit(bit);
    }
    /// The lowest set bit.
    fn lowest_bit(self) -> Option<usize>;
    /// The set without its lowest bit.
    fn without_lowest(self) -> Self;
    /// The number of elements.
    fn len(self) -> usize;
    /// Shift towards higher bit indices.
    fn shl(self, n: u32) -> Self;
    /// Shift towards lower bit indices.
    fn shr(self, n: u32) -> Self;
    /// Geometries built so far, one slot per `(cols, rows)`.
    fn geometries() -> &'static [OnceLock<Geometry<Self>>];

    /// The bit index of a cell or edge in this layout.
    ///
    /// The cell must fit the layout (`col, row < STRIDE`); this is checked in debug builds.
    #[inline]
    fn bit_of(cell: Cell) -> usize {
        match cell.as_edge() {
            Some(e) => Self::EDGE_BASE + e as usize,
            None => {
                debug_assert!((cell.col() as usize) < Self::STRIDE);
                debug_assert!((cell.row() as usize) < Self::STRIDE);
                cell.row() as usize * Self::STRIDE + cell.col() as usize
            }
        }
    }

    /// The cell or edge at a bit index.
    #[inline]
    fn cell_of(bit: usize) -> Cell {
        if bit >= Self::EDGE_BASE {
            Cell::edge(Edge::ALL[bit - Self::EDGE_BASE])
        } else {
            Cell::at((bit % Self::STRIDE) as u8, (bit / Self::STRIDE) as u8)
        }
    }

    /// The set holding only `cell`.
    #[inline]
    fn single(cell: Cell) -> Self {
        Self::from_bit(Self::bit_of(cell))
    }

    /// Whether `cell` is in the set.
    #[inline]
    fn contains(self, cell: Cell) -> bool {
        self.has_bit(Self::bit_of(cell))
    }

    /// The set with `cell` added.
    #[inline]
    #[must_use]
    fn with(self, cell: Cell) -> Self {
        self | Self::single(cell)
    }

    /// The set with `cell` removed.
    #[inline]
    #[must_use]
    fn without(self, cell: Cell) -> Self {
        self - Self::single(cell)
    }

    /// Adds `cell`.
    #[inline]
    fn insert(&mut self, cell: Cell) {
        *self |= Self::single(cell);
    }

    /// Removes `cell`.
    #[inline]
    fn remove(&mut self, cell: Cell) {
        *self -= Self::single(cell);
    }

    /// Whether the set is empty.
    #[inline]
    fn is_empty(self) -> bool {
        self == Self::EMPTY
    }

    /// Whether every element of `self` is in `other`.
    #[inline]
    fn is_subset(self, other: Self) -> bool {
        (self - other).is_empty()
    }

    /// Whether the sets share an element.
    #[inline]
    fn intersects(self, other: Self) -> bool {
        !(self & other).is_empty()
    }

    /// The element with the lowest bit index (cells in board order, then edges).
    #[inline]
    fn first(self) -> Option<Cell> {
        self.lowest_bit().map(Self::cell_of)
    }

    /// Iterates over the elements in board order (`a1 b1 … a2 …`), then the edges.
    #[inline]
    fn iter(self) -> Cells<Self> {
        Cells { bits: self.bits() }
    }

    /// Iterates over the bit indices of the elements, lowest first: the form of [`BitSet::iter`]
    /// for code that indexes per-bit tables (see [`BitSet::bit_of`]).
    #[inline]
    fn bits(self) -> Bits<Self> {
        Bits { rest: self }
    }

    /// `self` grown through `within`: every element of `self`, and every cell of `within`
    /// joined to one of them by a chain of adjacent cells of `within`. With a single stone as
    /// `self` and a colour's stones as `within` this is the stone's group.
    ///
    /// This is the one flood fill of Nash (repeated [`BitSet::dilate`] to a fixed point); edge
    /// bits in `self` are kept but do not spread, so seed with a geometry's edge cells to
    /// flood from an edge.
    #[inline]
    #[must_use]
    fn flood(self, within: Self) -> Self {
        let mut reached = self;
        loop {
            let next = reached | (reached.dilate() & within);
            if next == reached {
                return reached;
            }
            reached = next;
        }
    }

    /// The cells of the layout adjacent to or in `self` (edges ignored and not produced).
    /// Callers intersect the result with the board's cells.
    #[inline]
    #[must_use]
    fn dilate(self) -> Self {
        let x = self & Self::AREA;
        let s = Self::STRIDE as u32;
        let grown = x
            | (x.shl(1) - Self::FIRST_COLUMN)
            | (x.shr(1) - Self::LAST_COLUMN)
            | x.shl(s)
            | x.shr(s)
            | (x.shr(s - 1) - Self::FIRST_COLUMN)
            | (x.shl(s - 1) - Self::LAST_COLUMN);
        grown & Self::AREA
    }
}

/// Iterator over the elements of a bitboard as cells and edges, lowest bit first
/// ([`BitSet::iter`]).
#[derive(Clone, Debug)]
pub struct Cells<B> {
    bits: Bits<B>,
}

impl<B: BitSet> Iterator for Cells<B> {
    type Item = Cell;

    #[inline]
    fn next(&mut self) -> Option<Cell> {
        self.bits.next().map(B::cell_of)
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.bits.size_hint()
    }
}

impl<B: BitSet> ExactSizeIterator for Cells<B> {}
impl<B: BitSet> FusedIterator for Cells<B> {}

/// Iterator over the bit indices of a bitboard's elements, lowest first ([`BitSet::bits`]).
#[derive(Clone, Debug)]
pub struct Bits<B> {
    rest: B,
}

impl<B: BitSet> Iterator for Bits<B> {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        let bit = self.rest.lowest_bit()?;
        self.rest = self.rest.without_lowest();
        Some(bit)
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.rest.len();
        (n, Some(n))
    }
}

impl<B: BitSet> ExactSizeIterator for Bits<B> {}
impl<B: BitSet> FusedIterator for Bits<B> {}

/// Builds a bitboard from cell names: `bitboard![a1 b2 north]`.
///
/// The result's width is inferred, so the macro serves every [`BitSet`].
#[macro_export]
macro_rules! bitboard {
    ($($cell:ident)*) => {
        [$(<$crate::Cell as ::std::str::FromStr>::from_str(stringify!($cell))
            .expect("bitboard! takes cell names")),*]
            .into_iter()
            .collect()
    };
}

/// Draws the rhombus spanned by the set's cells, `X` for members and `.` for the rest, with the
/// member edges named below it.
fn draw<B: BitSet>(bits: B, name: &str, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    let cells = bits & B::AREA;
    let side = cells.iter().map(|c| c.col().max(c.row()) as usize + 1).max().unwrap_or(1);
    writeln!(f, "{name} {{")?;
    write!(f, "   ")?;
    for col in 0..side {
        write!(f, " {:<2}", Cell::column_name(col as u8))?;
    }
    writeln!(f)?;
    for row in 0..side {
        write!(f, "{:>width$}{:>2} ", "", row + 1, width = row)?;
        for col in 0..side {
            let c = Cell::at(col as u8, row as u8);
            write!(f, " {} ", if cells.contains(c) { 'X' } else { '.' })?;
        }
        writeln!(f)?;
    }
    let edges: Vec<&str> =
        (bits & B::EDGES).iter().filter_map(|c| c.as_edge()).map(Edge::name).collect();
    if !edges.is_empty() {
        writeln!(f, "  edges: {}", edges.join(" "))?;
    }
    write!(f, "}}")
}

/// Writes the set as a `bitboard![...]` literal.
fn literal<B: BitSet>(bits: B, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    write!(f, "bitboard![{}]", CellList(bits))
}

/// The operator, iterator and `Debug` implementations every width shares, in terms of its
/// inherent `const` set operations.
macro_rules! common_impls {
    ($t:ident) => {
        impl $crate::bitboard::sealed::Sealed for $t {}

        impl BitAnd for $t {
            type Output = $t;
            #[inline]
            fn bitand(self, rhs: $t) -> $t {
                self.intersection(rhs)
            }
        }
        impl BitOr for $t {
            type Output = $t;
            #[inline]
            fn bitor(self, rhs: $t) -> $t {
                self.union(rhs)
            }
        }
        impl BitXor for $t {
            type Output = $t;
            #[inline]
            fn bitxor(self, rhs: $t) -> $t {
                self.symmetric_difference(rhs)
            }
        }
        impl Sub for $t {
            type Output = $t;
            #[inline]
            fn sub(self, rhs: $t) -> $t {
                self.difference(rhs)
            }
        }
        impl Not for $t {
            type Output = $t;
            /// The complement within the layout's meaningful bits (cells and edges).
            #[inline]
            fn not(self) -> $t {
                self.complement()
            }
        }
        impl BitAndAssign for $t {
            #[inline]
            fn bitand_assign(&mut self, rhs: $t) {
                *self = *self & rhs;
            }
        }
        impl BitOrAssign for $t {
            #[inline]
            fn bitor_assign(&mut self, rhs: $t) {
                *self = *self | rhs;
            }
        }
        impl BitXorAssign for $t {
            #[inline]
            fn bitxor_assign(&mut self, rhs: $t) {
                *self = *self ^ rhs;
            }
        }
        impl SubAssign for $t {
            #[inline]
            fn sub_assign(&mut self, rhs: $t) {
                *self = *self - rhs;
            }
        }
        impl FromIterator<Cell> for $t {
            fn from_iter<I: IntoIterator<Item = Cell>>(iter: I) -> $t {
                let mut b = $t::EMPTY;
                b.extend(iter);
                b
            }
        }
        impl Extend<Cell> for $t {
            fn extend<I: IntoIterator<Item = Cell>>(&mut self, iter: I) {
                for c in iter {
                    BitSet::insert(self, c);
                }
            }
        }
        impl IntoIterator for $t {
            type Item = Cell;
            type IntoIter = Cells<$t>;
            #[inline]
            fn into_iter(self) -> Cells<$t> {
                BitSet::iter(self)
            }
        }
        impl fmt::Debug for $t {
            /// `{:?}` draws the rhombus; `{:#?}` writes the `bitboard![...]` literal, which
            /// pastes back into a test.
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                if f.alternate() {
                    literal(*self, f)
                } else {
                    draw(*self, stringify!($t), f)
                }
            }
        }
    };
}

pub(crate) use common_impls;
