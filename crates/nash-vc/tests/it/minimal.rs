//! Every pair's lists stay minimal and within the caps, after builds, incremental updates and
//! derivations from a parent: no carrier contains another carrier of the same kind, no semi's
//! carrier contains a full one's (the one-pass insertion in store.rs relies on this).

use std::collections::BTreeMap;

use nash_board::{BitSet, Bitboard, Cell, Color, Position};
use nash_vc::{ConnectionKind, HSearchConfig, VcBuilder};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

fn check_minimal(vc: &VcBuilder<Bitboard>, config: &HSearchConfig, what: &str) {
    for color in Color::ALL {
        let mut pairs: BTreeMap<(Cell, Cell), (Vec<Bitboard>, Vec<Bitboard>)> = BTreeMap::new();
        for c in vc.all_connections(color) {
            let [a, b] = c.ends;
            let entry = pairs.entry((a.min(b), a.max(b))).or_default();
            match c.kind {
                ConnectionKind::Full => entry.0.push(c.carrier),
                ConnectionKind::Semi { .. } => entry.1.push(c.carrier),
            }
        }
        for ((a, b), (fulls, semis)) in &pairs {
            let at = format!("{color:?} {a}-{b} after {what}");
            for (i, x) in fulls.iter().enumerate() {
                for (j, y) in fulls.iter().enumerate() {
                    assert!(i == j || !x.is_subset(*y), "full inside another full, {at}");
                }
                for s in semis {
                    assert!(!x.is_subset(*s), "semi contains a full, {at}");
                }
            }
            for (i, x) in semis.iter().enumerate() {
                for (j, y) in semis.iter().enumerate() {
                    assert!(i == j || !x.is_subset(*y), "semi inside another semi, {at}");
                }
            }
            assert!(fulls.len() <= config.max_fulls.unwrap_or(usize::MAX), "too many fulls, {at}");
            assert!(semis.len() <= config.max_semis.unwrap_or(usize::MAX), "too many semis, {at}");
        }
    }
}

#[test]
fn lists_stay_minimal_and_capped() {
    let mut rng = SmallRng::seed_from_u64(11);
    let configs = ["default", "base", "fast", "max-fulls=2,max-semis=3", "or=5,no-semi-and"];
    for words in configs {
        let config: HSearchConfig = words.parse().unwrap();
        let mut inc = VcBuilder::new(config);
        let mut parent = VcBuilder::new(config);
        let mut child = VcBuilder::new(config);
        for game in 0..6 {
            let n = 4 + game % 3;
            let mut pos: Position<Bitboard> = Position::square(n).unwrap();
            inc.build(&pos);
            parent.build(&pos);
            while pos.winner().is_none() {
                let empty: Vec<Cell> = pos.empty_cells().iter().collect();
                let cell = empty[rng.gen_range(0..empty.len())];
                pos.play(cell).unwrap();
                inc.play(cell);
                check_minimal(&inc, &config, &format!("{words}: play {cell}"));
                child.build_from(&parent, &pos);
                check_minimal(&child, &config, &format!("{words}: build_from {cell}"));
                std::mem::swap(&mut parent, &mut child);
            }
        }
    }
}
