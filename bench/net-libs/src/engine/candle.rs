//! The net in candle (candle-core's CPU tensors): `Tensor::conv2d` for the convolutions, which
//! candle runs as im2col and the `gemm` crate's product; and the training loss's gradient
//! through candle's backpropagation.

use candle_core::{Device, Tensor, Var, D};
use nash_board::WidePosition;
use nash_net::planes::Example;
use nash_net::{Evaluation, Net};

use super::Engine;
use crate::batch::Batch;
use crate::params::Params;

/// The net's parameters as candle variables, in nash-net's layout order: per convolution
/// weights `out × in × 3 × 3` and biases `1 × out × 1 × 1`; policy `1 × f × 1 × 1` and
/// `1 × 1 × 1 × 1`; value layers `h × f`, `1 × h`, `1 × h`, `1 × 1`.
#[derive(Debug)]
struct Weights {
    convs: Vec<(Var, Var)>,
    policy: (Var, Var),
    value1: (Var, Var),
    value2: (Var, Var),
}

impl Weights {
    fn new(net: &Net, device: &Device) -> candle_core::Result<Weights> {
        let p = Params::of(net);
        let (f, h) = (p.filters, p.hidden);
        let v = |data: &[f32], shape: &[usize]| {
            Var::from_tensor(&Tensor::from_slice(data, shape, device)?)
        };
        let convs = p
            .convs
            .iter()
            .map(|c| {
                Ok((v(c.weights, &[c.out_ch, c.in_ch, 3, 3])?, v(c.bias, &[1, c.out_ch, 1, 1])?))
            })
            .collect::<candle_core::Result<_>>()?;
        Ok(Weights {
            convs,
            policy: (v(p.policy_w, &[1, f, 1, 1])?, v(&[p.policy_b], &[1, 1, 1, 1])?),
            value1: (v(p.value1_w, &[h, f])?, v(p.value1_b, &[1, h])?),
            value2: (v(p.value2_w, &[1, h])?, v(&[p.value2_b], &[1, 1])?),
        })
    }

    /// Every variable, in the layout's order.
    fn all(&self) -> Vec<&Var> {
        let mut all: Vec<&Var> = self.convs.iter().flat_map(|(w, b)| [w, b]).collect();
        for (w, b) in [&self.policy, &self.value1, &self.value2] {
            all.extend([w, b]);
        }
        all
    }

    /// The policy logits (`n × 1 × height × width`) and the values (`n × 1`) of `x`
    /// (`n × planes × height × width`).
    fn forward(&self, x: &Tensor) -> candle_core::Result<(Tensor, Tensor)> {
        let (_, _, height, width) = x.dims4()?;
        let conv = |x: &Tensor, i: usize| {
            let (w, bias) = &self.convs[i];
            x.conv2d(w, 1, 1, 1, 1)?.broadcast_add(bias)
        };
        let mut x = conv(x, 0)?.relu()?;
        for block in 0..(self.convs.len() - 1) / 2 {
            let y = conv(&x, 1 + 2 * block)?.relu()?;
            x = (conv(&y, 2 + 2 * block)? + &x)?.relu()?;
        }
        let logits = x.conv2d(&self.policy.0, 0, 1, 1, 1)?.broadcast_add(&self.policy.1)?;
        let pooled = x.narrow(2, 1, height - 2)?.narrow(3, 1, width - 2)?.mean((2, 3))?;
        let hidden = pooled.matmul(&self.value1.0.t()?)?.broadcast_add(&self.value1.1)?.relu()?;
        let value = hidden.matmul(&self.value2.0.t()?)?.broadcast_add(&self.value2.1)?.tanh()?;
        Ok((logits, value))
    }
}

/// The net on candle's CPU device.
#[derive(Debug)]
pub struct Candle {
    device: Device,
    weights: Weights,
    batch: Batch,
}

impl Candle {
    pub fn new(net: &Net) -> candle_core::Result<Candle> {
        let device = Device::Cpu;
        let weights = Weights::new(net, &device)?;
        Ok(Candle { device, weights, batch: Batch::new(net.arch().planes) })
    }
}

impl Engine for Candle {
    fn name(&self) -> &str {
        "candle"
    }

    fn evaluate(&mut self, positions: &[WidePosition]) -> anyhow::Result<&[Evaluation]> {
        self.batch.encode(positions)?;
        let b = &self.batch;
        let shape = [b.len, b.channels(), b.height, b.width];
        let x = Tensor::from_slice(&b.input, &shape[..], &self.device)?;
        let (logits, value) = self.weights.forward(&x)?;
        let logits: Vec<f32> = logits.flatten_all()?.to_vec1()?;
        let values: Vec<f32> = value.squeeze(D::Minus1)?.to_vec1()?;
        self.batch.finish(&logits, &values)
    }
}

/// The gradient of nash-net's training loss over `examples` (all of one size), in the layout's
/// order: the batch's mean of the policy's cross-entropy against the visit shares (a softmax
/// over the empty cells) plus `value_weight` times the value's squared error.
pub fn gradient(net: &Net, examples: &[Example], value_weight: f32) -> anyhow::Result<Vec<f32>> {
    let device = Device::Cpu;
    let weights = Weights::new(net, &device)?;
    let tensors = crate::grad::Tensors::of(examples)?;
    let (n, pixels) = (examples.len(), tensors.pixels());
    let x = Tensor::from_slice(&tensors.planes, &tensors.shape()[..], &device)?;
    let mask = Tensor::from_slice(&tensors.mask, (n, pixels), &device)?;
    let target = Tensor::from_slice(&tensors.policy, (n, pixels), &device)?;
    let z = Tensor::from_slice(&tensors.value, (n, 1), &device)?;
    let (logits, value) = weights.forward(&x)?;
    let logits = (logits.reshape((n, pixels))? + mask)?;
    // log softmax; the shift by the maximum is a constant for the gradient.
    let shifted = logits.broadcast_sub(&logits.max_keepdim(1)?.detach())?;
    let log_p = shifted.broadcast_sub(&shifted.exp()?.sum_keepdim(1)?.log()?)?;
    let policy_loss = (target * log_p)?.sum(1)?.neg()?;
    let value_loss = (value - z)?.sqr()?.squeeze(1)?;
    let loss = (policy_loss + (value_loss * f64::from(value_weight))?)?.mean_all()?;
    let grads = loss.backward()?;
    let mut out = Vec::with_capacity(net.params().len());
    for var in weights.all() {
        let g =
            grads.get(var).ok_or_else(|| anyhow::anyhow!("candle: a parameter has no gradient"))?;
        out.extend(g.flatten_all()?.to_vec1::<f32>()?);
    }
    Ok(out)
}
