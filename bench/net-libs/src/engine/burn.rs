//! The net in burn, on one of its CPU backends (ndarray, flex), through the functional
//! `burn::tensor::module::conv2d`; and the training loss's gradient through burn's autodiff
//! decorator on the same backend.

use burn::tensor::activation::{log_softmax, relu};
use burn::tensor::module::conv2d;
use burn::tensor::ops::ConvOptions;
use burn::tensor::{Device, Tensor, TensorData};
use nash_board::WidePosition;
use nash_net::planes::Example;
use nash_net::{Evaluation, Net};

use super::Engine;
use crate::batch::Batch;
use crate::params::Params;

/// The net's parameters as burn tensors, in nash-net's layout order: per convolution weights
/// `out × in × 3 × 3` and biases `out`; policy `1 × f × 1 × 1` and `1`; value layers `h × f`,
/// `1 × h`, `1 × h`, `1 × 1`.
#[derive(Debug)]
struct Weights {
    convs: Vec<(Tensor<4>, Tensor<1>)>,
    policy: (Tensor<4>, Tensor<1>),
    value1: (Tensor<2>, Tensor<2>),
    value2: (Tensor<2>, Tensor<2>),
}

fn tensor<const D: usize>(data: &[f32], shape: [usize; D], device: &Device) -> Tensor<D> {
    Tensor::from_data(TensorData::new(data.to_vec(), shape), device)
}

fn to_vec<const D: usize>(t: Tensor<D>) -> anyhow::Result<Vec<f32>> {
    t.into_data().try_to_vec::<f32>().map_err(|e| anyhow::anyhow!("burn: {e:?}"))
}

impl Weights {
    /// The parameters of `net` on `device`; with `track`, as leaves whose gradients autodiff
    /// keeps.
    fn new(net: &Net, device: &Device, track: bool) -> Weights {
        let p = Params::of(net);
        let (f, h) = (p.filters, p.hidden);
        let t4 = |data: &[f32], shape| {
            let t = tensor::<4>(data, shape, device);
            if track {
                t.require_grad()
            } else {
                t
            }
        };
        let t2 = |data: &[f32], shape| {
            let t = tensor::<2>(data, shape, device);
            if track {
                t.require_grad()
            } else {
                t
            }
        };
        let t1 = |data: &[f32]| {
            let t = tensor::<1>(data, [data.len()], device);
            if track {
                t.require_grad()
            } else {
                t
            }
        };
        Weights {
            convs: p
                .convs
                .iter()
                .map(|c| (t4(c.weights, [c.out_ch, c.in_ch, 3, 3]), t1(c.bias)))
                .collect(),
            policy: (t4(p.policy_w, [1, f, 1, 1]), t1(&[p.policy_b])),
            value1: (t2(p.value1_w, [h, f]), t2(p.value1_b, [1, h])),
            value2: (t2(p.value2_w, [1, h]), t2(&[p.value2_b], [1, 1])),
        }
    }

    /// The policy logits (`n × 1 × height × width`) and the values (`n × 1`) of `x`
    /// (`n × planes × height × width`).
    fn forward(&self, x: Tensor<4>) -> (Tensor<4>, Tensor<2>) {
        let [n, _, height, width] = x.dims();
        let f = self.policy.0.dims()[1];
        let conv = |x: Tensor<4>, i: usize| {
            let (w, bias) = &self.convs[i];
            conv2d(x, w.clone(), Some(bias.clone()), ConvOptions::new([1, 1], [1, 1], [1, 1], 1))
        };
        let mut x = relu(conv(x, 0));
        for block in 0..(self.convs.len() - 1) / 2 {
            let y = relu(conv(x.clone(), 1 + 2 * block));
            x = relu(conv(y, 2 + 2 * block) + x);
        }
        let (pw, pb) = &self.policy;
        let one = ConvOptions::new([1, 1], [0, 0], [1, 1], 1);
        let logits = conv2d(x.clone(), pw.clone(), Some(pb.clone()), one);
        let pooled =
            x.slice([0..n, 0..f, 1..height - 1, 1..width - 1]).mean_dims(&[2, 3]).reshape([n, f]);
        let (w1, b1) = &self.value1;
        let (w2, b2) = &self.value2;
        let hidden = relu(pooled.matmul(w1.clone().transpose()) + b1.clone());
        let value = (hidden.matmul(w2.clone().transpose()) + b2.clone()).tanh();
        (logits, value)
    }
}

/// The net on a burn device.
#[derive(Debug)]
pub struct Burn {
    name: String,
    device: Device,
    weights: Weights,
    batch: Batch,
}

impl Burn {
    /// The net on `device`, called `name` in the table.
    pub fn new(net: &Net, device: Device, name: &str) -> Burn {
        let weights = Weights::new(net, &device, false);
        Burn { name: name.to_string(), device, weights, batch: Batch::new(net.arch().planes) }
    }
}

impl Engine for Burn {
    fn name(&self) -> &str {
        &self.name
    }

    fn evaluate(&mut self, positions: &[WidePosition]) -> anyhow::Result<&[Evaluation]> {
        self.batch.encode(positions)?;
        let b = &self.batch;
        let x = tensor(&b.input, [b.len, b.channels(), b.height, b.width], &self.device);
        let (logits, value) = self.weights.forward(x);
        let (logits, values) = (to_vec(logits)?, to_vec(value)?);
        self.batch.finish(&logits, &values)
    }
}

/// The gradient of nash-net's training loss over `examples` (all of one size) on `device`
/// with autodiff, in the layout's order (as [`super::candle::gradient`]).
pub fn gradient(
    net: &Net,
    examples: &[Example],
    value_weight: f32,
    device: Device,
) -> anyhow::Result<Vec<f32>> {
    let device = device.autodiff();
    let weights = Weights::new(net, &device, true);
    let t = crate::grad::Tensors::of(examples)?;
    let (n, pixels) = (examples.len(), t.pixels());
    let x = tensor(&t.planes, t.shape(), &device);
    let mask = tensor(&t.mask, [n, pixels], &device);
    let target = tensor(&t.policy, [n, pixels], &device);
    let z = tensor(&t.value, [n, 1], &device);
    let (logits, value) = weights.forward(x);
    let log_p = log_softmax(logits.reshape([n, pixels]) + mask, 1);
    let policy_loss = -(target * log_p).sum_dim(1);
    let err = value - z;
    let loss = (policy_loss + err.clone() * err * value_weight).mean();
    let grads = loss.backward();
    let missing = || anyhow::anyhow!("burn: a parameter has no gradient");
    let mut out = Vec::with_capacity(net.params().len());
    for (w, b) in &weights.convs {
        out.extend(to_vec(w.grad(&grads).ok_or_else(missing)?)?);
        out.extend(to_vec(b.grad(&grads).ok_or_else(missing)?)?);
    }
    out.extend(to_vec(weights.policy.0.grad(&grads).ok_or_else(missing)?)?);
    out.extend(to_vec(weights.policy.1.grad(&grads).ok_or_else(missing)?)?);
    for (w, b) in [&weights.value1, &weights.value2] {
        out.extend(to_vec(w.grad(&grads).ok_or_else(missing)?)?);
        out.extend(to_vec(b.grad(&grads).ok_or_else(missing)?)?);
    }
    Ok(out)
}
