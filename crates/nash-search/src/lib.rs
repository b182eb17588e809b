//! Hex solvers: boolean negamax, pattern search, connection-utility search, proof-number search,
//! depth-first proof-number search and expected-work search, all returning one [`Outcome`] and
//! sharing one knowledge pipeline (fill-in, virtual connections, mustplay, move ordering).
//!
//! The two entry points are [`solve`] (the value of a position, a winning move and the proof's
//! carrier) and [`winning_moves`] (the exact set of winning moves: every legal move decided);
//! [`solve_many`] solves a set of positions side by side on the threads.

mod batch;
mod budget;
mod config;
mod connect;
mod dfpn;
mod entry;
mod ews;
mod keys;
mod knowledge;
mod memory;
mod negamax;
mod outcome;
mod pattern;
mod persistent;
mod pns;
mod progress;
mod pv;
mod table;
mod winning;

pub use batch::solve_many;
pub use config::{Budget, Knowledge, MoveOrdering, Parallel, SolverConfig, SolverKind};
pub use entry::solve;
pub use outcome::WinningMoves;
pub use outcome::{Outcome, SolveResult, Stats, StopReason};
pub use persistent::SolverTable;
pub use progress::{Progress, Snapshot};
pub use pv::principal_variation;
pub use winning::winning_moves;

pub(crate) use entry::{convert, decided, narrowed};
