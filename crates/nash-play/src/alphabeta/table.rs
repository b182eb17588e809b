//! The alpha-beta transposition table: a fixed-size array of entries keyed by
//! `Position::hash`, allocated once per player and board, never a map.

use nash_board::{BitSet, Cell};

/// What an entry's value says about the position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Bound {
    /// The value is exact.
    Exact,
    /// The value is at least this (the search failed high).
    Lower,
    /// The value is at most this (the search failed low).
    Upper,
}

/// One searched position.
#[derive(Clone, Copy, Debug)]
pub(super) struct Entry<B> {
    /// The position's hash; 0 marks an empty slot.
    pub(super) key: u64,
    /// The value, proven values stored relative to the node (see `search::to_table`).
    pub(super) value: f64,
    /// For a proven value, the threat pattern that proves it (van Rijswijck 2002 s.2.3).
    pub(super) carrier: B,
    /// The best move found, as a bit index (`u16::MAX`: none).
    pub(super) best: u16,
    /// The depth searched below the position.
    pub(super) depth: u8,
    pub(super) bound: Bound,
}

impl<B: BitSet> Entry<B> {
    const EMPTY: Entry<B> = Entry {
        key: 0,
        value: 0.0,
        carrier: B::EMPTY,
        best: u16::MAX,
        depth: 0,
        bound: Bound::Exact,
    };

    /// The best move, if one was stored.
    pub(super) fn best_move(&self) -> Option<Cell> {
        (self.best != u16::MAX).then(|| B::cell_of(self.best as usize))
    }
}

/// A direct-mapped table of a power-of-two number of entries.
#[derive(Debug)]
pub(super) struct Table<B> {
    entries: Vec<Entry<B>>,
}

impl<B: BitSet> Table<B> {
    /// A table of at most `mib` MiB (at least 1024 entries).
    pub(super) fn new(mib: usize) -> Table<B> {
        let size = std::mem::size_of::<Entry<B>>();
        let wanted = (mib.saturating_mul(1 << 20) / size).max(1024);
        let len = if wanted.is_power_of_two() { wanted } else { wanted.next_power_of_two() / 2 };
        Table { entries: vec![Entry::EMPTY; len] }
    }

    fn slot(&self, key: u64) -> usize {
        // The high bits: the low ones of a Zobrist key are as good, but keys of sibling
        // positions differ in every bit, so either spreads them.
        (key >> 32) as usize & (self.entries.len() - 1)
    }

    /// The entry of `key`, if the table holds it.
    pub(super) fn get(&self, key: u64) -> Option<&Entry<B>> {
        let e = &self.entries[self.slot(key)];
        (e.key == key && key != 0).then_some(e)
    }

    /// Stores `entry`, replacing what its slot held unless that is the same position searched
    /// deeper (a shallower result of the same position is worth less).
    pub(super) fn put(&mut self, entry: Entry<B>) {
        let slot = self.slot(entry.key);
        let old = &mut self.entries[slot];
        if old.key != entry.key || entry.depth >= old.depth || entry.bound == Bound::Exact {
            *old = entry;
        }
    }
}
