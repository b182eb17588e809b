//! Inference allocates nothing of its own once its evaluator is warm (the players' search
//! calls it per node): what is left is the matrix library's packing buffer, one per matrix
//! product (matrixmultiply, like the gemm crate, takes one per call).

use std::sync::Arc;

use nash_board::alloc_count::{allocations, CountingAllocator};
use nash_board::{Cell, SmallPosition};
use nash_net::{Arch, Evaluator, Net};

#[global_allocator]
static GLOBAL: CountingAllocator = CountingAllocator;

#[test]
fn a_warm_evaluator_allocates_only_the_matrix_products_buffers() {
    let arch = Arch::default();
    let products = 1 + 2 * arch.blocks as u64;
    let net = Arc::new(Net::random(arch, 7));
    let mut evaluator = Evaluator::new(net);
    let mut positions = Vec::new();
    for size in [7, 9, 11] {
        let mut pos = SmallPosition::square(size).unwrap();
        pos.play(Cell::at(1, 2)).unwrap();
        positions.push(pos.clone());
        pos.play(Cell::at(3, 3)).unwrap();
        positions.push(pos);
    }
    // The six positions (834 grid cells) go through in two passes, the others in one.
    let calls: [(&[SmallPosition], u64); 3] =
        [(&positions, 2), (&positions[2..4], 1), (&positions[5..], 1)];
    for (batch, _) in calls {
        evaluator.evaluate(batch);
    }
    for _ in 0..3 {
        for (batch, passes) in calls {
            let before = allocations();
            evaluator.evaluate(batch);
            let spent = allocations() - before;
            assert!(
                spent <= passes * products,
                "{spent} allocations for {} positions",
                batch.len()
            );
        }
    }
}
