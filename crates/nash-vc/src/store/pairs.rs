//! The index spaces of a connection set: a dense id ([`EndId`]) per cell or edge of the board,
//! and a pair index ([`PairIdx`]) per unordered pair of distinct dense ids (the upper
//! triangle), with the tables that map between them and the bitboard index, and the tables
//! that only their own kind of index reads ([`PerEnd`], [`PerPair`]). Ends themselves are bit
//! indices (`usize`), as everywhere the board's bitsets are read.

use std::ops::{Index, IndexMut};

use nash_board::{BitSet, Geometry};

/// A dense id: an end's place among the cells and edges of the board, `0..n`.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub(crate) struct EndId(u16);

/// A pair index: one unordered pair of distinct dense ids.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct PairIdx(u32);

impl PairIdx {
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A table with one entry per dense id, read only with an [`EndId`].
#[derive(Clone, Debug, Default)]
pub(super) struct PerEnd<T>(Vec<T>);

/// A table with one entry per pair index, read only with a [`PairIdx`].
#[derive(Clone, Debug, Default)]
pub(super) struct PerPair<T>(Vec<T>);

macro_rules! table {
    ($table:ident, $idx:ident) => {
        impl<T: Clone> $table<T> {
            pub const fn new() -> $table<T> {
                $table(Vec::new())
            }

            /// Every entry `value`, `len` of them.
            pub fn reset(&mut self, len: usize, value: T) {
                self.0.clear();
                self.0.resize(len, value);
            }

            /// Bytes the table holds on the heap.
            pub fn heap_bytes(&self) -> usize {
                super::cap(&self.0)
            }
        }

        impl<T> Index<$idx> for $table<T> {
            type Output = T;

            #[inline]
            fn index(&self, i: $idx) -> &T {
                &self.0[i.0 as usize]
            }
        }

        impl<T> IndexMut<$idx> for $table<T> {
            #[inline]
            fn index_mut(&mut self, i: $idx) -> &mut T {
                &mut self.0[i.0 as usize]
            }
        }
    };
}

table!(PerEnd, EndId);
table!(PerPair, PairIdx);

impl<T: Clone> PerPair<T> {
    /// Number of pair indices.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn fill(&mut self, value: T) {
        self.0.fill(value);
    }
}

/// What the id table holds for a bit off the board (never asked for).
const OFF_BOARD: u16 = u16::MAX;

/// The dense ids and pair indices of one board.
#[derive(Debug)]
pub(super) struct PairIndex<B: BitSet> {
    /// Dense ids: per bit index, the id of that cell or edge ([`OFF_BOARD`] off the board).
    id_of: B::Table,
    /// Number of dense ids (cells of the board plus the four edges).
    pub n: usize,
    /// The board's columns and rows the tables were made for.
    pub shape: (usize, usize),
    /// Per dense id `x`, the pair index of `(x, y)` for `y > x` is `row[x] + y` (wrapping).
    row: Vec<u32>,
    /// Per pair index, its two ends as bit indices.
    ends: Vec<[u16; 2]>,
}

impl<B: BitSet> Clone for PairIndex<B> {
    fn clone(&self) -> PairIndex<B> {
        let mut t = PairIndex::new();
        t.clone_from(self);
        t
    }

    fn clone_from(&mut self, src: &PairIndex<B>) {
        self.id_of = src.id_of;
        self.n = src.n;
        self.shape = src.shape;
        self.row.clone_from(&src.row);
        self.ends.clone_from(&src.ends);
    }
}

impl<B: BitSet> PairIndex<B> {
    pub fn new() -> PairIndex<B> {
        PairIndex { id_of: B::ZERO_TABLE, n: 0, shape: (0, 0), row: Vec::new(), ends: Vec::new() }
    }

    /// Makes the tables for `geom` unless they are already for a board of its shape; returns
    /// whether they changed.
    pub fn set_board(&mut self, geom: &Geometry<B>) -> bool {
        let n = geom.cols() * geom.rows() + 4;
        let shape = (geom.cols(), geom.rows());
        if shape == self.shape {
            return false;
        }
        let mut bit_of = vec![0u16; n];
        let ids = self.id_of.as_mut();
        ids.fill(OFF_BOARD);
        for (next, c) in (geom.cells() | B::EDGES).into_iter().enumerate() {
            let bit = B::bit_of(c);
            ids[bit] = next as u16;
            bit_of[next] = bit as u16;
        }
        self.shape = shape;
        self.n = n;
        self.row.clear();
        self.ends.clear();
        for x in 0..n {
            // Pairs (x', y) with x' < x come first: x * (2n - x - 1) / 2 of them.
            let base = x * (2 * n - x - 1) / 2;
            self.row.push((base as u32).wrapping_sub(x as u32 + 1));
            for y in x + 1..n {
                self.ends.push([bit_of[x], bit_of[y]]);
            }
        }
        true
    }

    /// Number of pair indices.
    pub fn pairs(&self) -> usize {
        self.ends.len()
    }

    /// The dense id of a bit index on the board.
    #[inline]
    pub fn id(&self, bit: usize) -> EndId {
        let id = self.id_of.as_ref()[bit];
        debug_assert!(id != OFF_BOARD, "bit {bit} is off the board");
        EndId(id)
    }

    /// The pair index of two distinct dense ids.
    #[inline]
    pub fn pair_of_ids(&self, x: EndId, y: EndId) -> PairIdx {
        let (lo, hi) = if x < y { (x, y) } else { (y, x) };
        PairIdx(self.row[lo.0 as usize].wrapping_add(u32::from(hi.0)))
    }

    /// The pair index of two distinct ends (bit indices).
    #[inline]
    pub fn pair(&self, a: usize, b: usize) -> PairIdx {
        self.pair_of_ids(self.id(a), self.id(b))
    }

    /// The two ends (bit indices) of a pair index.
    #[inline]
    pub fn ends_of(&self, p: PairIdx) -> (usize, usize) {
        let [a, b] = self.ends[p.index()];
        (a as usize, b as usize)
    }

    /// Bytes the tables hold on the heap.
    pub fn heap_bytes(&self) -> usize {
        super::cap(&self.row) + super::cap(&self.ends)
    }
}

/// A pair of ends as the rules address it: the two ends (bit indices) in the order the
/// connection is made, their dense ids and the pair index.
#[derive(Clone, Copy, Debug)]
pub(super) struct PairAt {
    pub p: PairIdx,
    pub a: usize,
    pub b: usize,
    pub ia: EndId,
    pub ib: EndId,
}

impl<B: BitSet> PairIndex<B> {
    /// The pair `(a, b)` of distinct ends (bit indices).
    #[inline]
    pub fn at(&self, a: usize, b: usize) -> PairAt {
        let (ia, ib) = (self.id(a), self.id(b));
        PairAt { p: self.pair_of_ids(ia, ib), a, b, ia, ib }
    }
}
