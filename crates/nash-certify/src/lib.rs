//! Proof certificates from solves: the winner's strategy written out for nash-proof's checker.
//!
//! The strategy is built by solving again each position it reaches, with one df-pn
//! [`nash_search::Worker`] in one [`nash_search::SharedTable`] (as the principal variation is),
//! or one per thread in that table, the positions after the loser's moves at one turn solved
//! side by side ([`CertifyConfig::threads`]). At the winner's turn the solver's move is played;
//! at the loser's turn every empty cell is answered. Before either, the position is restricted
//! to the solve's carrier: the loser is given every empty cell outside it, which the carrier's
//! definition allows (a threat pattern, van Rijswijck 2002 s.2.3; the architecture's carrier
//! invariant), and which the checker takes as a `Restrict` node. A position with few enough
//! empty cells is left to the checker's exhaustive search, and one where the winner has a
//! virtual connection between their edges ends in a `Vc` node with its derivation: from
//! nash-vc's H-search, which records how it makes each connection, or from the smaller one of
//! this crate where nash-vc's finds none. Positions reached twice become one shared node.
//! Nothing the solver says is trusted by the checker: a wrong carrier or move makes a
//! certificate that fails, and this builder reports it at once.
//!
//! This crate sits above nash-search and uses only its public warm-worker API; it does the
//! file I/O of resumable builds (a journal beside the node spool, [`Partial`]) and writes
//! their certificate file ([`Partial::write_certificate`]).
//!
//! ```
//! use nash_board::{Bitboard, Color, Position};
//! use nash_certify::{certificate, CertifyConfig};
//!
//! let pos = Position::<Bitboard>::square(4).unwrap();
//! let cert = certificate(&pos, &CertifyConfig::default()).unwrap();
//! assert_eq!(nash_proof::check(&cert).unwrap().winner, Color::Black);
//! ```

use std::io::Write;

use nash_board::{BitSet, Position};
use nash_proof::Certificate;
use nash_search::{OnBoard, SharedTable, SolverTable};

mod builder;
mod config;
mod cpu;
mod derive;
mod error;
mod journal;
mod plan;
mod sink;
mod start;
mod target;
mod workers;

pub use config::{CertifyConfig, DEFAULT_SEARCH};
pub use error::CertifyError;
pub use journal::Partial;
pub use sink::Streamed;
pub use target::Form;

use sink::Sink;

/// A certificate of `pos`'s value: the player who wins it and how, for [`nash_proof::check`].
pub fn certificate<B: BitSet>(
    pos: &Position<B>,
    cfg: &CertifyConfig,
) -> Result<Certificate, CertifyError> {
    in_own_table(pos, cfg, Sink::Memory).map(|s| s.head)
}

/// [`certificate`] with its nodes written to `spool` as they are made (each node's postcard
/// encoding, as [`nash_proof::Spool`] writes it) instead of held in memory, where a large
/// certificate takes many times its encoding. The binary form is
/// [`Certificate::binary_head`] of the returned head and count, then the spool's bytes.
pub fn certificate_to<B: BitSet>(
    pos: &Position<B>,
    cfg: &CertifyConfig,
    spool: &mut dyn Write,
) -> Result<Streamed, CertifyError> {
    in_own_table(pos, cfg, Sink::Spool(spool))
}

/// [`certificate_to`] that survives a kill: the nodes go to `files.nodes` and what the builder
/// knows besides them to `files.journal` (the positions given nodes, the re-solves' results,
/// the CPU time), and a build started again on the files of an earlier one of the same
/// position and settings goes on where it stopped, answering the re-solves it made from the
/// journal. A journal of another build is refused. The files stay when the build fails (its
/// budget ends, say), for the next run to resume; when it succeeds, `files.nodes` holds all
/// the nodes, for the caller to read and remove ([`Partial::remove`]).
pub fn certificate_resumable<B: BitSet>(
    pos: &Position<B>,
    cfg: &CertifyConfig,
    files: &Partial,
) -> Result<Streamed, CertifyError> {
    in_own_table(pos, cfg, Sink::Files(files))
}

/// The certificates of [`certificate`], [`certificate_to`] and [`certificate_resumable`] built
/// in a [`SolverTable`]: after [`SolverTable::solve`] of the same position with the same
/// solver settings, the first re-solves find their proofs stored.
pub trait TableCertificates<B: BitSet> {
    /// [`certificate`] in this table.
    fn certificate(
        &mut self,
        pos: &Position<B>,
        cfg: &CertifyConfig,
    ) -> Result<Certificate, CertifyError>;

    /// [`certificate_to`] in this table.
    fn certificate_to(
        &mut self,
        pos: &Position<B>,
        cfg: &CertifyConfig,
        spool: &mut dyn Write,
    ) -> Result<Streamed, CertifyError>;

    /// [`certificate_resumable`] in this table.
    fn certificate_resumable(
        &mut self,
        pos: &Position<B>,
        cfg: &CertifyConfig,
        files: &Partial,
    ) -> Result<Streamed, CertifyError>;
}

impl<B: BitSet> TableCertificates<B> for SolverTable<B> {
    fn certificate(
        &mut self,
        pos: &Position<B>,
        cfg: &CertifyConfig,
    ) -> Result<Certificate, CertifyError> {
        let job = Build { cfg, sink: Sink::Memory };
        self.run(pos, &cfg.solver, job).map_err(CertifyError::Unknown)?.map(|s| s.head)
    }

    fn certificate_to(
        &mut self,
        pos: &Position<B>,
        cfg: &CertifyConfig,
        spool: &mut dyn Write,
    ) -> Result<Streamed, CertifyError> {
        let job = Build { cfg, sink: Sink::Spool(spool) };
        self.run(pos, &cfg.solver, job).map_err(CertifyError::Unknown)?
    }

    fn certificate_resumable(
        &mut self,
        pos: &Position<B>,
        cfg: &CertifyConfig,
        files: &Partial,
    ) -> Result<Streamed, CertifyError> {
        let job = Build { cfg, sink: Sink::Files(files) };
        self.run(pos, &cfg.solver, job).map_err(CertifyError::Unknown)?
    }
}

/// A certificate build as a job of nash-search's width dispatch: it runs on the narrowest
/// bitboard that holds the position, in the table it is given.
struct Build<'c, 'w> {
    cfg: &'c CertifyConfig,
    sink: Sink<'w>,
}

impl OnBoard for Build<'_, '_> {
    type Output = Result<Streamed, CertifyError>;

    fn run<C: BitSet>(self, pos: &Position<C>, table: &SharedTable<C>) -> Self::Output {
        start::certificate_in(pos, self.cfg, table, self.sink)
    }
}

/// A certificate build in a table of its own, on the narrower bitboard where `pos` fits.
fn in_own_table<B: BitSet>(
    pos: &Position<B>,
    cfg: &CertifyConfig,
    sink: Sink<'_>,
) -> Result<Streamed, CertifyError> {
    nash_search::in_own_table(pos, &cfg.solver, Build { cfg, sink })
        .map_err(CertifyError::Unknown)?
}
