//! The database's integration tests: one binary (`autotests = false`).

mod file;
mod support;
mod symmetry;
