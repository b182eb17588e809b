//! Integration tests for the nash command: they run the built binary.

mod commands;
mod db;
mod docs;
mod examples;
mod htp;
mod pictures;
mod play;
mod proofs;
mod show;
