//! Hex players: the evaluations and game-tree searches of the seed papers, built by name.
//!
//! A [`Player`] gets a position and a [`MoveBudget`] and returns a [`Choice`]: the move, and
//! what the search saw (value, principal variation, per-move scores, depth, nodes). Players are
//! built from a spec string, `name` or `name:key=value,key=value` (for example
//! `alphabeta:eval=resistance,depth=4`), by [`build`]; HTP, the CLI and the tournament all go
//! through it, so a name means the same player everywhere. Every player is deterministic given
//! its `seed` setting and a node or playout budget.
//!
//! The evaluations live in [`eval`]: resistance (Anshelevich 2000 s.3-4), two-distance and
//! potentials (van Rijswijck 2002 s.3.2), Y-reduction (van Rijswijck 2002 s.4), plays-to-win
//! with and without the bridge discount (Horrell et al.), and the shortest-path distance.

mod alphabeta;
mod beam;
pub mod eval;
mod greedy;
mod mcts;
pub mod patterns;
mod per_board;
mod player;
mod random;
mod registry;
mod spec;
mod swap;

pub use alphabeta::AlphaBeta;
pub use beam::Beam;
pub use greedy::Greedy;
pub use mcts::{playouts, Mcts, PlayoutStats};
pub use player::{Choice, MoveBudget, Player};
pub use registry::{build, players, PlayerInfo};
pub use spec::{Spec, SpecError};
