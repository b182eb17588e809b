//! Integration tests for nash-vc.
