//! Y-reduction (van Rijswijck 2002 s.4, after Schensted and Meyers): the Hex board embedded in
//! a board of the game of Y, reduced one size at a time down to a single value, with the
//! partial derivatives of that value as move scores (s.4.5, Appendix B Table 3).
//!
//! Embedding (s.4.1, Figure 11). A Y board of size `n` holds the cells `(i, j)` with
//! `i + j < n`; with `i` the Hex column and `j` the Hex row its neighbours are Hex's. A board of
//! `c` columns and `r` rows fits in the Y board of size `c + r - 1` with its acute corner `a1`
//! at the corner `(0, 0)` and the far acute corner on the third side. Of the two triangles left
//! over, the one beyond the last column is filled with White stones (it extends White's east
//! edge) and the one beyond the last row with Black stones. A black north-south chain then
//! touches the north side, and through the black triangle the other two; a white west-east chain
//! touches the west side and, through the white triangle, the other two. So the Y winner is the
//! Hex winner.
//!
//! Reduction (s.4.2 and s.4.4). Values run from -1 (White) to +1 (Black), 0 for an empty cell.
//! Each cell `(i, j)` of the board of size `k` gets `f(p, q, r)` of the small triangle
//! `(i, j)`, `(i + 1, j)`, `(i, j + 1)` of the board of size `k + 1`, with eq. 2:
//! `f(p, q, r) = (p + q + r - pqr) / 2`, the expected majority of three independent cells. (The
//! text of Appendix B writes `- 2pqr`, which would reduce three black cells to 1/2; eq. 2 and
//! the code of Table 3 have `- pqr`, which is what makes a full board reduce to its winner.) The
//! value of the size-1 board is the evaluation, for Black; the value for the side to move is
//! its sign-adjusted copy, so it is antisymmetric and between -1 and 1.
//!
//! Move scores (s.4.5, eq. 3). The derivative of the value with respect to every cell of every
//! level is pushed back from the top (`1`) through `∂f/∂p = (1 - qr) / 2`, each small triangle
//! adding its share to its three cells. A stone of the mover changes the cell's value by one in
//! the mover's direction, so the score of a move is the value plus the derivative: the first-
//! order estimate of the value after it. Derivatives are never negative (`|q|, |r| <= 1`), so the
//! same cells are urgent for both players, as in van Rijswijck 2002.
//!
//! The reduction amplifies: a small common bias `b` of three cells comes out as about `3b/2`,
//! so over the `c + r - 2` levels of a Hex board a single stone moves the value close to ±1 from
//! about 7x7 on (one black stone in the centre of 7x7 gives more than 0.999 for Black). The
//! values then differ in their last digits only; this is the "quick-and-dirty" estimate the
//! paper calls it (van Rijswijck 2002 s.4.4), and in our depth-1 games on 7x7 it lost to the
//! shortest-path greedy player 43 games of 50.
//!
//! Both pyramids are kept whole (`n (n + 1) (n + 2) / 6` values each, 1771 on 11x11); the
//! incremental update s.4.4 suggests is not done.

use nash_board::{BitSet, Cell, Color, Position};

/// The reduction and derivative pyramids, with the shape of the last board evaluated.
#[derive(Debug, Default)]
pub struct Pyramid {
    /// Columns and rows of the Hex board, and the size of its Y board.
    cols: usize,
    rows: usize,
    size: usize,
    /// Per level `k` (the board of size `k + 1`), where its values start.
    offset: Vec<usize>,
    /// The values of every level, level 0 (the final value) first.
    value: Vec<f64>,
    /// The derivative of the final value with respect to each value.
    slope: Vec<f64>,
}

impl Pyramid {
    /// The value of `pos` for `me`, between -1 and 1.
    pub fn value<B: BitSet>(&mut self, pos: &Position<B>, me: Color) -> f64 {
        self.reduce(pos.cols(), pos.rows(), |c| seed(pos, c));
        sign(me) * self.value[0]
    }

    /// Each empty cell's score for `me`: the value plus the cell's partial derivative.
    pub fn move_scores<B: BitSet>(
        &mut self,
        pos: &Position<B>,
        me: Color,
        out: &mut Vec<(Cell, f64)>,
    ) {
        let v = self.value(pos, me);
        self.derivatives();
        let top = self.size - 1;
        for cell in pos.empty_cells().iter() {
            let at = self.at(top, cell.col() as usize, cell.row() as usize);
            out.push((cell, v + self.slope[at]));
        }
    }

    /// Seeds the largest level from `seed` (called per Hex cell) and the two filled triangles,
    /// and reduces it to level 0.
    fn reduce(&mut self, cols: usize, rows: usize, seed: impl Fn(Cell) -> f64) {
        self.shape(cols, rows);
        let top = self.size - 1;
        for j in 0..self.size {
            for i in 0..self.size - j {
                let v = if i >= cols {
                    -1.0
                } else if j >= rows {
                    1.0
                } else {
                    seed(Cell::at(i as u8, j as u8))
                };
                let at = self.at(top, i, j);
                self.value[at] = v;
            }
        }
        for k in (0..top).rev() {
            for j in 0..=k {
                for i in 0..=k - j {
                    let (p, q, r) = self.triangle(k + 1, i, j);
                    let at = self.at(k, i, j);
                    self.value[at] = 0.5 * (p + q + r - p * q * r);
                }
            }
        }
    }

    /// Fills `slope` with the derivative of the final value with respect to every value, from
    /// the last [`Pyramid::reduce`] (Table 3's move pyramid, pushed forward from level 0).
    fn derivatives(&mut self) {
        self.slope.clear();
        self.slope.resize(self.value.len(), 0.0);
        self.slope[0] = 1.0;
        for k in 0..self.size - 1 {
            for j in 0..=k {
                for i in 0..=k - j {
                    let m = self.slope[self.at(k, i, j)];
                    if m == 0.0 {
                        continue;
                    }
                    let (p, q, r) = self.triangle(k + 1, i, j);
                    let (a, b, c) =
                        (self.at(k + 1, i, j), self.at(k + 1, i + 1, j), self.at(k + 1, i, j + 1));
                    self.slope[a] += m * 0.5 * (1.0 - q * r);
                    self.slope[b] += m * 0.5 * (1.0 - p * r);
                    self.slope[c] += m * 0.5 * (1.0 - p * q);
                }
            }
        }
    }

    /// The three values of level `k` under cell `(i, j)` of level `k - 1`.
    fn triangle(&self, k: usize, i: usize, j: usize) -> (f64, f64, f64) {
        (
            self.value[self.at(k, i, j)],
            self.value[self.at(k, i + 1, j)],
            self.value[self.at(k, i, j + 1)],
        )
    }

    /// Sizes the pyramids for a board of `cols` by `rows` (nothing to do for the same shape).
    fn shape(&mut self, cols: usize, rows: usize) {
        if (cols, rows) == (self.cols, self.rows) && self.size > 0 {
            return;
        }
        (self.cols, self.rows, self.size) = (cols, rows, cols + rows - 1);
        self.offset.clear();
        let mut total = 0;
        for k in 0..self.size {
            self.offset.push(total);
            total += (k + 1) * (k + 2) / 2;
        }
        self.value.clear();
        self.value.resize(total, 0.0);
        self.slope.clear();
        self.slope.resize(total, 0.0);
    }

    /// Where cell `(i, j)` of level `k` is stored: level `k` is a triangle of side `k + 1`, row
    /// `j` of it holding `k + 1 - j` cells.
    #[inline]
    fn at(&self, k: usize, i: usize, j: usize) -> usize {
        debug_assert!(i + j <= k);
        self.offset[k] + j * (k + 1) - j * j.saturating_sub(1) / 2 + i
    }
}

/// A Hex cell's value: 1 for Black, -1 for White, 0 when empty.
fn seed<B: BitSet>(pos: &Position<B>, cell: Cell) -> f64 {
    match pos.color_at(cell) {
        Some(c) => sign(c),
        None => 0.0,
    }
}

/// +1 for Black, -1 for White.
fn sign(color: Color) -> f64 {
    match color {
        Color::Black => 1.0,
        Color::White => -1.0,
    }
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

    fn scores(p: &Position<Bitboard>) -> Vec<(String, f64)> {
        let mut y = Pyramid::default();
        let mut out = Vec::new();
        y.move_scores(p, p.to_move(), &mut out);
        out.into_iter().map(|(c, s)| (c.to_string(), s)).collect()
    }

    #[test]
    fn the_empty_2x2_board_by_hand() {
        // Y board of size 3: a1 b1 / a2 b2 with White at (2, 0) and Black at (0, 2).
        // Level 1: f(a1, b1, a2) = f(0, 0, 0) = 0; f(b1, W, b2) = f(0, -1, 0) = -1/2;
        // f(a2, b2, B) = f(0, 0, 1) = 1/2. Level 0: f(0, -1/2, 1/2) = 0: an even position.
        // Derivatives: level 1 gets 1 * (1 - (-1/2)(1/2)) / 2 = 5/8, and (1 - 0) / 2 = 1/2 twice.
        // a1 sits in the first triangle only: 5/8 * (1 - 0) / 2 = 5/16. b1 is in the first
        // (5/16) and the second, with W and b2: 1/2 * (1 - (-1)(0)) / 2 = 1/4, so 9/16; a2 the
        // same by symmetry; b2 in the second and third: 1/4 + 1/4 = 1/2. The winning moves b1
        // and a2 (the short diagonal) score best.
        let p = position(2, "-");
        let mut y = Pyramid::default();
        assert_eq!(y.value(&p, Color::Black), 0.0);
        let want = [("a1", 5.0 / 16.0), ("b1", 9.0 / 16.0), ("a2", 9.0 / 16.0), ("b2", 0.5)];
        for ((c, s), (wc, ws)) in scores(&p).into_iter().zip(want) {
            assert_eq!(c, wc);
            assert!((s - ws).abs() < 1e-12, "{c}: {s} vs {ws}");
        }
    }

    #[test]
    fn one_black_stone_by_hand() {
        // Black b1 on 2x2 (a winning first move), White to move. Level 1: f(a1, b1, a2) =
        // f(0, 1, 0) = 1/2; f(b1, W, b2) = f(1, -1, 0) = 0; f(a2, b2, B) = f(0, 0, 1) = 1/2.
        // Level 0: f(1/2, 0, 1/2) = 1/2 for Black.
        let p = position(2, "b1");
        let mut y = Pyramid::default();
        assert!((y.value(&p, Color::Black) - 0.5).abs() < 1e-12);
        assert!((y.value(&p, Color::White) + 0.5).abs() < 1e-12);
    }

    #[test]
    fn one_stone_saturates_the_value_on_7x7() {
        let p = position(7, "d4");
        let mut y = Pyramid::default();
        let v = y.value(&p, Color::Black);
        assert!(v > 0.999 && v < 1.0, "{v}");
    }

    #[test]
    fn full_boards_reduce_to_their_winner() {
        // Micro reduction (s.4.2): a filled board reduces to the colour of the winning chain;
        // this also checks the embedding.
        let mut rng = SmallRng::seed_from_u64(17);
        let mut y = Pyramid::default();
        for _ in 0..200 {
            let (cols, rows) = (rng.gen_range(1..12), rng.gen_range(1..12));
            let geom = nash_board::Geometry::<Bitboard>::get(cols, rows).unwrap();
            let mut black = Bitboard::EMPTY;
            for c in geom.cells().iter() {
                if rng.gen_bool(0.5) {
                    black.insert(c);
                }
            }
            let winner = geom.full_board_winner(black);
            y.reduce(cols, rows, |c| if black.contains(c) { 1.0 } else { -1.0 });
            assert_eq!(y.value[0], sign(winner), "{cols}x{rows}");
        }
    }

    #[test]
    fn derivatives_match_finite_differences() {
        let mut rng = SmallRng::seed_from_u64(19);
        let mut y = Pyramid::default();
        for _ in 0..20 {
            let (cols, rows) = (rng.gen_range(1..7), rng.gen_range(1..7));
            let stones: Vec<f64> =
                (0..cols * rows).map(|_| [-1.0, 0.0, 0.0, 1.0][rng.gen_range(0..4)]).collect();
            let seed = |c: Cell| stones[c.row() as usize * cols + c.col() as usize];
            y.reduce(cols, rows, seed);
            y.derivatives();
            let slopes: Vec<f64> =
                (0..cols * rows).map(|n| y.slope[y.at(y.size - 1, n % cols, n / cols)]).collect();
            let h = 1e-6;
            for (n, slope) in slopes.into_iter().enumerate() {
                let mut nudged = |d: f64| {
                    y.reduce(cols, rows, |c| {
                        seed(c)
                            + if c.row() as usize * cols + c.col() as usize == n { d } else { 0.0 }
                    });
                    y.value[0]
                };
                let estimate = (nudged(h) - nudged(-h)) / (2.0 * h);
                assert!((estimate - slope).abs() < 1e-6, "{cols}x{rows} cell {n}");
            }
        }
    }

    #[test]
    fn values_are_antisymmetric_under_the_colour_swap() {
        let mut rng = SmallRng::seed_from_u64(23);
        let mut y = Pyramid::default();
        for _ in 0..100 {
            let mut p = Position::<WideBitboard>::square(rng.gen_range(1..20)).unwrap();
            for _ in 0..rng.gen_range(0..30) {
                let empty: Vec<Cell> = p.empty_cells().iter().collect();
                if p.winner().is_some() || empty.is_empty() {
                    break;
                }
                p.play(empty[rng.gen_range(0..empty.len())]).unwrap();
            }
            let q = p.transformed(Symmetry::Transpose);
            for me in Color::ALL {
                let (a, b) = (y.value(&p, me), y.value(&q, !me));
                assert!((a - b).abs() < 1e-12 && a.abs() <= 1.0, "{a} vs {b}\n{p}");
            }
            let (mut a, mut b) = (Vec::new(), Vec::new());
            y.move_scores(&p, p.to_move(), &mut a);
            y.move_scores(&q, q.to_move(), &mut b);
            let geom = p.geometry();
            for (c, s) in a {
                let image = geom.map_cell(Symmetry::Transpose, c);
                let t = b.iter().find(|x| x.0 == image).unwrap().1;
                assert!((s - t).abs() < 1e-9, "{c}: {s} vs {t}");
            }
        }
    }
}
