//! nash-play's integration tests: one binary.

mod common;
mod eval;
mod mcts;
mod patterns;
mod players;
mod registry;
mod search;
