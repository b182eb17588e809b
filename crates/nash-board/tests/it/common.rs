//! Shared helpers: random boards and a plain breadth-first reference for connections.

use std::collections::VecDeque;

use nash_board::{BitSet, Cell, Color, Position};
use rand::rngs::SmallRng;
use rand::Rng;

/// The neighbours of `(col, row)` on a `cols`×`rows` board by the hexagonal rule written out
/// by hand: left, right, up, down, up-right and down-left.
pub fn hex_neighbours(col: usize, row: usize, cols: usize, rows: usize) -> Vec<(usize, usize)> {
    let deltas: [(isize, isize); 6] = [(-1, 0), (1, 0), (0, -1), (0, 1), (1, -1), (-1, 1)];
    deltas
        .iter()
        .filter_map(|&(dc, dr)| {
            let c = col as isize + dc;
            let r = row as isize + dr;
            (c >= 0 && r >= 0 && (c as usize) < cols && (r as usize) < rows)
                .then_some((c as usize, r as usize))
        })
        .collect()
}

/// Whether `color`'s stones connect its two edges, by breadth-first search over a grid.
pub fn bfs_connects(grid: &[Vec<Option<Color>>], color: Color) -> bool {
    let rows = grid.len();
    let cols = grid[0].len();
    let mut seen = vec![vec![false; cols]; rows];
    let mut queue = VecDeque::new();
    let starts: Vec<(usize, usize)> = match color {
        Color::Black => (0..cols).map(|c| (c, 0)).collect(),
        Color::White => (0..rows).map(|r| (0, r)).collect(),
    };
    for (c, r) in starts {
        if grid[r][c] == Some(color) && !seen[r][c] {
            seen[r][c] = true;
            queue.push_back((c, r));
        }
    }
    while let Some((c, r)) = queue.pop_front() {
        let done = match color {
            Color::Black => r == rows - 1,
            Color::White => c == cols - 1,
        };
        if done {
            return true;
        }
        for (nc, nr) in hex_neighbours(c, r, cols, rows) {
            if grid[nr][nc] == Some(color) && !seen[nr][nc] {
                seen[nr][nc] = true;
                queue.push_back((nc, nr));
            }
        }
    }
    false
}

/// The reference winner of a grid: the colour whose stones connect its edges.
pub fn bfs_winner(grid: &[Vec<Option<Color>>]) -> Option<Color> {
    let b = bfs_connects(grid, Color::Black);
    let w = bfs_connects(grid, Color::White);
    assert!(!(b && w), "both colours connected: impossible in Hex");
    if b {
        Some(Color::Black)
    } else if w {
        Some(Color::White)
    } else {
        None
    }
}

/// The grid of a position, row by row.
pub fn grid_of<B: BitSet>(pos: &Position<B>) -> Vec<Vec<Option<Color>>> {
    (0..pos.rows())
        .map(|r| (0..pos.cols()).map(|c| pos.color_at(Cell::at(c as u8, r as u8))).collect())
        .collect()
}

/// A random grid: each cell empty with probability `empty`, else Black or White at even odds.
pub fn random_grid(
    rng: &mut SmallRng,
    cols: usize,
    rows: usize,
    empty: f64,
) -> Vec<Vec<Option<Color>>> {
    (0..rows)
        .map(|_| {
            (0..cols)
                .map(|_| {
                    if rng.gen_bool(empty) {
                        None
                    } else if rng.gen_bool(0.5) {
                        Some(Color::Black)
                    } else {
                        Some(Color::White)
                    }
                })
                .collect()
        })
        .collect()
}

/// The position of a grid, its stones as setup.
pub fn position_of<B: BitSet>(grid: &[Vec<Option<Color>>], to_move: Color) -> Position<B> {
    let mut pos = Position::<B>::new(grid[0].len(), grid.len()).expect("board size");
    for color in Color::ALL {
        let set: B = cells_of(grid, color).into_iter().collect();
        pos.setup(color, set);
    }
    pos.set_to_move(to_move);
    pos
}

/// The cells holding `color` in a grid.
pub fn cells_of(grid: &[Vec<Option<Color>>], color: Color) -> Vec<Cell> {
    let mut out = Vec::new();
    for (r, row) in grid.iter().enumerate() {
        for (c, v) in row.iter().enumerate() {
            if *v == Some(color) {
                out.push(Cell::at(c as u8, r as u8));
            }
        }
    }
    out
}

/// The same stones and side to move, set up on a fresh board: the from-scratch twin.
pub fn rebuilt<B: BitSet>(pos: &Position<B>) -> Position<B> {
    let mut fresh = Position::<B>::new(pos.cols(), pos.rows()).expect("board size");
    fresh.setup(Color::Black, pos.black());
    fresh.setup(Color::White, pos.white());
    fresh.set_to_move(pos.to_move());
    fresh
}

/// Every board size from 1×1 to 19×19, square and rectangular.
pub fn all_sizes() -> impl Iterator<Item = (usize, usize)> {
    (1..=19).flat_map(|c| (1..=19).map(move |r| (c, r)))
}
