//! Zobrist keys owned by the solvers, so that a child's key is one XOR away from its parent's
//! without playing the move, and fill-in stones can be hashed as they are placed.

use nash_board::{BitSet, Color, Position};

/// Bits covered: the widest layout (19×19 cells and four edges) fits.
const BITS: usize = 400;

const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (s, z ^ (z >> 31))
}

const fn generate() -> [[u64; BITS]; 2] {
    let mut out = [[0u64; BITS]; 2];
    let mut state = 0x4e41_5348_4845_5821u64;
    let mut c = 0;
    while c < 2 {
        let mut i = 0;
        while i < BITS {
            let (s, v) = splitmix(state);
            state = s;
            out[c][i] = v;
            i += 1;
        }
        c += 1;
    }
    out
}

static STONE: [[u64; BITS]; 2] = generate();

/// XORed into the key when White is to move: the side to move is always part of a key, because
/// fill-in breaks the link between stone counts and the side to move.
pub(crate) const WHITE_TO_MOVE: u64 = 0x7d1f_3c5a_9e2b_4f61;

/// The key of one stone.
#[inline]
pub(crate) fn stone(color: Color, bit: usize) -> u64 {
    STONE[color.index()][bit]
}

/// The key of a set of stones of one colour.
#[inline]
pub(crate) fn stones<B: BitSet>(color: Color, set: B) -> u64 {
    let mut h = 0;
    let mut rest = set;
    while let Some(bit) = rest.lowest_bit() {
        rest = rest.without_lowest();
        h ^= stone(color, bit);
    }
    h
}

/// The key of a position from scratch: stones, side to move and board size.
pub(crate) fn position<B: BitSet>(pos: &Position<B>) -> u64 {
    let size = (pos.cols() as u64) << 8 | pos.rows() as u64;
    let mut h = splitmix(size).1;
    for c in Color::ALL {
        h ^= stones(c, pos.stones(c));
    }
    if pos.to_move() == Color::White {
        h ^= WHITE_TO_MOVE;
    }
    h
}

/// The key after the side to move plays on `bit`.
#[inline]
pub(crate) fn child(key: u64, mover: Color, bit: usize) -> u64 {
    key ^ stone(mover, bit) ^ WHITE_TO_MOVE
}
