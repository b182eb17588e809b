//! A warm builder allocates nothing: once its buffers have grown for the positions of a game,
//! building a position again, copying it, deriving a child from it and updating it with a stone
//! reuse them (the allocations of the current thread are counted, so the tests running beside
//! this one do not disturb it).

use nash_board::alloc_count::{allocations, CountingAllocator};
use nash_board::{BitSet, Bitboard, Cell, Color, Position};
use nash_vc::{HSearchConfig, VcBuilder};

#[global_allocator]
static GLOBAL: CountingAllocator = CountingAllocator;

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
