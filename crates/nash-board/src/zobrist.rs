//! Zobrist keys for hashing positions, the same for every bitboard width.

/// Cells are numbered `row * 19 + col` for hashing, whatever the layout.
pub(crate) const HASH_CELLS: usize = 19 * 19;

/// SplitMix64, one step: the next state and the key drawn. Written here rather than taken from
/// `rand` because the key table is built at compile time (a `const fn`), and because the keys
/// must never change with a dependency: the Monte Carlo players seed each search from the
/// position's hash, so other keys would change every seeded player's moves.
const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (s, z ^ (z >> 31))
}

const fn keys() -> [[u64; HASH_CELLS]; 2] {
    let mut out = [[0u64; HASH_CELLS]; 2];
    let mut state = 0x4e61_7368_4865_7821; // "NashHex!"
    let mut c = 0;
    while c < 2 {
        let mut i = 0;
        while i < HASH_CELLS {
            let (s, k) = splitmix(state);
            state = s;
            out[c][i] = k;
            i += 1;
        }
        c += 1;
    }
    out
}

/// One key per colour and cell.
pub(crate) static STONE: [[u64; HASH_CELLS]; 2] = keys();

/// Xored in when White is to move.
pub(crate) const WHITE_TO_MOVE: u64 = splitmix(0x5749_5445_544f_4d56).1;

/// A key for the board's shape, so that positions of different sizes never share a hash.
pub(crate) const fn size_key(cols: usize, rows: usize) -> u64 {
    splitmix(0x5349_5a45 ^ ((cols as u64) << 8) ^ rows as u64).1
}
