//! Df-pn allocates nothing per search node: a warm [`Worker`] that solves one position after
//! another searches tens of thousands of nodes while allocating a few hundred times fewer
//! times than it searches nodes.

use nash_board::alloc_count::{allocations, CountingAllocator};
use nash_board::{Bitboard, MoveList, Position};
use nash_search::{Budget, SharedTable, SolverConfig, Worker};

#[global_allocator]
static GLOBAL: CountingAllocator = CountingAllocator;

/// The 7x7 positions after each of `moves`.
fn positions(moves: &[&str]) -> Vec<Position<Bitboard>> {
    moves
        .iter()
        .map(|m| {
            let mut p = Position::<Bitboard>::square(7).expect("7x7");
            m.parse::<MoveList>().expect("moves").play_on(&mut p).expect("legal");
            p
        })
        .collect()
}

/// Once a worker is warm (its buffers sized by the solves before), the solves of positions
/// not in its table yet search at least `MIN_NODES` nodes in all and allocate fewer than once
/// per `NODES_PER_ALLOCATION` nodes: nothing in a node's search (its analysis, move order,
/// children, table probes) allocates, which would be at least one allocation per node. What
/// is left, measured at about one allocation per 180 nodes, is not per node: each solve's
/// position starts with a move history of its exact length, which grows again as the search
/// plays moves (about 16 reallocations a solve), and some of nash-vc's builds grow a buffer
/// from 16 KiB again (a few per thousand nodes).
#[test]
fn warm_dfpn_allocates_nothing_per_node() {
    const MIN_NODES: u64 = 15_000;
    const NODES_PER_ALLOCATION: u64 = 100;
    let cfg = SolverConfig::default();
    let warm = positions(&["b1", "d2"]);
    let measured = positions(&["a2", "b5"]);
    let table = SharedTable::new(&cfg, warm[0].geometry()).expect("a table");
    let mut worker = Worker::new(&warm[0], &cfg, &table);
    let budget = Budget::default();
    for p in &warm {
        assert!(worker.solve(p, &budget).outcome.wins().is_some());
    }
    let before = allocations();
    let mut nodes = 0;
    for p in &measured {
        let r = worker.solve(p, &budget);
        assert!(r.outcome.wins().is_some());
        nodes += r.stats.nodes;
    }
    let made = allocations() - before;
    assert!(nodes >= MIN_NODES, "only {nodes} nodes searched: the test measures too little");
    assert!(made * NODES_PER_ALLOCATION < nodes, "{made} allocations in {nodes} nodes");
}
