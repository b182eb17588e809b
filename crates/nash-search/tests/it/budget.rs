//! Budgets end a solve: a node limit, a time limit shared by parallel workers, cancellation.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use nash_board::{Bitboard, Position, WidePosition};
use nash_search::{
    solve, winning_moves, Chen2025, Outcome, Parallel, SolverConfig, SolverKind, StopReason,
};

fn empty(n: usize) -> Position<Bitboard> {
    Position::square(n).unwrap()
}

#[test]
fn node_limit_gives_unknown_with_statistics() {
    for kind in [SolverKind::Dfpn, SolverKind::Pns, SolverKind::Pattern, SolverKind::Ews] {
        let mut cfg = SolverConfig { kind, tt_mib: 16, ..SolverConfig::default() };
        cfg.budget.nodes = Some(50);
        let r = solve(&empty(9), &cfg);
        assert_eq!(r.outcome, Outcome::Unknown { reason: StopReason::NodeLimit }, "{kind:?}");
        assert!(r.stats.nodes > 0, "{kind:?}");
    }
}

#[test]
fn parallel_workers_share_one_time_limit() {
    // Splitting the root gives each move its own worker; the time limit is the solve's, not
    // the move's (one fresh limit per move would run for minutes here).
    let mut cfg = SolverConfig { threads: 2, tt_mib: 64, ..SolverConfig::default() };
    cfg.budget.time = Some(Duration::from_millis(300));
    let start = Instant::now();
    let r = solve(&empty(9), &cfg);
    assert_eq!(r.outcome, Outcome::Unknown { reason: StopReason::TimeLimit });
    assert!(start.elapsed() < Duration::from_secs(5), "took {:?}", start.elapsed());
}

#[test]
fn cancellation_stops_a_solve() {
    let flag = Arc::new(AtomicBool::new(true));
    let mut cfg = SolverConfig { tt_mib: 16, ..SolverConfig::default() };
    cfg.budget.cancel = Some(flag);
    let r = solve(&empty(9), &cfg);
    assert_eq!(r.outcome, Outcome::Unknown { reason: StopReason::Cancelled });
}

/// A 19x19 position with a few stones, far from solvable: a node there costs the most (its
/// H-search and inferior-cell analysis cover 361 cells).
fn wide_19() -> WidePosition {
    let mut pos = WidePosition::square(19).unwrap();
    for cell in ["j10", "k9", "d4", "p16", "d16"] {
        pos.play(cell.parse().unwrap()).unwrap();
    }
    pos
}

/// Every solver, one thread and two (both ways of splitting df-pn), given a tiny time limit on
/// 19x19 returns unknown by the time limit: it stops inside the analysis of a node rather than
/// after it, and never reports a value it did not prove.
#[test]
fn every_solver_stops_on_19x19_at_a_tiny_time_limit() {
    let pos = wide_19();
    for kind in SolverKind::ALL {
        for (threads, parallel) in
            [(1, Parallel::Auto), (2, Parallel::SharedTree), (2, Parallel::RootJobs)]
        {
            if threads > 1 && kind != SolverKind::Dfpn {
                continue;
            }
            let mut cfg =
                SolverConfig { kind, threads, parallel, tt_mib: 16, ..SolverConfig::default() };
            cfg.budget.time = Some(Duration::from_millis(5));
            let r = solve(&pos, &cfg);
            assert_eq!(
                r.outcome,
                Outcome::Unknown { reason: StopReason::TimeLimit },
                "{kind:?} on {threads} threads ({parallel:?})"
            );
        }
    }
}

/// A raised cancel flag (what an HTP interrupt raises) stops every solver on 19x19 at once,
/// and deciding every move of the position leaves them all unknown.
#[test]
fn every_solver_stops_on_19x19_when_cancelled() {
    let pos = wide_19();
    for kind in SolverKind::ALL {
        let mut cfg = SolverConfig { kind, tt_mib: 16, ..SolverConfig::default() };
        cfg.budget.cancel = Some(Arc::new(AtomicBool::new(true)));
        let r = solve(&pos, &cfg);
        assert_eq!(r.outcome, Outcome::Unknown { reason: StopReason::Cancelled }, "{kind:?}");
        let w = winning_moves(&pos, &cfg);
        assert!(w.winning.is_empty() && w.losing.is_empty(), "{kind:?}");
        assert_eq!(w.unknown, pos.legal_moves(), "{kind:?}");
    }
}

/// Many workers that start after the deadline leave at once: the solve still ends unknown by
/// the time limit.
#[test]
fn many_workers_share_a_deadline() {
    let mut cfg = SolverConfig { threads: 64, tt_mib: 64, ..SolverConfig::default() };
    cfg.budget.time = Some(Duration::from_millis(5));
    for pos in [empty(8), empty(11)] {
        let r = solve(&pos, &cfg);
        assert_eq!(r.outcome, Outcome::Unknown { reason: StopReason::TimeLimit });
    }
}

/// A node store that fills (a MiB for the featureless 6x6 board) ends the solve with
/// `StoreFull`, not an abort; with room to spare, the same store frees proven subtrees and
/// solves 4x4 in 64 MiB.
#[test]
fn a_full_node_store_is_said() {
    for kind in [SolverKind::Pns, SolverKind::Ews] {
        let cfg =
            SolverConfig { kind, tt_mib: 1, ..SolverConfig::chen_2025(Chen2025::Featureless) };
        let r = solve(&empty(6), &cfg);
        assert_eq!(r.outcome, Outcome::Unknown { reason: StopReason::StoreFull }, "{kind:?}");
        let roomy = SolverConfig { tt_mib: 64, ..cfg };
        assert_eq!(solve(&empty(4), &roomy).outcome.wins(), Some(true), "{kind:?}");
    }
}
