//! Hex players: the evaluations and game-tree searches of the papers cited below, built by
//! name, and the move choice of a game (the solver first, then the player).
//!
//! A [`Player`] gets a position and a [`MoveBudget`] and returns a [`Choice`]: the move, and
//! what the search saw (value, principal variation, per-move scores, depth, nodes). Players are
//! built from a spec string, `name` or `name:key=value,key=value` (for example
//! `alphabeta:eval=resistance,depth=4`), by [`build`]; HTP, the CLI and the tournament all go
//! through it, so a name means the same player everywhere. Every player is deterministic given
//! its `seed` setting and a node or playout budget. A game's move is chosen by [`decide`]: a
//! short solve first, then the player, with the second move's swap decided by the
//! [`swap_table`] where it has the opening; [`limits`] holds the accepted ranges of the solver
//! settings the front ends take.
//!
//! The evaluations live in [`eval`]: resistance (Anshelevich 2000 s.3-4), two-distance and
//! potentials (van Rijswijck 2002 s.3.2), Y-reduction (van Rijswijck 2002 s.4), plays-to-win
//! with and without the bridge discount (Horrell et al.), and the shortest-path distance.

mod alphabeta;
mod beam;
mod decide;
pub mod eval;
mod greedy;
mod levels;
pub mod limits;
mod mcts;
pub mod patterns;
mod player;
mod random;
mod registry;
mod spec;
mod swap;
pub mod swap_table;
mod vc_greedy;

pub use alphabeta::AlphaBeta;
pub use beam::Beam;
pub use decide::{
    decide, solve_time, DecidedBy, Decision, MoveSettings, GENMOVE_SOLVE_TIME, SOLVE_EMPTY_MAX,
};
pub use greedy::Greedy;
pub use levels::{level, LEVELS};
pub use mcts::{builtin_net, playouts, Mcts, PlayoutStats};
pub use player::{Choice, MoveBudget, MoveScore, Player, Proven};
pub use registry::{build, players, PlayerInfo, DEFAULT_PLAYER};
pub use spec::{Spec, SpecError};
pub use vc_greedy::VcGreedy;
