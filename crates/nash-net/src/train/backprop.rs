//! One example's forward pass, keeping what the backward pass needs, and the backward pass:
//! the gradient of its loss with respect to every parameter.
//!
//! The loss of an example is the cross-entropy of the policy against the search's visit
//! shares plus `value_weight` times the squared error of the value against the target (the
//! AlphaZero loss, Silver et al. 2017, without its weight decay term, which the optimizer adds).

use crate::net::conv::{col2im, conv3x3, gemm, Grid};
use crate::net::Net;
use crate::planes::Example;

/// The forward pass's numbers for one example, for the statistics of a batch.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Outcome {
    /// Cross-entropy of the policy against the visit shares (0 without visits).
    pub policy_loss: f64,
    /// Squared error of the value.
    pub value_loss: f64,
    /// Whether the net's most likely move is the most visited one (`None` without visits).
    pub top1: Option<bool>,
    /// The net's value.
    pub value: f32,
}

/// Buffers for one thread's examples, grown to the largest board seen.
#[derive(Debug, Default)]
pub struct Workspace {
    /// Post-ReLU activations: the input convolution's, then each block's output.
    acts: Vec<f32>,
    /// Post-ReLU activations of each block's first convolution.
    mids: Vec<f32>,
    cols: Vec<f32>,
    dcols: Vec<f32>,
    da: Vec<f32>,
    ds: Vec<f32>,
    dh: Vec<f32>,
    dx: Vec<f32>,
    logits: Vec<f32>,
    pooled: Vec<f32>,
    hidden: Vec<f32>,
}

fn grow(v: &mut Vec<f32>, len: usize) {
    if v.len() < len {
        v.resize(len, 0.0);
    }
}

/// Runs `ex` through `net`; with `grad`, adds the gradient of the example's loss to it (in the
/// net's parameter layout).
pub fn run(
    net: &Net,
    ex: &Example,
    value_weight: f32,
    ws: &mut Workspace,
    grad: Option<&mut [f32]>,
) -> Outcome {
    let arch = net.arch();
    let lay = net.layout();
    let p = net.params();
    let (np, f, hd, blocks) = (arch.planes.count(), arch.filters, arch.hidden, arch.blocks);
    let frame = ex.frame;
    let n = frame.pixels();
    let fx = f * n;
    let grids = [Grid { offset: 0, width: frame.width(), height: frame.height() }];
    grow(&mut ws.acts, (blocks + 1) * fx);
    grow(&mut ws.mids, blocks * fx);
    grow(&mut ws.cols, 9 * np.max(f) * n);
    grow(&mut ws.dcols, 9 * np.max(f) * n);
    for v in [&mut ws.da, &mut ws.ds, &mut ws.dh, &mut ws.dx] {
        grow(v, fx);
    }
    grow(&mut ws.logits, n);
    grow(&mut ws.pooled, f);
    grow(&mut ws.hidden, hd);

    let conv_w = |i: usize| {
        let c = lay.convs[i];
        (&p[c.weights..c.weights + c.out_ch * 9 * c.in_ch], &p[c.bias..c.bias + c.out_ch])
    };

    // Forward.
    {
        let (w, b) = conv_w(0);
        let a0 = &mut ws.acts[..fx];
        conv3x3(&ex.planes, np, f, w, b, n, &grids, &mut ws.cols, a0);
        a0.iter_mut().for_each(|x| *x = x.max(0.0));
    }
    for blk in 0..blocks {
        let (before, after) = ws.acts.split_at_mut((blk + 1) * fx);
        let a_in = &before[blk * fx..];
        let mid = &mut ws.mids[blk * fx..(blk + 1) * fx];
        let (w, b) = conv_w(1 + 2 * blk);
        conv3x3(a_in, f, f, w, b, n, &grids, &mut ws.cols, mid);
        mid.iter_mut().for_each(|x| *x = x.max(0.0));
        let out = &mut after[..fx];
        let (w, b) = conv_w(2 + 2 * blk);
        conv3x3(mid, f, f, w, b, n, &grids, &mut ws.cols, out);
        for (o, a) in out.iter_mut().zip(a_in) {
            *o = (*o + a).max(0.0);
        }
    }
    let last = &ws.acts[blocks * fx..(blocks + 1) * fx];

    // Policy: softmax over the empty board cells.
    let empty = &ex.planes[2 * n..3 * n];
    let logits = &mut ws.logits[..n];
    logits.fill(p[lay.policy_b]);
    for c in 0..f {
        let w = p[lay.policy_w + c];
        for (l, a) in logits.iter_mut().zip(&last[c * n..(c + 1) * n]) {
            *l += w * a;
        }
    }
    let max =
        (0..n).filter(|&q| empty[q] > 0.5).map(|q| logits[q]).fold(f32::NEG_INFINITY, f32::max);
    let mut sum = 0.0f64;
    for q in 0..n {
        if empty[q] > 0.5 {
            let e = ((logits[q] - max) as f64).exp();
            logits[q] = e as f32;
            sum += e;
        } else {
            logits[q] = 0.0;
        }
    }
    let probs = logits;
    if sum > 0.0 {
        probs.iter_mut().for_each(|x| *x = (*x as f64 / sum) as f32);
    }
    let has_target = ex.policy.iter().any(|&t| t > 0.0);
    let mut policy_loss = 0.0f64;
    let mut top1 = None;
    if has_target {
        for (&t, &prob) in ex.policy.iter().zip(probs.iter()) {
            if t > 0.0 {
                policy_loss -= t as f64 * (prob.max(1e-30) as f64).ln();
            }
        }
        let argmax =
            |v: &[f32]| (0..n).filter(|&q| empty[q] > 0.5).max_by(|&a, &b| v[a].total_cmp(&v[b]));
        top1 = Some(argmax(probs) == argmax(&ex.policy));
    }

    // Value: mean over the board cells, FC, ReLU, FC, tanh.
    let cells = frame.cells() as f32;
    let pooled = &mut ws.pooled[..f];
    for (c, out) in pooled.iter_mut().enumerate() {
        let row = &last[c * n..(c + 1) * n];
        *out = frame.board_pixels().map(|q| row[q]).sum::<f32>() / cells;
    }
    let hidden = &mut ws.hidden[..hd];
    for (j, out) in hidden.iter_mut().enumerate() {
        let w = &p[lay.value1_w + j * f..lay.value1_w + (j + 1) * f];
        *out = w.iter().zip(pooled.iter()).map(|(a, b)| a * b).sum::<f32>() + p[lay.value1_b + j];
    }
    let w2 = &p[lay.value2_w..lay.value2_w + hd];
    let v0: f32 =
        w2.iter().zip(hidden.iter()).map(|(a, h)| a * h.max(0.0)).sum::<f32>() + p[lay.value2_b];
    let value = v0.tanh();
    let err = value - ex.value;
    let outcome = Outcome { policy_loss, value_loss: (err as f64) * (err as f64), top1, value };
    let Some(grad) = grad else { return outcome };

    // Backward, heads first. `da` is the loss's gradient with respect to `last`.
    let da = &mut ws.da[..fx];
    da.fill(0.0);
    if has_target {
        for q in 0..n {
            // d(cross-entropy)/d(logit) = prob - target, on the empty cells.
            if empty[q] > 0.5 {
                let dl = probs[q] - ex.policy[q];
                grad[lay.policy_b] += dl;
                for c in 0..f {
                    grad[lay.policy_w + c] += dl * last[c * n + q];
                    da[c * n + q] += dl * p[lay.policy_w + c];
                }
            }
        }
    }
    let dv0 = value_weight * 2.0 * err * (1.0 - value * value);
    grad[lay.value2_b] += dv0;
    for j in 0..hd {
        let h = hidden[j];
        grad[lay.value2_w + j] += dv0 * h.max(0.0);
        if h > 0.0 {
            let dz = dv0 * w2[j];
            grad[lay.value1_b + j] += dz;
            for c in 0..f {
                grad[lay.value1_w + j * f + c] += dz * pooled[c];
                let dg = dz * p[lay.value1_w + j * f + c] / cells;
                for q in frame.board_pixels() {
                    da[c * n + q] += dg;
                }
            }
        }
    }

    // Adds the weight and bias gradients of convolution `i` for output gradient `dout` and
    // input `input` (`in_ch × n`), and writes the input gradient into `dinput` if given.
    let conv_back = |i: usize,
                     input: &[f32],
                     dout: &[f32],
                     grad: &mut [f32],
                     cols: &mut [f32],
                     dcols: &mut [f32],
                     dinput: Option<&mut [f32]>| {
        let c = lay.convs[i];
        let k = 9 * c.in_ch;
        crate::net::conv::im2col(input, c.in_ch, n, &grids, cols);
        gemm(
            c.out_ch,
            n,
            k,
            dout,
            false,
            &cols[..k * n],
            true,
            1.0,
            &mut grad[c.weights..c.weights + c.out_ch * k],
        );
        for (o, row) in dout.chunks_exact(n).enumerate() {
            grad[c.bias + o] += row.iter().sum::<f32>();
        }
        if let Some(dinput) = dinput {
            gemm(
                k,
                c.out_ch,
                n,
                &p[c.weights..c.weights + c.out_ch * k],
                true,
                dout,
                false,
                0.0,
                &mut dcols[..k * n],
            );
            col2im(dcols, c.in_ch, n, &grids, dinput);
        }
    };

    for blk in (0..blocks).rev() {
        let a_in = &ws.acts[blk * fx..(blk + 1) * fx];
        let a_out = &ws.acts[(blk + 1) * fx..(blk + 2) * fx];
        let mid = &ws.mids[blk * fx..(blk + 1) * fx];
        // Through the block's final ReLU.
        let ds = &mut ws.ds[..fx];
        for ((d, g), a) in ds.iter_mut().zip(da.iter()).zip(a_out) {
            *d = if *a > 0.0 { *g } else { 0.0 };
        }
        let dh = &mut ws.dh[..fx];
        conv_back(2 + 2 * blk, mid, ds, grad, &mut ws.cols, &mut ws.dcols, Some(dh));
        for (d, m) in dh.iter_mut().zip(mid) {
            if *m <= 0.0 {
                *d = 0.0;
            }
        }
        let dx = &mut ws.dx[..fx];
        conv_back(1 + 2 * blk, a_in, dh, grad, &mut ws.cols, &mut ws.dcols, Some(dx));
        // The skip carries `ds` straight to the block's input.
        for ((d, s), x) in da.iter_mut().zip(ds.iter()).zip(dx.iter()) {
            *d = s + x;
        }
    }
    let a0 = &ws.acts[..fx];
    let ds = &mut ws.ds[..fx];
    for ((d, g), a) in ds.iter_mut().zip(da.iter()).zip(a0) {
        *d = if *a > 0.0 { *g } else { 0.0 };
    }
    conv_back(0, &ex.planes, ds, grad, &mut ws.cols, &mut ws.dcols, None);
    outcome
}
