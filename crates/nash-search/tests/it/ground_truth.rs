//! Every solver against testdata/solved.tsv: values, and exact winning sets.

use nash_board::Bitboard;
use nash_search::{
    solve, winning_moves, Chen2025, EwsConfig, Knowledge, MoveOrdering, Parallel, ResultTable,
    SolverConfig, SolverKind, ThreatTable,
};

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
    check(&config(SolverKind::Negamax, fill_only()), &solved_up_to(4), true);
}

#[test]
fn pattern_search_agrees_up_to_4x4() {
    check(&config(SolverKind::Pattern, Knowledge::none()), &solved_up_to(3), true);
    check(&config(SolverKind::Pattern, fill_only()), &solved_up_to(4), true);
}

#[test]
fn connection_utility_search_agrees_up_to_4x4() {
    check(&config(SolverKind::Cus, Knowledge::none()), &solved_up_to(3), true);
    check(&config(SolverKind::Cus, fill_only()), &solved_up_to(4), true);
    let mut cfg = config(SolverKind::Cus, Knowledge::none());
    cfg.use_tt = false;
    check(&cfg, &solved_up_to(3), true);
}

/// Rasmussen, Maire and Hayward 2006's configuration (Queenbee's order, no knowledge, no
/// table), and with its table of threat patterns (s.6): with that order, with board order, and
/// with virtual connections (whose verdicts make the supports all the winner's stones).
#[test]
fn the_threat_pattern_table_agrees_up_to_5x5() {
    for kind in [SolverKind::Pattern, SolverKind::Cus] {
        let paper = SolverConfig { tt_mib: 8, ..SolverConfig::rasmussen_2006(kind) };
        check(&paper, &solved_up_to(4), true);
        let table = SolverConfig { threat_table: ThreatTable::ThreatPatterns, ..paper };
        check(&table, &solved_up_to(4), true);
        check(&table, &solved_up_to(5), false);
        let mut board_order = table.clone();
        board_order.knowledge.ordering = MoveOrdering::None;
        check(&board_order, &solved_up_to(4), true);
        let vc = SolverConfig {
            knowledge: Knowledge { fill_in: false, ..Knowledge::default() },
            ..table.clone()
        };
        check(&vc, &solved_up_to(4), true);
        check(&vc, &solved_up_to(5), false);
    }
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
    let big = |k| SolverConfig { tt_mib: 64, ..config(SolverKind::Pns, k) };
    check(&big(Knowledge::none()), &solved_up_to(3), true);
    check(&big(fill_only()), &solved_up_to(4), true);
    check(&big(fill_only()), &solved_up_to(5), false);
}

#[test]
fn ews_agrees_up_to_5x5() {
    let big = |k| SolverConfig { tt_mib: 64, ..config(SolverKind::Ews, k) };
    check(&big(Knowledge::none()), &solved_up_to(3), true);
    check(&big(fill_only()), &solved_up_to(4), true);
    check(&big(fill_only()), &solved_up_to(5), false);
}

#[test]
fn dfpn_with_all_knowledge_agrees_on_5x5_openings() {
    let openings: Vec<Solved> =
        solved_up_to(5).into_iter().filter(|s| s.size == 5 && !s.moves.contains(' ')).collect();
    check(&config(SolverKind::Dfpn, Knowledge::default()), &openings, false);
}

/// The captured-set rule of H-search (off by default) changes no value and no winning set.
#[test]
fn dfpn_with_captured_sets_agrees_on_5x5_and_6x6_openings() {
    let knowledge = Knowledge {
        hsearch: nash_vc::HSearchConfig { captured_sets: true, ..Knowledge::solver_hsearch() },
        ..Knowledge::default()
    };
    let cfg = config(SolverKind::Dfpn, knowledge);
    let openings = |n: usize| -> Vec<Solved> {
        crate::support::solved()
            .into_iter()
            .filter(|s| s.size == n && (s.moves == "-" || !s.moves.contains(' ')))
            .collect()
    };
    check(&cfg, &openings(5), true);
    check(&cfg, &openings(6), false);
}

#[test]
fn dfpn_agrees_on_every_6x6_position() {
    let positions: Vec<Solved> =
        crate::support::solved().into_iter().filter(|s| s.size == 6).collect();
    assert_eq!(positions.len(), 187);
    check(&config(SolverKind::Dfpn, Knowledge::default()), &positions, false);
}

#[test]
fn dfpn_winning_sets_on_6x6_openings() {
    // Exact winning sets of the empty 6x6 board and its one-move openings (every legal move
    // decided).
    let positions: Vec<Solved> = crate::support::solved()
        .into_iter()
        .filter(|s| s.size == 6 && s.moves.split_whitespace().count() <= 1)
        .collect();
    assert_eq!(positions.len(), 37);
    check(&config(SolverKind::Dfpn, Knowledge::default()), &positions, true);
}

#[test]
fn rectangular_boards_go_to_the_closer_edges() {
    // Chen 2025 s.3.1: on m×n with m ≠ n the player whose edges are closer together wins,
    // whoever moves first. Black joins the rows, so Black wins when there are fewer rows.
    for (cols, rows) in [(4, 3), (3, 4), (5, 4), (4, 5), (6, 5), (3, 6)] {
        for to_move in [nash_board::Color::Black, nash_board::Color::White] {
            let mut p: nash_board::Position<Bitboard> =
                nash_board::Position::new(cols, rows).expect("size");
            p.set_to_move(to_move);
            let expected =
                if rows < cols { nash_board::Color::Black } else { nash_board::Color::White };
            for kind in [SolverKind::Dfpn, SolverKind::Pns, SolverKind::Pattern] {
                let r = solve(&p, &config(kind, Knowledge::default()));
                assert_eq!(
                    r.outcome.winner(to_move),
                    Some(expected),
                    "{kind:?} on {cols}x{rows}, {to_move} to move"
                );
            }
        }
    }
}

#[test]
fn parallel_dfpn_agrees_up_to_5x5() {
    let mut cfg = config(SolverKind::Dfpn, Knowledge::default());
    cfg.threads = 2;
    check(&cfg, &solved_up_to(4), true);
    let openings: Vec<Solved> =
        solved_up_to(5).into_iter().filter(|s| s.size == 5 && !s.moves.contains(' ')).collect();
    check(&cfg, &openings, false);
    // The shared-root workers, used when a node limit is set.
    cfg.budget.nodes = Some(10_000_000);
    check(&cfg, &openings, false);
}

#[test]
fn parallel_dfpn_agrees_on_6x6_openings() {
    // Large enough for the root's jobs to run out of their first budgets and come back, and
    // for the shared tree's workers to meet below the root's move.
    let openings: Vec<Solved> = crate::support::solved()
        .into_iter()
        .filter(|s| s.size == 6 && s.moves.split_whitespace().count() == 1)
        .collect();
    assert!(openings.len() >= 36);
    for parallel in [Parallel::RootJobs, Parallel::SharedTree] {
        let mut cfg = config(SolverKind::Dfpn, Knowledge::default());
        cfg.threads = 2;
        cfg.parallel = parallel;
        check(&cfg, &openings, false);
    }
}

/// Each setting of the win/loss table of PNS and EWS (Chen 2025 s.5.2), with and without
/// knowledge: the same values and winning sets.
#[test]
fn best_first_result_tables_agree_up_to_4x4() {
    for kind in [SolverKind::Pns, SolverKind::Ews] {
        for results in [ResultTable::Off, ResultTable::Children, ResultTable::Reached] {
            let cfg = |k| SolverConfig { result_table: results, tt_mib: 64, ..config(kind, k) };
            check(&cfg(Knowledge::none()), &solved_up_to(3), true);
            check(&cfg(fill_only()), &solved_up_to(4), true);
        }
    }
}

/// The EWS settings: no move-order weight, a heavy one, one playout, many; the H-search table
/// off.
#[test]
fn ews_settings_agree_up_to_4x4() {
    for (weight, playouts, growing_leaves) in [(0.0, 2, true), (10.0, 1, false), (5.0, 8, true)] {
        let cfg = SolverConfig {
            ews: EwsConfig { weight, playouts, growing_leaves },
            tt_mib: 64,
            ..config(SolverKind::Ews, Knowledge::none())
        };
        check(&cfg, &solved_up_to(3), true);
        check(&SolverConfig { knowledge: fill_only(), ..cfg }, &solved_up_to(4), false);
    }
    let cfg =
        SolverConfig { hsearch_table: false, ..config(SolverKind::Ews, Knowledge::default()) };
    check(&cfg, &solved_up_to(4), true);
}

/// Chen 2025's solver variants.
#[test]
fn chen_2025_variants_agree_up_to_4x4() {
    for v in Chen2025::ALL {
        let cfg = SolverConfig { tt_mib: 64, ..SolverConfig::chen_2025(v) };
        check(&cfg, &solved_up_to(3), true);
        check(&cfg, &solved_up_to(4), false);
    }
}
