//! Every solver against testdata/solved.tsv: values, and exact winning sets.

use nash_board::Bitboard;
use nash_search::{solve, winning_moves, Knowledge, SolverConfig, SolverKind};

use crate::support::{names, solved_up_to, Solved};

fn config(kind: SolverKind) -> SolverConfig {
    SolverConfig { kind, tt_mib: 16, ..SolverConfig::default() }
}

/// Checks the value of every position, and the exact winning set where `sets` is true.
fn check(kind: SolverKind, positions: &[Solved], sets: bool) {
    let cfg = config(kind);
    let mut bad = Vec::new();
    for s in positions {
        let p = s.position();
        let r = solve(&p, &cfg);
        let got = r.outcome.winner(p.to_move());
        if got != Some(s.winner) {
            bad.push(format!("{} {}: value {:?}, expected {}", s.size, s.moves, got, s.winner));
            continue;
        }
        if sets {
            if let Some(expected) = s.winning {
                let w = winning_moves(&p, &cfg);
                if w.winning != expected || !w.unknown.is_empty() {
                    bad.push(format!(
                        "{} {}: winning [{}], expected [{}]",
                        s.size,
                        s.moves,
                        names(w.winning),
                        names::<Bitboard>(expected)
                    ));
                }
            }
        }
    }
    assert!(bad.is_empty(), "{kind:?} disagrees on {} positions:\n{}", bad.len(), bad.join("\n"));
}

#[test]
fn negamax_agrees_up_to_4x4() {
    check(SolverKind::Negamax, &solved_up_to(4), true);
}

#[test]
fn negamax_without_knowledge_agrees_up_to_4x4() {
    let mut cfg = config(SolverKind::Negamax);
    cfg.knowledge = Knowledge::none();
    for s in solved_up_to(4) {
        let p = s.position();
        assert_eq!(solve(&p, &cfg).outcome.winner(p.to_move()), Some(s.winner), "{}", s.moves);
    }
}
