//! Decompositions (a full connection's carrier filled when two of a player's groups close off a
//! region with two opponent groups) keep values and carriers: solves with and without them
//! agree on random positions, and the carriers found with them are threat patterns.

use nash_board::{Bitboard, Position};
use nash_search::{solve, Knowledge, Outcome, SolverConfig};
use proptest::prelude::*;

use crate::support::random_position;

fn with(decompositions: bool) -> SolverConfig {
    let knowledge = Knowledge { decompositions, ..Knowledge::default() };
    SolverConfig { tt_mib: 8, knowledge, ..SolverConfig::default() }
}

/// The carrier of `p`'s solve with decompositions, checked: the loser on every empty cell
/// outside it, a solve without decompositions still finds the winner winning.
fn carrier_holds(p: &Position<Bitboard>) -> Result<bool, TestCaseError> {
    let (win, carrier) = match solve(p, &with(true)).outcome {
        Outcome::Win { carrier, .. } => (true, carrier),
        Outcome::Loss { carrier } => (false, carrier),
        Outcome::Unknown { .. } => return Err(TestCaseError::fail(format!("unknown on {p}"))),
    };
    let winner = if win { p.to_move() } else { !p.to_move() };
    let mut q = p.clone();
    q.fill(!winner, q.empty_cells() - carrier);
    Ok(match q.winner() {
        Some(w) => w == winner,
        None => solve(&q, &with(false)).outcome.wins() == Some(win),
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Values agree with a solve without decompositions, and carriers hold, on 6x6 positions
    /// of a few stones (where the regions they close off appear).
    #[test]
    fn decompositions_keep_values_and_carriers(cells in prop::collection::vec(0usize..64, 4..16)) {
        let p = random_position(6, &cells);
        prop_assume!(p.winner().is_none());
        let plain = solve(&p, &with(false)).outcome.wins();
        prop_assert!(plain.is_some());
        prop_assert_eq!(solve(&p, &with(true)).outcome.wins(), plain, "{}", p);
        prop_assert!(carrier_holds(&p)?, "carrier of {}", p);
    }
}
