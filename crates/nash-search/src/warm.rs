//! Warm workers: one-thread df-pn workers bound to a transposition table that they (and other
//! solves) share, each solving one position after another with its knowledge caches kept warm.
//! This is the API a client that solves many related positions builds on (the principal
//! variation here, proof certificates in nash-certify), instead of the solvers' internals.
//!
//! Invariants a client may rely on:
//!
//! - A [`Worker`] is df-pn on one thread whatever the configuration's `kind` and `threads`:
//!   its values are those of every solver.
//! - Everything a worker stores in its [`SharedTable`] is a fact about its position or a
//!   guide to the search, never a value that depends on the worker: workers with different
//!   knowledge settings (fill-in on or off, say) may share one table, and each still answers
//!   every position exactly.
//! - A worker's caches (its H-search builders and analyses) stay warm from one solve to the
//!   next, so the order of the solves can change which proof (move and carrier) is found,
//!   never a value; the same solves in the same order find the same proofs.
//! - The knowledge settings of a worker are those it was made with; each solve gives only its
//!   budget.

use nash_board::clock::Instant;

use nash_board::{BitSet, Geometry, Position, TinyBitboard};

use crate::config::{Budget, SolverConfig, SolverKind};
use crate::context::Setup;
use crate::dfpn::Resolver;
use crate::outcome::{SolveResult, StopReason};
use crate::table::Table;

/// A transposition table of one board, sized for a solver configuration's memory plan, that
/// [`Worker`]s and whole solves ([`SharedTable::solve`]) share.
#[derive(Debug)]
pub struct SharedTable<B> {
    pub(crate) table: Table<B>,
}

impl<B: BitSet> SharedTable<B> {
    /// The table a solve of `cfg` on `geom`'s board would have, or why the machine refuses
    /// its memory even at a fraction of its size.
    pub fn new(cfg: &SolverConfig, geom: &Geometry<B>) -> Result<SharedTable<B>, StopReason> {
        let setup = Setup::one(cfg, geom);
        Ok(SharedTable { table: Table::with_bytes(setup.table_bytes)? })
    }

    /// [`crate::solve`] of `pos` with `cfg` (every solver, every thread count) in this table,
    /// which keeps what it stores. `pos` is solved at the width `B`, not narrowed.
    pub fn solve(&self, pos: &Position<B>, cfg: &SolverConfig) -> SolveResult<B> {
        let setup = Setup::one(cfg, pos.geometry());
        crate::entry::solve_in(pos, &setup.ctx(&self.table))
    }
}

/// One df-pn worker on one thread, bound to a [`SharedTable`], that solves one position of its
/// board after another with its knowledge caches kept warm between them (a fresh worker per
/// position would spend more on its caches than on its search).
pub struct Worker<'t, B: BitSet> {
    resolver: Resolver<'t, B>,
    /// The configuration of the worker's solves (df-pn, one thread); each solve sets its
    /// budget.
    cfg: SolverConfig,
}

impl<'t, B: BitSet> Worker<'t, B> {
    /// A worker for positions of `pos`'s board in `table`, with the knowledge, memory limit
    /// (for its caches) and progress of `cfg`; df-pn on one thread whatever `cfg.kind` and
    /// `cfg.threads` say.
    pub fn new(pos: &Position<B>, cfg: &SolverConfig, table: &'t SharedTable<B>) -> Worker<'t, B> {
        let cfg = SolverConfig { kind: SolverKind::Dfpn, threads: 1, ..cfg.clone() };
        let setup = Setup::one(&cfg, pos.geometry());
        Worker { resolver: Resolver::new(pos, &cfg, &setup.plan, &table.table), cfg }
    }

    /// Solves `pos` (a position of the worker's board) within `budget` from now. A position
    /// whose game is over is answered at once, without a search, as [`crate::solve`] answers
    /// it.
    pub fn solve(&mut self, pos: &Position<B>, budget: &Budget) -> SolveResult<B> {
        if let Some(r) = SolveResult::of_finished(pos) {
            return r;
        }
        self.cfg.budget.clone_from(budget);
        self.resolver.solve(pos, &self.cfg)
    }
}

impl<B: BitSet> std::fmt::Debug for Worker<'_, B> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Worker").field("knowledge", &self.cfg.knowledge).finish_non_exhaustive()
    }
}

/// A job on a position that runs at the width that solves it, in a table it is given: the
/// position itself, or on boards up to 7×7 the same position on the [`TinyBitboard`]
/// ([`in_own_table`], [`crate::SolverTable::run`]).
pub trait OnBoard {
    /// What the job gives.
    type Output;

    /// Runs the job on `pos` (at the width `C` chosen for it) in `table`.
    fn run<C: BitSet>(self, pos: &Position<C>, table: &SharedTable<C>) -> Self::Output;
}

/// Runs `job` on `pos` in a table of its own, sized for `cfg`, on the [`TinyBitboard`] where
/// `pos` fits; `Err` when the machine refuses the table's memory.
pub fn in_own_table<B: BitSet, J: OnBoard>(
    pos: &Position<B>,
    cfg: &SolverConfig,
    job: J,
) -> Result<J::Output, StopReason> {
    if let Some(tiny) = crate::narrowed(pos) {
        return in_own_table::<TinyBitboard, J>(&tiny, cfg, job);
    }
    let table = SharedTable::new(cfg, pos.geometry())?;
    Ok(job.run(pos, &table))
}

impl Budget {
    /// What is left of this budget after `used` nodes and the time since `start`; `None` when
    /// something ran out or the solve was cancelled.
    pub fn left(&self, start: Instant, used: u64) -> Option<Budget> {
        let cancelled =
            self.cancel.as_ref().is_some_and(|c| c.load(std::sync::atomic::Ordering::Relaxed));
        let nodes = match self.nodes {
            Some(n) => Some(n.checked_sub(used).filter(|&n| n > 0)?),
            None => None,
        };
        let time = match self.time {
            Some(t) => Some(t.checked_sub(start.elapsed()).filter(|t| !t.is_zero())?),
            None => None,
        };
        (!cancelled).then(|| Budget { nodes, time, cancel: self.cancel.clone() })
    }
}
