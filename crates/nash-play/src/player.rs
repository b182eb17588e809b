//! The one interface every player implements, with the budget it gets and the report it gives.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use nash_board::{AnyPosition, Cell, Move};

use crate::eval::PROVEN;

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
    /// The root moves the player looked at, in its order of preference (the move it would
    /// play first): proven wins, then the open moves (by visits for a Monte Carlo player, by
    /// value for the others), then proven losses.
    pub moves: Vec<MoveScore>,
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
            moves: Vec::new(),
            depth: 0,
            nodes: 0,
            elapsed: Duration::ZERO,
        }
    }
}

/// What a search proved about a root move, for the side to move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Proven {
    /// Nothing proven.
    #[default]
    Unknown,
    /// The move wins.
    Win,
    /// The move loses.
    Loss,
}

impl Proven {
    /// `win`, `loss` or `unknown`, as reports print it.
    pub fn name(self) -> &'static str {
        match self {
            Proven::Unknown => "unknown",
            Proven::Win => "win",
            Proven::Loss => "loss",
        }
    }
}

/// One root move as the player saw it. Each report says what the player measures: a Monte
/// Carlo player its visits, win rate and prior, a searcher or an evaluation its value.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveScore {
    /// The move.
    pub cell: Cell,
    /// Playouts through the move (Monte Carlo players; `None` for players that count none).
    pub visits: Option<u64>,
    /// The share of those playouts the side to move won, from 0 to 1.
    pub win_rate: Option<f64>,
    /// The prior win rate the player's move order gave the move before its first playout
    /// (`None` without priors).
    pub prior: Option<f64>,
    /// The move's value in the player's own scale, larger better (alpha-beta and beam values,
    /// evaluations; `None` for Monte Carlo players, whose measure is the win rate).
    pub value: Option<f64>,
    /// What the search proved about the move.
    pub proven: Proven,
    /// The line the search expects after the move, starting with it.
    pub pv: Vec<Cell>,
}

impl MoveScore {
    /// A move with a value in the player's scale and nothing else.
    pub fn valued(cell: Cell, value: f64) -> MoveScore {
        MoveScore {
            cell,
            visits: None,
            win_rate: None,
            prior: None,
            value: Some(value),
            proven: Proven::Unknown,
            pv: vec![cell],
        }
    }

    /// One number for a heat map, larger better: the win rate (1 for a proven win, 0 for a
    /// proven loss) when the player measures one, else the value.
    pub fn score(&self) -> f64 {
        match (self.value, self.proven) {
            (Some(v), _) if self.win_rate.is_none() => v,
            (_, Proven::Win) => 1.0,
            (_, Proven::Loss) => 0.0,
            (_, Proven::Unknown) => self.win_rate.unwrap_or(0.5),
        }
    }
}

/// The root moves of a player that values them in its own scale, sorted best first (ties: the
/// move `pv` starts with, then by cell), a value beyond [`PROVEN`] marked proven; the line `pv` goes to the move it starts
/// with, the others get their move alone.
pub(crate) fn valued_moves(mut scores: Vec<(Cell, f64)>, pv: &[Cell]) -> Vec<MoveScore> {
    // Among equal values the move played comes first.
    let played = |c: Cell| pv.first() != Some(&c);
    scores.sort_by(|a, b| {
        b.1.total_cmp(&a.1).then(played(a.0).cmp(&played(b.0))).then(a.0.cmp(&b.0))
    });
    scores
        .into_iter()
        .map(|(cell, v)| {
            let mut m = MoveScore::valued(cell, v);
            m.proven = if v >= PROVEN {
                Proven::Win
            } else if v <= -PROVEN {
                Proven::Loss
            } else {
                Proven::Unknown
            };
            if pv.first() == Some(&cell) {
                m.pv = pv.to_vec();
            }
            m
        })
        .collect()
}

/// A Hex player: chooses a move for the side to move.
pub trait Player: Send + std::fmt::Debug {
    /// The spec this player was built from, in canonical form (every setting spelled out).
    fn spec(&self) -> String;

    /// Chooses a move for the side to move in `pos`, which is not finished. Never fails: a
    /// player out of budget answers with the best move it has.
    fn choose(&mut self, pos: &AnyPosition, budget: &MoveBudget) -> Choice;

    /// Chooses as [`Player::choose`] does and, while it searches, calls `report` about every
    /// `every` with what it has seen so far (the moves with their visits, win rates and
    /// lines, and the playouts so far as `nodes`). A player that cannot look at its search
    /// while it runs (all but the Monte Carlo players) reports nothing before it answers.
    fn analyse(
        &mut self,
        pos: &AnyPosition,
        budget: &MoveBudget,
        every: Duration,
        report: &mut dyn FnMut(&Choice),
    ) -> Choice {
        let _ = (every, report);
        self.choose(pos, budget)
    }

    /// Forgets what it learned in the current game (tables, killers), before a new game.
    fn new_game(&mut self) {}
}
