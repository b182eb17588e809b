//! Playouts: a position filled to the last cell at random, then one winner check (a full Hex
//! board has exactly one winner, so no move of the playout tests for a win), and the
//! bridge-saving variant of Horrell et al. s.2.3.4 that answers an intrusion into a bridge,
//! and a variant of it that also answers near the last move by the learned local patterns.

use nash_board::{BitSet, Color, Geometry};

use crate::patterns::{self, Matcher, Weights};

/// The random number generator of the playouts: a xorshift64* (Vigna 2016), small, fast and
/// reproducible from its seed.
///
/// A generator of its own rather than `rand`'s `SmallRng`: every playout draws one number a
/// cell, so this is the hottest call of the Monte Carlo players, and one multiply and three
/// shifts on a single word is what it should cost; and `SmallRng` is documented as free to
/// change its algorithm between `rand` versions, which would change every seeded player's
/// moves (the players' determinism given `seed` is part of their contract, and the games in
/// docs/players.md are replayed from it). Replacing it would change the moves of every seeded
/// game played so far.
#[derive(Clone, Debug)]
pub(crate) struct Rng(u64);

impl Rng {
    /// A generator drawing from `seed` (any value, zero included).
    pub(crate) fn new(seed: u64) -> Rng {
        // SplitMix64's finaliser spreads nearby seeds apart and never leaves the state zero.
        let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        Rng((z ^ (z >> 31)) | 1)
    }

    /// The next 64 random bits.
    #[inline]
    pub(crate) fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `0..n` (`n` at most 2^32), by Lemire's multiply-shift: no division, and a
    /// bias below 2^-32 that no playout statistic can see.
    #[inline]
    pub(crate) fn below(&mut self, n: usize) -> usize {
        (((self.next() >> 32) * n as u64) >> 32) as usize
    }
}

/// How a playout chooses its moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Policy {
    /// Every empty cell in a uniformly random order.
    Random,
    /// As random, but a move into one of the opponent's bridges (two stones, or a stone and
    /// its edge, with two common empty neighbours) is answered in the bridge's other cell.
    Bridge,
    /// As bridge, and a move that saves no bridge is drawn near the last move by the learned
    /// strengths of the inner rings (`crate::patterns`): each empty neighbour of the last move
    /// weighs its ring's strength, every other empty cell 1, and a draw outside the
    /// neighbours is a uniformly random move.
    Patterns,
    /// As bridge, and a move that saves no bridge is, when it can be, the last good reply to
    /// the last move (Drake 2009; with forgetting, Baier and Drake 2010): the reply that the
    /// winner of the latest playout with that move played to it, forgotten when the player
    /// who played it lost.
    Reply,
}

/// The end of a playout: the winner and each colour's stones on the full board.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Filled<B> {
    pub(crate) winner: Color,
    /// The cells Black took during the playout.
    pub(crate) black: B,
    /// The cells White took during the playout.
    pub(crate) white: B,
}

/// The buffers of one thread's playouts, reused by every playout.
#[derive(Debug)]
pub(crate) struct Playouts<B: BitSet> {
    geom: &'static Geometry<B>,
    policy: Policy,
    /// The empty cells' bit indices, shuffled in place.
    cells: Vec<u16>,
    /// Each bit's index in `cells` (bridge playouts move an answer to the front).
    slot: Vec<u16>,
    /// The matcher and weights of the pattern playouts.
    patterns: Option<(Matcher<B>, &'static Weights)>,
    /// The reply playouts' last good replies: per colour and previous move (bit index), the
    /// reply's bit index plus one (0: none).
    replies: Vec<u16>,
}

impl<B: BitSet> Playouts<B> {
    /// Playouts on `geom` by `policy`.
    pub(crate) fn new(geom: &'static Geometry<B>, policy: Policy) -> Playouts<B> {
        let n = geom.cells().len();
        Playouts {
            geom,
            policy,
            cells: Vec::with_capacity(n),
            slot: vec![0; if policy == Policy::Random { 0 } else { B::CAPACITY }],
            patterns: (policy == Policy::Patterns)
                .then(|| (Matcher::new(geom), patterns::builtin())),
            replies: vec![0; if policy == Policy::Reply { 2 * B::CAPACITY } else { 0 }],
        }
    }

    /// Fills the empty cells of the position with `black` and `white` stones, `to_move` first.
    /// `last` is the move that led to the position, if known (the reply playouts answer it).
    pub(crate) fn run(
        &mut self,
        black: B,
        white: B,
        to_move: Color,
        last: Option<usize>,
        rng: &mut Rng,
    ) -> Filled<B> {
        match self.policy {
            Policy::Random => self.random(black, white, to_move, rng),
            Policy::Bridge | Policy::Patterns => self.bridge(black, white, to_move, None, rng),
            Policy::Reply => self.bridge(black, white, to_move, last, rng),
        }
    }

    /// A uniformly random fill: the side to move gets half the empty cells (rounded up), the
    /// other side the rest. Drawing the smaller half by a partial Fisher-Yates shuffle is the
    /// same as playing a shuffled order out move by move.
    fn random(&mut self, black: B, white: B, to_move: Color, rng: &mut Rng) -> Filled<B> {
        let empty = self.geom.cells() - black - white;
        self.cells.clear();
        self.cells.extend(empty.bits().map(|b| b as u16));
        let n = self.cells.len();
        let second = n / 2;
        let mut taken = B::EMPTY;
        for i in 0..second {
            let j = i + rng.below(n - i);
            self.cells.swap(i, j);
            taken.set_bit(usize::from(self.cells[i]));
        }
        let first = empty - taken;
        let (b, w) = if to_move == Color::Black { (first, taken) } else { (taken, first) };
        let winner = self.geom.full_board_winner(black | b);
        Filled { winner, black: b, white: w }
    }

    /// A fill move by move in a random order, where a move into a bridge of the player to move
    /// next is answered at once in the bridge's other cell.
    fn bridge(
        &mut self,
        black: B,
        white: B,
        to_move: Color,
        before: Option<usize>,
        rng: &mut Rng,
    ) -> Filled<B> {
        let geom = self.geom;
        let empty = geom.cells() - black - white;
        self.cells.clear();
        self.cells.extend(empty.bits().map(|b| b as u16));
        for (i, &b) in self.cells.iter().enumerate() {
            self.slot[usize::from(b)] = i as u16;
        }
        let n = self.cells.len();
        let mut stones = [black, white];
        let mut free = empty;
        let mut mover = to_move;
        let mut last = before;
        for i in 0..n {
            let me = mover.index();
            let answer = last.and_then(|x| {
                // Our stones and edges that the intrusion at `x` touches; a bridge over `x`
                // joins two of them through `x` and one empty neighbour `y` of `x`.
                let mine = stones[me] | B::EDGES;
                let around = geom.own_neighbours_of_bit(mover, x) & mine;
                if around.len() < 2 {
                    return None;
                }
                (geom.neighbours_of_bit(x) & free)
                    .bits()
                    .find(|&y| (geom.own_neighbours_of_bit(mover, y) & around).len() >= 2)
            });
            let answer = match (answer, &self.patterns, last) {
                (None, Some(pat), Some(x)) => local_reply(pat, geom, stones, mover, x, free, rng),
                (None, None, Some(x)) if !self.replies.is_empty() => {
                    let r = usize::from(self.replies[reply_slot::<B>(mover, x)]);
                    (r > 0 && free.has_bit(r - 1)).then(|| r - 1)
                }
                (a, _, _) => a,
            };
            let j = match answer {
                Some(y) => usize::from(self.slot[y]),
                None => i + rng.below(n - i),
            };
            let (a, b) = (self.cells[i], self.cells[j]);
            self.cells.swap(i, j);
            self.slot[usize::from(a)] = j as u16;
            self.slot[usize::from(b)] = i as u16;
            let bit = usize::from(b);
            stones[me].set_bit(bit);
            free.toggle_bit(bit);
            last = Some(bit);
            mover = !mover;
        }
        let winner = geom.full_board_winner(stones[0]);
        if !self.replies.is_empty() {
            // The winner's replies are remembered, the loser's forgotten.
            let (mut prev, mut who) = (before, to_move);
            for &mv in &self.cells[..n] {
                if let Some(p) = prev {
                    let slot = &mut self.replies[reply_slot::<B>(who, p)];
                    if who == winner {
                        *slot = mv + 1;
                    } else if *slot == mv + 1 {
                        *slot = 0;
                    }
                }
                prev = Some(usize::from(mv));
                who = !who;
            }
        }
        Filled { winner, black: stones[0] - black, white: stones[1] - white }
    }
}

/// The reply table's slot of `mover`'s answer to the move on bit `prev`.
#[inline]
fn reply_slot<B: BitSet>(mover: Color, prev: usize) -> usize {
    mover.index() * B::CAPACITY + prev
}

/// A move near the last one, `x`, for `mover` (the pattern playouts): each empty neighbour of
/// `x` weighs the strength of its inner ring, every other empty cell 1; `None` when the draw
/// falls outside the neighbours. `pat` is the pattern playouts' matcher and weights.
#[inline]
fn local_reply<B: BitSet>(
    pat: &(Matcher<B>, &'static Weights),
    geom: &Geometry<B>,
    stones: [B; 2],
    mover: Color,
    x: usize,
    free: B,
    rng: &mut Rng,
) -> Option<usize> {
    let (m, w) = (&pat.0, pat.1);
    let (mine, theirs) = (stones[mover.index()], stones[(!mover).index()]);
    let mut near = [(0usize, 0f32); 6];
    let mut k = 0;
    let mut total = 0.0;
    for y in (geom.neighbours_of_bit(x) & free).bits().take(6) {
        let g = w.ring_gamma(m.ring_code(mine, theirs, mover, y));
        near[k] = (y, g);
        total += g;
        k += 1;
    }
    if k == 0 {
        return None;
    }
    let rest = (free.len() - k) as f32;
    // 24 random bits, uniform in [0, 1).
    let mut u = (rng.next() >> 40) as f32 / (1u32 << 24) as f32 * (total + rest);
    for &(y, g) in &near[..k] {
        if u < g {
            return Some(y);
        }
        u -= g;
    }
    None
}

#[cfg(test)]
mod tests {
    use nash_board::Bitboard;

    use super::*;

    /// After one reply playout from the empty board, the table holds every reply the winner
    /// played (to the move before it, the first move answering `before`) and nothing of the
    /// loser's; a second runner with the same seed plays the same playouts.
    #[test]
    fn reply_playouts_remember_the_winners_replies() {
        let geom = Geometry::<Bitboard>::get(5, 5).unwrap();
        let mut p = Playouts::new(geom, Policy::Reply);
        let mut rng = Rng::new(7);
        let before = Some(12);
        let f = p.run(Bitboard::EMPTY, Bitboard::EMPTY, Color::Black, before, &mut rng);
        let moves: Vec<usize> = p.cells.iter().map(|&c| usize::from(c)).collect();
        let mut want = vec![0u16; 2 * Bitboard::CAPACITY];
        for (i, &mv) in moves.iter().enumerate() {
            let who = if i % 2 == 0 { Color::Black } else { Color::White };
            let prev = if i == 0 { 12 } else { moves[i - 1] };
            if who == f.winner {
                want[reply_slot::<Bitboard>(who, prev)] = mv as u16 + 1;
            }
        }
        assert_eq!(p.replies, want);
        let (mut q, mut rng2) = (Playouts::new(geom, Policy::Reply), Rng::new(7));
        q.run(Bitboard::EMPTY, Bitboard::EMPTY, Color::Black, before, &mut rng2);
        for _ in 0..100 {
            let a = p.run(Bitboard::EMPTY, Bitboard::EMPTY, Color::White, None, &mut rng);
            let b = q.run(Bitboard::EMPTY, Bitboard::EMPTY, Color::White, None, &mut rng2);
            assert_eq!((a.winner, a.black, a.white), (b.winner, b.black, b.white));
        }
    }
}
