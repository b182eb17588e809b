//! Board benchmarks.
fn main() {}
