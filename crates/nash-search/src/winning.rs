//! The exact set of winning moves: every legal move at the root is decided by a solve of the
//! position after it. No inferior-cell pruning happens at this root, because a dominated or
//! captured cell can still win (Solving notes, "inexact winning sets").

use nash_board::{BitSet, Position};

use crate::config::SolverConfig;
use crate::outcome::{Outcome, Stats, WinningMoves};
use crate::table::Table;

/// Decides every legal move of `pos` for the player to move.
///
/// A move that wins on the spot is winning; otherwise the position after it is solved with
/// `cfg`, and the move wins exactly when that position is lost for the opponent. Moves the
/// budget leaves undecided are reported in `unknown`.
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
    let me = pos.to_move();
    let table = Table::with_mib(cfg.tt_mib);
    let mut p = pos.clone();
    for m in pos.legal_moves() {
        p.play_unchecked(m);
        if p.winner() == Some(me) {
            out.winning.insert(m);
        } else {
            let r = crate::solve_in(&p, cfg, &table);
            out.stats.merge(&r.stats);
            match r.outcome {
                Outcome::Win { .. } => out.losing.insert(m),
                Outcome::Loss { .. } => out.winning.insert(m),
                Outcome::Unknown { .. } => out.unknown.insert(m),
            }
        }
        p.undo();
    }
    out.stats.time = start.elapsed();
    out
}
