//! Winner detection against a plain breadth-first reference, on every board size from 1×1 to
//! 19×19 (rectangles too, on both bitboard widths where they fit), and under the symmetries.

use nash_board::{fits_small, BitSet, Bitboard, Cell, Color, Position, WideBitboard};
use proptest::prelude::*;
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

use crate::common::{all_sizes, bfs_winner, grid_of, position_of, random_grid};

/// Setup positions of a grid agree with the reference, and so does the flood-fill check.
fn check_grid<B: BitSet>(grid: &[Vec<Option<Color>>]) {
    let pos: Position<B> = position_of(grid, Color::Black);
    let expected = bfs_winner(grid);
    assert_eq!(pos.winner(), expected, "{pos}");
    let geom = pos.geometry();
    assert_eq!(geom.connects(pos.black(), Color::Black), expected == Some(Color::Black));
    assert_eq!(geom.connects(pos.white(), Color::White), expected == Some(Color::White));
}

/// Plays the grid's stones one at a time in random order (each with its own colour), checking
/// the incremental winner against the reference after every move, then undoes them all.
fn check_incremental<B: BitSet>(grid: &[Vec<Option<Color>>], rng: &mut SmallRng) {
    let (rows, cols) = (grid.len(), grid[0].len());
    let mut stones: Vec<(Color, Cell)> = Vec::new();
    for (r, row) in grid.iter().enumerate() {
        for (c, v) in row.iter().enumerate() {
            if let Some(color) = v {
                stones.push((*color, Cell::at(c as u8, r as u8)));
            }
        }
    }
    stones.shuffle(rng);
    let mut pos = Position::<B>::new(cols, rows).unwrap();
    let mut partial = vec![vec![None; cols]; rows];
    let mut winners = Vec::new();
    for &(color, cell) in &stones {
        pos.play_as(color, cell).unwrap();
        partial[cell.row() as usize][cell.col() as usize] = Some(color);
        let expected = bfs_winner(&partial);
        assert_eq!(pos.winner(), expected, "after {color} {cell}\n{pos}");
        winners.push(expected);
    }
    for i in (0..stones.len()).rev() {
        let before = if i == 0 { None } else { winners[i - 1] };
        assert!(pos.undo());
        assert_eq!(pos.winner(), before);
    }
    assert!(!pos.undo());
}

#[test]
fn every_size_matches_breadth_first_search() {
    let mut rng = SmallRng::seed_from_u64(11);
    for (cols, rows) in all_sizes() {
        for empty in [0.0, 0.3, 0.6] {
            let grid = random_grid(&mut rng, cols, rows, empty);
            check_grid::<WideBitboard>(&grid);
            if fits_small(cols, rows) {
                check_grid::<Bitboard>(&grid);
            }
        }
    }
}

#[test]
fn incremental_winner_matches_on_every_size() {
    let mut rng = SmallRng::seed_from_u64(12);
    for (cols, rows) in all_sizes() {
        let grid = random_grid(&mut rng, cols, rows, 0.2);
        if fits_small(cols, rows) {
            check_incremental::<Bitboard>(&grid, &mut rng);
        }
        if (cols + rows) % 3 == 0 || !fits_small(cols, rows) {
            check_incremental::<WideBitboard>(&grid, &mut rng);
        }
    }
}

/// Hex's no-draw theorem (Gale, "The game of Hex and the Brouwer fixed-point theorem", 1979):
/// a completely filled board has exactly one winner.
fn check_full_board<B: BitSet>(cols: usize, rows: usize, rng: &mut SmallRng) {
    let grid = random_grid(rng, cols, rows, 0.0);
    let pos: Position<B> = position_of(&grid, Color::Black);
    let black = crate::common::bfs_connects(&grid, Color::Black);
    let white = crate::common::bfs_connects(&grid, Color::White);
    assert!(black != white, "a full board must have exactly one winner\n{pos}");
    let expected = if black { Color::Black } else { Color::White };
    assert_eq!(pos.winner(), Some(expected), "{pos}");
    assert_eq!(pos.geometry().full_board_winner(pos.black()), expected);
}

#[test]
fn full_boards_have_exactly_one_winner() {
    let mut rng = SmallRng::seed_from_u64(13);
    for (cols, rows) in all_sizes() {
        for _ in 0..2 {
            check_full_board::<WideBitboard>(cols, rows, &mut rng);
            if fits_small(cols, rows) {
                check_full_board::<Bitboard>(cols, rows, &mut rng);
            }
        }
    }
}

/// The winner and the canonical hash survive every symmetry of the board.
fn check_symmetries<B: BitSet>(pos: &Position<B>) -> Result<(), TestCaseError> {
    for &s in pos.geometry().symmetries() {
        let image = pos.transformed(s);
        prop_assert_eq!(image.winner(), pos.winner().map(|c| s.map_color(c)), "{:?}", s);
        prop_assert_eq!(image.canonical_hash(), pos.canonical_hash(), "{:?}", s);
        prop_assert_eq!(bfs_winner(&grid_of(&image)), image.winner());
        prop_assert_eq!(image.to_move(), s.map_color(pos.to_move()));
        prop_assert_eq!(image.black().len(), pos.stones(s.map_color(Color::Black)).len());
        let geom = pos.geometry();
        for color in Color::ALL {
            prop_assert_eq!(geom.map_set(s, pos.stones(color)), image.stones(s.map_color(color)));
        }
        // Off-board members are dropped; edges map to edges.
        prop_assert_eq!(geom.map_set(s, !geom.cells()), geom.map_set(s, B::EDGES));
        prop_assert_eq!(geom.map_set(s, B::EDGES), B::EDGES);
        // Each symmetry is its own inverse.
        prop_assert_eq!(&image.transformed(s.inverse()), pos);
    }
    let (canon, sym) = pos.canonical();
    prop_assert_eq!(canon.hash(), pos.canonical_hash());
    prop_assert_eq!(&canon, &pos.transformed(sym));
    // The key names the canonical image, and its symmetry leads there.
    let (key, key_sym) = pos.canonical_key();
    prop_assert_eq!(key, pos.canonical_hash());
    prop_assert_eq!(pos.transformed(key_sym).hash(), key);
    // A move's image as a bit is the cell's image.
    let geom = pos.geometry();
    for &s in geom.symmetries() {
        for c in geom.cells() {
            prop_assert_eq!(geom.map_bit(s, B::bit_of(c)), B::bit_of(geom.map_cell(s, c)));
        }
    }
    Ok(())
}

fn size() -> impl Strategy<Value = (usize, usize)> {
    prop_oneof![(1..=19usize).prop_map(|n| (n, n)), (1..=19usize, 1..=19usize)]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn random_boards_match_breadth_first_search(
        (cols, rows) in size(),
        empty in 0.0..1.0f64,
        seed in any::<u64>(),
    ) {
        let mut rng = SmallRng::seed_from_u64(seed);
        let grid = random_grid(&mut rng, cols, rows, empty);
        check_grid::<WideBitboard>(&grid);
        if fits_small(cols, rows) {
            check_grid::<Bitboard>(&grid);
        }
    }

    #[test]
    fn winners_are_preserved_by_symmetries(
        (cols, rows) in size(),
        empty in 0.0..1.0f64,
        white_to_move in any::<bool>(),
        seed in any::<u64>(),
    ) {
        let mut rng = SmallRng::seed_from_u64(seed);
        let grid = random_grid(&mut rng, cols, rows, empty);
        let to_move = if white_to_move { Color::White } else { Color::Black };
        check_symmetries(&position_of::<WideBitboard>(&grid, to_move))?;
        if fits_small(cols, rows) {
            check_symmetries(&position_of::<Bitboard>(&grid, to_move))?;
        }
        // A random move keeps the two widths' hashes equal: hashing ignores the layout.
        if fits_small(cols, rows) {
            let mut a = position_of::<Bitboard>(&grid, to_move);
            let mut b = position_of::<WideBitboard>(&grid, to_move);
            prop_assert_eq!(a.hash(), b.hash());
            if let Some(c) = a.empty_cells().iter().nth(rng.gen_range(0..cols * rows)) {
                a.play(c).unwrap();
                b.play(c).unwrap();
                prop_assert_eq!(a.hash(), b.hash());
                prop_assert_eq!(a.canonical_hash(), b.canonical_hash());
            }
        }
    }
}
