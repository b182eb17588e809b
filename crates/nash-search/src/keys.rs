//! Transposition-table keys: the board's own Zobrist hash, with helpers that derive a child's
//! key in one XOR without playing the move, and account for fill-in stones as they are placed.

use nash_board::{BitSet, Color, Geometry, Position, WHITE_TO_MOVE_KEY};

/// The key of a set of stones of one colour.
#[inline]
pub(crate) fn stones<B: BitSet>(geom: &Geometry<B>, color: Color, set: B) -> u64 {
    let mut h = 0;
    let mut rest = set;
    while let Some(bit) = rest.lowest_bit() {
        rest = rest.without_lowest();
        h ^= geom.stone_key(color, bit);
    }
    h
}

/// The key of a position: stones, side to move and board size. The side to move is always part
/// of a key, because fill-in breaks the link between stone counts and the side to move.
#[inline]
pub(crate) fn position<B: BitSet>(pos: &Position<B>) -> u64 {
    pos.hash()
}

/// The key after the side to move plays on `bit`.
#[inline]
pub(crate) fn child<B: BitSet>(geom: &Geometry<B>, key: u64, mover: Color, bit: usize) -> u64 {
    key ^ geom.stone_key(mover, bit) ^ WHITE_TO_MOVE_KEY
}
