//! The policy and value net and batched inference.
//!
//! A small fully convolutional residual net in the style of AlphaZero's (Silver et al. 2017,
//! 2018), sized for one core, taking any board size (7×7 to 13×13 with one set of weights):
//!
//! - input: the planes of [`crate::planes`] over the board and its ring;
//! - a 3×3 convolution from the planes to `filters` channels, then ReLU;
//! - `blocks` residual blocks (He et al. 2016): 3×3 conv, ReLU, 3×3 conv, plus the block's
//!   input, ReLU. Every convolution pads with zeros outside the ring;
//! - policy head: a 1×1 convolution to one channel, read on the board's cells only, occupied
//!   cells masked out, softmax;
//! - value head: the mean of each channel over the board's cells, a fully connected layer to
//!   `hidden` units, ReLU, one output, tanh: the value for the side to move.
//!
//! There is no batch normalisation: the nets are shallow, and instead the second convolution
//! of each block starts small (a residual block starts near the identity, as in Zhang, Dauphin
//! and Ma 2019's Fixup), which keeps training stable.

use std::path::Path;
use std::sync::Arc;

use nash_board::{BitSet, Position};

use crate::planes::{self, Frame, PlaneSet, MAX_PIXELS};
use crate::NetError;

pub(crate) mod conv;
pub(crate) mod layout;

use conv::{conv3x3, Grid};
use layout::Layout;

/// The shape of a net: its input planes, channels, residual blocks and value-head width.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Arch {
    /// The input planes.
    pub planes: PlaneSet,
    /// Channels of every convolution.
    pub filters: usize,
    /// Residual blocks.
    pub blocks: usize,
    /// Hidden units of the value head.
    pub hidden: usize,
}

impl Default for Arch {
    /// Bridge planes, 32 filters, 3 blocks, 32 hidden units: over 1,000 evaluations a second
    /// on one core on 11×11 (docs/net.md).
    fn default() -> Arch {
        Arch { planes: PlaneSet::Bridges, filters: 32, blocks: 3, hidden: 32 }
    }
}

impl Arch {
    /// The largest filters, blocks and hidden units a net may have.
    pub const MAX_FILTERS: usize = 512;
    pub const MAX_BLOCKS: usize = 64;
    pub const MAX_HIDDEN: usize = 4096;

    /// Whether the sizes are in range (1 to the maxima; blocks may be 0).
    pub fn check(&self) -> Result<(), NetError> {
        if !(1..=Arch::MAX_FILTERS).contains(&self.filters) {
            return Err(NetError::Arch(format!(
                "filters {} out of range 1 to {}",
                self.filters,
                Arch::MAX_FILTERS
            )));
        }
        if self.blocks > Arch::MAX_BLOCKS {
            return Err(NetError::Arch(format!(
                "blocks {} out of range 0 to {}",
                self.blocks,
                Arch::MAX_BLOCKS
            )));
        }
        if !(1..=Arch::MAX_HIDDEN).contains(&self.hidden) {
            return Err(NetError::Arch(format!(
                "hidden {} out of range 1 to {}",
                self.hidden,
                Arch::MAX_HIDDEN
            )));
        }
        Ok(())
    }

    /// Number of parameters.
    pub fn param_count(&self) -> usize {
        Layout::new(self).len
    }
}

impl std::fmt::Display for Arch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "planes={} filters={} blocks={} hidden={}",
            self.planes.name(),
            self.filters,
            self.blocks,
            self.hidden
        )
    }
}

/// A net: its architecture and parameters.
#[derive(Clone, PartialEq, Debug)]
pub struct Net {
    arch: Arch,
    layout: Layout,
    params: Vec<f32>,
}

/// SplitMix64, for the initial weights (reproducible from a seed without a dependency).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in (0, 1].
    fn unit(&mut self) -> f64 {
        ((self.next() >> 11) + 1) as f64 / (1u64 << 53) as f64
    }

    /// Standard normal (Box-Muller).
    fn normal(&mut self) -> f32 {
        let (u, v) = (self.unit(), self.unit());
        ((-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()) as f32
    }
}

impl Net {
    /// A net of `arch` with random weights from `seed`: He initialisation (He et al. 2015) for
    /// layers followed by ReLU, the second convolution of each residual block scaled down so
    /// that blocks start near the identity, zero biases.
    ///
    /// # Panics
    /// If `arch` is out of range ([`Arch::check`]).
    pub fn random(arch: Arch, seed: u64) -> Net {
        arch.check().expect("Net::random: architecture out of range");
        let layout = Layout::new(&arch);
        let mut params = vec![0.0; layout.len];
        let mut rng = Rng(seed ^ 0x6E61_7368_6E65_7400);
        let mut fill = |params: &mut [f32], std: f32| {
            for p in params {
                *p = rng.normal() * std;
            }
        };
        for (i, c) in layout.convs.iter().enumerate() {
            let fan_in = (9 * c.in_ch) as f32;
            let mut std = (2.0 / fan_in).sqrt();
            if i > 0 && i % 2 == 0 {
                std *= 0.25;
            }
            fill(&mut params[c.weights..c.weights + c.out_ch * 9 * c.in_ch], std);
        }
        let (f, h) = (arch.filters, arch.hidden);
        fill(&mut params[layout.policy_w..layout.policy_w + f], (1.0 / f as f32).sqrt());
        fill(&mut params[layout.value1_w..layout.value1_w + h * f], (2.0 / f as f32).sqrt());
        fill(&mut params[layout.value2_w..layout.value2_w + h], (1.0 / h as f32).sqrt());
        Net { arch, layout, params }
    }

    /// A net of `arch` with the given parameters.
    pub fn from_params(arch: Arch, params: Vec<f32>) -> Result<Net, NetError> {
        arch.check()?;
        let layout = Layout::new(&arch);
        if params.len() != layout.len {
            return Err(NetError::Arch(format!(
                "{} parameters for {arch}, which has {}",
                params.len(),
                layout.len
            )));
        }
        Ok(Net { arch, layout, params })
    }

    /// Reads a weights file ([`crate::weights`]).
    pub fn load(path: &Path) -> Result<Net, NetError> {
        crate::weights::load(path)
    }

    /// Writes a weights file atomically ([`crate::weights`]).
    pub fn save(&self, path: &Path) -> Result<(), NetError> {
        crate::weights::save(self, path)
    }

    /// The architecture.
    pub fn arch(&self) -> Arch {
        self.arch
    }

    /// Every parameter, in the layout's order.
    pub fn params(&self) -> &[f32] {
        &self.params
    }

    /// Every parameter, for an optimizer to update.
    pub fn params_mut(&mut self) -> &mut [f32] {
        &mut self.params
    }

    pub(crate) fn layout(&self) -> &Layout {
        &self.layout
    }

    /// Evaluates positions with a throwaway [`Evaluator`] (allocates: for repeated calls keep
    /// an evaluator).
    pub fn evaluate<B: BitSet>(self: &Arc<Self>, positions: &[Position<B>]) -> Vec<Evaluation> {
        Evaluator::new(self.clone()).evaluate(positions).to_vec()
    }
}

/// The net's verdict on one position.
#[derive(Clone, PartialEq, Debug, Default)]
pub struct Evaluation {
    /// The prior of each board cell, row by row (`row * cols + col`, board coordinates, not the
    /// net's frame): zero on occupied cells, summing to 1 over the empty ones (all zero on a
    /// full board).
    pub policy: Vec<f32>,
    /// The value for the side to move, in [-1, 1]: +1 a sure win.
    pub value: f32,
}

/// Grid cells per pass of [`Evaluator::evaluate`]: runs of 256 to 1,024 cells measured
/// alike, and a whole batch of 32 11x11 positions (5,408 cells) about 10% slower.
const CHUNK_PIXELS: usize = 512;

/// Reusable buffers for batched inference with one net: after the first batch of a given
/// size, evaluating allocates nothing.
///
/// Each thread keeps its own evaluator; they can share the net through the [`Arc`].
#[derive(Debug)]
pub struct Evaluator {
    net: Arc<Net>,
    frames: Vec<Frame>,
    grids: Vec<Grid>,
    /// One position's planes, before they are spread into the batch's matrix.
    one: Vec<f32>,
    input: Vec<f32>,
    cols: Vec<f32>,
    act: Vec<f32>,
    mid: Vec<f32>,
    out: Vec<f32>,
    logits: Vec<f32>,
    pooled: Vec<f32>,
    hidden: Vec<f32>,
    evals: Vec<Evaluation>,
}

fn grow(v: &mut Vec<f32>, len: usize) {
    if v.len() < len {
        v.resize(len, 0.0);
    }
}

impl Evaluator {
    /// An evaluator for `net`.
    pub fn new(net: Arc<Net>) -> Evaluator {
        let planes = net.arch.planes.count();
        Evaluator {
            net,
            frames: Vec::new(),
            grids: Vec::new(),
            one: vec![0.0; planes * MAX_PIXELS],
            input: Vec::new(),
            cols: Vec::new(),
            act: Vec::new(),
            mid: Vec::new(),
            out: Vec::new(),
            logits: Vec::new(),
            pooled: Vec::new(),
            hidden: Vec::new(),
            evals: Vec::new(),
        }
    }

    /// The net it evaluates with.
    pub fn net(&self) -> &Arc<Net> {
        &self.net
    }

    /// Evaluates a batch of positions (any sizes, mixed) in one pass; the answers, in the
    /// positions' order, stay valid until the next call.
    pub fn evaluate<B: BitSet>(&mut self, positions: &[Position<B>]) -> &[Evaluation] {
        if self.evals.len() < positions.len() {
            self.evals.resize_with(positions.len(), Evaluation::default);
        }
        // Positions go through in runs of about [`CHUNK_PIXELS`] grid cells, so that the unfolded
        // columns of a convolution stay in cache: a larger matrix product gains nothing here.
        let mut start = 0;
        while start < positions.len() {
            let mut end = start;
            let mut pixels = 0;
            while end < positions.len() && (end == start || pixels < CHUNK_PIXELS) {
                pixels += (positions[end].cols() + 2) * (positions[end].rows() + 2);
                end += 1;
            }
            self.run(&positions[start..end], start);
            start = end;
        }
        &self.evals[..positions.len()]
    }

    /// Evaluates `positions` into `self.evals[first..]`.
    fn run<B: BitSet>(&mut self, positions: &[Position<B>], first: usize) {
        let net = &*self.net;
        let arch = net.arch;
        let (np, f, h) = (arch.planes.count(), arch.filters, arch.hidden);
        let lay = &net.layout;
        let p = &net.params;

        self.frames.clear();
        self.grids.clear();
        let mut pixels = 0;
        for pos in positions {
            let frame = Frame::new(pos.cols(), pos.rows(), pos.to_move());
            self.grids.push(Grid { offset: pixels, width: frame.width(), height: frame.height() });
            pixels += frame.pixels();
            self.frames.push(frame);
        }
        grow(&mut self.input, np * pixels);
        grow(&mut self.cols, 9 * np.max(f) * pixels);
        grow(&mut self.act, f * pixels);
        grow(&mut self.mid, f * pixels);
        grow(&mut self.out, f * pixels);
        grow(&mut self.logits, pixels);
        grow(&mut self.pooled, f);
        grow(&mut self.hidden, h);

        // Planes, spread into the batch matrix (plane-major over all the batch's cells).
        for (pos, g) in positions.iter().zip(&self.grids) {
            let n = g.pixels();
            let one = &mut self.one[..np * n];
            planes::encode_position(pos, arch.planes, one);
            for c in 0..np {
                self.input[c * pixels + g.offset..c * pixels + g.offset + n]
                    .copy_from_slice(&one[c * n..(c + 1) * n]);
            }
        }

        let conv = |i: usize, input: &[f32], cols: &mut [f32], out: &mut [f32]| {
            let c = lay.convs[i];
            let w = &p[c.weights..c.weights + c.out_ch * 9 * c.in_ch];
            let b = &p[c.bias..c.bias + c.out_ch];
            conv3x3(input, c.in_ch, c.out_ch, w, b, pixels, &self.grids, cols, out);
        };
        let relu = |v: &mut [f32]| v.iter_mut().for_each(|x| *x = x.max(0.0));

        let fp = f * pixels;
        conv(0, &self.input, &mut self.cols, &mut self.act[..fp]);
        relu(&mut self.act[..fp]);
        for b in 0..arch.blocks {
            conv(1 + 2 * b, &self.act, &mut self.cols, &mut self.mid[..fp]);
            relu(&mut self.mid[..fp]);
            conv(2 + 2 * b, &self.mid, &mut self.cols, &mut self.out[..fp]);
            for (o, a) in self.out[..fp].iter_mut().zip(&self.act[..fp]) {
                *o = (*o + a).max(0.0);
            }
            std::mem::swap(&mut self.act, &mut self.out);
        }

        // Policy logits over every grid cell.
        let logits = &mut self.logits[..pixels];
        logits.fill(p[lay.policy_b]);
        for c in 0..f {
            let w = p[lay.policy_w + c];
            for (l, a) in logits.iter_mut().zip(&self.act[c * pixels..(c + 1) * pixels]) {
                *l += w * a;
            }
        }

        for (i, (frame, g)) in self.frames.iter().zip(&self.grids).enumerate() {
            let empty = &self.input[2 * pixels + g.offset..2 * pixels + g.offset + g.pixels()];
            let logits = &self.logits[g.offset..g.offset + g.pixels()];
            let eval = &mut self.evals[first + i];
            eval.policy.clear();
            let mut max = f32::NEG_INFINITY;
            for q in frame.board_pixels() {
                if empty[q] > 0.5 {
                    max = max.max(logits[q]);
                }
            }
            let mut sum = 0.0;
            for q in frame.board_pixels() {
                let e = if empty[q] > 0.5 { (logits[q] - max).exp() } else { 0.0 };
                sum += e;
                eval.policy.push(e);
            }
            if sum > 0.0 {
                eval.policy.iter_mut().for_each(|x| *x /= sum);
            }

            // Value: mean over the board's cells, FC, ReLU, FC, tanh.
            let pooled = &mut self.pooled[..f];
            let inv = 1.0 / frame.cells() as f32;
            for (c, out) in pooled.iter_mut().enumerate() {
                let row = &self.act[c * pixels + g.offset..c * pixels + g.offset + g.pixels()];
                *out = frame.board_pixels().map(|q| row[q]).sum::<f32>() * inv;
            }
            let hidden = &mut self.hidden[..h];
            for (j, out) in hidden.iter_mut().enumerate() {
                let w = &p[lay.value1_w + j * f..lay.value1_w + (j + 1) * f];
                let s: f32 = w.iter().zip(pooled.iter()).map(|(a, b)| a * b).sum();
                *out = (s + p[lay.value1_b + j]).max(0.0);
            }
            let w2 = &p[lay.value2_w..lay.value2_w + h];
            let v: f32 = w2.iter().zip(hidden.iter()).map(|(a, b)| a * b).sum();
            eval.value = (v + p[lay.value2_b]).tanh();
        }
    }

    /// Evaluates one position.
    pub fn evaluate_one<B: BitSet>(&mut self, position: &Position<B>) -> &Evaluation {
        &self.evaluate(std::slice::from_ref(position))[0]
    }
}

#[cfg(test)]
mod tests {
    use nash_board::{Cell, SmallPosition, WidePosition};

    use super::*;

    fn tiny() -> Arch {
        Arch { planes: PlaneSet::Bridges, filters: 4, blocks: 1, hidden: 5 }
    }

    #[test]
    fn a_batch_answers_as_its_positions_one_by_one() {
        let net = Arc::new(Net::random(tiny(), 3));
        let mut a = SmallPosition::square(5).unwrap();
        a.play(Cell::at(2, 2)).unwrap();
        let b = SmallPosition::new(4, 6).unwrap();
        let mut c = SmallPosition::square(7).unwrap();
        c.play(Cell::at(0, 0)).unwrap();
        c.play(Cell::at(3, 4)).unwrap();
        let batch = [a, b, c];
        let mut ev = Evaluator::new(net.clone());
        let together = ev.evaluate(&batch).to_vec();
        for (pos, want) in batch.iter().zip(&together) {
            let one = Evaluator::new(net.clone()).evaluate_one(pos).clone();
            assert!((one.value - want.value).abs() < 1e-5);
            for (x, y) in one.policy.iter().zip(&want.policy) {
                assert!((x - y).abs() < 1e-5);
            }
        }
        assert_eq!(together[0].policy[2 * 5 + 2], 0.0);
        assert_eq!(together[1].policy.len(), 24);
        assert!((together[2].policy.iter().sum::<f32>() - 1.0).abs() < 1e-4);
    }

    #[test]
    fn the_bitboard_width_does_not_matter() {
        let net = Arc::new(Net::random(tiny(), 4));
        let mut a = SmallPosition::square(6).unwrap();
        let mut b = WidePosition::square(6).unwrap();
        for cell in [Cell::at(1, 2), Cell::at(4, 4), Cell::at(0, 5)] {
            a.play(cell).unwrap();
            b.play(cell).unwrap();
        }
        let x = net.evaluate(&[a]);
        let y = net.evaluate(&[b]);
        assert_eq!(x, y);
    }

    #[test]
    fn a_transposed_position_gets_the_transposed_answer() {
        // Black to move on a board and White to move on its transpose with colours swapped are
        // the same problem for the net.
        let net = Arc::new(Net::random(tiny(), 5));
        let mut a = SmallPosition::new(5, 4).unwrap();
        a.play(Cell::at(1, 1)).unwrap();
        a.play(Cell::at(3, 2)).unwrap();
        let mut b = SmallPosition::new(4, 5).unwrap();
        b.pass();
        b.play(Cell::at(1, 1)).unwrap();
        b.play(Cell::at(2, 3)).unwrap();
        assert_eq!(b.to_move(), nash_board::Color::White);
        let (x, y) = (&net.evaluate(&[a])[0], &net.evaluate(&[b])[0]);
        assert!((x.value - y.value).abs() < 1e-6);
        for row in 0..4 {
            for col in 0..5 {
                assert!((x.policy[row * 5 + col] - y.policy[col * 4 + row]).abs() < 1e-6);
            }
        }
    }

    #[test]
    fn architecture_limits() {
        assert!(Arch { filters: 0, ..Arch::default() }.check().is_err());
        assert!(Arch { hidden: 0, ..Arch::default() }.check().is_err());
        assert!(Arch { blocks: 65, ..Arch::default() }.check().is_err());
        assert!(Arch { blocks: 0, ..Arch::default() }.check().is_ok());
        let arch = tiny();
        assert!(Net::from_params(arch, vec![0.0; 3]).is_err());
        assert!(Net::from_params(arch, vec![0.0; arch.param_count()]).is_ok());
    }
}
