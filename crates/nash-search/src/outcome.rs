//! The one result type every solver returns, and the statistics that come with it.

use std::fmt;
use std::time::Duration;

use nash_board::{BitSet, Cell, Color};
use serde::Serialize;

/// Why a solver stopped without an answer.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum StopReason {
    /// The node budget ran out.
    NodeLimit,
    /// The time budget ran out.
    TimeLimit,
    /// Another thread asked the solver to stop.
    Cancelled,
    /// The node store of proof-number or expected-work search filled its share of the memory
    /// limit.
    StoreFull,
    /// The machine refused the memory of the transposition table (or node store) of this many
    /// MiB, even at a fraction of the planned size.
    OutOfMemory {
        /// The size that was asked for, in MiB.
        mib: usize,
    },
}

impl fmt::Display for StopReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StopReason::NodeLimit => f.write_str("node limit reached"),
            StopReason::TimeLimit => f.write_str("time limit reached"),
            StopReason::Cancelled => f.write_str("cancelled"),
            StopReason::StoreFull => f.write_str("node store full (raise the memory limit)"),
            StopReason::OutOfMemory { mib } => {
                write!(f, "out of memory: a table of {mib} MiB could not be allocated")
            }
        }
    }
}

/// The value of a position for the player to move.
///
/// A carrier is the set of empty cells a proof depends on (van Rijswijck 2002 s.2.3): any
/// change outside it leaves the result standing.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Outcome<B> {
    /// The player to move wins. `winning_move` is `None` only when the position is already won
    /// (the player to move has connected their edges).
    Win { winning_move: Option<Cell>, carrier: B },
    /// The player to move loses whatever they play; `carrier` holds the opponent's winning
    /// strategy.
    Loss { carrier: B },
    /// No answer within the budget.
    Unknown { reason: StopReason },
}

impl<B: BitSet> Outcome<B> {
    /// Whether the player to move wins (`None` if unknown).
    pub fn wins(&self) -> Option<bool> {
        match self {
            Outcome::Win { .. } => Some(true),
            Outcome::Loss { .. } => Some(false),
            Outcome::Unknown { .. } => None,
        }
    }

    /// The winner, given who is to move (`None` if unknown).
    pub fn winner(&self, to_move: Color) -> Option<Color> {
        self.wins().map(|w| if w { to_move } else { !to_move })
    }

    /// The same outcome with its carrier in another bitboard width, which must hold it.
    pub(crate) fn convert<C: BitSet>(self) -> Outcome<C> {
        match self {
            Outcome::Win { winning_move, carrier } => {
                Outcome::Win { winning_move, carrier: crate::convert(carrier) }
            }
            Outcome::Loss { carrier } => Outcome::Loss { carrier: crate::convert(carrier) },
            Outcome::Unknown { reason } => Outcome::Unknown { reason },
        }
    }
}

/// What a solve cost. Counters are plain integers, updated per node without synchronisation;
/// parallel solvers add up their threads' stats at the end.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Serialize)]
pub struct Stats {
    /// Nodes visited: each time the search enters a position, positions that knowledge
    /// decides at once included.
    pub nodes: u64,
    /// The visits that generated children and searched them, the rest being decided at once
    /// by knowledge or the table (counted by df-pn; the other solvers leave it 0). Benzene's
    /// df-pn calls these its MID calls, and the others its terminal nodes.
    pub expanded: u64,
    /// Wall-clock time.
    #[serde(serialize_with = "as_secs")]
    pub time: Duration,
    /// Transposition-table lookups that found a usable entry.
    pub tt_hits: u64,
    /// Transposition-table stores.
    pub tt_stores: u64,
    /// Calls into the knowledge pipeline (fill-in, VC, mustplay).
    pub knowledge_calls: u64,
    /// Positions decided by knowledge without search (VC wins and losses, fill-in wins).
    pub knowledge_decided: u64,
    /// Knowledge calls answered from the worker's cache of recent analyses (no H-search).
    pub knowledge_cached: u64,
}

fn as_secs<S: serde::Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64(d.as_secs_f64())
}

impl Stats {
    /// Adds another thread's or phase's counters (time is kept as the maximum).
    pub fn merge(&mut self, other: &Stats) {
        self.nodes += other.nodes;
        self.expanded += other.expanded;
        self.time = self.time.max(other.time);
        self.tt_hits += other.tt_hits;
        self.tt_stores += other.tt_stores;
        self.knowledge_calls += other.knowledge_calls;
        self.knowledge_decided += other.knowledge_decided;
        self.knowledge_cached += other.knowledge_cached;
    }
}

/// A solver's answer: the outcome and what it cost.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct SolveResult<B> {
    /// The value found.
    pub outcome: Outcome<B>,
    /// Counters.
    pub stats: Stats,
}

impl<B: BitSet> SolveResult<B> {
    /// The answer for a position whose game is over, without a search (a win without a move
    /// for the winner, a loss with an empty carrier for the other side); `None` while the game
    /// goes on.
    pub fn of_finished(pos: &nash_board::Position<B>) -> Option<SolveResult<B>> {
        crate::decided(pos)
    }
}

/// The exact set of winning moves of a position: every legal move decided.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct WinningMoves<B> {
    /// Moves after which the player who made them wins.
    pub winning: B,
    /// Moves after which the opponent wins.
    pub losing: B,
    /// Moves the budget did not decide; empty when the answer is exact.
    pub unknown: B,
    /// Counters over all the solves.
    pub stats: Stats,
}

impl<B: BitSet> SolveResult<B> {
    /// The same result with its carrier in another bitboard width, which must hold it.
    pub(crate) fn convert<C: BitSet>(self) -> SolveResult<C> {
        SolveResult { outcome: self.outcome.convert(), stats: self.stats }
    }
}

impl<B: BitSet> WinningMoves<B> {
    /// The same sets in another bitboard width, which must hold them.
    pub(crate) fn convert<C: BitSet>(self) -> WinningMoves<C> {
        WinningMoves {
            winning: crate::convert(self.winning),
            losing: crate::convert(self.losing),
            unknown: crate::convert(self.unknown),
            stats: self.stats,
        }
    }
}
