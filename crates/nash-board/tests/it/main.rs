//! Integration tests for nash-board.

mod basics;
mod bitsets;
mod common;
mod fuzz;
mod ground_truth;
mod hashing;
mod notation;
mod sgf;
mod svg;
mod winner;
