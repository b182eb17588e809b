//! A table kept between solves gives the same values, reuses what it stored, and starts afresh
//! on another board.

use nash_board::{Bitboard, MoveList, Position};
use nash_search::{solve, winning_moves, Outcome, SolverConfig, SolverKind, SolverTable};

fn pos(n: usize, moves: &str) -> Position<Bitboard> {
    let mut p = Position::square(n).unwrap();
    moves.parse::<MoveList>().unwrap().play_on(&mut p).unwrap();
    p
}

fn value(o: &Outcome<Bitboard>) -> Option<bool> {
    match o {
        Outcome::Win { .. } => Some(true),
        Outcome::Loss { .. } => Some(false),
        Outcome::Unknown { .. } => None,
    }
}

#[test]
fn a_kept_table_gives_the_same_values_with_less_work() {
    let cfg = SolverConfig { tt_mib: 32, ..SolverConfig::default() };
    let mut kept = SolverTable::new();
    assert!(kept.is_empty());
    for moves in ["c3", "a1", "b5"] {
        let p = pos(5, moves);
        let fresh = solve(&p, &cfg);
        let first = kept.solve(&p, &cfg);
        let again = kept.solve(&p, &cfg);
        assert_eq!(value(&first.outcome), value(&fresh.outcome), "{moves}");
        assert_eq!(value(&again.outcome), value(&fresh.outcome), "{moves}");
        assert!(again.stats.nodes <= first.stats.nodes, "{moves}");
    }
    assert!(!kept.is_empty());
    kept.clear();
    assert!(kept.is_empty());
}

#[test]
fn a_kept_table_serves_every_solver_and_board() {
    let mut kept = SolverTable::new();
    for (n, moves) in [(4, "b2"), (5, "c3"), (4, "a1"), (3, "")] {
        let p = pos(n, moves);
        for kind in [SolverKind::Dfpn, SolverKind::Pattern] {
            let cfg = SolverConfig { kind, tt_mib: 16, ..SolverConfig::default() };
            let want = value(&solve(&p, &cfg).outcome);
            assert_eq!(value(&kept.solve(&p, &cfg).outcome), want, "{n}x{n} {moves} {kind:?}");
        }
        let cfg = SolverConfig { tt_mib: 16, ..SolverConfig::default() };
        let w = kept.winning_moves(&p, &cfg);
        assert_eq!(w.winning, winning_moves(&p, &cfg).winning, "{n}x{n} {moves}");
    }
}
