//! Integration tests for nash-patterns: worked examples, the pattern format, soundness against
//! the minimax oracle, and warm analyses that allocate nothing.

mod alloc;
mod examples;
mod format;
mod soundness;
