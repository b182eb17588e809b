//! How far running solves have come, readable from another thread while they run: the nodes
//! searched so far and how many of the positions (or, for [`crate::winning_moves`], the moves)
//! asked about are decided.
//!
//! Workers add their node counts in batches, when they read the clock (every few hundred nodes)
//! and when a search ends, so the counters cost the search one atomic add per batch and
//! nothing per node.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;

use nash_board::{Cell, Color};

/// Counters shared between the solves that report into them and the threads that read them.
///
/// Put one in [`crate::SolverConfig::progress`]; [`crate::solve`], [`crate::winning_moves`],
/// [`crate::solve_many`], [`crate::principal_variation`] and [`crate::SolverTable`] add to it.
/// Several calls may share one: their counts add up (a caller that wants a fresh count per
/// call gives each call a new one, or reads the difference).
///
/// ```
/// use std::sync::Arc;
/// use nash_board::{Bitboard, Position};
/// use nash_search::{solve, Progress, SolverConfig};
///
/// let progress = Arc::new(Progress::new());
/// let cfg = SolverConfig { progress: Some(progress.clone()), ..SolverConfig::default() };
/// let pos = Position::<Bitboard>::square(4).unwrap();
/// let result = solve(&pos, &cfg);
/// let seen = progress.snapshot();
/// assert_eq!((seen.decided, seen.total), (1, Some(1)));
/// assert_eq!(seen.nodes, result.stats.nodes);
/// ```
#[derive(Debug, Default)]
pub struct Progress {
    nodes: AtomicU64,
    decided: AtomicU64,
    total: AtomicU64,
    /// Whether df-pn workers publish the line they are searching (see [`Progress::with_line`]).
    wants_line: AtomicBool,
    line: Mutex<Vec<(Color, Cell)>>,
}

/// The counters of a [`Progress`] read at one moment.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Snapshot {
    /// Nodes searched so far (counted in batches, so a little behind while a search runs).
    pub nodes: u64,
    /// Positions (moves, for [`crate::winning_moves`]) whose value is known, or whose solve
    /// stopped on the budget: every one of them is finished.
    pub decided: u64,
    /// How many positions (or moves) were asked about, once known.
    pub total: Option<u64>,
}

impl Progress {
    /// Counters at zero, with the total unknown.
    pub fn new() -> Progress {
        Progress::default()
    }

    /// Counters at zero that also keep the line a df-pn worker is searching, from the solved
    /// position down, refreshed at each batch of nodes (a GUI draws it as the search goes).
    pub fn with_line() -> Progress {
        Progress { wants_line: AtomicBool::new(true), ..Progress::default() }
    }

    /// The moves (with their colours) a df-pn worker was last seen searching below the solved
    /// position; empty unless made [`Progress::with_line`] or before the first batch.
    pub fn line(&self) -> Vec<(Color, Cell)> {
        self.line.lock().map(|l| l.clone()).unwrap_or_default()
    }

    pub(crate) fn wants_line(&self) -> bool {
        self.wants_line.load(Ordering::Relaxed)
    }

    /// Replaces the line, unless another worker is writing it (one of them is enough).
    pub(crate) fn set_line(&self, line: impl Iterator<Item = (Color, Cell)>) {
        if let Ok(mut l) = self.line.try_lock() {
            l.clear();
            l.extend(line);
        }
    }

    /// Nodes searched so far.
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }

    /// Positions (or moves) finished so far.
    pub fn decided(&self) -> u64 {
        self.decided.load(Ordering::Relaxed)
    }

    /// Positions (or moves) asked about, `None` until a solve has said.
    pub fn total(&self) -> Option<u64> {
        Some(self.total.load(Ordering::Relaxed)).filter(|&n| n > 0)
    }

    /// All three counters.
    pub fn snapshot(&self) -> Snapshot {
        Snapshot { nodes: self.nodes(), decided: self.decided(), total: self.total() }
    }

    pub(crate) fn add_nodes(&self, n: u64) {
        if n > 0 {
            self.nodes.fetch_add(n, Ordering::Relaxed);
        }
    }

    pub(crate) fn add_total(&self, n: u64) {
        self.total.fetch_add(n, Ordering::Relaxed);
    }

    pub(crate) fn add_decided(&self, n: u64) {
        self.decided.fetch_add(n, Ordering::Relaxed);
    }
}

/// Announces `n` more positions (or moves) to the progress of `cfg`, if any.
pub(crate) fn announce(cfg: &crate::SolverConfig, n: usize) {
    if let Some(p) = &cfg.progress {
        p.add_total(n as u64);
    }
}

/// Counts one more finished position (or move) in the progress of `cfg`, if any.
pub(crate) fn finished(cfg: &crate::SolverConfig) {
    finished_many(cfg, 1);
}

/// Counts `n` more finished positions (or moves) in the progress of `cfg`, if any.
pub(crate) fn finished_many(cfg: &crate::SolverConfig, n: usize) {
    if let Some(p) = &cfg.progress {
        p.add_decided(n as u64);
    }
}
