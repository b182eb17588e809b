//! nash-net's own inference: im2col and `matrixmultiply`'s sgemm, the reference the other
//! libraries are checked against.

use std::sync::Arc;

use nash_board::WidePosition;
use nash_net::{Evaluation, Evaluator, Net};

use super::Engine;

/// nash-net's [`Evaluator`].
#[derive(Debug)]
pub struct Nash(Evaluator);

impl Nash {
    pub fn new(net: Arc<Net>) -> Nash {
        Nash(Evaluator::new(net))
    }
}

impl Engine for Nash {
    fn name(&self) -> &str {
        "nash-net (im2col + matrixmultiply)"
    }

    fn evaluate(&mut self, positions: &[WidePosition]) -> anyhow::Result<&[Evaluation]> {
        Ok(self.0.evaluate(positions))
    }
}
