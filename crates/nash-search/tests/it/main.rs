//! Integration tests for nash-search: ground truth, agreement between solvers, symmetries.

mod ground_truth;
mod support;
mod symmetry;
