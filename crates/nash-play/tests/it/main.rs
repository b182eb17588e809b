//! nash-play's integration tests: one binary.

mod registry;
