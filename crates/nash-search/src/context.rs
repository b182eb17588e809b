//! What a solver run is given besides the position, below the solvers and the entry point that
//! dispatches to them: the memory plan and table of a solve (or of a set of solves side by
//! side), decided once in a [`Setup`], and the small conversions every entry makes first (a
//! finished game answered at once, a small board narrowed to the [`TinyBitboard`]).

use nash_board::{BitSet, Geometry, Position, TinyBitboard};

use crate::config::SolverConfig;
use crate::memory::{self, Plan};
use crate::outcome::{Outcome, SolveResult, Stats};
use crate::table::Table;

/// How the solves of one call run on one board: the configuration each solve gets, its
/// memory plan, and the size of the table they share.
#[derive(Clone, Debug)]
pub(crate) struct Setup {
    /// The configuration of each solve.
    pub(crate) each: SolverConfig,
    /// The plan of each solve (its workers' caches, and for PNS and EWS their node store).
    pub(crate) plan: Plan,
    /// The bytes of the shared table.
    pub(crate) table_bytes: usize,
}

impl Setup {
    /// One solve with every thread of `cfg` ([`at_once`] of them at most: the solvers' workers
    /// and the memory plan read the threads from here).
    pub(crate) fn one<B: BitSet>(cfg: &SolverConfig, geom: &Geometry<B>) -> Setup {
        let each = SolverConfig { threads: at_once(cfg.threads), ..cfg.clone() };
        let plan = memory::plan(&each, geom);
        let table_bytes = memory::result_table_bytes(&each, plan.table_bytes);
        Setup { each, plan, table_bytes }
    }

    /// Solves side by side ([`crate::solve_many`], [`crate::winning_moves`]): each runs on one
    /// thread with an equal share of the memory limit for its caches, and the shared table
    /// gets what the caches of all the running solves leave.
    pub(crate) fn set<B: BitSet>(cfg: &SolverConfig, geom: &Geometry<B>) -> Setup {
        if cfg.threads <= 1 {
            return Setup::one(cfg, geom);
        }
        let each = one_thread(cfg);
        let running = at_once(cfg.threads);
        let plan = memory::plan(&each, geom);
        let table_bytes = memory::table_share(cfg.tt_mib, running * plan.worker_bytes(geom, &each));
        let table_bytes = memory::result_table_bytes(&each, table_bytes);
        Setup { each, plan, table_bytes }
    }

    /// The table of this setup, or why there is none.
    pub(crate) fn table<B: BitSet>(&self) -> Result<Table<B>, Outcome<B>> {
        Table::with_bytes(self.table_bytes).map_err(|reason| Outcome::Unknown { reason })
    }

    /// A solve of this setup in `table`.
    pub(crate) fn ctx<'a, B: BitSet>(&'a self, table: &'a Table<B>) -> Ctx<'a, B> {
        Ctx { cfg: &self.each, plan: &self.plan, table }
    }
}

/// How many threads a solve runs when `threads` are asked for: no more than the machine runs
/// at once (two at least, so that a one-core machine runs what a two-core one does). Solves
/// side by side and df-pn workers gain nothing from sharing a core, and each one running holds
/// its caches and answers a stop only at its next node, so 256 threads on two cores took 256
/// nodes' time to stop (`param_dfpn threads 256`, `dfpn-solver-find-winning` on 13x13: 1.5 s).
pub(crate) fn at_once(threads: usize) -> usize {
    // Read once: on Linux the answer comes from the cgroup files.
    static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    let cores = *CORES.get_or_init(|| {
        std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
    });
    threads.clamp(1, cores.max(2))
}

/// The configuration of each of the solves that `cfg` runs side by side: one thread, with an
/// equal share of the memory limit for its caches.
pub(crate) fn one_thread(cfg: &SolverConfig) -> SolverConfig {
    let threads = at_once(cfg.threads);
    SolverConfig { threads: 1, tt_mib: (cfg.tt_mib / threads).max(1), ..cfg.clone() }
}

/// What one solver run is given besides the position: its configuration, its memory plan and
/// the table.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Ctx<'a, B> {
    pub(crate) cfg: &'a SolverConfig,
    pub(crate) plan: &'a Plan,
    pub(crate) table: &'a Table<B>,
}

/// The answer for a position whose game is over.
pub(crate) fn decided<B: BitSet>(pos: &Position<B>) -> Option<SolveResult<B>> {
    let w = pos.winner()?;
    let outcome = if w == pos.to_move() {
        Outcome::Win { winning_move: None, carrier: B::EMPTY }
    } else {
        Outcome::Loss { carrier: B::EMPTY }
    };
    Some(SolveResult { outcome, stats: Stats::default() })
}

/// `pos` on the [`TinyBitboard`] when it fits there and `B` is wider, else `None`.
pub(crate) fn narrowed<B: BitSet>(pos: &Position<B>) -> Option<Position<TinyBitboard>> {
    let tiny = TinyBitboard::STRIDE;
    if B::STRIDE <= tiny || pos.cols() > tiny || pos.rows() > tiny {
        return None;
    }
    let mut t = Position::new(pos.cols(), pos.rows()).ok()?;
    for c in nash_board::Color::ALL {
        t.setup(c, convert(pos.stones(c)));
    }
    t.set_to_move(pos.to_move());
    Some(t)
}

/// The same cells (and edges) in another bitboard width, which must hold them.
pub(crate) fn convert<A: BitSet, C: BitSet>(set: A) -> C {
    set.into_iter().collect()
}
