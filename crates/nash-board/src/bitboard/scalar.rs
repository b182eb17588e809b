//! The bitboard widths held in one machine integer: [`Bitboard`] (`u128`, boards up to 11×11)
//! and [`TinyBitboard`] (`u64`, up to 7×7), both made by one macro.

use std::fmt;
use std::ops::{
    BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Sub, SubAssign,
};
use std::sync::OnceLock;

use super::{common_impls, draw, literal, BitSet, Cells};
use crate::cell::Cell;
use crate::geometry::Geometry;

/// A bitboard in one machine integer: the set type, its inherent `const` set operations, its
/// [`BitSet`] implementation and the shared operator implementations, for a given integer,
/// stride and `u16` table length (at least the stride squared plus the four edges).
macro_rules! scalar_bitboard {
    ($(#[$doc:meta])* $t:ident, $int:ty, $stride:expr, $table:expr, $geoms:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
        pub struct $t(pub $int);

        impl $t {
            const STRIDE: usize = $stride;
            const MASK: $int = <$int>::MAX >> (<$int>::BITS as usize - ($stride * $stride + 4));

            const fn column(col: usize) -> $int {
                let mut m: $int = 0;
                let mut r = 0;
                while r < $stride {
                    m |= 1 << (r * $stride + col);
                    r += 1;
                }
                m
            }

            /// The empty set.
            pub const EMPTY: $t = $t(0);

            /// The set holding only `cell`, which must fit the layout.
            #[inline]
            pub const fn single(cell: Cell) -> $t {
                let bit = match cell.as_edge() {
                    Some(e) => $t::STRIDE * $t::STRIDE + e as usize,
                    None => cell.row() as usize * $t::STRIDE + cell.col() as usize,
                };
                $t(1 << bit)
            }

            /// Whether `cell` is in the set.
            #[inline]
            pub const fn contains(self, cell: Cell) -> bool {
                self.0 & $t::single(cell).0 != 0
            }

            /// The set with `cell` added.
            #[inline]
            #[must_use]
            pub const fn with(self, cell: Cell) -> $t {
                $t(self.0 | $t::single(cell).0)
            }

            /// The set with `cell` removed.
            #[inline]
            #[must_use]
            pub const fn without(self, cell: Cell) -> $t {
                $t(self.0 & !$t::single(cell).0)
            }

            /// `self ∪ other`.
            #[inline]
            pub const fn union(self, other: $t) -> $t {
                $t(self.0 | other.0)
            }

            /// `self ∩ other`.
            #[inline]
            pub const fn intersection(self, other: $t) -> $t {
                $t(self.0 & other.0)
            }

            /// `self \ other`.
            #[inline]
            pub const fn difference(self, other: $t) -> $t {
                $t(self.0 & !other.0)
            }

            /// Elements in exactly one of the sets.
            #[inline]
            pub const fn symmetric_difference(self, other: $t) -> $t {
                $t(self.0 ^ other.0)
            }

            /// Every cell and edge of the layout not in `self`.
            #[inline]
            pub const fn complement(self) -> $t {
                $t(!self.0 & $t::MASK)
            }

            /// The number of elements.
            #[inline]
            pub const fn len(self) -> usize {
                self.0.count_ones() as usize
            }

            /// Whether the set is empty.
            #[inline]
            pub const fn is_empty(self) -> bool {
                self.0 == 0
            }

            /// Whether every element of `self` is in `other`.
            #[inline]
            pub const fn is_subset(self, other: $t) -> bool {
                self.0 & !other.0 == 0
            }

            /// Whether the sets share an element.
            #[inline]
            pub const fn intersects(self, other: $t) -> bool {
                self.0 & other.0 != 0
            }
        }

        static $geoms: [OnceLock<Geometry<$t>>; $stride * $stride] =
            [const { OnceLock::new() }; $stride * $stride];

        impl BitSet for $t {
            const STRIDE: usize = $stride;
            const EMPTY: $t = $t(0);
            const AREA: $t = $t((1 << ($stride * $stride)) - 1);
            const EDGES: $t = $t(0xf << ($stride * $stride));
            const FIRST_COLUMN: $t = $t($t::column(0));
            const LAST_COLUMN: $t = $t($t::column($stride - 1));
            type Table = [u16; $table];
            const ZERO_TABLE: [u16; $table] = [0; $table];

            #[inline]
            fn from_bit(bit: usize) -> $t {
                $t(1 << bit)
            }
            #[inline]
            fn has_bit(self, bit: usize) -> bool {
                self.0 >> bit & 1 != 0
            }
            #[inline]
            fn lowest_bit(self) -> Option<usize> {
                if self.0 == 0 {
                    None
                } else {
                    Some(self.0.trailing_zeros() as usize)
                }
            }
            #[inline]
            fn without_lowest(self) -> $t {
                $t(self.0 & self.0.wrapping_sub(1))
            }
            #[inline]
            fn len(self) -> usize {
                self.0.count_ones() as usize
            }
            #[inline]
            fn shl(self, n: u32) -> $t {
                $t((self.0 << n) & $t::MASK)
            }
            #[inline]
            fn shr(self, n: u32) -> $t {
                $t(self.0 >> n)
            }
            fn geometries() -> &'static [OnceLock<Geometry<$t>>] {
                &$geoms
            }
        }

        common_impls!($t);
    };
}

scalar_bitboard!(
    /// A set of cells and edges on boards up to 11×11, in one `u128`.
    Bitboard,
    u128,
    11,
    128,
    SMALL_GEOMETRIES
);

scalar_bitboard!(
    /// A set of cells and edges on boards up to 7×7, in one `u64`: half the memory of a
    /// [`Bitboard`] per set, which the solvers use on the small boards (connection carriers
    /// fill most of their memory traffic).
    TinyBitboard,
    u64,
    7,
    64,
    TINY_GEOMETRIES
);
