//! The one way into a solve: a position whose game is over is answered at once, a board that
//! fits the single-word [`nash_board::TinyBitboard`] is solved there, and the memory plan and the table of a
//! solve (or of a set of solves side by side) are decided once, in a [`Setup`], before the
//! solver of the configuration is called. [`solve`], [`crate::winning_moves`],
//! [`crate::solve_many`], [`crate::principal_variation`] and [`crate::SolverTable`] all go
//! through here.

use nash_board::{BitSet, Position};

use crate::config::{SolverConfig, SolverKind};
use crate::context::{decided, narrowed, Ctx, Setup};
use crate::outcome::{SolveResult, Stats};
use crate::{dfpn, ews, negamax, pattern, pns, progress};

/// Solves a position for the player to move with the solver `cfg.kind`.
///
/// A position someone has already won is answered at once: a win without a move for the
/// winner, a loss (empty carrier) for the other side. Boards up to 7×7 are solved on the
/// single-word [`nash_board::TinyBitboard`] whatever width `B` the caller uses; the answer is the same.
/// A memory limit beyond the machine is planned within the machine's memory; a table the
/// machine refuses even at a fraction of its size gives `Unknown` with
/// [`crate::StopReason::OutOfMemory`], never an abort.
pub fn solve<B: BitSet>(pos: &Position<B>, cfg: &SolverConfig) -> SolveResult<B> {
    progress::announce(cfg, 1);
    let r = solve_alone(pos, cfg);
    progress::finished(cfg);
    r
}

/// [`solve`] in a table of its own, without counting the position in the progress.
pub(crate) fn solve_alone<B: BitSet>(pos: &Position<B>, cfg: &SolverConfig) -> SolveResult<B> {
    if let Some(r) = decided(pos) {
        return r;
    }
    if let Some(tiny) = narrowed(pos) {
        return solve_alone(&tiny, cfg).convert();
    }
    let setup = Setup::one(cfg, pos.geometry());
    match setup.table() {
        Ok(table) => solve_in(pos, &setup.ctx(&table)),
        Err(outcome) => SolveResult { outcome, stats: Stats::default() },
    }
}

/// Solves `pos` with the solver of `ctx` (shared between the solves of a set).
pub(crate) fn solve_in<B: BitSet>(pos: &Position<B>, ctx: &Ctx<'_, B>) -> SolveResult<B> {
    if let Some(r) = decided(pos) {
        return r;
    }
    let _span = tracing::debug_span!(
        "solve",
        solver = ctx.cfg.kind.name(),
        cols = pos.cols(),
        rows = pos.rows(),
        stones = pos.geometry().cells().len() - pos.empty_cells().len(),
        threads = ctx.cfg.threads,
    )
    .entered();
    let r = match ctx.cfg.kind {
        SolverKind::Dfpn => dfpn::solve(pos, ctx),
        SolverKind::Pattern => pattern::solve(pos, ctx, pattern::Mode::Pattern),
        SolverKind::Cus => pattern::solve(pos, ctx, pattern::Mode::Utility),
        SolverKind::Negamax => negamax::solve(pos, ctx),
        SolverKind::Pns => pns::solve(pos, ctx),
        SolverKind::Ews => ews::solve(pos, ctx),
    };
    tracing::debug!(
        nodes = r.stats.nodes,
        secs = r.stats.time.as_secs_f64(),
        wins = ?r.outcome.wins(),
        knowledge_calls = r.stats.knowledge_calls,
        knowledge_decided = r.stats.knowledge_decided,
        "solved"
    );
    r
}
#[cfg(test)]
mod tests {
    use std::time::Duration;

    use nash_board::{Bitboard, MoveList};

    use super::*;

    /// The narrowing is invisible: the same position solved on the 11-stride bitboard (without
    /// narrowing) and through [`solve`] (on the tiny one) takes the same search to the same
    /// answer, carrier included.
    #[test]
    fn tiny_boards_search_as_the_wide_ones_do() {
        let cfg = SolverConfig::default();
        for (size, moves) in [(5, "c3"), (5, "a2 c3"), (6, "c4 d3"), (6, "b5"), (4, "")] {
            let mut pos = Position::<Bitboard>::square(size).unwrap();
            moves.parse::<MoveList>().unwrap().play_on(&mut pos).unwrap();
            let setup = Setup::one(&cfg, pos.geometry());
            let table = setup.table().unwrap();
            let wide = solve_in(&pos, &setup.ctx(&table));
            let tiny = solve(&pos, &cfg);
            assert_eq!(wide.outcome, tiny.outcome, "{size}x{size} {moves}");
            assert_eq!(wide.stats.nodes, tiny.stats.nodes, "{size}x{size} {moves}");
        }
    }

    /// Limits beyond anything real neither panic nor abort: a time limit of 1e19 s (past what
    /// an instant can hold) is no limit, and a memory limit of a TiB is planned within the
    /// machine.
    #[test]
    fn huge_limits_solve_as_no_limits() {
        let pos = Position::<Bitboard>::square(4).unwrap();
        let plain = solve(&pos, &SolverConfig::default());
        for threads in [1, 2] {
            let mut cfg = SolverConfig { tt_mib: 1 << 20, threads, ..SolverConfig::default() };
            cfg.budget.time = Some(Duration::from_secs_f64(1e19));
            let r = solve(&pos, &cfg);
            assert_eq!(r.outcome.wins(), plain.outcome.wins(), "{threads} threads");
            let w = crate::winning_moves(&pos, &cfg);
            assert!(w.unknown.is_empty());
        }
        let mut cfg = SolverConfig::default();
        cfg.budget.time = Some(Duration::MAX);
        assert_eq!(solve(&pos, &cfg).outcome.wins(), plain.outcome.wins());
    }
}
