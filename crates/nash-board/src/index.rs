//! [`OptIndex`]: a small index or none in two bytes, with `u16::MAX` as its none, for the
//! index tables that hot loops read (an `Option<u16>` would take four bytes, and reading one
//! costs the same compare).

use std::fmt;

/// A `u16` index, or none: `u16::MAX` is the none and never an index.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct OptIndex(u16);

impl OptIndex {
    /// No index.
    pub const NONE: OptIndex = OptIndex(u16::MAX);

    /// The index `i`, which must be below `u16::MAX` (checked in debug builds).
    #[inline]
    pub const fn some(i: u16) -> OptIndex {
        debug_assert!(i != u16::MAX);
        OptIndex(i)
    }

    /// The index, if any.
    #[inline]
    pub const fn get(self) -> Option<u16> {
        if self.0 == u16::MAX {
            None
        } else {
            Some(self.0)
        }
    }

    /// The index as a `usize`, if any.
    #[inline]
    pub const fn index(self) -> Option<usize> {
        if self.0 == u16::MAX {
            None
        } else {
            Some(self.0 as usize)
        }
    }

    /// Whether there is no index.
    #[inline]
    pub const fn is_none(self) -> bool {
        self.0 == u16::MAX
    }
}

impl Default for OptIndex {
    /// No index.
    fn default() -> OptIndex {
        OptIndex::NONE
    }
}

impl From<Option<u16>> for OptIndex {
    fn from(i: Option<u16>) -> OptIndex {
        i.map_or(OptIndex::NONE, OptIndex::some)
    }
}

impl fmt::Debug for OptIndex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.get().fmt(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_index_reads_back_and_none_is_none() {
        for i in [0u16, 1, 400, u16::MAX - 1] {
            let x = OptIndex::some(i);
            assert_eq!((x.get(), x.index(), x.is_none()), (Some(i), Some(i as usize), false));
            assert_eq!(OptIndex::from(Some(i)), x);
        }
        let none = OptIndex::from(None);
        assert_eq!((none, none.get(), none.index()), (OptIndex::NONE, None, None));
        assert!(none.is_none());
        assert_eq!(format!("{:?} {:?}", OptIndex::some(3), none), "Some(3) None");
        assert_eq!(std::mem::size_of::<OptIndex>(), 2);
    }
}
