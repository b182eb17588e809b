//! The net in tract (tract-core): a typed model built in code, one per board size and batch
//! size, optimised by tract and run through a reused plan state. tract is inference only.

use std::collections::HashMap;

use nash_board::WidePosition;
use nash_net::{Evaluation, Net};
use tract_core::internal::*;
use tract_core::ops::cnn::{Conv, KernelFormat, PaddingSpec, PoolSpec};
use tract_core::ops::math::{add, max, mul, tanh};
use tract_core::ops::nn::{DataFormat, Reduce, Reducer};

use super::Engine;
use crate::batch::Batch;
use crate::params::Params;

/// The net's weights, and a ready model per (grid height, grid width, batch).
#[derive(Debug)]
pub struct Tract {
    net: Net,
    states: HashMap<(usize, usize, usize), TypedSimpleState>,
    batch: Batch,
}

/// A convolution of `k × k` kernels with zero padding that keeps the size, biased.
#[allow(clippy::too_many_arguments)]
fn conv(
    model: &mut TypedModel,
    name: &str,
    x: OutletId,
    k: usize,
    in_ch: usize,
    out_ch: usize,
    weights: &[f32],
    bias: &[f32],
) -> TractResult<OutletId> {
    let kernel = model.add_const(
        format!("{name}.kernel"),
        Tensor::from_shape(&[out_ch, in_ch, k, k], weights)?,
    )?;
    let bias = model.add_const(format!("{name}.bias"), Tensor::from_shape(&[out_ch], bias)?)?;
    let pad = k / 2;
    let op = Conv {
        pool_spec: PoolSpec {
            data_format: DataFormat::NCHW,
            kernel_shape: tvec![k, k],
            padding: PaddingSpec::Explicit(tvec![pad, pad], tvec![pad, pad]),
            dilations: None,
            strides: None,
            input_channels: in_ch,
            output_channels: out_ch,
        },
        kernel_fmt: KernelFormat::OIHW,
        group: 1,
        q_params: None,
    };
    Ok(model.wire_node(name, op, &[x, kernel, bias])?[0])
}

/// A scalar as a rank-4 constant, to broadcast against activations.
fn scalar(model: &mut TypedModel, name: &str, v: f32) -> TractResult<OutletId> {
    model.add_const(name, Tensor::from_shape(&[1, 1, 1, 1], &[v])?)
}

fn relu(model: &mut TypedModel, name: &str, x: OutletId) -> TractResult<OutletId> {
    let zero = scalar(model, &format!("{name}.zero"), 0.0)?;
    Ok(model.wire_node(name, max(), &[x, zero])?[0])
}

/// The net for `n` positions on grids of `height × width`: outputs the policy logits
/// (`n × 1 × height × width`) and the values (`n × 1 × 1 × 1`).
fn model(net: &Net, n: usize, height: usize, width: usize) -> TractResult<TypedModel> {
    let p = Params::of(net);
    let (f, h) = (p.filters, p.hidden);
    let mut m = TypedModel::default();
    let input = m.add_source("planes", f32::fact([n, p.planes, height, width]))?;
    let layer = |m: &mut TypedModel, i: usize, x: OutletId| {
        let c = p.convs[i];
        conv(m, &format!("conv{i}"), x, 3, c.in_ch, c.out_ch, c.weights, c.bias)
    };
    let first = layer(&mut m, 0, input)?;
    let mut x = relu(&mut m, "relu0", first)?;
    for block in 0..(p.convs.len() - 1) / 2 {
        let (i, j) = (1 + 2 * block, 2 + 2 * block);
        let y = layer(&mut m, i, x)?;
        let y = relu(&mut m, &format!("relu{i}"), y)?;
        let y = layer(&mut m, j, y)?;
        let sum = m.wire_node(format!("skip{j}"), add(), &[y, x])?[0];
        x = relu(&mut m, &format!("relu{j}"), sum)?;
    }
    let logits = conv(&mut m, "policy", x, 1, f, 1, p.policy_w, &[p.policy_b])?;

    // Value: the mean over the board's cells (the grid less its ring), then the two layers as
    // 1×1 convolutions of the `n × f × 1 × 1` means.
    let rows =
        m.wire_node("board.rows", tract_core::ops::array::Slice::new(2, 1, height - 1), &[x])?[0];
    let board =
        m.wire_node("board.cols", tract_core::ops::array::Slice::new(3, 1, width - 1), &[rows])?[0];
    let sum =
        m.wire_node("pool.sum", Reduce { axes: tvec![2, 3], reducer: Reducer::Sum }, &[board])?[0];
    let inv = scalar(&mut m, "pool.inv", 1.0 / ((height - 2) * (width - 2)) as f32)?;
    let pooled = m.wire_node("pool", mul(), &[sum, inv])?[0];
    let hidden = conv(&mut m, "value1", pooled, 1, f, h, p.value1_w, p.value1_b)?;
    let hidden = relu(&mut m, "value1.relu", hidden)?;
    let value = conv(&mut m, "value2", hidden, 1, h, 1, p.value2_w, &[p.value2_b])?;
    let value = m.wire_node("value", tanh(), &[value])?[0];
    m.select_output_outlets(&[logits, value])?;
    m.into_optimized()
}

impl Tract {
    pub fn new(net: &Net) -> Tract {
        Tract { net: net.clone(), states: HashMap::new(), batch: Batch::new(net.arch().planes) }
    }
}

impl Engine for Tract {
    fn name(&self) -> &str {
        "tract (tract-core, model built in code)"
    }

    fn evaluate(&mut self, positions: &[WidePosition]) -> anyhow::Result<&[Evaluation]> {
        self.batch.encode(positions)?;
        let b = &self.batch;
        let key = (b.height, b.width, b.len);
        if !self.states.contains_key(&key) {
            let plan = model(&self.net, b.len, b.height, b.width)?.into_runnable()?;
            self.states.insert(key, plan.spawn()?);
        }
        let state = self.states.get_mut(&key).expect("inserted above");
        let shape = [b.len, b.channels(), b.height, b.width];
        let input = Tensor::from_shape(&shape, &b.input)?;
        let out = state.run(tvec![input.into_tvalue()])?;
        // Copied out so that the batch can be borrowed mutably.
        let logits = out[0].try_as_plain_ram()?.as_slice::<f32>()?.to_vec();
        let values = out[1].try_as_plain_ram()?.as_slice::<f32>()?.to_vec();
        self.batch.finish(&logits, &values)
    }
}
