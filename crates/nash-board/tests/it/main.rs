//! Integration tests for nash-board.

mod basics;
