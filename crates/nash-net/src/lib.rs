//! A policy and value network for Hex, and the samples it learns from.
//!
//! The crate needs only `nash-board`, so that both the players (`nash-play`) and the solvers
//! (`nash-search`) can use it.
//!
//! - [`sample`]: one position of a self-play game with the search's visit counts, the game's
//!   result and, where the solver proved it, the exact value; and the file that holds them.

pub mod sample;

pub use sample::{Sample, SampleError, SampleFile, SampleMove};
