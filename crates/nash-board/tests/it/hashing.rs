//! The incremental hash, winner and undo against positions rebuilt from scratch, after random
//! sequences of moves, swaps, passes, fill-in and undos.

use nash_board::{fits_small, BitSet, Bitboard, Color, Move, Position, TinyBitboard, WideBitboard};
use proptest::prelude::*;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use crate::common::{bfs_winner, grid_of, rebuilt};

/// What undo must restore.
#[derive(Clone, PartialEq, Debug)]
struct Snapshot<B> {
    black: B,
    white: B,
    to_move: Color,
    winner: Option<Color>,
    hash: u64,
    canonical: u64,
}

fn snapshot<B: BitSet>(p: &Position<B>) -> Snapshot<B> {
    Snapshot {
        black: p.black(),
        white: p.white(),
        to_move: p.to_move(),
        winner: p.winner(),
        hash: p.hash(),
        canonical: p.canonical_hash(),
    }
}

fn random_cell<B: BitSet>(rng: &mut SmallRng, set: B) -> Option<nash_board::Cell> {
    let n = set.len();
    (n > 0).then(|| set.iter().nth(rng.gen_range(0..n)).unwrap())
}

fn run<B: BitSet>(cols: usize, rows: usize, seed: u64, ops: usize) -> Result<(), TestCaseError> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut pos = Position::<B>::new(cols, rows).unwrap();
    let empty = snapshot(&pos);
    let mut stack: Vec<Snapshot<B>> = Vec::new();
    for _ in 0..ops {
        let before = snapshot(&pos);
        let roll = rng.gen_range(0..100);
        let stepped = if roll < 55 {
            match random_cell(&mut rng, pos.empty_cells()) {
                Some(c) if roll < 45 => {
                    let predicted = pos.hash_after(c);
                    let canonical = pos.canonical_key_after(c);
                    pos.play_unchecked(c);
                    prop_assert_eq!(pos.hash(), predicted);
                    prop_assert_eq!(pos.canonical_key(), canonical);
                    true
                }
                Some(c) => {
                    let color = if rng.gen_bool(0.5) { Color::Black } else { Color::White };
                    pos.play_as(color, c).unwrap();
                    true
                }
                None => false,
            }
        } else if roll < 62 {
            let mv = if rng.gen_bool(0.5) { Move::SwapPieces } else { Move::SwapSides };
            pos.apply(mv).is_ok()
        } else if roll < 67 {
            pos.pass();
            true
        } else if roll < 72 {
            let set: B = pos.empty_cells().iter().filter(|_| rng.gen_bool(0.2)).collect();
            let color = if rng.gen_bool(0.5) { Color::Black } else { Color::White };
            let predicted = pos.hash() ^ pos.geometry().stones_hash(color, set);
            pos.fill(color, set);
            prop_assert_eq!(pos.hash(), predicted);
            true
        } else {
            match stack.pop() {
                Some(expected) => {
                    prop_assert!(pos.undo());
                    prop_assert_eq!(snapshot(&pos), expected);
                }
                None => prop_assert!(!pos.undo()),
            }
            false
        };
        if stepped {
            stack.push(before);
        }
        prop_assert_eq!(pos.num_steps(), stack.len());
        let fresh = rebuilt(&pos);
        prop_assert_eq!(pos.hash(), fresh.hash(), "{}", pos);
        prop_assert_eq!(pos.canonical_hash(), fresh.canonical_hash());
        prop_assert_eq!(pos.winner(), fresh.winner());
        prop_assert_eq!(pos.winner(), bfs_winner(&grid_of(&pos)));
    }
    while let Some(expected) = stack.pop() {
        prop_assert!(pos.undo());
        prop_assert_eq!(snapshot(&pos), expected);
    }
    prop_assert!(!pos.undo());
    prop_assert_eq!(snapshot(&pos), empty);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn incremental_hash_equals_hash_from_scratch(
        cols in 1..=19usize,
        rows in 1..=19usize,
        square in any::<bool>(),
        seed in any::<u64>(),
    ) {
        let rows = if square { cols } else { rows };
        run::<WideBitboard>(cols, rows, seed, 60)?;
        if fits_small(cols, rows) {
            run::<Bitboard>(cols, rows, seed, 60)?;
        }
        if cols <= TinyBitboard::STRIDE && rows <= TinyBitboard::STRIDE {
            run::<TinyBitboard>(cols, rows, seed, 60)?;
        }
    }
}

#[test]
fn swap_pieces_undo_restores_everything() {
    for n in 1..=11 {
        let mut pos = Position::<Bitboard>::square(n).unwrap();
        for cell in pos.empty_cells() {
            pos.play(cell).unwrap();
            let opened = snapshot(&pos);
            pos.apply(Move::SwapPieces).unwrap();
            assert_eq!(pos.to_move(), Color::Black);
            assert_eq!(pos.white().len(), 1);
            assert_eq!(pos.hash(), rebuilt(&pos).hash());
            assert!(pos.undo());
            assert_eq!(snapshot(&pos), opened);
            // The swap can be made again after its undo, and then the whole game undone.
            pos.apply_as(Color::White, Move::SwapPieces).unwrap();
            assert!(pos.undo());
            assert!(pos.undo());
            assert_eq!(pos.num_steps(), 0);
            assert!(pos.occupied().is_empty());
        }
    }
}

#[test]
fn clear_cell_rebuilds_the_rest() {
    let mut pos = Position::<Bitboard>::square(4).unwrap();
    for m in ["a1", "b1", "a2", "b2", "a3"] {
        pos.play(m.parse().unwrap()).unwrap();
    }
    let a2 = "a2".parse().unwrap();
    pos.clear_cell(a2);
    assert_eq!(pos.color_at(a2), None);
    assert_eq!(pos.to_move(), Color::White);
    assert_eq!(pos.black().len(), 2);
    assert_eq!(pos.hash(), rebuilt(&pos).hash());
    assert!(!pos.undo(), "clearing a cell makes the rest setup");
    pos.play(a2).unwrap();
    assert_eq!(pos.color_at(a2), Some(Color::White));
    pos.clear_cell("d4".parse().unwrap());
    assert_eq!(pos.num_steps(), 1, "clearing an empty cell changes nothing");
}
