//! The exact set of winning moves: every legal move at the root is decided by a solve of the
//! position after it. No inferior-cell pruning happens at this root, because a dominated or
//! captured cell can still win (Solving notes, "inexact winning sets").

use std::sync::Mutex;

use nash_board::{BitSet, Cell, Position};
use rayon::prelude::*;

use crate::config::SolverConfig;
use crate::outcome::{Outcome, Stats, WinningMoves};
use crate::table::Table;

/// Decides every legal move of `pos` for the player to move.
///
/// A move that wins on the spot is winning; otherwise the position after it is solved with
/// `cfg` (all solves share one table), and the move wins exactly when that position is lost
/// for the opponent. With `cfg.threads > 1` the moves are solved in parallel. Moves the budget
/// leaves undecided are reported in `unknown`.
pub fn winning_moves<B: BitSet>(pos: &Position<B>, cfg: &SolverConfig) -> WinningMoves<B> {
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
    let table = Table::with_mib(cfg.tt_mib);
    let moves: Vec<Cell> = pos.legal_moves().iter().collect();
    let decide = |m: Cell, cfg: &SolverConfig| -> (Cell, Option<bool>, Stats) {
        let mut p = pos.clone();
        p.play_unchecked(m);
        if p.winner() == Some(pos.to_move()) {
            return (m, Some(true), Stats::default());
        }
        let r = crate::solve_in(&p, cfg, &table);
        let win = match r.outcome {
            Outcome::Win { .. } => Some(false),
            Outcome::Loss { .. } => Some(true),
            Outcome::Unknown { .. } => None,
        };
        (m, win, r.stats)
    };
    let results: Vec<(Cell, Option<bool>, Stats)> = if cfg.threads > 1 {
        // One worker per move; each move's own solve runs single-threaded.
        let single = SolverConfig { threads: 1, ..cfg.clone() };
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
