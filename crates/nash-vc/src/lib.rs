//! Virtual connections for Hex: H-search with the variants of the seeds, incremental update
//! after a move, and the outputs a solver needs (immediate wins, lost positions, the mustplay,
//! H-scores and the circuit evaluation of [`Resistance`] for move ordering), and Queenbee's
//! two-distance evaluation ([`TwoDistance`]), which orders the moves of the papers' baselines.
//!
//! H-search (Anshelevich 2000 s.4–5) grows a player's connections from the trivial ones
//! (adjacent ends) by two rules. AND: full connections `x–m` and `m–y` with disjoint carriers
//! give a semi connection keyed at `m` when `m` is empty, or a full one when `m` is the player's
//! (a group, or with the border switch an edge). OR: semi connections between the same ends
//! whose carriers have an empty intersection give a full connection. Chen 2025 s.5.4 measures
//! the variants that [`HSearchConfig`] switches.
//!
//! ```
//! use nash_board::{Cell, Position, SmallPosition};
//! use nash_vc::{HSearchConfig, VcBuilder};
//!
//! // Chen 2025 Figure 1.3: on 4×4 a black stone at b3 wins even with White to move.
//! let mut pos = SmallPosition::square(4).unwrap();
//! pos.play("b3".parse().unwrap()).unwrap();
//! let mut vc = VcBuilder::new(HSearchConfig::default());
//! vc.build(&pos);
//! assert!(vc.opponent_won().is_some());
//! ```

mod area;
mod config;
mod hsearch;
mod query;
mod record;
mod resistance;
mod store;
pub mod templates;
mod two_distance;

pub use config::{HSearchConfig, OrLimit, VariantError};
pub use hsearch::VcBuilder;
pub use query::{centre_weight, Connection, ConnectionKind, VcWin};
pub use record::DerivationStep;
pub use resistance::{Resistance, ResistanceConfig};
pub use store::HSearchStats;
pub use two_distance::TwoDistance;
