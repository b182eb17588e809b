//! Queenbee's two-distance evaluation (van Rijswijck 2002 s.3.2): per cell, each player's
//! two-distances to its two edges; a player's potential in a cell is their sum, its distance
//! the least potential on the board, and the number of cells reaching it breaks ties.
//!
//! The graph is the player's reduction graph (s.3 and Appendix A): the opponent's stones are
//! removed, the player's own stones contracted, so two empty cells are neighbours when they are
//! adjacent or touch a common group of the player's. In it the two-distance of an empty cell to
//! an edge is 1 when the cell is a neighbour of the edge, and otherwise one more than the
//! *second* least two-distance among its neighbours: the opponent can block the best one.
//!
//! The value for the side to move is `K * (D_opp - D_me) + (N_me - N_opp)`, where `D` is a
//! player's distance, `N` the number of cells with that potential (more ways to realise the
//! distance is better) and `K` one more than the board's cells, so a step of distance always
//! outweighs the counts. A move is scored by minus the sum of both players' potentials in its
//! cell: the important cells are near both players' connections. Infinite two-distances (a cell
//! the opponent can cut off, s.3.2 Figure 9) count as [`far`](TwoDistance) (twice the board's
//! cells plus two), above every finite potential.

use nash_board::{BitSet, Cell, Color, Position};

/// No distance yet.
const UNSET: u16 = u16::MAX;

/// The two-distance computation, with its buffers.
#[derive(Debug)]
pub struct TwoDistance<B: BitSet> {
    /// Per bit index, the two-distance to the edge being searched.
    dist: Vec<u16>,
    /// Per bit index, how many of its neighbours have their distance.
    seen: Vec<u8>,
    /// The breadth-first queue (bit indices, in order of distance).
    queue: Vec<u16>,
    /// Per colour and bit index, the potential (sum of two-distances to both edges).
    potential: [Vec<u32>; 2],
    /// Per bit index, the group of the player's stones it belongs to.
    group_of: Vec<u16>,
    /// Per group, its empty neighbours and the player's edges it touches.
    liberties: Vec<B>,
}

impl<B: BitSet> Default for TwoDistance<B> {
    fn default() -> TwoDistance<B> {
        TwoDistance {
            dist: Vec::new(),
            seen: Vec::new(),
            queue: Vec::new(),
            potential: [Vec::new(), Vec::new()],
            group_of: Vec::new(),
            liberties: Vec::new(),
        }
    }
}

impl<B: BitSet> TwoDistance<B> {
    /// The value for `me` (see the file's documentation).
    pub fn value(&mut self, pos: &Position<B>, me: Color) -> f64 {
        let k = pos.empty_cells().len() as f64 + 1.0;
        let (d_me, n_me) = self.distance(pos, me);
        let (d_opp, n_opp) = self.distance(pos, !me);
        k * (d_opp as f64 - d_me as f64) + (n_me as f64 - n_opp as f64)
    }

    /// Minus the sum of both players' potentials, per empty cell.
    pub fn move_scores(&mut self, pos: &Position<B>, out: &mut Vec<(Cell, f64)>) {
        for color in Color::ALL {
            self.potentials(pos, color);
        }
        for bit in pos.empty_cells().bits() {
            let sum = self.potential[0][bit] + self.potential[1][bit];
            out.push((B::cell_of(bit), -(sum as f64)));
        }
    }

    /// `color`'s distance (its least potential) and the number of empty cells with it; the
    /// number is 0 when every potential is infinite.
    pub fn distance(&mut self, pos: &Position<B>, color: Color) -> (u32, u32) {
        self.potentials(pos, color);
        let far = far(pos);
        let pot = &self.potential[color.index()];
        let (mut best, mut count) = (far, 0);
        for bit in pos.empty_cells().bits() {
            let p = pot[bit];
            if p < best {
                (best, count) = (p, 1);
            } else if p == best && p < far {
                count += 1;
            }
        }
        (best, count)
    }

    /// `color`'s potential in the empty cell `cell`, as of the last computation for `color`
    /// ([`TwoDistance::distance`], [`TwoDistance::move_scores`]).
    pub fn potential(&self, color: Color, cell: Cell) -> u32 {
        self.potential[color.index()][B::bit_of(cell)]
    }

    /// Fills `color`'s potentials of every empty cell.
    fn potentials(&mut self, pos: &Position<B>, color: Color) {
        let ci = color.index();
        self.potential[ci].clear();
        self.potential[ci].resize(B::CAPACITY, 0);
        self.groups(pos, color);
        let far = far(pos);
        for edge in color.edges() {
            self.two_distance(pos, color, B::bit_of(Cell::edge(edge)));
            for bit in pos.empty_cells().bits() {
                let d = self.dist[bit];
                let p = &mut self.potential[ci][bit];
                *p = if d == UNSET || *p >= far { far } else { *p + d as u32 };
            }
        }
    }

    /// Names `color`'s groups and records each group's liberties (empty neighbours and own
    /// edges).
    fn groups(&mut self, pos: &Position<B>, color: Color) {
        let geom = pos.geometry();
        let own = pos.stones(color);
        let open = pos.empty_cells() | edges(color);
        self.group_of.clear();
        self.group_of.resize(B::CAPACITY, UNSET);
        self.liberties.clear();
        for bit in own.bits() {
            if self.group_of[bit] != UNSET {
                continue;
            }
            let id = self.liberties.len() as u16;
            let mut libs = B::EMPTY;
            for b in B::from_bit(bit).flood(own).bits() {
                self.group_of[b] = id;
                libs |= geom.own_neighbours_of_bit(color, b);
            }
            self.liberties.push(libs & open);
        }
    }

    /// The neighbours of `bit` (an empty cell or an own edge) in `color`'s reduction graph:
    /// empty cells and own edges, adjacent or through a group.
    fn reduced_neighbours(&self, pos: &Position<B>, color: Color, bit: usize) -> B {
        let nbrs = pos.geometry().own_neighbours_of_bit(color, bit);
        let mut out = nbrs & (pos.empty_cells() | edges(color));
        for s in (nbrs & pos.stones(color)).bits() {
            out |= self.liberties[self.group_of[s] as usize];
        }
        out - B::from_bit(bit)
    }

    /// Two-distances of every empty cell to the own edge at bit `edge`, in `dist`.
    fn two_distance(&mut self, pos: &Position<B>, color: Color, edge: usize) {
        let empty = pos.empty_cells();
        self.dist.clear();
        self.dist.resize(B::CAPACITY, UNSET);
        self.seen.clear();
        self.seen.resize(B::CAPACITY, 0);
        self.queue.clear();
        for bit in (self.reduced_neighbours(pos, color, edge) & empty).bits() {
            self.dist[bit] = 1;
            self.queue.push(bit as u16);
        }
        // Cells come off the queue in order of distance, so the neighbour that is the second
        // to be reached gives a cell its second least neighbour distance.
        let mut head = 0;
        while head < self.queue.len() {
            let bit = self.queue[head] as usize;
            head += 1;
            let d = self.dist[bit];
            for next in (self.reduced_neighbours(pos, color, bit) & empty).bits() {
                if self.dist[next] != UNSET {
                    continue;
                }
                self.seen[next] += 1;
                if self.seen[next] == 2 {
                    self.dist[next] = d + 1;
                    self.queue.push(next as u16);
                }
            }
        }
    }
}

/// The potential standing for an infinite one: above every finite potential of the board.
fn far<B: BitSet>(pos: &Position<B>) -> u32 {
    2 * (pos.cols() * pos.rows()) as u32 + 2
}

/// `color`'s two edges as a set.
fn edges<B: BitSet>(color: Color) -> B {
    let [a, b] = color.edges();
    B::single(Cell::edge(a)) | B::single(Cell::edge(b))
}

#[cfg(test)]
mod tests {
    use nash_board::{Bitboard, MoveList, Symmetry, WideBitboard};
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    use super::*;

    fn position(size: usize, moves: &str) -> Position<Bitboard> {
        let mut p = Position::square(size).unwrap();
        moves.parse::<MoveList>().unwrap().play_on(&mut p).unwrap();
        p
    }

    /// Each listed cell's potential for `color`.
    fn check_potentials(p: &Position<Bitboard>, color: Color, want: &[(&str, u32)]) {
        let mut t = TwoDistance::default();
        t.distance(p, color);
        for &(cell, w) in want {
            assert_eq!(t.potential(color, cell.parse().unwrap()), w, "{color:?} {cell}\n{p}");
        }
    }

    #[test]
    fn the_empty_2x2_board_by_hand() {
        // Black's distances to the north: a1 and b1 touch it (1); a2 has two neighbours at 1
        // (a1, b1), so 2; b2's neighbours are b1 (1) and a2 (2), so 3. To the south, by the
        // same count: a2, b2 1, b1 2, a1 3. Potentials: a1 4, b1 3, a2 3, b2 4. White's are the
        // mirror image, and the short diagonal b1-a2 (the winning first moves) scores best.
        let p = position(2, "-");
        check_potentials(&p, Color::Black, &[("a1", 4), ("b1", 3), ("a2", 3), ("b2", 4)]);
        check_potentials(&p, Color::White, &[("a1", 4), ("b1", 3), ("a2", 3), ("b2", 4)]);
        let mut t = TwoDistance::default();
        assert_eq!(t.distance(&p, Color::Black), (3, 2));
        assert_eq!(t.value(&p, Color::Black), 0.0);
        let mut out = Vec::new();
        t.move_scores(&p, &mut out);
        let s: Vec<f64> = out.iter().map(|&(_, s)| s).collect();
        assert_eq!(s, [-8.0, -6.0, -6.0, -8.0]);
    }

    #[test]
    fn a_group_contracts_the_graph() {
        // Black b1 on 2x2 touches the north edge; its group joins a1, a2 and b2 to the north
        // edge in Black's graph (distance 1 each). To the south a2 and b2 touch the edge (1)
        // and a1 has both of them as neighbours (2). Potentials: a2 and b2 2, one play from
        // the win, a1 3.
        let p = position(2, "b1");
        check_potentials(&p, Color::Black, &[("b2", 2), ("a2", 2), ("a1", 3)]);
        let mut t = TwoDistance::default();
        assert_eq!(t.distance(&p, Color::Black), (2, 2));
        // White to move: with b1 black, b2 has one neighbour towards the west edge (a2) and
        // a1 and a2 one towards the east (b2), so every white potential is infinite:
        // 4 * (2 - 10) + (0 - 2) = -34.
        assert_eq!(t.value(&p, Color::White), -34.0);
    }

    #[test]
    fn a_one_wide_column_is_cut_off_in_two_distance() {
        // On one column of three cells Black's path is a line: a1 touches the north edge but
        // a2 has a single neighbour nearer to it, so a2 and a3 are infinitely far from the north
        // edge in two-distance (White blocks the only way), and likewise to the south.
        let p = Position::<Bitboard>::new(1, 3).unwrap();
        let mut t = TwoDistance::default();
        t.distance(&p, Color::Black);
        let far = far(&p);
        for c in ["a1", "a2", "a3"] {
            assert_eq!(t.potential(Color::Black, c.parse().unwrap()), far);
        }
        assert_eq!(t.distance(&p, Color::Black), (far, 0));
        // White crosses at any of the three cells: potential 2 each.
        assert_eq!(t.distance(&p, Color::White), (2, 3));
    }

    #[test]
    fn values_are_antisymmetric_under_the_colour_swap() {
        let mut rng = SmallRng::seed_from_u64(13);
        let mut t = TwoDistance::default();
        for _ in 0..100 {
            let mut p = Position::<WideBitboard>::square(rng.gen_range(1..14)).unwrap();
            for _ in 0..rng.gen_range(0..20) {
                let empty: Vec<Cell> = p.empty_cells().iter().collect();
                if p.winner().is_some() {
                    break;
                }
                p.play(empty[rng.gen_range(0..empty.len())]).unwrap();
            }
            let q = p.transformed(Symmetry::Transpose);
            let geom = p.geometry();
            for me in Color::ALL {
                assert_eq!(t.value(&p, me), t.value(&q, !me), "{p}");
                assert_eq!(t.value(&p, me), -t.value(&p, !me));
            }
            let (mut a, mut b) = (Vec::new(), Vec::new());
            t.move_scores(&p, &mut a);
            t.move_scores(&q, &mut b);
            for (c, s) in a {
                let image = geom.map_cell(Symmetry::Transpose, c);
                assert_eq!(b.iter().find(|x| x.0 == image).unwrap().1, s);
            }
        }
    }
}
