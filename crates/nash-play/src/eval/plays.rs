//! Horrell et al.'s numPlaysToWin evaluation (s.2.2.2 and s.2.3.2 of their report): the least
//! number of plays each player still needs to connect, found by a uniform-cost search, and
//! the position's value `numPlaysToWin(opponent) - numPlaysToWin(me)`.
//!
//! Without the discount this is the shortest-path distance of `shortest.rs` (the same numbers;
//! a test checks it), computed here without allocating. With the bridge discount (their s.2.3.2,
//! "Minimax with bridge detection") a bridge of the player's, two of its stones (or a stone and
//! its edge) with two empty common neighbours, costs [`BRIDGE_COST`] of a play to cross instead
//! of the one play that filling a carrier cell costs: the opponent cannot cut it, so it is
//! nearly a connection. The report says only that bridges are "severely" discounted, giving no
//! number; the quarter play is our choice. A bridge whose carrier the opponent has entered is
//! no bridge: crossing it costs the play that restores the connection, as on any other path.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use nash_board::{BitSet, Cell, Color, Geometry, Position};

use crate::eval::WIN;

/// Path costs are counted in quarter plays so that they stay integers.
const PLAY: u32 = 4;
/// The cost of crossing a bridge, in quarter plays: a quarter of a play.
pub const BRIDGE_COST: u32 = 1;
/// The plays to win of a player the opponent has cut off (only after the opponent has won, by
/// the no-draw property; kept finite so that values stay finite).
const CUT_OFF: f64 = 1_000.0;

/// Whether crossing a bridge is discounted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Discount {
    /// Every empty cell on the path costs one play (numPlaysToWin as first defined).
    None,
    /// A bridge between the player's stones or a stone and its edge costs [`BRIDGE_COST`].
    Bridges,
}

/// The uniform-cost search, with its buffers.
#[derive(Debug, Default)]
pub struct PlaysToWin {
    /// Per bit index, the best cost found so far (quarter plays).
    dist: Vec<u32>,
    /// The frontier: cost and bit index, cheapest first.
    heap: BinaryHeap<Reverse<(u32, u16)>>,
}

impl PlaysToWin {
    /// The value for `me`: the opponent's plays to win minus ours.
    pub fn margin<B: BitSet>(&mut self, pos: &Position<B>, me: Color, discount: Discount) -> f64 {
        let (geom, empty) = (pos.geometry(), pos.empty_cells());
        let plays = |s: &mut Self, c: Color| {
            s.plays_with(geom, pos.stones(c), empty, c, discount).unwrap_or(CUT_OFF)
        };
        plays(self, !me) - plays(self, me)
    }

    /// Each empty cell's score for `me`: the margin after `me` plays there (the value of the
    /// child for the mover, as a depth-1 search sees it), `WIN` when the move connects. The
    /// children are never built as positions: only `me`'s stones change.
    pub fn move_scores<B: BitSet>(
        &mut self,
        pos: &Position<B>,
        me: Color,
        discount: Discount,
        out: &mut Vec<(Cell, f64)>,
    ) {
        let geom = pos.geometry();
        let (mine, theirs) = (pos.stones(me), pos.stones(!me));
        for cell in pos.empty_cells().iter() {
            let empty = pos.empty_cells().without(cell);
            let score = match self.plays_with(geom, mine.with(cell), empty, me, discount) {
                Some(0.0) => WIN,
                ours => {
                    let theirs = self.plays_with(geom, theirs, empty, !me, discount);
                    theirs.unwrap_or(CUT_OFF) - ours.unwrap_or(CUT_OFF)
                }
            };
            out.push((cell, score));
        }
    }

    /// The plays `color` still needs to connect its edges (0 when connected, a multiple of a
    /// quarter with the discount), or `None` when the opponent has cut every path.
    pub fn plays<B: BitSet>(
        &mut self,
        pos: &Position<B>,
        color: Color,
        discount: Discount,
    ) -> Option<f64> {
        self.plays_with(pos.geometry(), pos.stones(color), pos.empty_cells(), color, discount)
    }

    /// [`PlaysToWin::plays`] for `color`'s stones `stones` and the empty cells `empty`.
    ///
    /// Dijkstra's algorithm over cells and edges: entering the player's stone or edge costs
    /// nothing, entering an empty cell one play, and the opponent's stones are walls.
    fn plays_with<B: BitSet>(
        &mut self,
        geom: &Geometry<B>,
        stones: B,
        empty: B,
        color: Color,
        discount: Discount,
    ) -> Option<f64> {
        let [from, to] = color.edges();
        let (source, target) = (B::bit_of(Cell::edge(from)), B::bit_of(Cell::edge(to)));
        // The player's stones and edges: the nodes that cost nothing to enter.
        let own = stones | B::from_bit(source) | B::from_bit(target);
        self.dist.clear();
        self.dist.resize(B::CAPACITY, u32::MAX);
        self.heap.clear();
        self.dist[source] = 0;
        self.heap.push(Reverse((0, source as u16)));
        while let Some(Reverse((d, bit))) = self.heap.pop() {
            let bit = bit as usize;
            if d > self.dist[bit] {
                continue;
            }
            if bit == target {
                return Some(d as f64 / PLAY as f64);
            }
            let nbrs = geom.own_neighbours_of_bit(color, bit);
            for next in (nbrs & (own | empty)).bits() {
                let cost = if own.has_bit(next) { 0 } else { PLAY };
                self.relax(next, d + cost);
            }
            if discount == Discount::Bridges && own.has_bit(bit) {
                // Bridges from this stone or edge: an own stone or edge two steps away through
                // an empty cell, whose common neighbours with this one are exactly two empty
                // cells.
                for via in (nbrs & empty).bits() {
                    let far = geom.own_neighbours_of_bit(color, via) & own;
                    for y in (far - nbrs).bits() {
                        // Two edges are no bridge: a bridge holds at least one stone.
                        if y == bit || (y >= B::EDGE_BASE && bit >= B::EDGE_BASE) {
                            continue;
                        }
                        let common = nbrs & geom.own_neighbours_of_bit(color, y);
                        if common.len() == 2 && common.is_subset(empty) {
                            self.relax(y, d + BRIDGE_COST);
                        }
                    }
                }
            }
        }
        None
    }

    fn relax(&mut self, bit: usize, d: u32) {
        if d < self.dist[bit] {
            self.dist[bit] = d;
            self.heap.push(Reverse((d, bit as u16)));
        }
    }
}

#[cfg(test)]
mod tests {
    use nash_board::{Bitboard, MoveList, Symmetry, WideBitboard};
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    use super::*;
    use crate::eval::shortest;

    fn position(size: usize, moves: &str) -> Position<Bitboard> {
        let mut p = Position::square(size).unwrap();
        moves.parse::<MoveList>().unwrap().play_on(&mut p).unwrap();
        p
    }

    /// Plays to win of both colours, with and without the discount.
    fn check(size: usize, moves: &str, black: [f64; 2], white: [f64; 2]) {
        let p = position(size, moves);
        let mut s = PlaysToWin::default();
        for (color, want) in [(Color::Black, black), (Color::White, white)] {
            for (discount, w) in [(Discount::None, want[0]), (Discount::Bridges, want[1])] {
                assert_eq!(s.plays(&p, color, discount), Some(w), "{moves} {color:?} {discount:?}");
            }
        }
    }

    #[test]
    fn hand_worked_plays_to_win() {
        // The empty 3x3 board: three plays each, and no stones to make bridges.
        check(3, "-", [3.0, 3.0], [3.0, 3.0]);
        // Black b2: one play to each edge; its northern neighbours b1 and c1 and its southern
        // ones a3 and b3 are empty, so it bridges to both edges, a quarter play each. White
        // needs a cell in each column: three plays (a2 b1 c1).
        check(3, "b2", [2.0, 0.5], [3.0, 3.0]);
        // Black b1 and b2 are one group on the north edge; the bridge to the south (a3, b3)
        // leaves a quarter play. White's c1 helps only through c2: still three plays.
        check(3, "b1 c1 b2", [1.0, 0.25], [3.0, 3.0]);
        // White b3 enters the southern bridge of Black b2: that side costs a full play again.
        // White's b3 bridges to the east edge (c2, c3 empty): a3 then a quarter play.
        check(3, "b2 b3", [2.0, 1.25], [2.0, 1.25]);
    }

    #[test]
    fn a_chain_of_bridges_on_5x5() {
        // Black c2 and b4 bridge through b3 and c3; c2 bridges to the north (c1, d1) and b4 to
        // the south (a5, b5). Without the discount that is one play per link: three plays;
        // with it, three quarters. White's a1 covers column a: four plays (b1 c1 d1 e1).
        check(5, "c2 a1 b4", [3.0, 0.75], [4.0, 4.0]);
    }

    #[test]
    fn plain_plays_equal_the_shortest_path_distance() {
        let mut rng = SmallRng::seed_from_u64(5);
        let mut s = PlaysToWin::default();
        for size in [1, 2, 3, 5, 8, 11] {
            for _ in 0..40 {
                let mut p = Position::<Bitboard>::square(size).unwrap();
                let n = rng.gen_range(0..=size * size);
                for _ in 0..n {
                    let empty: Vec<Cell> = p.empty_cells().iter().collect();
                    if empty.is_empty() || p.winner().is_some() {
                        break;
                    }
                    p.play(empty[rng.gen_range(0..empty.len())]).unwrap();
                }
                for color in Color::ALL {
                    let want = match shortest::distance(&p, color) {
                        u32::MAX => None,
                        d => Some(d as f64),
                    };
                    assert_eq!(s.plays(&p, color, Discount::None), want, "{color:?}\n{p}");
                    let bridged = s.plays(&p, color, Discount::Bridges);
                    // The discount never lengthens a path, and cut-off stays cut-off.
                    assert_eq!(bridged.is_none(), want.is_none());
                    if let (Some(b), Some(w)) = (bridged, want) {
                        assert!(b <= w, "{b} > {w}\n{p}");
                    }
                }
            }
        }
    }

    #[test]
    fn move_scores_are_the_children_values() {
        let mut rng = SmallRng::seed_from_u64(7);
        let mut s = PlaysToWin::default();
        let mut out = Vec::new();
        for _ in 0..30 {
            let mut p = Position::<Bitboard>::square(rng.gen_range(1..8)).unwrap();
            for _ in 0..rng.gen_range(0..12) {
                let empty: Vec<Cell> = p.empty_cells().iter().collect();
                if p.winner().is_some() || empty.len() < 2 {
                    break;
                }
                p.play(empty[rng.gen_range(0..empty.len())]).unwrap();
            }
            if p.winner().is_some() {
                continue;
            }
            let me = p.to_move();
            for d in [Discount::None, Discount::Bridges] {
                out.clear();
                s.move_scores(&p, me, d, &mut out);
                for &(c, score) in &out {
                    let mut q = p.clone();
                    q.play(c).unwrap();
                    let want = if q.winner() == Some(me) { WIN } else { s.margin(&q, me, d) };
                    assert_eq!(score, want, "{c} {d:?}\n{p}");
                }
            }
        }
    }

    #[test]
    fn values_are_antisymmetric_under_the_colour_swap() {
        let mut rng = SmallRng::seed_from_u64(9);
        let mut s = PlaysToWin::default();
        for _ in 0..100 {
            let mut p = Position::<WideBitboard>::square(rng.gen_range(2..14)).unwrap();
            for _ in 0..rng.gen_range(0..12) {
                let empty: Vec<Cell> = p.empty_cells().iter().collect();
                if p.winner().is_some() {
                    break;
                }
                p.play(empty[rng.gen_range(0..empty.len())]).unwrap();
            }
            let q = p.transformed(Symmetry::Transpose);
            for d in [Discount::None, Discount::Bridges] {
                for me in Color::ALL {
                    assert_eq!(s.margin(&p, me, d), s.margin(&q, !me, d), "{d:?}\n{p}");
                    assert_eq!(s.margin(&p, me, d), -s.margin(&p, !me, d));
                }
            }
        }
    }
}
