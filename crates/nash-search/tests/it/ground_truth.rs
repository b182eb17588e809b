//! Every solver against testdata/solved.tsv: values, and exact winning sets.

use nash_board::Bitboard;
use nash_search::{solve, winning_moves, Knowledge, MoveOrdering, SolverConfig, SolverKind};

use crate::support::{names, solved_up_to, Solved};

/// Fill-in and inferior cells, no virtual connections: fast on small boards.
fn fill_only() -> Knowledge {
    Knowledge { vc: false, mustplay: false, ordering: MoveOrdering::Centre, ..Knowledge::default() }
}

fn config(kind: SolverKind, knowledge: Knowledge) -> SolverConfig {
    SolverConfig { kind, tt_mib: 8, knowledge, ..SolverConfig::default() }
}

/// Checks the value of every position, and the exact winning set where `sets` is true.
fn check(cfg: &SolverConfig, positions: &[Solved], sets: bool) {
    let mut bad = Vec::new();
    for s in positions {
        let p = s.position();
        let r = solve(&p, cfg);
        let got = r.outcome.winner(p.to_move());
        if got != Some(s.winner) {
            bad.push(format!("{} {}: value {:?}, expected {}", s.size, s.moves, got, s.winner));
            continue;
        }
        if sets {
            if let Some(expected) = s.winning {
                let w = winning_moves(&p, cfg);
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
    assert!(
        bad.is_empty(),
        "{:?} disagrees on {} positions:\n{}",
        cfg.kind,
        bad.len(),
        bad.join("\n")
    );
}

#[test]
fn negamax_agrees_up_to_4x4() {
    check(&config(SolverKind::Negamax, Knowledge::none()), &solved_up_to(3), true);
    check(&config(SolverKind::Negamax, Knowledge::none()), &solved_up_to(4), false);
    check(&config(SolverKind::Negamax, fill_only()), &solved_up_to(4), true);
}

#[test]
fn pattern_search_agrees_up_to_4x4() {
    check(&config(SolverKind::Pattern, Knowledge::none()), &solved_up_to(4), true);
}

#[test]
fn connection_utility_search_agrees_up_to_4x4() {
    check(&config(SolverKind::Cus, Knowledge::none()), &solved_up_to(4), false);
    check(&config(SolverKind::Cus, fill_only()), &solved_up_to(4), true);
    let mut cfg = config(SolverKind::Cus, Knowledge::none());
    cfg.use_tt = false;
    check(&cfg, &solved_up_to(3), true);
}

#[test]
fn dfpn_without_knowledge_agrees_up_to_4x4() {
    check(&config(SolverKind::Dfpn, Knowledge::none()), &solved_up_to(4), true);
}

#[test]
fn dfpn_with_fill_in_agrees_up_to_5x5() {
    check(&config(SolverKind::Dfpn, fill_only()), &solved_up_to(5), true);
}

#[test]
fn dfpn_with_all_knowledge_agrees_up_to_4x4() {
    check(&config(SolverKind::Dfpn, Knowledge::default()), &solved_up_to(4), true);
}

#[test]
fn pns_agrees_up_to_5x5() {
    check(&config(SolverKind::Pns, Knowledge::none()), &solved_up_to(4), false);
    check(&config(SolverKind::Pns, fill_only()), &solved_up_to(4), true);
    check(&config(SolverKind::Pns, fill_only()), &solved_up_to(5), false);
}

#[test]
fn ews_agrees_up_to_5x5() {
    check(&config(SolverKind::Ews, Knowledge::none()), &solved_up_to(3), true);
    check(&config(SolverKind::Ews, fill_only()), &solved_up_to(4), true);
    check(&config(SolverKind::Ews, fill_only()), &solved_up_to(5), false);
}
