//! Results do not depend on how the board is turned: every solver gives the same value on a
//! position and its images, and winning sets map onto each other.

use nash_search::{solve, winning_moves, Knowledge, MoveOrdering, SolverConfig, SolverKind};
use proptest::prelude::*;

use crate::support::{check_carrier, random_position, solved_up_to};

/// `c` without knowledge.
fn plain(c: &SolverConfig) -> SolverConfig {
    SolverConfig { knowledge: Knowledge::none(), ..c.clone() }
}

fn cfg(kind: SolverKind) -> SolverConfig {
    let knowledge = Knowledge {
        vc: false,
        mustplay: false,
        ordering: MoveOrdering::Centre,
        ..Knowledge::default()
    };
    SolverConfig { kind, tt_mib: 8, knowledge, ..SolverConfig::default() }
}

#[test]
fn winning_sets_map_under_every_symmetry() {
    let c = cfg(SolverKind::Dfpn);
    for s in solved_up_to(4) {
        let p = s.position();
        let base = winning_moves(&p, &c).winning;
        for &sym in p.geometry().symmetries() {
            let q = p.transformed(sym);
            let w = winning_moves(&q, &c).winning;
            assert_eq!(w, p.geometry().map_set(sym, base), "{} under {sym:?}", s.moves);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, ..ProptestConfig::default() })]

    /// All solvers agree with each other, and with themselves on the position's images.
    #[test]
    fn solvers_agree_on_random_positions(n in 3usize..=5, cells in prop::collection::vec(0usize..64, 2..9)) {
        let p = random_position(n, &cells);
        let reference = solve(&p, &cfg(SolverKind::Dfpn)).outcome.wins();
        prop_assert!(reference.is_some());
        let mut kinds = vec![SolverKind::Pns, SolverKind::Ews, SolverKind::Pattern, SolverKind::Negamax, SolverKind::Cus];
        if p.empty_cells().len() > 14 {
            kinds.retain(|k| matches!(k, SolverKind::Pns | SolverKind::Ews | SolverKind::Pattern));
        }
        for kind in kinds {
            let mut c = cfg(kind);
            c.tt_mib = 32;
            prop_assert_eq!(solve(&p, &c).outcome.wins(), reference, "{:?} on {}", kind, p);
        }
        let none = SolverConfig { knowledge: Knowledge::none(), ..cfg(SolverKind::Dfpn) };
        if p.empty_cells().len() <= 16 {
            prop_assert_eq!(solve(&p, &none).outcome.wins(), reference);
        }
        for &sym in p.geometry().symmetries() {
            let q = p.transformed(sym);
            prop_assert_eq!(solve(&q, &cfg(SolverKind::Dfpn)).outcome.wins(), reference);
        }
    }

    /// A claimed carrier is a real threat pattern: the loser may own every empty cell outside
    /// it and still loses.
    #[test]
    fn carriers_are_threat_patterns(n in 3usize..=4, cells in prop::collection::vec(0usize..64, 1..7)) {
        let p = random_position(n, &cells);
        check_carrier(&p, &cfg(SolverKind::Dfpn), |_| plain(&cfg(SolverKind::Dfpn)))?;
    }

    /// The same on larger boards with more stones and all knowledge on, where fill-in, the
    /// connections and mustplay pruning shape the carriers.
    #[test]
    fn carriers_with_knowledge_are_threat_patterns(n in 5usize..=6, cells in prop::collection::vec(0usize..64, 6..16)) {
        let p = random_position(n, &cells);
        prop_assume!(p.winner().is_none());
        let c = SolverConfig { tt_mib: 8, ..SolverConfig::default() };
        // The check solves without knowledge once few cells are left.
        check_carrier(&p, &c, |q| if q.empty_cells().len() <= 14 { plain(&c) } else { c.clone() })?;
    }
}
