//! Integration tests for nash-certify: certificates of small boards and of the ground truth's
//! positions checked by nash-proof, streamed and resumable builds.

mod certify;
mod resume;
mod support;
mod target;
