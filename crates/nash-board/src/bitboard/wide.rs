//! The multi-word bitboard width: [`WideBitboard`], six `u64` words for boards up to 19×19.

use std::fmt;
use std::ops::{
    BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Sub, SubAssign,
};
use std::sync::OnceLock;

use super::{common_impls, draw, literal, BitSet, Cells};
use crate::cell::Cell;
use crate::geometry::Geometry;

const WIDE_STRIDE: usize = 19;
const WIDE_WORDS: usize = 6;
const WIDE_BITS: usize = WIDE_STRIDE * WIDE_STRIDE + 4;

/// A set of cells and edges on boards up to 19×19, in six `u64` words.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct WideBitboard(pub [u64; WIDE_WORDS]);

const fn wide_mask_upto(n: usize) -> [u64; WIDE_WORDS] {
    let mut w = [0u64; WIDE_WORDS];
    let mut i = 0;
    while i < n {
        w[i / 64] |= 1 << (i % 64);
        i += 1;
    }
    w
}

const fn wide_column(col: usize) -> [u64; WIDE_WORDS] {
    let mut w = [0u64; WIDE_WORDS];
    let mut r = 0;
    while r < WIDE_STRIDE {
        let i = r * WIDE_STRIDE + col;
        w[i / 64] |= 1 << (i % 64);
        r += 1;
    }
    w
}

const WIDE_MASK: [u64; WIDE_WORDS] = wide_mask_upto(WIDE_BITS);

impl WideBitboard {
    /// The empty set.
    pub const EMPTY: WideBitboard = WideBitboard([0; WIDE_WORDS]);

    const fn bit(cell: Cell) -> usize {
        match cell.as_edge() {
            Some(e) => WIDE_STRIDE * WIDE_STRIDE + e as usize,
            None => cell.row() as usize * WIDE_STRIDE + cell.col() as usize,
        }
    }

    /// The set holding only `cell`, which must fit a 19×19 layout.
    #[inline]
    pub const fn single(cell: Cell) -> WideBitboard {
        let bit = WideBitboard::bit(cell);
        let mut w = [0u64; WIDE_WORDS];
        w[bit / 64] = 1 << (bit % 64);
        WideBitboard(w)
    }

    /// Whether `cell` is in the set.
    #[inline]
    pub const fn contains(self, cell: Cell) -> bool {
        let bit = WideBitboard::bit(cell);
        self.0[bit / 64] >> (bit % 64) & 1 != 0
    }

    /// The set with `cell` added.
    #[inline]
    #[must_use]
    pub const fn with(self, cell: Cell) -> WideBitboard {
        self.union(WideBitboard::single(cell))
    }

    /// The set with `cell` removed.
    #[inline]
    #[must_use]
    pub const fn without(self, cell: Cell) -> WideBitboard {
        self.difference(WideBitboard::single(cell))
    }

    /// `self ∪ other`.
    #[inline]
    pub const fn union(self, other: WideBitboard) -> WideBitboard {
        let mut w = self.0;
        let mut i = 0;
        while i < WIDE_WORDS {
            w[i] |= other.0[i];
            i += 1;
        }
        WideBitboard(w)
    }

    /// `self ∩ other`.
    #[inline]
    pub const fn intersection(self, other: WideBitboard) -> WideBitboard {
        let mut w = self.0;
        let mut i = 0;
        while i < WIDE_WORDS {
            w[i] &= other.0[i];
            i += 1;
        }
        WideBitboard(w)
    }

    /// `self \ other`.
    #[inline]
    pub const fn difference(self, other: WideBitboard) -> WideBitboard {
        let mut w = self.0;
        let mut i = 0;
        while i < WIDE_WORDS {
            w[i] &= !other.0[i];
            i += 1;
        }
        WideBitboard(w)
    }

    /// Elements in exactly one of the sets.
    #[inline]
    pub const fn symmetric_difference(self, other: WideBitboard) -> WideBitboard {
        let mut w = self.0;
        let mut i = 0;
        while i < WIDE_WORDS {
            w[i] ^= other.0[i];
            i += 1;
        }
        WideBitboard(w)
    }

    /// Every cell and edge of the layout not in `self`.
    #[inline]
    pub const fn complement(self) -> WideBitboard {
        let mut w = self.0;
        let mut i = 0;
        while i < WIDE_WORDS {
            w[i] = !w[i] & WIDE_MASK[i];
            i += 1;
        }
        WideBitboard(w)
    }

    /// The number of elements.
    #[inline]
    pub const fn len(self) -> usize {
        let mut n = 0;
        let mut i = 0;
        while i < WIDE_WORDS {
            n += self.0[i].count_ones() as usize;
            i += 1;
        }
        n
    }

    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        let mut i = 0;
        while i < WIDE_WORDS {
            if self.0[i] != 0 {
                return false;
            }
            i += 1;
        }
        true
    }

    /// Whether every element of `self` is in `other`.
    #[inline]
    pub const fn is_subset(self, other: WideBitboard) -> bool {
        self.difference(other).is_empty()
    }

    /// Whether the sets share an element.
    #[inline]
    pub const fn intersects(self, other: WideBitboard) -> bool {
        !self.intersection(other).is_empty()
    }
}

static WIDE_GEOMETRIES: [OnceLock<Geometry<WideBitboard>>; WIDE_STRIDE * WIDE_STRIDE] =
    [const { OnceLock::new() }; WIDE_STRIDE * WIDE_STRIDE];

impl BitSet for WideBitboard {
    const STRIDE: usize = WIDE_STRIDE;
    const EMPTY: WideBitboard = WideBitboard([0; WIDE_WORDS]);
    const AREA: WideBitboard = WideBitboard(wide_mask_upto(WIDE_STRIDE * WIDE_STRIDE));
    const EDGES: WideBitboard = WideBitboard(wide_mask_upto(WIDE_BITS))
        .difference(WideBitboard(wide_mask_upto(WIDE_STRIDE * WIDE_STRIDE)));
    const FIRST_COLUMN: WideBitboard = WideBitboard(wide_column(0));
    const LAST_COLUMN: WideBitboard = WideBitboard(wide_column(WIDE_STRIDE - 1));
    type Table = [u16; WIDE_BITS];
    const ZERO_TABLE: [u16; WIDE_BITS] = [0; WIDE_BITS];

    #[inline]
    fn from_bit(bit: usize) -> WideBitboard {
        let mut w = [0u64; WIDE_WORDS];
        w[bit / 64] = 1 << (bit % 64);
        WideBitboard(w)
    }
    #[inline]
    fn has_bit(self, bit: usize) -> bool {
        self.0[bit / 64] >> (bit % 64) & 1 != 0
    }
    #[inline]
    fn set_bit(&mut self, bit: usize) {
        self.0[bit / 64] |= 1 << (bit % 64);
    }
    #[inline]
    fn toggle_bit(&mut self, bit: usize) {
        self.0[bit / 64] ^= 1 << (bit % 64);
    }
    #[inline]
    fn lowest_bit(self) -> Option<usize> {
        self.0
            .iter()
            .enumerate()
            .find(|(_, w)| **w != 0)
            .map(|(i, w)| i * 64 + w.trailing_zeros() as usize)
    }
    #[inline]
    fn without_lowest(mut self) -> WideBitboard {
        if let Some(w) = self.0.iter_mut().find(|w| **w != 0) {
            *w &= *w - 1;
        }
        self
    }
    #[inline]
    fn len(self) -> usize {
        WideBitboard::len(self)
    }
    #[inline]
    fn shl(self, n: u32) -> WideBitboard {
        let (words, bits) = ((n / 64) as usize, n % 64);
        let mut out = [0u64; WIDE_WORDS];
        for i in (words..WIDE_WORDS).rev() {
            let src = i - words;
            let mut v = self.0[src] << bits;
            if bits != 0 && src > 0 {
                v |= self.0[src - 1] >> (64 - bits);
            }
            out[i] = v & WIDE_MASK[i];
        }
        WideBitboard(out)
    }
    #[inline]
    #[allow(clippy::needless_range_loop)] // two words are read per output word
    fn shr(self, n: u32) -> WideBitboard {
        let (words, bits) = ((n / 64) as usize, n % 64);
        let mut out = [0u64; WIDE_WORDS];
        for i in 0..WIDE_WORDS.saturating_sub(words) {
            let src = i + words;
            let mut v = self.0[src] >> bits;
            if bits != 0 && src + 1 < WIDE_WORDS {
                v |= self.0[src + 1] << (64 - bits);
            }
            out[i] = v;
        }
        WideBitboard(out)
    }
    fn geometries() -> &'static [OnceLock<Geometry<WideBitboard>>] {
        &WIDE_GEOMETRIES
    }
}

common_impls!(WideBitboard);
