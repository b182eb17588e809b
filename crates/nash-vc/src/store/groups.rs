//! Group naming: every group of a player's stones is one end of the connection set, named by
//! its lowest stone.

use nash_board::BitSet;

/// The names of one player's groups.
#[derive(Clone, Copy, Debug)]
pub(super) struct Groups<B: BitSet> {
    /// Group names: the lowest stone of each group.
    pub reps: B,
    /// Per stone bit, the name of its group.
    rep_of: B::Table,
}

impl<B: BitSet> Groups<B> {
    pub fn new() -> Groups<B> {
        Groups { reps: B::EMPTY, rep_of: B::ZERO_TABLE }
    }

    /// Names the groups of the stones `own` from scratch.
    pub fn name(&mut self, own: B) {
        self.reps = B::EMPTY;
        let mut rest = own;
        while let Some(first) = rest.lowest_bit() {
            let g = B::from_bit(first).flood(own);
            rest -= g;
            self.reps |= B::from_bit(first);
            for b in g.bits() {
                self.rep_of.as_mut()[b] = first as u16;
            }
        }
    }

    /// The name of the group of the stone `bit`.
    #[inline]
    pub fn rep(&self, bit: usize) -> usize {
        self.rep_of.as_ref()[bit] as usize
    }

    /// The group name of `bit` if it is one of the stones `own`, or the cell or edge itself.
    #[inline]
    pub fn end_of(&self, own: B, bit: usize) -> usize {
        if bit < B::EDGE_BASE && own.has_bit(bit) {
            self.rep(bit)
        } else {
            bit
        }
    }

    /// Renames every group that one of the new stones `stones` belongs to (`own` holds them
    /// already) after its lowest stone. Returns the ends that move: the old group names inside
    /// those groups, and the new stones themselves.
    pub fn join(&mut self, own: B, stones: B) -> B {
        let mut renamed = stones;
        let mut rest = stones;
        while let Some(first) = rest.lowest_bit() {
            let group = B::from_bit(first).flood(own);
            rest -= group;
            let g = group.lowest_bit().unwrap_or(first);
            renamed |= self.reps & group;
            self.reps = (self.reps - group) | B::from_bit(g);
            for b in group.bits() {
                self.rep_of.as_mut()[b] = g as u16;
            }
        }
        renamed
    }
}
