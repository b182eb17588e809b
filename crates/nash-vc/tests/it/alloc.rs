//! A warm builder allocates nothing: once its buffers have grown for the positions of a game,
//! building a position again, copying it, deriving a child from it and updating it with a stone
//! reuse them (the allocations of the current thread are counted, so the tests running beside
//! this one do not disturb it).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell as StdCell;

use nash_board::{BitSet, Bitboard, Cell, Color, Position};
use nash_vc::{HSearchConfig, VcBuilder};

/// Counts the allocations of the current thread.
struct Counting;

thread_local! {
    static ALLOCATIONS: StdCell<u64> = const { StdCell::new(0) };
}

// SAFETY: every call is forwarded to the system allocator unchanged; the counter is a
// thread-local `Cell` with a const initialiser, which never allocates.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
        // SAFETY: the caller's contract is passed on.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract is passed on.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
        // SAFETY: the caller's contract is passed on.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn allocations() -> u64 {
    ALLOCATIONS.with(|n| n.get())
}

/// The positions of a game on the `n` x `n` board, each move the `(i * 7 + 3)`-th empty cell,
/// with the cell of the move that follows each (`None` after the last).
fn game(n: usize) -> Vec<(Position<Bitboard>, Option<Cell>)> {
    let mut pos: Position<Bitboard> = Position::square(n).expect("board size");
    let mut out = Vec::new();
    let mut i = 0usize;
    while pos.winner().is_none() {
        let empty: Vec<Cell> = pos.empty_cells().iter().collect();
        let cell = empty[(i * 7 + 3) % empty.len()];
        out.push((pos.clone(), Some(cell)));
        pos.play(cell).expect("an empty cell");
        i += 1;
    }
    out.push((pos, None));
    out
}

/// One pass over the game with three builders: each position built from scratch, copied,
/// derived from its parent, and updated with the next move and with a stone that does not
/// change the turn.
fn replay(game: &[(Position<Bitboard>, Option<Cell>)], vcs: &mut [VcBuilder<Bitboard>; 3]) {
    let [vc, copy, child] = vcs;
    for w in game.windows(2) {
        let (pos, next) = &w[0];
        vc.build(pos);
        copy.clone_from(vc);
        child.build_from(vc, &w[1].0);
        if let Some(cell) = next {
            copy.play(*cell);
            vc.put(Color::Black, *cell);
        }
    }
}

#[test]
fn a_warm_builder_allocates_nothing() {
    for config in
        [HSearchConfig::default(), HSearchConfig::fast(), HSearchConfig::thesis_base().exact()]
    {
        for n in [5, 7] {
            let game = game(n);
            let mut vcs = [VcBuilder::new(config), VcBuilder::new(config), VcBuilder::new(config)];
            let before = allocations();
            replay(&game, &mut vcs);
            assert!(allocations() > before, "cold builders allocated nothing: nothing is counted");
            for _ in 0..2 {
                replay(&game, &mut vcs);
            }
            let before = allocations();
            replay(&game, &mut vcs);
            let made = allocations() - before;
            assert_eq!(made, 0, "{made} allocations replaying a {n}x{n} game with {config}");
        }
    }
}
