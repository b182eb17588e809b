//! Integration tests for nash-proof: the file forms, and the checker on certificates written
//! by hand (valid ones, and one for each way a certificate can be wrong).

mod checker;
mod format;
