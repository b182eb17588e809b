//! The progress counters add up to what the solves report.

use std::sync::Arc;

use nash_board::{BitSet, Bitboard, Cell, Position};
use nash_search::{solve, solve_many, winning_moves, Progress, SolverConfig, SolverTable};

fn counted(threads: usize) -> (Arc<Progress>, SolverConfig) {
    let progress = Arc::new(Progress::new());
    let cfg = SolverConfig { threads, progress: Some(progress.clone()), ..SolverConfig::default() };
    (progress, cfg)
}

fn openings(size: usize) -> Vec<Position<Bitboard>> {
    let empty = Position::<Bitboard>::square(size).unwrap();
    empty
        .empty_cells()
        .iter()
        .map(|c: Cell| {
            let mut p = empty.clone();
            p.play(c).unwrap();
            p
        })
        .collect()
}

#[test]
fn a_solve_counts_its_nodes_and_one_position() {
    for threads in [1, 2] {
        let (progress, cfg) = counted(threads);
        assert_eq!(progress.total(), None);
        let r = solve(&Position::<Bitboard>::square(5).unwrap(), &cfg);
        let seen = progress.snapshot();
        assert_eq!((seen.decided, seen.total), (1, Some(1)), "{threads} threads");
        assert_eq!(seen.nodes, r.stats.nodes, "{threads} threads");
    }
}

#[test]
fn winning_moves_counts_every_move() {
    for threads in [1, 2] {
        let (progress, cfg) = counted(threads);
        let w = winning_moves(&Position::<Bitboard>::square(4).unwrap(), &cfg);
        let seen = progress.snapshot();
        assert_eq!((seen.decided, seen.total), (16, Some(16)), "{threads} threads");
        assert_eq!(seen.nodes, w.stats.nodes, "{threads} threads");
    }
}

#[test]
fn a_set_and_a_kept_table_count_what_they_solve() {
    let (progress, cfg) = counted(2);
    let positions = openings(4);
    let results = solve_many(&positions, &cfg);
    let nodes: u64 = results.iter().map(|r| r.stats.nodes).sum();
    assert_eq!(progress.snapshot().nodes, nodes);
    assert_eq!((progress.decided(), progress.total()), (16, Some(16)));

    let (progress, cfg) = counted(1);
    let mut table = SolverTable::new();
    let pos = &positions[5];
    let a = table.solve(pos, &cfg);
    let b = table.winning_moves(pos, &cfg);
    assert_eq!(progress.nodes(), a.stats.nodes + b.stats.nodes);
    let moves = pos.legal_moves().len() as u64;
    assert_eq!((progress.decided(), progress.total()), (1 + moves, Some(1 + moves)));
}
