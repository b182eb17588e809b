//! Results do not depend on how the board is turned: every solver gives the same value on a
//! position and its images, and winning sets map onto each other.

use nash_board::{Bitboard, Position};
use nash_search::{
    solve, winning_moves, Knowledge, MoveOrdering, Outcome, SolverConfig, SolverKind,
};
use proptest::prelude::*;

use crate::support::{random_position, solved_up_to};

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
        check_carrier(&p, &cfg(SolverKind::Dfpn), usize::MAX)?;
    }

    /// The same on larger boards with more stones and all knowledge on, where fill-in, the
    /// connections and mustplay pruning shape the carriers.
    #[test]
    fn carriers_with_knowledge_are_threat_patterns(n in 5usize..=6, cells in prop::collection::vec(0usize..64, 6..16)) {
        let p = random_position(n, &cells);
        prop_assume!(p.winner().is_none());
        let c = SolverConfig { tt_mib: 8, ..SolverConfig::default() };
        check_carrier(&p, &c, 14)?;
    }
}

/// Solves `p` with `c` and checks the carrier of the result: with the loser on every empty cell
/// outside it, the winner still wins. The check solves without knowledge when at most
/// `plain_up_to` empty cells are left, and with `c` otherwise.
fn check_carrier(
    p: &Position<Bitboard>,
    c: &SolverConfig,
    plain_up_to: usize,
) -> Result<(), TestCaseError> {
    let (win, carrier) = match solve(p, c).outcome {
        Outcome::Win { carrier, .. } => (true, carrier),
        Outcome::Loss { carrier } => (false, carrier),
        Outcome::Unknown { .. } => return Err(TestCaseError::fail(format!("unknown on {p}"))),
    };
    let winner = if win { p.to_move() } else { !p.to_move() };
    let mut q = p.clone();
    q.fill(!winner, q.empty_cells() - carrier);
    let holds = match q.winner() {
        Some(w) => w == winner,
        None if q.empty_cells().len() <= plain_up_to => {
            let plain = SolverConfig { knowledge: Knowledge::none(), ..c.clone() };
            solve(&q, &plain).outcome.wins() == Some(win)
        }
        None => solve(&q, c).outcome.wins() == Some(win),
    };
    prop_assert!(holds, "carrier {:?} of {}", carrier, p);
    Ok(())
}
