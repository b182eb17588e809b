//! Hex solvers: boolean negamax, pattern search, connection-utility search, proof-number search,
//! depth-first proof-number search and expected-work search, all returning one [`Outcome`] and
//! sharing one knowledge pipeline (fill-in, virtual connections, mustplay, move ordering).
//!
//! The entry points are [`solve`] (the value of a position, a winning move and the proof's
//! carrier), [`winning_moves`] (the exact set of winning moves: every legal move decided),
//! [`solve_many`] (a set of positions side by side on the threads), [`principal_variation`]
//! (the line both players play from a solved position) and [`SolverTable`] (the same, with a
//! transposition table kept between calls). A [`SolverConfig`] chooses the solver, its budget,
//! its memory limit, its threads and an optional [`Progress`] that another thread can read.
//! Clients that solve many related positions (proof certificates, in nash-certify) use
//! [`Worker`]s bound to a [`SharedTable`], whose knowledge caches stay warm from one solve to
//! the next. The solvers do no file I/O.
//!
//! From start to finish: build a position, solve it, read the [`Outcome`].
//!
//! ```
//! use nash_board::{Bitboard, Color, MoveList, Position};
//! use nash_search::{principal_variation, solve, Outcome, SolverConfig};
//!
//! // A 4x4 board after Black's a1 and White's b2; Black is to move.
//! let mut pos = Position::<Bitboard>::square(4).unwrap();
//! "a1 b2".parse::<MoveList>().unwrap().play_on(&mut pos).unwrap();
//! assert_eq!(pos.to_move(), Color::Black);
//!
//! let cfg = SolverConfig::default(); // df-pn with all the knowledge, 256 MiB, one thread
//! let result = solve(&pos, &cfg);
//! match result.outcome {
//!     Outcome::Win { winning_move, carrier } => {
//!         // A move that wins, and the cells the proof needs: play it and Black still wins.
//!         let mv = winning_move.expect("an open position names its winning move");
//!         assert!(carrier.contains(mv));
//!         let mut after = pos.clone();
//!         after.play(mv).unwrap();
//!         assert_eq!(solve(&after, &cfg).outcome.winner(after.to_move()), Some(Color::Black));
//!     }
//!     Outcome::Loss { carrier } => println!("White wins; the proof needs {carrier:?}"),
//!     Outcome::Unknown { reason } => println!("no answer: {reason}"),
//! }
//! println!("{} nodes in {:?}", result.stats.nodes, result.stats.time);
//!
//! // The line both sides play from here ends with the winner connected.
//! let winner = result.outcome.winner(pos.to_move()).expect("solved");
//! let line = principal_variation(&pos, &cfg);
//! let mut end = pos.clone();
//! for &m in &line {
//!     end.play(m).unwrap();
//! }
//! assert_eq!(end.winner(), Some(winner));
//! ```

mod analyser;
mod batch;
mod bestfirst;
mod budget;
mod config;
mod connect;
mod context;
mod decompose;
mod dfpn;
mod entry;
mod ews;
mod knowledge;
mod memory;
mod movebit;
mod negamax;
mod outcome;
mod pattern;
mod persistent;
mod pns;
mod progress;
mod pv;
mod table;
mod templates;
mod warm;
mod winning;

pub use analyser::{Analyser, Analysis, Verdict};
pub use batch::{solve_many, solve_many_each};
pub use config::{
    Budget, Chen2025, EwsConfig, Knowledge, MoveOrdering, NameError, Parallel, ResultTable,
    SolverConfig, SolverKind, ThreatTable,
};
pub use entry::solve;
pub use memory::{memory_limit, MemoryLimit};
pub use outcome::WinningMoves;
pub use outcome::{Outcome, SolveResult, Stats, StopReason};
pub use persistent::{Bounds, SolverTable};
pub use progress::{Progress, Snapshot};
pub use pv::principal_variation;
pub use templates::{
    edge_template_holds, found_by_rules, minimal_templates, template_solver, TemplateError,
};
pub use warm::{in_own_table, OnBoard, SharedTable, Worker};
pub use winning::winning_moves;

pub(crate) use context::{convert, decided, narrowed};
