//! Inferior cell analysis for Hex: dead, captured, vulnerable and dominated cells, with
//! fill-in (Chen 2025 s.3.3 and s.5.3).
//!
//! - [`pattern`]: local patterns as data (the text format of docs/patterns.md) and their
//!   images under the hex lattice's symmetries and the colour swap.
//! - [`Ice`]: the engine for one board size. [`Ice::analyse`] returns an [`Analysis`] (what to
//!   fill, what to prune and why); [`Ice::fill_in`] fills a position in place.
//! - [`Report`]: a serializable account of an analysis.
//!
//! The soundness contract (what a solver may combine with what) is documented on [`ice`].

mod compile;
mod graph;
pub mod ice;
pub mod oracle;
pub mod pattern;
mod report;

pub use compile::Placement;
pub use ice::{
    Analysis, Config, FillReport, Ice, RULE_CLIQUE, RULE_DEAD_ONCE_FILLED, RULE_KILL_DOMINATED,
    RULE_VULNERABLE,
};
pub use pattern::{Kind, Pattern, PatternCell, PatternError, PatternSet, Req, DEFAULT_PATTERNS};
pub use report::{Finding, Report};
