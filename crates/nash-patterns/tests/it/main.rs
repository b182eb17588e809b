//! Integration tests for nash-patterns.

mod examples;
mod format;
mod soundness;
