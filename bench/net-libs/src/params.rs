//! Named views of a nash-net net's one flat parameter vector, in the order of its weights file
//! (docs/net.md): per convolution its weights (`out × in × 3 × 3`) and biases, the policy head's
//! 1×1 weights and bias, the value head's two layers.

use nash_net::Net;

/// A 3×3 convolution's parameters.
#[derive(Clone, Copy, Debug)]
pub struct Conv<'a> {
    pub in_ch: usize,
    pub out_ch: usize,
    /// `out_ch × in_ch × 3 × 3`, row-major (the OIHW order of every library here).
    pub weights: &'a [f32],
    pub bias: &'a [f32],
}

/// Every parameter of a net, by layer.
#[derive(Clone, Debug)]
pub struct Params<'a> {
    pub planes: usize,
    pub filters: usize,
    pub hidden: usize,
    /// The input convolution, then two per residual block.
    pub convs: Vec<Conv<'a>>,
    /// Policy head: `filters` weights and one bias.
    pub policy_w: &'a [f32],
    pub policy_b: f32,
    /// Value head, first layer: `hidden × filters` weights, `hidden` biases.
    pub value1_w: &'a [f32],
    pub value1_b: &'a [f32],
    /// Value head, second layer: `hidden` weights, one bias.
    pub value2_w: &'a [f32],
    pub value2_b: f32,
}

impl<'a> Params<'a> {
    /// The layers of `net`.
    pub fn of(net: &'a Net) -> Params<'a> {
        let arch = net.arch();
        let (np, f, h) = (arch.planes.count(), arch.filters, arch.hidden);
        let mut rest = net.params();
        let mut take = |n: usize| {
            let (head, tail) = rest.split_at(n);
            rest = tail;
            head
        };
        let convs = (0..1 + 2 * arch.blocks)
            .map(|i| {
                let in_ch = if i == 0 { np } else { f };
                let weights = take(f * in_ch * 9);
                Conv { in_ch, out_ch: f, weights, bias: take(f) }
            })
            .collect();
        let params = Params {
            planes: np,
            filters: f,
            hidden: h,
            convs,
            policy_w: take(f),
            policy_b: take(1)[0],
            value1_w: take(h * f),
            value1_b: take(h),
            value2_w: take(h),
            value2_b: take(1)[0],
        };
        assert!(rest.is_empty(), "nash-net's parameter layout changed: update params.rs");
        params
    }
}
