//! What every library shares: a batch of positions of one size as an NCHW input tensor (the
//! planes of nash-net's `planes::encode_position`), and the net's raw outputs, a policy logit
//! per grid cell and a value per position, turned into nash-net's [`Evaluation`]s (stones
//! masked, softmax over the empty cells, mapped back to the board's cells).

use anyhow::bail;
use nash_board::WidePosition;
use nash_net::planes::{encode_position, Frame};
use nash_net::{Evaluation, PlaneSet};

/// The empty-cell plane, the third of every plane set.
const EMPTY_PLANE: usize = 2;

/// An input tensor and the answers of one batch; reused from batch to batch.
#[derive(Debug)]
pub struct Batch {
    planes: PlaneSet,
    /// `len × planes × height × width`, row-major.
    pub input: Vec<f32>,
    /// Positions in the batch.
    pub len: usize,
    /// The grid's height and width: the board and its ring.
    pub height: usize,
    pub width: usize,
    frames: Vec<Frame>,
    evals: Vec<Evaluation>,
}

impl Batch {
    /// An empty batch for nets reading `planes`.
    pub fn new(planes: PlaneSet) -> Batch {
        Batch {
            planes,
            input: Vec::new(),
            len: 0,
            height: 0,
            width: 0,
            frames: Vec::new(),
            evals: Vec::new(),
        }
    }

    /// Planes per position.
    pub fn channels(&self) -> usize {
        self.planes.count()
    }

    /// Grid cells per position.
    pub fn pixels(&self) -> usize {
        self.height * self.width
    }

    /// Board cells per position (the grid without its ring): what the value head averages.
    pub fn cells(&self) -> usize {
        (self.height - 2) * (self.width - 2)
    }

    /// Writes the planes of `positions`, all of one square size, into [`Batch::input`].
    pub fn encode(&mut self, positions: &[WidePosition]) -> anyhow::Result<()> {
        let Some(first) = positions.first() else { bail!("an empty batch") };
        let (cols, rows) = (first.cols(), first.rows());
        if cols != rows || positions.iter().any(|p| p.cols() != cols || p.rows() != rows) {
            bail!("a batch must hold square boards of one size");
        }
        self.len = positions.len();
        (self.height, self.width) = (rows + 2, cols + 2);
        let per = self.channels() * self.pixels();
        self.input.resize(self.len * per, 0.0);
        self.frames.clear();
        for (pos, out) in positions.iter().zip(self.input.chunks_exact_mut(per)) {
            self.frames.push(encode_position(pos, self.planes, out));
        }
        Ok(())
    }

    /// The answers from `logits` (`len × pixels`) and `values` (`len`, after tanh).
    pub fn finish(&mut self, logits: &[f32], values: &[f32]) -> anyhow::Result<&[Evaluation]> {
        let (n, pixels, per) = (self.len, self.pixels(), self.channels() * self.pixels());
        if logits.len() != n * pixels || values.len() != n {
            bail!(
                "{} logits and {} values for {n} positions of {pixels} grid cells",
                logits.len(),
                values.len()
            );
        }
        if self.evals.len() < n {
            self.evals.resize_with(n, Evaluation::default);
        }
        for i in 0..n {
            let empty = &self.input[i * per + EMPTY_PLANE * pixels..][..pixels];
            let logits = &logits[i * pixels..][..pixels];
            let (frame, eval) = (&self.frames[i], &mut self.evals[i]);
            let max = frame
                .board_pixels()
                .filter(|&q| empty[q] > 0.5)
                .map(|q| logits[q])
                .fold(f32::NEG_INFINITY, f32::max);
            eval.policy.clear();
            eval.policy.extend(frame.board_pixels().map(|q| {
                if empty[q] > 0.5 {
                    (logits[q] - max).exp()
                } else {
                    0.0
                }
            }));
            let sum: f32 = eval.policy.iter().sum();
            if sum > 0.0 {
                eval.policy.iter_mut().for_each(|p| *p /= sum);
            }
            eval.value = values[i];
        }
        Ok(&self.evals[..n])
    }
}
