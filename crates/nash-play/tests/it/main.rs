//! nash-play's integration tests: one binary.

mod common;
mod eval;
mod mcts;
mod players;
mod registry;
mod search;
