//! Where each layer's parameters sit in the net's one flat parameter vector.
//!
//! Gradients and optimizer state use the same layout, so an update is one loop over a slice.

use super::Arch;

/// A 3×3 convolution's weights (`out × 9·in`, row-major) and biases (`out`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct ConvAt {
    pub weights: usize,
    pub bias: usize,
    pub in_ch: usize,
    pub out_ch: usize,
}

/// The offsets of every parameter tensor.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Layout {
    /// The input convolution, then two per residual block.
    pub convs: Vec<ConvAt>,
    /// Policy head: 1×1 convolution weights (`filters`) and bias (1).
    pub policy_w: usize,
    pub policy_b: usize,
    /// Value head: first layer weights (`hidden × filters`) and biases (`hidden`).
    pub value1_w: usize,
    pub value1_b: usize,
    /// Value head: second layer weights (`hidden`) and bias (1).
    pub value2_w: usize,
    pub value2_b: usize,
    /// Number of parameters.
    pub len: usize,
    /// The ranges that are weights (not biases): the ones weight decay applies to.
    pub weight_ranges: Vec<std::ops::Range<usize>>,
}

impl Layout {
    /// The layout of `arch`.
    pub fn new(arch: &Arch) -> Layout {
        let (f, h) = (arch.filters, arch.hidden);
        let mut len = 0;
        let mut weight_ranges = Vec::new();
        let mut take = |n: usize, weight: bool| {
            let at = len;
            len += n;
            if weight {
                weight_ranges.push(at..at + n);
            }
            at
        };
        let mut convs = Vec::with_capacity(1 + 2 * arch.blocks);
        for i in 0..1 + 2 * arch.blocks {
            let in_ch = if i == 0 { arch.planes.count() } else { f };
            let weights = take(f * 9 * in_ch, true);
            let bias = take(f, false);
            convs.push(ConvAt { weights, bias, in_ch, out_ch: f });
        }
        let policy_w = take(f, true);
        let policy_b = take(1, false);
        let value1_w = take(h * f, true);
        let value1_b = take(h, false);
        let value2_w = take(h, true);
        let value2_b = take(1, false);
        Layout {
            convs,
            policy_w,
            policy_b,
            value1_w,
            value1_b,
            value2_w,
            value2_b,
            len,
            weight_ranges,
        }
    }
}
