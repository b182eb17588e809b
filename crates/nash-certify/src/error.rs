//! Why no certificate was written.

use std::fmt;

use nash_board::Cell;
use nash_search::StopReason;

/// Why no certificate was written.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum CertifyError {
    /// A re-solve ran out of budget.
    Unknown(StopReason),
    /// A re-solve contradicted an earlier one (a solver fault the certificate exposed).
    Inconsistent {
        /// The moves from the root to the position.
        line: Vec<Cell>,
        /// What went wrong there.
        what: String,
    },
    /// [`crate::CertifyConfig::search`] beyond [`nash_proof::SEARCH_LIMIT`].
    SearchLimit(usize),
    /// A streamed certificate's nodes could not be written.
    Write(String),
    /// A resumable build's journal that cannot be resumed (another build's, or not one).
    Resume(String),
    /// A certificate file that cannot be written there, or a build file that is not the
    /// build's own (never overwritten).
    Target(String),
    /// [`crate::CertifyConfig::first_move`] is not a winning move of the position: why.
    FirstMove(Cell, &'static str),
}

impl fmt::Display for CertifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CertifyError::Unknown(reason) => write!(f, "no certificate: {reason}"),
            CertifyError::Inconsistent { line, what } => {
                let line: Vec<String> = line.iter().map(Cell::to_string).collect();
                write!(f, "no certificate: after {:?}: {what}", line.join(" "))
            }
            CertifyError::SearchLimit(n) => write!(
                f,
                "a search of {n} empty cells is beyond the checker's limit of {}",
                nash_proof::SEARCH_LIMIT
            ),
            CertifyError::Write(e) => write!(f, "cannot write the certificate's nodes: {e}"),
            CertifyError::Resume(e) => write!(f, "cannot resume the certificate: {e}"),
            CertifyError::Target(e) => write!(f, "cannot write the certificate: {e}"),
            CertifyError::FirstMove(at, why) => {
                write!(f, "no certificate starting with {at}: {why}")
            }
        }
    }
}

impl std::error::Error for CertifyError {}
