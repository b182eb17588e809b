//! nash-play's integration tests: one binary.

mod eval;
mod registry;
