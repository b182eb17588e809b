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
use crate::context::Setup;
use crate::entry::solve_in;
use crate::outcome::{Outcome, SolveResult, Stats, StopReason, WinningMoves};
use crate::warm::{OnBoard, SharedTable};
use crate::{progress, pv, winning};

/// What a [`SolverTable`] holds about a position, for the player to move there.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Bounds {
    /// Proven a win.
    Win,
    /// Proven a loss.
    Loss,
    /// Not proven: the proof number (the work df-pn expects to prove a win) and the disproof
    /// number (to prove a loss).
    Open {
        /// The proof number.
        proof: u32,
        /// The disproof number.
        disproof: u32,
    },
}

/// A transposition table kept from one solve to the next. See [`SolverTable::solve`].
pub struct SolverTable<B: BitSet> {
    kept: Option<Kept<B>>,
    /// The table of boards up to 7×7, which are solved on the [`TinyBitboard`].
    tiny: Option<Kept<TinyBitboard>>,
}

struct Kept<B> {
    table: SharedTable<B>,
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

/// The table in `kept` for the solves of `setup` on `pos`'s board, started afresh when the
/// board or the size differs from the kept one's; `Err` when the memory cannot be had.
fn table_for<'k, C: BitSet>(
    kept: &'k mut Option<Kept<C>>,
    pos: &Position<C>,
    setup: &Setup,
) -> Result<&'k SharedTable<C>, Outcome<C>> {
    let (shape, bytes) = ((pos.cols(), pos.rows()), setup.table_bytes);
    if !kept.as_ref().is_some_and(|k| k.shape == shape && k.bytes == bytes) {
        // Free the old table before taking memory for the new one.
        *kept = None;
        *kept = Some(Kept { table: SharedTable { table: setup.table()? }, shape, bytes });
    }
    Ok(&kept.as_ref().expect("stored above").table)
}

/// Why a table could not be had, from the outcome that says so.
fn stop_reason<C>(o: Outcome<C>) -> StopReason {
    match o {
        Outcome::Unknown { reason } => reason,
        _ => StopReason::Cancelled,
    }
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
            let setup = Setup::one(cfg, t.geometry());
            return match table_for(&mut self.tiny, &t, &setup) {
                Ok(table) => solve_in(&t, &setup.ctx(&table.table)).convert(),
                Err(outcome) => SolveResult { outcome: outcome.convert(), stats: Stats::default() },
            };
        }
        self.tiny = None;
        let setup = Setup::one(cfg, pos.geometry());
        match table_for(&mut self.kept, pos, &setup) {
            Ok(table) => solve_in(pos, &setup.ctx(&table.table)),
            Err(outcome) => SolveResult { outcome, stats: Stats::default() },
        }
    }

    /// [`crate::principal_variation`] with this table: after [`SolverTable::solve`] of the
    /// same position with the same `cfg`, the line's solves find most proofs already stored.
    pub fn principal_variation(&mut self, pos: &Position<B>, cfg: &SolverConfig) -> Vec<Cell> {
        self.principal_variation_from(pos, cfg, None)
    }

    /// [`SolverTable::principal_variation`] that starts with `first`, the winning move the
    /// solve of `pos` named (when the position after it is proven lost for the opponent), so
    /// that the line agrees with the solve's answer.
    pub fn principal_variation_from(
        &mut self,
        pos: &Position<B>,
        cfg: &SolverConfig,
        first: Option<Cell>,
    ) -> Vec<Cell> {
        if let Some(t) = crate::narrowed(pos) {
            self.kept = None;
            let setup = Setup::one(cfg, t.geometry());
            return table_for(&mut self.tiny, &t, &setup)
                .map_or_else(|_| Vec::new(), |table| pv::line_in(&t, cfg, table, first));
        }
        self.tiny = None;
        let setup = Setup::one(cfg, pos.geometry());
        table_for(&mut self.kept, pos, &setup)
            .map_or_else(|_| Vec::new(), |table| pv::line_in(pos, cfg, table, first))
    }

    /// Runs `job` on `pos` in this table, sized for `cfg` (as [`SolverTable::solve`] sizes
    /// it), at the width that solves `pos`: after [`SolverTable::solve`] of the same position
    /// with the same settings, the job's [`crate::Worker`]s find the proofs stored. `Err` when
    /// the machine refuses the table's memory.
    pub fn run<J: OnBoard>(
        &mut self,
        pos: &Position<B>,
        cfg: &SolverConfig,
        job: J,
    ) -> Result<J::Output, StopReason> {
        if let Some(t) = crate::narrowed(pos) {
            self.kept = None;
            let setup = Setup::one(cfg, t.geometry());
            let table = table_for(&mut self.tiny, &t, &setup).map_err(stop_reason)?;
            return Ok(job.run(&t, table));
        }
        self.tiny = None;
        let setup = Setup::one(cfg, pos.geometry());
        let table = table_for(&mut self.kept, pos, &setup).map_err(stop_reason)?;
        Ok(job.run(pos, table))
    }

    /// What the table holds about `pos` (looked up as the solves of `cfg` store it), if a
    /// solve on `pos`'s board stored it and it was not replaced since: a proven value, or the
    /// proof and disproof numbers of a position the search left open.
    pub fn bounds(&self, pos: &Position<B>, cfg: &SolverConfig) -> Option<Bounds> {
        // Keys do not depend on the width, so the small boards' table is read with the same key.
        let key = if cfg.canonical_keys { pos.canonical_hash() } else { pos.hash() };
        let shape = (pos.cols(), pos.rows());
        let numbers = match (&self.kept, &self.tiny) {
            (Some(k), _) if k.shape == shape => k.table.table.get(key).map(|e| (e.pn, e.dn)),
            (_, Some(k)) if k.shape == shape => k.table.table.get(key).map(|e| (e.pn, e.dn)),
            _ => None,
        };
        numbers.map(|(pn, dn)| match (pn, dn) {
            (0, _) => Bounds::Win,
            (_, 0) => Bounds::Loss,
            (proof, disproof) => Bounds::Open { proof, disproof },
        })
    }

    /// [`crate::winning_moves`] with this table.
    pub fn winning_moves(&mut self, pos: &Position<B>, cfg: &SolverConfig) -> WinningMoves<B> {
        if let Some(t) = crate::narrowed(pos) {
            self.kept = None;
            let setup = Setup::set(cfg, t.geometry());
            return match table_for(&mut self.tiny, &t, &setup) {
                Ok(table) => winning::winning_moves_in(&t, cfg, &setup.ctx(&table.table)),
                Err(_) => winning::undecided(&t, cfg),
            }
            .convert();
        }
        self.tiny = None;
        let setup = Setup::set(cfg, pos.geometry());
        match table_for(&mut self.kept, pos, &setup) {
            Ok(table) => winning::winning_moves_in(pos, cfg, &setup.ctx(&table.table)),
            Err(_) => winning::undecided(pos, cfg),
        }
    }
}
