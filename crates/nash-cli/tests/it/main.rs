//! Integration tests for the nash command: they run the built binary.

mod commands;
mod examples;
mod htp;
mod show;
