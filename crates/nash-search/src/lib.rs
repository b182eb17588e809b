//! Hex solvers: boolean negamax, pattern search, connection-utility search, proof-number search,
//! depth-first proof-number search and expected-work search, all returning one [`Outcome`] and
//! sharing one knowledge pipeline (fill-in, virtual connections, mustplay, move ordering).
//!
//! The two entry points are [`solve`] (the value of a position, a winning move and the proof's
//! carrier) and [`winning_moves`] (the exact set of winning moves: every legal move decided);
//! [`solve_many`] solves a set of positions side by side on the threads.

mod batch;
mod budget;
mod config;
mod connect;
mod dfpn;
mod ews;
mod keys;
mod knowledge;
mod memory;
mod negamax;
mod outcome;
mod pattern;
mod persistent;
mod pns;
mod progress;
mod pv;
mod table;
mod winning;

pub use batch::solve_many;
pub use config::{Budget, Knowledge, MoveOrdering, Parallel, SolverConfig, SolverKind};
pub use outcome::WinningMoves;
pub use outcome::{Outcome, SolveResult, Stats, StopReason};
pub use persistent::SolverTable;
pub use progress::{Progress, Snapshot};
pub use pv::principal_variation;
pub use winning::winning_moves;

use nash_board::{BitSet, Position, TinyBitboard};

use crate::table::Table;

/// Solves a position for the player to move with the solver `cfg.kind`.
///
/// A position someone has already won is answered at once: a win without a move for the
/// winner, a loss (empty carrier) for the other side. Boards up to 7×7 are solved on the
/// single-word [`TinyBitboard`] whatever width `B` the caller uses; the answer is the same.
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
    let table = Table::with_bytes(memory::plan(cfg, pos.geometry()).table_bytes);
    solve_in(pos, cfg, &table)
}

/// Solves with a table the caller owns (shared between the solves of [`winning_moves`]).
pub(crate) fn solve_in<B: BitSet>(
    pos: &Position<B>,
    cfg: &SolverConfig,
    table: &Table<B>,
) -> SolveResult<B> {
    if let Some(r) = decided(pos) {
        return r;
    }
    match cfg.kind {
        SolverKind::Dfpn => dfpn::solve(pos, cfg, table),
        SolverKind::Pattern => pattern::solve(pos, cfg, table, pattern::Mode::Pattern),
        SolverKind::Cus => pattern::solve(pos, cfg, table, pattern::Mode::Utility),
        SolverKind::Negamax => negamax::solve(pos, cfg, table),
        SolverKind::Pns => pns::solve(pos, cfg),
        SolverKind::Ews => ews::solve(pos, cfg),
    }
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

#[cfg(test)]
mod tests {
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
            let table = Table::with_bytes(memory::plan(&cfg, pos.geometry()).table_bytes);
            let wide = solve_in(&pos, &cfg, &table);
            let tiny = solve(&pos, &cfg);
            assert_eq!(wide.outcome, tiny.outcome, "{size}x{size} {moves}");
            assert_eq!(wide.stats.nodes, tiny.stats.nodes, "{size}x{size} {moves}");
        }
    }
}
