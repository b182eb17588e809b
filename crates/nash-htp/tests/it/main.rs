//! Integration tests for nash-htp.
