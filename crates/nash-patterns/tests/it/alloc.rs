//! A warm analysis allocates nothing: once the engine of a board exists, analysing positions
//! and filling them in reuse no heap memory at all (the allocations of the current thread are
//! counted, so the tests running beside this one do not disturb it).

use nash_board::alloc_count::{allocations, CountingAllocator};
use nash_board::{Bitboard, Cell, Position, WideBitboard};
use nash_patterns::Ice;

#[global_allocator]
static GLOBAL: CountingAllocator = CountingAllocator;

/// The positions of a game on the `n` x `n` board, each move the `(i * 5 + 2)`-th empty cell.
fn game<B: nash_board::BitSet>(n: usize) -> Vec<Position<B>> {
    let mut pos: Position<B> = Position::square(n).expect("board size");
    let mut out = Vec::new();
    let mut i = 0usize;
    while pos.winner().is_none() {
        out.push(pos.clone());
        let empty: Vec<Cell> = pos.empty_cells().iter().collect();
        pos.play(empty[(i * 5 + 2) % empty.len()]).expect("an empty cell");
        i += 1;
    }
    out
}

/// Analyses every position of `game` and fills each in and back; returns the allocations made.
fn count<B: nash_board::BitSet>(ice: &Ice<B>, game: &mut [Position<B>]) -> u64 {
    let before = allocations();
    for pos in game.iter_mut() {
        let a = ice.analyse(pos);
        std::hint::black_box(a);
        let report = ice.fill_in(pos);
        for _ in 0..report.steps {
            pos.undo();
        }
    }
    allocations() - before
}

fn check<B: nash_board::BitSet>(n: usize) {
    let probe = allocations();
    drop(std::hint::black_box(vec![0u8; 8]));
    assert!(allocations() > probe, "an allocation was not counted");
    let ice = Ice::<B>::for_size(n, n).expect("board size");
    let mut game = game::<B>(n);
    // The first pass lets each position's undo history grow to what fill-in needs.
    count(ice, &mut game);
    let made = count(ice, &mut game);
    assert_eq!(made, 0, "{made} allocations analysing a game on {n}x{n}");
}

#[test]
fn a_warm_analysis_allocates_nothing() {
    for n in [5, 8, 11] {
        check::<Bitboard>(n);
    }
    check::<WideBitboard>(13);
}
