//! Integration tests for nash-search.
