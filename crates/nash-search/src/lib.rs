//! Hex solvers: boolean negamax, pattern search, connection-utility search, proof-number search,
//! depth-first proof-number search and expected-work search, all returning one [`Outcome`] and
//! sharing one knowledge pipeline (fill-in, virtual connections, mustplay, move ordering).
//!
//! The two entry points are [`solve`] (the value of a position, a winning move and the proof's
//! carrier) and [`winning_moves`] (the exact set of winning moves: every legal move decided).

mod budget;
mod config;
mod connect;
mod dfpn;
mod ews;
mod keys;
mod knowledge;
mod memory;
mod negamax;
mod outcome;
mod pattern;
mod persistent;
mod pns;
mod table;
mod winning;

pub use config::{Budget, Knowledge, MoveOrdering, Parallel, SolverConfig, SolverKind};
pub use outcome::WinningMoves;
pub use outcome::{Outcome, SolveResult, Stats, StopReason};
pub use persistent::SolverTable;
pub use winning::winning_moves;

use nash_board::{BitSet, Position};

use crate::table::Table;

/// Solves a position for the player to move with the solver `cfg.kind`.
///
/// A position someone has already won is answered at once: a win without a move for the
/// winner, a loss (empty carrier) for the other side.
pub fn solve<B: BitSet>(pos: &Position<B>, cfg: &SolverConfig) -> SolveResult<B> {
    if let Some(r) = decided(pos) {
        return r;
    }
    let table = Table::with_bytes(memory::plan(cfg, pos.geometry()).table_bytes);
    solve_in(pos, cfg, &table)
}

/// Solves with a table the caller owns (shared between the solves of [`winning_moves`]).
pub(crate) fn solve_in<B: BitSet>(
    pos: &Position<B>,
    cfg: &SolverConfig,
    table: &Table<B>,
) -> SolveResult<B> {
    if let Some(r) = decided(pos) {
        return r;
    }
    match cfg.kind {
        SolverKind::Dfpn => dfpn::solve(pos, cfg, table),
        SolverKind::Pattern => pattern::solve(pos, cfg, table, pattern::Mode::Pattern),
        SolverKind::Cus => pattern::solve(pos, cfg, table, pattern::Mode::Utility),
        SolverKind::Negamax => negamax::solve(pos, cfg, table),
        SolverKind::Pns => pns::solve(pos, cfg),
        SolverKind::Ews => ews::solve(pos, cfg),
    }
}

/// The answer for a position whose game is over.
pub(crate) fn decided<B: BitSet>(pos: &Position<B>) -> Option<SolveResult<B>> {
    let w = pos.winner()?;
    let outcome = if w == pos.to_move() {
        Outcome::Win { winning_move: None, carrier: B::EMPTY }
    } else {
        Outcome::Loss { carrier: B::EMPTY }
    };
    Some(SolveResult { outcome, stats: Stats::default() })
}
