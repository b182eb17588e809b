//! The settings of a certificate build.

use nash_board::Cell;
use nash_search::SolverConfig;

/// How a certificate is built.
#[derive(Clone, Debug)]
pub struct CertifyConfig {
    /// The solver's settings for the re-solves (df-pn on one thread whatever `kind` says; its
    /// budget bounds the whole certificate).
    pub solver: SolverConfig,
    /// Positions with at most this many empty cells are left to the checker's exhaustive
    /// search (at most [`nash_proof::SEARCH_LIMIT`]; 0 writes every line out to a won board).
    pub search: usize,
    /// Close lines with virtual connections between the winner's edges, each with its
    /// H-search derivation (a `Vc` node), where nash-vc's H-search (recording how it makes
    /// each connection) or, failing that, a small H-search of this module finds one.
    pub vc: bool,
    /// Re-solve with the solver's fill-in (dead and captured cells filled, inferior moves
    /// pruned) as `solver` has it. Off by default: a proof found after the fill keeps the
    /// cells captured and the empty cells their patterns need in its carrier, and the larger
    /// carriers make certificates several times larger (docs/proofs.md).
    pub fill_in: bool,
    /// Re-solve with decompositions (a position split into parts, each proven apart) as
    /// `solver` has them. Off by default: the carriers of their proofs are larger, and
    /// without them 7×7 certificates were 37 to 74% smaller and quicker to build
    /// (docs/proofs.md).
    pub decompositions: bool,
    /// Without `fill_in`: a re-solve that has searched this many nodes without an answer is
    /// given up and the position solved with fill-in instead, by a second worker in the same
    /// table (`None`: never). The positions near the root of a large board, which take far
    /// longer to solve without fill-in, are then solved with it and the others without.
    pub fill_in_beyond: Option<u64>,
    /// Re-solve with the fill-in that adds nothing to the winner's carriers
    /// ([`nash_search::Knowledge::fill_in_for`] the winner): dead cells and the loser's captures
    /// filled with the loser's stones, the winner's inferior moves pruned. Instead of
    /// `fill_in` and `fill_in_beyond`; the root is solved so with its player to move taken as
    /// the winner, which any outcome keeps sound.
    pub winner_fill_in: bool,
    /// Write a line to stderr about every minute: nodes written, their bytes, CPU time and
    /// re-solves.
    pub progress: bool,
    /// Stop, as out of budget ([`nash_search::StopReason::NodeLimit`]), before writing a node beyond this
    /// many: with [`crate::certificate_resumable`], a build made in parts.
    pub max_nodes: Option<usize>,
    /// Threads for the re-solves: at each of the loser's turns, the positions after the
    /// loser's moves that need a solve are solved side by side, each thread with its own
    /// workers in the shared table. With more than one, which proof a re-solve finds depends on
    /// what the other threads stored first, so two builds can differ (each certificate is as
    /// valid), and a node budget can be overrun by what the threads searched at once.
    pub threads: usize,
    /// The winner's first move, instead of the one the root's re-solve finds: the position
    /// after it is solved, the certificate refused if its player to move does not lose there,
    /// and otherwise starts with it. Every answer of the loser to the first move is in the
    /// certificate, so the move can change its size (docs/proofs.md). `None`: the re-solve's
    /// move.
    pub first_move: Option<Cell>,
}

impl Default for CertifyConfig {
    fn default() -> CertifyConfig {
        CertifyConfig {
            solver: SolverConfig::default(),
            search: DEFAULT_SEARCH,
            vc: true,
            fill_in: false,
            decompositions: false,
            fill_in_beyond: None,
            winner_fill_in: false,
            progress: false,
            max_nodes: None,
            threads: 1,
            first_move: None,
        }
    }
}

/// The default of [`CertifyConfig::search`]: small enough that the checker's search stays
/// quick, large enough to cut the certificate's last moves.
pub const DEFAULT_SEARCH: usize = 8;
