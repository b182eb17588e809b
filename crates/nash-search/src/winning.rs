//! The exact set of winning moves: every legal move at the root is decided by a solve of the
//! position after it. No inferior-cell pruning happens at this root, because a dominated or
//! captured cell can still win (a set found with such pruning can miss winning moves).

use std::sync::Mutex;

use nash_board::{BitSet, Cell, Position};
use rayon::prelude::*;

use crate::config::SolverConfig;
use crate::memory;
use crate::outcome::{Outcome, Stats, WinningMoves};
use crate::table::Table;

/// Decides every legal move of `pos` for the player to move.
///
/// A move that wins on the spot is winning; otherwise the position after it is solved with
/// `cfg` (all solves share one table), and the move wins exactly when that position is lost
/// for the opponent. With `cfg.threads > 1` the moves are solved in parallel. Moves the budget
/// leaves undecided are reported in `unknown`.
pub fn winning_moves<B: BitSet>(pos: &Position<B>, cfg: &SolverConfig) -> WinningMoves<B> {
    if let Some(tiny) = crate::narrowed(pos) {
        return winning_moves(&tiny, cfg).convert();
    }
    let table = Table::with_bytes(table_bytes(pos, cfg));
    winning_moves_in(pos, cfg, &table)
}

/// The worker configuration of [`winning_moves`]: with several threads each move's solve runs
/// single-threaded with a share of the memory limit for its own caches.
fn single(cfg: &SolverConfig) -> SolverConfig {
    let threads = cfg.threads.max(1);
    SolverConfig { threads: 1, tt_mib: (cfg.tt_mib / threads).max(1), ..cfg.clone() }
}

/// The bytes of the table the solves of [`winning_moves`] share: what the workers' caches
/// leave of the memory limit.
pub(crate) fn table_bytes<B: BitSet>(pos: &Position<B>, cfg: &SolverConfig) -> usize {
    let geom = pos.geometry();
    if cfg.threads > 1 {
        let single = single(cfg);
        let plan = memory::plan(&single, geom);
        memory::table_share(cfg.tt_mib, cfg.threads * plan.worker_bytes(geom, &single))
    } else {
        memory::plan(cfg, geom).table_bytes
    }
}

/// [`winning_moves`] in a table the caller owns.
pub(crate) fn winning_moves_in<B: BitSet>(
    pos: &Position<B>,
    cfg: &SolverConfig,
    table: &Table<B>,
) -> WinningMoves<B> {
    let mut out = WinningMoves {
        winning: B::EMPTY,
        losing: B::EMPTY,
        unknown: B::EMPTY,
        stats: Stats::default(),
    };
    if pos.winner().is_some() {
        return out;
    }
    let start = std::time::Instant::now();
    let single = single(cfg);
    let moves: Vec<Cell> = pos.legal_moves().iter().collect();
    let decide = |m: Cell, cfg: &SolverConfig| -> (Cell, Option<bool>, Stats) {
        let mut p = pos.clone();
        p.play_unchecked(m);
        if p.winner() == Some(pos.to_move()) {
            return (m, Some(true), Stats::default());
        }
        let r = crate::solve_in(&p, cfg, table);
        let win = match r.outcome {
            Outcome::Win { .. } => Some(false),
            Outcome::Loss { .. } => Some(true),
            Outcome::Unknown { .. } => None,
        };
        (m, win, r.stats)
    };
    let results: Vec<(Cell, Option<bool>, Stats)> = if cfg.threads > 1 {
        // One worker per move.
        let collected = Mutex::new(Vec::with_capacity(moves.len()));
        match rayon::ThreadPoolBuilder::new().num_threads(cfg.threads).build() {
            Ok(pool) => pool.install(|| {
                moves.par_iter().for_each(|&m| {
                    let r = decide(m, &single);
                    collected.lock().unwrap_or_else(|e| e.into_inner()).push(r);
                })
            }),
            Err(_) => moves.iter().for_each(|&m| {
                let r = decide(m, &single);
                collected.lock().unwrap_or_else(|e| e.into_inner()).push(r);
            }),
        }
        collected.into_inner().unwrap_or_else(|e| e.into_inner())
    } else {
        moves.iter().map(|&m| decide(m, cfg)).collect()
    };
    for (m, win, stats) in results {
        out.stats.merge(&stats);
        match win {
            Some(true) => out.winning.insert(m),
            Some(false) => out.losing.insert(m),
            None => out.unknown.insert(m),
        }
    }
    out.stats.time = start.elapsed();
    out
}
