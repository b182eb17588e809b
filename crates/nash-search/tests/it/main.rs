//! Integration tests for nash-search: ground truth, agreement between solvers, symmetries.

mod alloc;
mod analyser;
mod budget;
mod canonical;
mod decompose;
mod fill_carriers;
mod ground_truth;
mod persistent;
mod progress;
mod pv;
mod rasmussen;
mod support;
mod symmetry;
mod templates;
