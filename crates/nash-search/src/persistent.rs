//! A transposition table that outlives one solve, as a Hex engine keeps one between commands:
//! the proofs and proof numbers one solve stores speed up the next solve on the same board
//! (Benzene's df-pn keeps its table until `dfpn-clear-tt`).
//!
//! Every solved entry is a fact about its position, whatever the configuration that found it,
//! and unsolved entries only guide the search, so reusing a table never changes a value. Keys
//! do not name the board, so the table is started afresh when the board's shape changes, and
//! when a new memory limit or thread count plans a different size.

use nash_board::{BitSet, Cell, Position, TinyBitboard};

use crate::config::SolverConfig;
use crate::outcome::{SolveResult, WinningMoves};
use crate::table::Table;
use crate::{batch, memory, progress, pv, solve_in, winning};

/// A transposition table kept from one solve to the next. See [`SolverTable::solve`].
pub struct SolverTable<B: BitSet> {
    kept: Option<Kept<B>>,
    /// The table of boards up to 7×7, which are solved on the [`TinyBitboard`].
    tiny: Option<Kept<TinyBitboard>>,
}

struct Kept<B> {
    table: Table<B>,
    shape: (usize, usize),
    bytes: usize,
}

impl<B: BitSet> std::fmt::Debug for SolverTable<B> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let shape = self.kept.as_ref().map(|k| k.shape).or(self.tiny.as_ref().map(|k| k.shape));
        f.debug_struct("SolverTable").field("shape", &shape).finish()
    }
}

impl<B: BitSet> Default for SolverTable<B> {
    fn default() -> SolverTable<B> {
        SolverTable::new()
    }
}

/// The table in `kept` for a solve of `pos` needing `bytes`, started afresh when the board or
/// the size differs from the kept one's.
fn table_for<'k, C: BitSet>(
    kept: &'k mut Option<Kept<C>>,
    pos: &Position<C>,
    bytes: usize,
) -> &'k Table<C> {
    let shape = (pos.cols(), pos.rows());
    if !kept.as_ref().is_some_and(|k| k.shape == shape && k.bytes == bytes) {
        // Free the old table before taking memory for the new one.
        *kept = None;
    }
    &kept.get_or_insert_with(|| Kept { table: Table::with_bytes(bytes), shape, bytes }).table
}

impl<B: BitSet> SolverTable<B> {
    /// An empty table; memory is taken at the first solve.
    pub fn new() -> SolverTable<B> {
        SolverTable { kept: None, tiny: None }
    }

    /// Forgets everything stored (and gives the memory back).
    pub fn clear(&mut self) {
        self.kept = None;
        self.tiny = None;
    }

    /// Whether the table holds anything from an earlier solve.
    pub fn is_empty(&self) -> bool {
        self.kept.is_none() && self.tiny.is_none()
    }

    /// [`crate::solve`] with this table: what earlier solves on the same board stored is used,
    /// and what this one finds is kept.
    pub fn solve(&mut self, pos: &Position<B>, cfg: &SolverConfig) -> SolveResult<B> {
        progress::announce(cfg, 1);
        let r = self.solve_quietly(pos, cfg);
        progress::finished(cfg);
        r
    }

    fn solve_quietly(&mut self, pos: &Position<B>, cfg: &SolverConfig) -> SolveResult<B> {
        if let Some(r) = crate::decided(pos) {
            return r;
        }
        if let Some(t) = crate::narrowed(pos) {
            // Only one board is kept: a small board's table replaces a larger one's.
            self.kept = None;
            let bytes = memory::plan(cfg, t.geometry()).table_bytes;
            return solve_in(&t, cfg, table_for(&mut self.tiny, &t, bytes)).convert();
        }
        self.tiny = None;
        let bytes = memory::plan(cfg, pos.geometry()).table_bytes;
        solve_in(pos, cfg, table_for(&mut self.kept, pos, bytes))
    }

    /// [`crate::principal_variation`] with this table: after [`SolverTable::solve`] of the
    /// same position with the same `cfg`, the line's solves find most proofs already stored.
    pub fn principal_variation(&mut self, pos: &Position<B>, cfg: &SolverConfig) -> Vec<Cell> {
        if let Some(t) = crate::narrowed(pos) {
            self.kept = None;
            let bytes = memory::plan(cfg, t.geometry()).table_bytes;
            return pv::line_in(&t, cfg, table_for(&mut self.tiny, &t, bytes));
        }
        self.tiny = None;
        let bytes = memory::plan(cfg, pos.geometry()).table_bytes;
        pv::line_in(pos, cfg, table_for(&mut self.kept, pos, bytes))
    }

    /// [`crate::winning_moves`] with this table.
    pub fn winning_moves(&mut self, pos: &Position<B>, cfg: &SolverConfig) -> WinningMoves<B> {
        if let Some(t) = crate::narrowed(pos) {
            self.kept = None;
            let bytes = batch::table_bytes(t.geometry(), cfg);
            return winning::winning_moves_in(&t, cfg, table_for(&mut self.tiny, &t, bytes))
                .convert();
        }
        self.tiny = None;
        let bytes = batch::table_bytes(pos.geometry(), cfg);
        winning::winning_moves_in(pos, cfg, table_for(&mut self.kept, pos, bytes))
    }
}
