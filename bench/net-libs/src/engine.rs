//! The net in each library: one [`Engine`] per library, built from the same nash-net weights.

use nash_board::WidePosition;
use nash_net::Evaluation;

pub mod burn;
pub mod candle;
pub mod gemm;
pub mod nash;
pub mod tract;

/// A library's inference of the net.
pub trait Engine {
    /// The library's name in the table.
    fn name(&self) -> &str;

    /// The answers for a batch of positions of one square size, in their order.
    fn evaluate(&mut self, positions: &[WidePosition]) -> anyhow::Result<&[Evaluation]>;
}
