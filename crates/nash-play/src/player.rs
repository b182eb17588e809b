//! The one interface every player implements, with the budget it gets and the report it gives.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use nash_board::{AnyPosition, Cell, Move};

/// What a player may spend on one move. Unset limits are no limit; a player with no limit at
/// all uses its own default (its `depth`, `width` or `playouts` setting).
#[derive(Clone, Debug, Default)]
pub struct MoveBudget {
    /// Wall-clock time for this move.
    pub time: Option<Duration>,
    /// Search nodes (alpha-beta and friends) for this move.
    pub nodes: Option<u64>,
    /// Playouts (Monte Carlo players) for this move.
    pub playouts: Option<u64>,
    /// Set by another thread to stop the search; the player then answers with the best move
    /// found so far.
    pub cancel: Option<Arc<AtomicBool>>,
    /// A solver has already tried this position for the caller, within part of this move's
    /// time, and not decided it: a player that solves first skips its own short solve.
    pub solved: bool,
}

/// A player's move and what it saw choosing it.
#[derive(Clone, Debug, PartialEq)]
pub struct Choice {
    /// The move: a cell, or `SwapSides` as a reply to a first move, or `Resign`.
    pub mv: Move,
    /// The position's value for the side to move, in the player's own scale (larger is better;
    /// `None` when the player has no evaluation, as the random player).
    pub value: Option<f64>,
    /// The line the search expects, starting with `mv` when `mv` is a cell.
    pub pv: Vec<Cell>,
    /// Scores of the root moves the player looked at, best first, in the player's scale.
    pub scores: Vec<(Cell, f64)>,
    /// The deepest completed search depth (0 for players that do not search a tree).
    pub depth: u32,
    /// Nodes (or playouts) spent.
    pub nodes: u64,
    /// Time spent.
    pub elapsed: Duration,
}

impl Choice {
    /// A choice of `mv` with nothing else to report.
    pub fn bare(mv: Move) -> Choice {
        Choice {
            mv,
            value: None,
            pv: Vec::new(),
            scores: Vec::new(),
            depth: 0,
            nodes: 0,
            elapsed: Duration::ZERO,
        }
    }
}

/// A Hex player: chooses a move for the side to move.
pub trait Player: Send + std::fmt::Debug {
    /// The spec this player was built from, in canonical form (every setting spelled out).
    fn spec(&self) -> String;

    /// Chooses a move for the side to move in `pos`, which is not finished. Never fails: a
    /// player out of budget answers with the best move it has.
    fn choose(&mut self, pos: &AnyPosition, budget: &MoveBudget) -> Choice;

    /// Forgets what it learned in the current game (tables, killers), before a new game.
    fn new_game(&mut self) {}
}
