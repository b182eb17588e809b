//! Integration tests for the nash command: they run the built binary.

mod commands;
mod htp;
mod show;
