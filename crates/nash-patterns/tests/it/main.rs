//! Integration tests for nash-patterns.

mod examples;
mod format;
mod oracle;
mod soundness;
