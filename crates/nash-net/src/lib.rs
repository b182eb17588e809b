//! A policy and value network for Hex, its training, and the samples it learns from.
//!
//! The crate needs only `nash-board`, so that both the players (`nash-play`) and the solvers
//! (`nash-search`) can use it.
//!
//! - [`planes`]: a position as input planes, normalised so that the side to move connects top
//!   and bottom, with the board's edges as a ring of stones.
//! - [`net`]: the residual convolutional net ([`Arch`], [`Net`]) and batched inference
//!   ([`Evaluator`], [`Evaluation`]), for any board size.
//! - [`train`]: gradients by backpropagation and the Adam optimizer ([`Trainer`]).
//! - [`weights`]: the versioned, checksummed weights file.
//! - [`sample`]: one position of a self-play game with the search's visit counts, the game's
//!   result and, where the solver proved it, the exact value; and the file that holds them.
//!
//! # Evaluating positions
//!
//! ```
//! use std::sync::Arc;
//! use nash_board::SmallPosition;
//! use nash_net::{Arch, Evaluator, Net};
//!
//! let net = Arc::new(Net::random(Arch::default(), 1));
//! let mut evaluator = Evaluator::new(net);
//! let pos = SmallPosition::square(9)?;
//! let evals = evaluator.evaluate(&[pos.clone(), pos]);
//! // A prior per board cell (`row * cols + col`), summing to 1 over the empty cells, and the
//! // value for the side to move in [-1, 1].
//! assert_eq!(evals[0].policy.len(), 81);
//! assert!((evals[0].policy.iter().sum::<f32>() - 1.0).abs() < 1e-4);
//! assert!(evals[1].value.abs() <= 1.0);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::path::PathBuf;

pub mod net;
pub mod planes;
pub mod sample;
pub mod train;
pub mod weights;

pub use net::{Arch, Evaluation, Evaluator, Net};
pub use planes::PlaneSet;
pub use sample::{Sample, SampleError, SampleFile, SampleMove};
pub use train::{TrainSettings, Trainer};

/// What goes wrong with a net: its weights file, its architecture or a sample it is given.
#[derive(Debug, thiserror::Error)]
pub enum NetError {
    #[error("{path}: {source}")]
    Io { path: PathBuf, source: std::io::Error },
    #[error("{path}: not a Nash weights file (its first bytes are not \"NASHNET\\0\")")]
    NotWeights { path: PathBuf },
    #[error(
        "{path}: weights file version {found}; this program reads version {}",
        weights::VERSION
    )]
    Version { path: PathBuf, found: u32 },
    #[error("{path}: damaged weights file ({why})")]
    Damaged { path: PathBuf, why: String },
    #[error("architecture: {0}")]
    Arch(String),
    #[error("sample: {0}")]
    Sample(String),
}
