//! Decompositions (a full connection's carrier filled when two of a player's groups close off a
//! region with two opponent groups) keep values and carriers: solves with and without them
//! agree on random positions, and the carriers found with them are threat patterns.

use nash_search::{solve, Knowledge, SolverConfig};
use proptest::prelude::*;

use crate::support::{check_carrier, random_position};

fn with(decompositions: bool) -> SolverConfig {
    let knowledge = Knowledge { decompositions, ..Knowledge::default() };
    SolverConfig { tt_mib: 8, knowledge, ..SolverConfig::default() }
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
        check_carrier(&p, &with(true), |_| with(false))?;
    }
}
