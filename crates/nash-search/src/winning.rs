//! The exact set of winning moves: every legal move at the root is decided by a solve of the
//! position after it. No inferior-cell pruning happens at this root, because a dominated or
//! captured cell can still win (a set found with such pruning can miss winning moves).

use nash_board::{BitSet, Cell, Position};

use crate::batch;
use crate::config::SolverConfig;
use crate::context::{Ctx, Setup};
use crate::entry::solve_in;
use crate::outcome::{Outcome, Stats, WinningMoves};
use crate::progress;

/// Decides every legal move of `pos` for the player to move.
///
/// A move that wins on the spot is winning; otherwise the position after it is solved with
/// `cfg` (all solves share one table), and the move wins exactly when that position is lost
/// for the opponent. With `cfg.threads > 1` the moves are solved side by side, one thread each
/// ([`crate::solve_many`]'s way). Moves the budget leaves undecided are reported in `unknown`.
pub fn winning_moves<B: BitSet>(pos: &Position<B>, cfg: &SolverConfig) -> WinningMoves<B> {
    if let Some(tiny) = crate::narrowed(pos) {
        return winning_moves(&tiny, cfg).convert();
    }
    let setup = Setup::set(cfg, pos.geometry());
    match setup.table() {
        Ok(table) => winning_moves_in(pos, cfg, &setup.ctx(&table)),
        Err(_) => undecided(pos, cfg),
    }
}

/// Every legal move undecided: what a call whose table cannot be had answers.
pub(crate) fn undecided<B: BitSet>(pos: &Position<B>, cfg: &SolverConfig) -> WinningMoves<B> {
    let unknown = if pos.winner().is_some() { B::EMPTY } else { pos.legal_moves() };
    progress::announce(cfg, unknown.len());
    progress::finished_many(cfg, unknown.len());
    WinningMoves { winning: B::EMPTY, losing: B::EMPTY, unknown, stats: Stats::default() }
}

/// [`winning_moves`] of `cfg` in the table of `ctx` (whose configuration is that of each move's
/// solve).
pub(crate) fn winning_moves_in<B: BitSet>(
    pos: &Position<B>,
    cfg: &SolverConfig,
    ctx: &Ctx<'_, B>,
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
    let start = nash_board::clock::Instant::now();
    let _span =
        tracing::debug_span!("winning_moves", cols = pos.cols(), rows = pos.rows()).entered();
    let moves: Vec<Cell> = pos.legal_moves().iter().collect();
    progress::announce(cfg, moves.len());
    // The moves are decided side by side, one thread each (see `batch`).
    let results = batch::side_by_side(moves.len(), cfg.threads, |i| {
        let m = moves[i];
        let mut p = pos.clone();
        p.play_unchecked(m);
        if p.winner() == Some(pos.to_move()) {
            progress::finished(cfg);
            return (m, Some(true), Stats::default());
        }
        let r = solve_in(&p, ctx);
        progress::finished(cfg);
        let win = match r.outcome {
            Outcome::Win { .. } => Some(false),
            Outcome::Loss { .. } => Some(true),
            Outcome::Unknown { .. } => None,
        };
        (m, win, r.stats)
    });
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
