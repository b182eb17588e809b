//! Budgets end a solve: a node limit, a time limit shared by parallel workers, cancellation.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use nash_board::{Bitboard, Position};
use nash_search::{solve, Outcome, SolverConfig, SolverKind, StopReason};

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
