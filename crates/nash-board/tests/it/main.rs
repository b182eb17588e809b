//! Integration tests for nash-board.

mod basics;
mod bitsets;
mod common;
mod fuzz;
mod hashing;
mod notation;
mod sgf;
mod winner;
