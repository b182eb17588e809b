//! Integration tests for nash-patterns.
