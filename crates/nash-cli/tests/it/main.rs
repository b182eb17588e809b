//! Integration tests for the nash command.
