//! Integration tests for nash-vc: soundness by brute force, the seeds' worked examples,
//! incremental updates against full rebuilds, minimal lists, the configuration's text form,
//! and warm builders that allocate nothing.

mod alloc;
mod config;
mod examples;
mod incremental;
mod ladders;
mod minimal;
mod oracle;
mod soundness;
mod templates;
