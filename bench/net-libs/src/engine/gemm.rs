//! The net on the `gemm` crate's matrix product, with kernels of its own around it: a 3×3
//! convolution as a gather-based im2col and one product per layer.
//!
//! Activations are `channels × columns` matrices whose columns are the grid cells of several
//! positions side by side. Positions go through in runs of about [`RUN_PIXELS`] columns so that
//! the unfolded matrix stays in cache, as nash-net does.

use nash_board::WidePosition;
use nash_net::{Evaluation, Net};

use super::Engine;
use crate::batch::Batch;
use crate::params::Params;

/// Grid cells per run of positions through the net.
const RUN_PIXELS: usize = 512;

/// Marks a 3×3 tap that falls outside the grid (it reads zero).
const OUTSIDE: u32 = u32::MAX;

/// A convolution's weights (`out × 9·in`) and biases, owned.
#[derive(Debug)]
struct Layer {
    in_ch: usize,
    out_ch: usize,
    weights: Vec<f32>,
    bias: Vec<f32>,
}

/// The net on `gemm`, with its buffers.
#[derive(Debug)]
pub struct Gemm {
    layers: Vec<Layer>,
    filters: usize,
    hidden: usize,
    policy_w: Vec<f32>,
    policy_b: f32,
    value1_w: Vec<f32>,
    value1_b: Vec<f32>,
    value2_w: Vec<f32>,
    value2_b: f32,
    batch: Batch,
    /// For the grid's size in `taps_for`: per tap `k = 3·ky + kx` and grid cell, the cell it
    /// reads, or [`OUTSIDE`].
    taps: Vec<u32>,
    taps_for: (usize, usize),
    x: Vec<f32>,
    cols: Vec<f32>,
    a: Vec<f32>,
    b: Vec<f32>,
    c: Vec<f32>,
    logits: Vec<f32>,
    values: Vec<f32>,
}

/// `dst (m × n) += lhs (m × k) · rhs (k × n)`, all row-major, on one thread.
fn product(m: usize, k: usize, n: usize, lhs: &[f32], rhs: &[f32], dst: &mut [f32]) {
    assert!(lhs.len() >= m * k && rhs.len() >= k * n && dst.len() >= m * n, "short matrix");
    // SAFETY: the assertion keeps every element the strides reach inside the three slices, and
    // `dst` is borrowed mutably, so it aliases neither input.
    unsafe {
        gemm::gemm(
            m,
            n,
            k,
            dst.as_mut_ptr(),
            1,
            n as isize,
            true,
            lhs.as_ptr(),
            1,
            k as isize,
            rhs.as_ptr(),
            1,
            n as isize,
            1.0,
            1.0,
            false,
            false,
            false,
            gemm::Parallelism::None,
        );
    }
}

impl Gemm {
    pub fn new(net: &Net) -> Gemm {
        let p = Params::of(net);
        let layers = p
            .convs
            .iter()
            .map(|c| Layer {
                in_ch: c.in_ch,
                out_ch: c.out_ch,
                weights: c.weights.to_vec(),
                bias: c.bias.to_vec(),
            })
            .collect();
        Gemm {
            layers,
            filters: p.filters,
            hidden: p.hidden,
            policy_w: p.policy_w.to_vec(),
            policy_b: p.policy_b,
            value1_w: p.value1_w.to_vec(),
            value1_b: p.value1_b.to_vec(),
            value2_w: p.value2_w.to_vec(),
            value2_b: p.value2_b,
            batch: Batch::new(net.arch().planes),
            taps: Vec::new(),
            taps_for: (0, 0),
            x: Vec::new(),
            cols: Vec::new(),
            a: Vec::new(),
            b: Vec::new(),
            c: Vec::new(),
            logits: Vec::new(),
            values: Vec::new(),
        }
    }

    /// Fills the tap table for grids of `height × width`.
    fn taps(&mut self, height: usize, width: usize) {
        if self.taps_for == (height, width) {
            return;
        }
        self.taps.clear();
        for ky in 0..3 {
            for kx in 0..3 {
                for y in 0..height {
                    for x in 0..width {
                        let (sy, sx) = ((y + ky).wrapping_sub(1), (x + kx).wrapping_sub(1));
                        let inside = sy < height && sx < width;
                        self.taps.push(if inside { (sy * width + sx) as u32 } else { OUTSIDE });
                    }
                }
            }
        }
        self.taps_for = (height, width);
    }

    /// Positions `first..first + n` of the encoded batch through the net.
    fn run(&mut self, first: usize, n: usize) {
        let (np, f, h) = (self.batch.channels(), self.filters, self.hidden);
        let pixels = self.batch.pixels();
        let cols_n = n * pixels;
        let grow = |v: &mut Vec<f32>, len: usize| {
            if v.len() < len {
                v.resize(len, 0.0);
            }
        };
        grow(&mut self.x, np * cols_n);
        grow(&mut self.cols, 9 * np.max(f) * cols_n);
        for v in [&mut self.a, &mut self.b, &mut self.c] {
            grow(v, f * cols_n);
        }
        // The batch's positions are `planes × pixels` each; here each plane is one row across
        // the run's positions.
        for g in 0..n {
            let one = &self.batch.input[(first + g) * np * pixels..][..np * pixels];
            for ch in 0..np {
                self.x[ch * cols_n + g * pixels..][..pixels]
                    .copy_from_slice(&one[ch * pixels..][..pixels]);
            }
        }

        let conv = |layer: &Layer, taps: &[u32], src: &[f32], cols: &mut [f32], dst: &mut [f32]| {
            for ch in 0..layer.in_ch {
                let src = &src[ch * cols_n..][..cols_n];
                for k in 0..9 {
                    let tap = &taps[k * pixels..][..pixels];
                    let row = &mut cols[(ch * 9 + k) * cols_n..][..cols_n];
                    for (out, grid) in row.chunks_exact_mut(pixels).zip(src.chunks_exact(pixels)) {
                        for (o, &t) in out.iter_mut().zip(tap) {
                            *o = if t == OUTSIDE { 0.0 } else { grid[t as usize] };
                        }
                    }
                }
            }
            let dst = &mut dst[..layer.out_ch * cols_n];
            for (row, &b) in dst.chunks_exact_mut(cols_n).zip(&layer.bias) {
                row.fill(b);
            }
            product(layer.out_ch, 9 * layer.in_ch, cols_n, &layer.weights, cols, dst);
        };
        let relu = |v: &mut [f32]| v.iter_mut().for_each(|x| *x = x.max(0.0));

        let fc = f * cols_n;
        conv(&self.layers[0], &self.taps, &self.x, &mut self.cols, &mut self.a);
        relu(&mut self.a[..fc]);
        for block in self.layers[1..].chunks_exact(2) {
            conv(&block[0], &self.taps, &self.a, &mut self.cols, &mut self.b);
            relu(&mut self.b[..fc]);
            conv(&block[1], &self.taps, &self.b, &mut self.cols, &mut self.c);
            for (c, a) in self.c[..fc].iter_mut().zip(&self.a[..fc]) {
                *c = (*c + a).max(0.0);
            }
            std::mem::swap(&mut self.a, &mut self.c);
        }

        // Policy: a 1×1 convolution to one channel.
        let logits = &mut self.logits[first * pixels..][..cols_n];
        logits.fill(self.policy_b);
        for (ch, &w) in self.policy_w.iter().enumerate() {
            for (l, a) in logits.iter_mut().zip(&self.a[ch * cols_n..][..cols_n]) {
                *l += w * a;
            }
        }

        // Value: each channel's mean over the board's cells (the grid less its ring), two
        // layers, tanh.
        let (height, width) = (self.batch.height, self.batch.width);
        let inv = 1.0 / self.batch.cells() as f32;
        let mut pooled = [0.0f32; nash_net::Arch::MAX_FILTERS];
        let mut hidden = [0.0f32; nash_net::Arch::MAX_HIDDEN];
        for g in 0..n {
            for (ch, out) in pooled[..f].iter_mut().enumerate() {
                let grid = &self.a[ch * cols_n + g * pixels..][..pixels];
                let sum: f32 = (1..height - 1)
                    .map(|y| grid[y * width + 1..(y + 1) * width - 1].iter().sum::<f32>())
                    .sum();
                *out = sum * inv;
            }
            for (j, out) in hidden[..h].iter_mut().enumerate() {
                let w = &self.value1_w[j * f..][..f];
                let s: f32 = w.iter().zip(&pooled[..f]).map(|(a, b)| a * b).sum();
                *out = (s + self.value1_b[j]).max(0.0);
            }
            let v: f32 = self.value2_w.iter().zip(&hidden[..h]).map(|(a, b)| a * b).sum();
            self.values[first + g] = (v + self.value2_b).tanh();
        }
    }
}

impl Engine for Gemm {
    fn name(&self) -> &str {
        "own kernels on gemm"
    }

    fn evaluate(&mut self, positions: &[WidePosition]) -> anyhow::Result<&[Evaluation]> {
        self.batch.encode(positions)?;
        let (len, pixels) = (self.batch.len, self.batch.pixels());
        self.taps(self.batch.height, self.batch.width);
        if self.logits.len() < len * pixels {
            self.logits.resize(len * pixels, 0.0);
        }
        self.values.resize(len, 0.0);
        let per_run = (RUN_PIXELS / pixels).max(1);
        let mut first = 0;
        while first < len {
            let n = per_run.min(len - first);
            self.run(first, n);
            first += n;
        }
        self.batch.finish(&self.logits[..len * pixels], &self.values[..len])
    }
}
