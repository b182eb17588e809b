//! The training check: each library that can train computes the gradient of nash-net's loss
//! by its own automatic differentiation, compared with nash-net's backpropagation
//! (`nash_net::train::gradient`), and timed.

use anyhow::bail;
use nash_board::{Cell, WidePosition};
use nash_net::planes::{from_sample, Example};
use nash_net::{PlaneSet, Sample};

/// A logit's offset on cells that are not empty board cells: its softmax share is then 0 in
/// f32, and its log-probability, finite, meets a zero target.
const MASKED: f32 = -1e9;

/// A batch of examples as flat tensors.
#[derive(Debug)]
pub struct Tensors {
    /// `n × planes × height × width`.
    pub planes: Vec<f32>,
    /// `n × pixels`: 0 on empty board cells, [`MASKED`] elsewhere.
    pub mask: Vec<f32>,
    /// `n × pixels`: the visit shares.
    pub policy: Vec<f32>,
    /// `n`: the value targets.
    pub value: Vec<f32>,
    n: usize,
    channels: usize,
    height: usize,
    width: usize,
}

impl Tensors {
    /// The tensors of `examples`, all in frames of one size.
    pub fn of(examples: &[Example]) -> anyhow::Result<Tensors> {
        let Some(first) = examples.first() else { bail!("no examples") };
        let (height, width) = (first.frame.height(), first.frame.width());
        if examples.iter().any(|e| (e.frame.height(), e.frame.width()) != (height, width)) {
            bail!("examples of several sizes");
        }
        let pixels = height * width;
        let channels = first.planes.len() / pixels;
        let mut t = Tensors {
            planes: Vec::new(),
            mask: Vec::new(),
            policy: Vec::new(),
            value: Vec::new(),
            n: examples.len(),
            channels,
            height,
            width,
        };
        for e in examples {
            t.planes.extend(&e.planes);
            let empty = &e.planes[2 * pixels..3 * pixels];
            t.mask.extend(empty.iter().map(|&x| if x > 0.5 { 0.0 } else { MASKED }));
            t.policy.extend(&e.policy);
            t.value.push(e.value);
        }
        Ok(t)
    }

    pub fn pixels(&self) -> usize {
        self.height * self.width
    }

    pub fn shape(&self) -> [usize; 4] {
        [self.n, self.channels, self.height, self.width]
    }
}

/// A training example per position: visit counts on every empty cell (a pattern of 1
/// to 7), the result alternating.
pub fn examples(positions: &[WidePosition], planes: PlaneSet) -> anyhow::Result<Vec<Example>> {
    positions
        .iter()
        .enumerate()
        .map(|(i, pos)| {
            let visits: Vec<(Cell, u32)> = pos
                .empty_cells()
                .into_iter()
                .zip(i..)
                .map(|(c, v)| (c, 1 + v as u32 % 7))
                .collect();
            Ok(from_sample(&Sample::new(pos, &visits, i % 2 == 0, None, 0, 0), planes)?)
        })
        .collect()
}

/// The larger of a largest difference so far and a new one, a NaN counting as infinite (so
/// that it fails every tolerance; `f32::max` would drop it).
pub fn worse(so_far: f32, d: f32) -> f32 {
    if d.is_nan() {
        f32::INFINITY
    } else {
        so_far.max(d)
    }
}

/// The largest difference between two gradients, relative to the largest entry of `want`.
pub fn relative_difference(got: &[f32], want: &[f32]) -> f32 {
    let scale = want.iter().fold(0.0f32, |m, x| m.max(x.abs())).max(1e-30);
    got.iter().zip(want).fold(0.0f32, |m, (a, b)| worse(m, (a - b).abs())) / scale
}
