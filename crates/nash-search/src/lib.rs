//! Hex solvers: boolean negamax, pattern search, connection-utility search, proof-number search,
//! depth-first proof-number search and expected-work search, all returning one [`Outcome`] and
//! sharing one knowledge pipeline (fill-in, virtual connections, mustplay, move ordering).

mod config;
mod outcome;

pub use config::{Budget, Knowledge, MoveOrdering, SolverConfig, SolverKind};
pub use outcome::{Outcome, SolveResult, Stats, StopReason, WinningMoves};
