//! Training: the gradient of a batch's loss and the Adam optimizer.
//!
//! The loss of a batch is the mean over its examples of the policy's cross-entropy against
//! the search's visit shares plus `value_weight` times the value's squared error against the
//! target (the solver's exact value where known, else the game's result), plus
//! `weight_decay / 2` times the squared norm of the weights (not the biases): the AlphaZero
//! loss (Silver et al. 2017, 2018). The optimizer is Adam (Kingma and Ba 2015), with the L2
//! term added to the gradient. A batch's examples are split over rayon's threads, each with
//! its own buffers and gradient, summed at the end.

use rayon::prelude::*;

use crate::net::Net;
use crate::planes::Example;

mod backprop;

pub use backprop::Outcome;
use backprop::Workspace;

/// The optimizer's and the loss's settings.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct TrainSettings {
    /// Adam's step size.
    pub learning_rate: f32,
    /// The L2 coefficient on the weights.
    pub weight_decay: f32,
    /// The weight of the value's squared error against the policy's cross-entropy.
    pub value_weight: f32,
    /// Adam's decay of the mean of the gradient.
    pub beta1: f32,
    /// Adam's decay of the mean of the squared gradient.
    pub beta2: f32,
}

impl Default for TrainSettings {
    fn default() -> TrainSettings {
        TrainSettings {
            learning_rate: 1e-3,
            weight_decay: 1e-4,
            value_weight: 1.0,
            beta1: 0.9,
            beta2: 0.999,
        }
    }
}

/// A batch's figures, summed over its examples.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Stats {
    /// Examples.
    pub examples: usize,
    /// Examples with visits (the ones the policy figures are over).
    pub with_policy: usize,
    /// Sum of the policy cross-entropies.
    pub policy_loss: f64,
    /// Sum of the value squared errors.
    pub value_loss: f64,
    /// Examples whose most likely move is the most visited one.
    pub top1: usize,
    /// Sum of the absolute value errors.
    pub value_abs: f64,
}

impl Stats {
    fn add(&mut self, ex: &Example, o: Outcome) {
        self.examples += 1;
        self.policy_loss += o.policy_loss;
        self.value_loss += o.value_loss;
        self.value_abs += (o.value - ex.value).abs() as f64;
        if let Some(hit) = o.top1 {
            self.with_policy += 1;
            self.top1 += usize::from(hit);
        }
    }

    fn merge(mut self, o: Stats) -> Stats {
        self.examples += o.examples;
        self.with_policy += o.with_policy;
        self.policy_loss += o.policy_loss;
        self.value_loss += o.value_loss;
        self.top1 += o.top1;
        self.value_abs += o.value_abs;
        self
    }

    /// Mean policy cross-entropy over the examples with visits.
    pub fn mean_policy_loss(&self) -> f64 {
        self.policy_loss / self.with_policy.max(1) as f64
    }

    /// Mean value squared error.
    pub fn mean_value_loss(&self) -> f64 {
        self.value_loss / self.examples.max(1) as f64
    }

    /// The data loss per example: cross-entropy plus `value_weight` times squared error.
    pub fn mean_loss(&self, value_weight: f32) -> f64 {
        (self.policy_loss + value_weight as f64 * self.value_loss) / self.examples.max(1) as f64
    }

    /// Share of the examples with visits whose most likely move is the most visited.
    pub fn top1_accuracy(&self) -> f64 {
        self.top1 as f64 / self.with_policy.max(1) as f64
    }

    /// Mean absolute value error.
    pub fn mean_value_error(&self) -> f64 {
        self.value_abs / self.examples.max(1) as f64
    }
}

/// Examples per rayon task: enough to pay for a task's gradient buffer.
const CHUNK: usize = 8;

/// The gradient of the batch's mean data loss (without weight decay) and its figures.
pub fn gradient(net: &Net, batch: &[Example], value_weight: f32) -> (Vec<f32>, Stats) {
    let len = net.params().len();
    let (mut grad, stats) = batch
        .par_chunks(CHUNK)
        .map(|chunk| {
            let mut ws = Workspace::default();
            let mut grad = vec![0.0f32; len];
            let mut stats = Stats::default();
            for ex in chunk {
                let o = backprop::run(net, ex, value_weight, &mut ws, Some(&mut grad));
                stats.add(ex, o);
            }
            (grad, stats)
        })
        .reduce(
            || (vec![0.0f32; len], Stats::default()),
            |(mut g, s), (h, t)| {
                g.iter_mut().zip(&h).for_each(|(a, b)| *a += b);
                (g, s.merge(t))
            },
        );
    let scale = 1.0 / batch.len().max(1) as f32;
    grad.iter_mut().for_each(|g| *g *= scale);
    (grad, stats)
}

/// The figures of `net` on `examples` without training (for a held-out set).
pub fn evaluate(net: &Net, examples: &[Example], value_weight: f32) -> Stats {
    examples
        .par_chunks(CHUNK)
        .map(|chunk| {
            let mut ws = Workspace::default();
            let mut stats = Stats::default();
            for ex in chunk {
                stats.add(ex, backprop::run(net, ex, value_weight, &mut ws, None));
            }
            stats
        })
        .reduce(Stats::default, Stats::merge)
}

/// Adam's state for one net.
#[derive(Clone, Debug, PartialEq)]
pub struct Trainer {
    /// The settings.
    pub settings: TrainSettings,
    /// Steps taken.
    pub steps: u64,
    /// Running mean of the gradient, per parameter.
    pub m: Vec<f32>,
    /// Running mean of the squared gradient, per parameter.
    pub v: Vec<f32>,
}

impl Trainer {
    /// A fresh optimizer for `net`.
    pub fn new(net: &Net, settings: TrainSettings) -> Trainer {
        let len = net.params().len();
        Trainer { settings, steps: 0, m: vec![0.0; len], v: vec![0.0; len] }
    }

    /// One step on `batch`: the gradient of its loss with weight decay, then Adam's update.
    /// Returns the batch's figures before the update.
    pub fn step(&mut self, net: &mut Net, batch: &[Example]) -> Stats {
        let s = self.settings;
        let (mut grad, stats) = gradient(net, batch, s.value_weight);
        for r in net.layout().weight_ranges.clone() {
            for (g, w) in grad[r.clone()].iter_mut().zip(&net.params()[r]) {
                *g += s.weight_decay * w;
            }
        }
        self.steps += 1;
        let t = self.steps as i32;
        let (c1, c2) = (1.0 - s.beta1.powi(t), 1.0 - s.beta2.powi(t));
        for (((w, g), m), v) in
            net.params_mut().iter_mut().zip(&grad).zip(&mut self.m).zip(&mut self.v)
        {
            *m = s.beta1 * *m + (1.0 - s.beta1) * g;
            *v = s.beta2 * *v + (1.0 - s.beta2) * g * g;
            *w -= s.learning_rate * (*m / c1) / ((*v / c2).sqrt() + 1e-8);
        }
        stats
    }
}

#[cfg(test)]
mod tests {
    use nash_board::{Cell, SmallPosition};

    use super::*;
    use crate::net::Arch;
    use crate::planes::{from_sample, PlaneSet};
    use crate::sample::Sample;

    fn example(moves: &[(u8, u8)], size: usize, visits: &[((u8, u8), u32)], won: bool) -> Example {
        let mut pos = SmallPosition::square(size).unwrap();
        for &(c, r) in moves {
            pos.play(Cell::at(c, r)).unwrap();
        }
        let visits: Vec<(Cell, u32)> =
            visits.iter().map(|&((c, r), v)| (Cell::at(c, r), v)).collect();
        from_sample(&Sample::new(&pos, &visits, won, None, 0, 0), PlaneSet::Bridges).unwrap()
    }

    /// The loss of `net` on `batch`, in f64 sums of f32 forward passes.
    fn loss(net: &Net, batch: &[Example]) -> f64 {
        evaluate(net, batch, 0.7).mean_loss(0.7)
    }

    #[test]
    fn gradients_match_finite_differences() {
        let arch = Arch { planes: PlaneSet::Bridges, filters: 3, blocks: 2, hidden: 4 };
        let mut net = Net::random(arch, 11);
        // Larger biases move pre-activations off the ReLU kinks.
        for x in net.params_mut() {
            *x += 0.05;
        }
        let batch = [
            example(&[(1, 1), (2, 0)], 4, &[((0, 0), 3), ((3, 3), 1)], true),
            example(&[(2, 1)], 3, &[((1, 1), 2), ((0, 2), 2)], false),
        ];
        let (grad, _) = gradient(&net, &batch, 0.7);
        let eps = 1e-2f32;
        let mut checked = 0;
        let mut worst = 0.0f64;
        for i in (0..grad.len()).step_by(3) {
            let orig = net.params()[i];
            net.params_mut()[i] = orig + eps;
            let up = loss(&net, &batch);
            net.params_mut()[i] = orig - eps;
            let down = loss(&net, &batch);
            net.params_mut()[i] = orig;
            let numeric = (up - down) / (2.0 * eps as f64);
            let err =
                (numeric - grad[i] as f64).abs() / (1e-2 + numeric.abs() + grad[i].abs() as f64);
            worst = worst.max(err);
            assert!(err < 0.02, "parameter {i}: numeric {numeric}, backprop {}", grad[i]);
            checked += 1;
        }
        let live = grad.iter().filter(|g| g.abs() > 1e-4).count();
        assert!(live > grad.len() * 3 / 4, "only {live} of {} gradients are not zero", grad.len());
        assert!(checked > 100, "{checked}");
    }

    #[test]
    fn training_lowers_the_loss_on_a_tiny_set() {
        // Positions on 3x3 to 5x5 where the most visited move is the centre, and the value is
        // a win exactly when the side to move has no stone yet.
        let mut set = Vec::new();
        for size in [3usize, 5] {
            let c = (size / 2) as u8;
            set.push(example(&[], size, &[((c, c), 10), ((0, 0), 1)], true));
            set.push(example(&[(0, 0)], size, &[((c, c), 10)], true));
            set.push(example(&[(0, 0), (1, 0)], size, &[((c, c), 8), ((0, 1), 2)], false));
            set.push(example(&[(0, 1), (2, 0), (0, 2)], size, &[((c, c), 5)], false));
        }
        let arch = Arch { planes: PlaneSet::Bridges, filters: 6, blocks: 1, hidden: 8 };
        let mut net = Net::random(arch, 2);
        let settings = TrainSettings { learning_rate: 1e-2, ..TrainSettings::default() };
        let mut trainer = Trainer::new(&net, settings);
        let before = evaluate(&net, &set, 1.0).mean_loss(1.0);
        for _ in 0..150 {
            trainer.step(&mut net, &set);
        }
        let after = evaluate(&net, &set, 1.0);
        assert!(after.mean_loss(1.0) < 0.6 * before, "{before} -> {}", after.mean_loss(1.0));
        assert_eq!(after.top1_accuracy(), 1.0);
        assert!(after.mean_value_error() < 0.5, "{}", after.mean_value_error());
    }
}
