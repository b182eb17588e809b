//! Board benchmarks: play + undo, winner detection after a move, and random playouts (fill the
//! board at random, decide the winner), the usual throughput figure of Hex engines.

use std::hint::black_box;

use criterion::measurement::WallTime;
use criterion::{criterion_group, criterion_main, BenchmarkGroup, Criterion, Throughput};
use nash_board::{BitSet, Bitboard, Cell, Position, WideBitboard};
use rand::rngs::SmallRng;
use rand::{Rng, RngCore, SeedableRng};

/// The board's cells in a random order (Fisher–Yates on a reused buffer).
fn shuffle(rng: &mut SmallRng, cells: &mut [Cell]) {
    for i in (1..cells.len()).rev() {
        let j = rng.gen_range(0..=i);
        cells.swap(i, j);
    }
}

/// A position in the middle game: `n` random moves on the empty board.
fn midgame<B: BitSet>(side: usize, n: usize, seed: u64) -> Position<B> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut pos = Position::<B>::square(side).expect("board size");
    let mut cells: Vec<Cell> = pos.empty_cells().iter().collect();
    shuffle(&mut rng, &mut cells);
    for &c in &cells[..n] {
        pos.play_unchecked(c);
    }
    pos
}

fn play_undo(c: &mut Criterion) {
    let mut g = c.benchmark_group("play_undo");
    let mut pos = midgame::<Bitboard>(11, 40, 1);
    let moves: Vec<Cell> = pos.empty_cells().iter().collect();
    g.throughput(Throughput::Elements(moves.len() as u64));
    g.bench_function("11x11", |b| {
        b.iter(|| {
            for &m in &moves {
                pos.play_unchecked(black_box(m));
                pos.undo();
            }
        })
    });
    let mut pos = midgame::<WideBitboard>(19, 120, 2);
    let moves: Vec<Cell> = pos.empty_cells().iter().collect();
    g.throughput(Throughput::Elements(moves.len() as u64));
    g.bench_function("19x19", |b| {
        b.iter(|| {
            for &m in &moves {
                pos.play_unchecked(black_box(m));
                pos.undo();
            }
        })
    });
    g.finish();
}

fn winner_after_move(c: &mut Criterion) {
    let mut g = c.benchmark_group("winner_after_move");
    let mut pos = midgame::<Bitboard>(11, 60, 3);
    let moves: Vec<Cell> = pos.empty_cells().iter().collect();
    g.throughput(Throughput::Elements(moves.len() as u64));
    // The incremental check: the winner is read off after each move.
    g.bench_function("11x11_incremental", |b| {
        b.iter(|| {
            let mut wins = 0u32;
            for &m in &moves {
                pos.play_unchecked(m);
                wins += pos.winner().is_some() as u32;
                pos.undo();
            }
            black_box(wins)
        })
    });
    // A from-scratch flood fill of the mover's stones, for comparison.
    let geom = pos.geometry();
    let mover = pos.to_move();
    let stones = pos.stones(mover);
    g.bench_function("11x11_flood_fill", |b| {
        b.iter(|| {
            let mut wins = 0u32;
            for &m in &moves {
                wins += geom.connects(black_box(stones).with(m), mover) as u32;
            }
            black_box(wins)
        })
    });
    g.finish();
}

/// A uniformly random set of exactly `count` of the `n` cells in `cells` (bits `0..n` of the
/// layout words): random bits, then random members removed or non-members added until the count
/// is right. By symmetry the result is uniform over all `count`-subsets, the distribution of
/// Black's stones when random alternate play fills the board. It needs a few dozen random words
/// where a shuffle needs one per cell.
fn random_subset<const W: usize>(
    rng: &mut SmallRng,
    cells: [u64; W],
    n: usize,
    count: usize,
) -> [u64; W] {
    let mut words = [0u64; W];
    let mut len = 0;
    for (w, c) in words.iter_mut().zip(cells) {
        *w = rng.next_u64() & c;
        len += w.count_ones() as usize;
    }
    while len != count {
        // A random cell; fix it if it is on the wrong side, otherwise draw again.
        let bit = ((rng.next_u32() as u64 * n as u64) >> 32) as usize;
        let (i, mask) = (bit / 64, 1u64 << (bit % 64));
        if cells[i] & mask == 0 {
            continue;
        }
        let set = words[i] & mask != 0;
        if set && len > count {
            words[i] ^= mask;
            len -= 1;
        } else if !set && len < count {
            words[i] ^= mask;
            len += 1;
        }
    }
    words
}

/// Random playouts: a random filling of the board (Black gets the first half of a shuffle,
/// rounded up, as alternate random play from the empty board would give him), then the winner.
fn playouts(c: &mut Criterion) {
    let mut g = c.benchmark_group("playout");
    g.throughput(Throughput::Elements(1));
    // The fastest honest playout: a random full board straight from random bits, then one
    // flood fill decides the winner.
    let mut rng = SmallRng::seed_from_u64(5);
    let geom = Position::<Bitboard>::square(11).expect("board size").geometry();
    let area = geom.cells().0;
    let words = [area as u64, (area >> 64) as u64];
    g.bench_function("11x11_random_bits_and_flood", |b| {
        b.iter(|| {
            let w = random_subset(&mut rng, words, 121, 61);
            let black = Bitboard(w[0] as u128 | (w[1] as u128) << 64);
            black_box(geom.full_board_winner(black))
        })
    });
    let geom = Position::<WideBitboard>::square(19).expect("board size").geometry();
    let area = geom.cells().0;
    g.bench_function("19x19_random_bits_and_flood", |b| {
        b.iter(|| {
            let black = WideBitboard(random_subset(&mut rng, area, 361, 181));
            black_box(geom.full_board_winner(black))
        })
    });
    playouts_on::<Bitboard>(&mut g, 11);
    playouts_on::<WideBitboard>(&mut g, 19);
    g.finish();
}

fn playouts_on<B: BitSet>(g: &mut BenchmarkGroup<'_, WallTime>, side: usize) {
    let mut rng = SmallRng::seed_from_u64(7);
    let mut pos = Position::<B>::square(side).expect("board size");
    let geom = pos.geometry();
    let mut cells: Vec<Cell> = geom.cells().iter().collect();
    let black_count = cells.len().div_ceil(2);
    // Fill the stones directly and decide the winner with one connectivity check.
    g.bench_function(format!("{side}x{side}_fill_and_flood"), |b| {
        b.iter(|| {
            shuffle(&mut rng, &mut cells);
            let black: B = cells[..black_count].iter().copied().collect();
            black_box(geom.full_board_winner(black))
        })
    });
    // Play the shuffled moves through the position until someone has won, then undo them.
    g.bench_function(format!("{side}x{side}_play_until_win"), |b| {
        b.iter(|| {
            shuffle(&mut rng, &mut cells);
            let mut played = 0;
            for &c in &cells {
                pos.play_unchecked(c);
                played += 1;
                if pos.winner().is_some() {
                    break;
                }
            }
            let w = pos.winner();
            for _ in 0..played {
                pos.undo();
            }
            black_box(w)
        })
    });
    // Only the shuffle, to separate the random number generation from the board work.
    g.bench_function(format!("{side}x{side}_shuffle_only"), |b| {
        b.iter(|| {
            shuffle(&mut rng, &mut cells);
            black_box(cells[0])
        })
    });
}

criterion_group!(benches, play_undo, winner_after_move, playouts);
criterion_main!(benches);
