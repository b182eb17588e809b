//! Incremental updates give exactly the connection set of a full rebuild (under a configuration
//! whose result is a canonical closure: no caps, no early stop, no optimization, no area).

use std::collections::BTreeSet;

use nash_board::{BitSet, Bitboard, Cell, Color, Position};
use nash_vc::{ConnectionKind, HSearchConfig, OrLimit, VcBuilder};
use proptest::prelude::*;

type Canon = BTreeSet<(Color, Cell, Cell, bool, u128)>;

/// The connection set without semi keys (two semis with one carrier and different keys are
/// kept once, whichever key came first).
fn canon(vc: &VcBuilder<Bitboard>) -> Canon {
    let mut out = BTreeSet::new();
    for color in Color::ALL {
        for c in vc.all_connections(color) {
            let [a, b] = c.ends;
            let (a, b) = if a <= b { (a, b) } else { (b, a) };
            out.insert((color, a, b, c.kind == ConnectionKind::Full, c.carrier.0));
        }
    }
    out
}

fn check_game(config: HSearchConfig, n: usize, moves: &[usize], fill: bool) {
    let mut pos: Position<Bitboard> = Position::square(n).unwrap();
    let mut inc = VcBuilder::new(config);
    let mut full = VcBuilder::new(config);
    // A copy made with `clone_from` each move, over its previous contents, must match too.
    let mut copy = VcBuilder::new(config);
    inc.build(&pos);
    for &m in moves {
        let empty: Vec<Cell> = pos.empty_cells().iter().collect();
        if empty.is_empty() || pos.winner().is_some() {
            break;
        }
        let cell = empty[m % empty.len()];
        if fill && m % 3 == 0 {
            // A stone without a change of turn, as fill-in places them.
            let color = if m % 2 == 0 { Color::Black } else { Color::White };
            pos.fill(color, Bitboard::single(cell));
            inc.put(color, cell);
        } else {
            pos.play(cell).unwrap();
            inc.play(cell);
        }
        full.build(&pos);
        let (a, b) = (canon(&inc), canon(&full));
        if a != b {
            let extra: Vec<_> = a.difference(&b).take(5).collect();
            let missing: Vec<_> = b.difference(&a).take(5).collect();
            panic!(
                "incremental differs after {cell} in\n{pos}\nextra {extra:?}\nmissing {missing:?}"
            );
        }
        assert_eq!(inc.mustplay(), full.mustplay());
        copy.clone_from(&inc);
        assert_eq!(canon(&copy), a, "clone_from lost connections");
    }
}

/// `build_from` a parent position (the previous move, with fill-in stones of either colour in
/// between) gives the connection set of a rebuild, and its mustplay.
fn check_derived(config: HSearchConfig, n: usize, moves: &[usize]) {
    let mut pos: Position<Bitboard> = Position::square(n).unwrap();
    let mut parent = VcBuilder::new(config);
    let mut child = VcBuilder::new(config);
    let mut full = VcBuilder::new(config);
    parent.build(&pos);
    for &m in moves {
        let empty: Vec<Cell> = pos.empty_cells().iter().collect();
        if empty.is_empty() || pos.winner().is_some() {
            break;
        }
        let cell = empty[m % empty.len()];
        if m % 4 == 0 {
            let color = if m % 8 == 0 { Color::Black } else { Color::White };
            pos.fill(color, Bitboard::single(cell));
        } else {
            pos.play(cell).unwrap();
        }
        child.build_from(&parent, &pos);
        full.build(&pos);
        let (a, b) = (canon(&child), canon(&full));
        assert!(a == b, "derived set differs after {cell} in\n{pos}");
        assert_eq!(child.mustplay(), full.mustplay());
        // Equal sets can list their connections in another order, so of several smallest
        // winning connections another one may be named: compare the kind and the size.
        let win = |b: &VcBuilder<Bitboard>| b.win_now().map(|w| (w.key.is_some(), w.carrier.len()));
        assert_eq!(win(&child), win(&full));
        std::mem::swap(&mut parent, &mut child);
    }
}

/// `build_from` an ancestor `gap` moves up (each player up to `gap` new stones, and fill-in
/// stones placed several at a time) gives the connection set of a rebuild, and
/// `derivation_cost` counts the stones it adds.
fn check_derived_far(config: HSearchConfig, n: usize, gap: usize, moves: &[usize]) {
    let mut pos: Position<Bitboard> = Position::square(n).unwrap();
    let mut ancestor = VcBuilder::new(config);
    let mut child = VcBuilder::new(config);
    let mut full = VcBuilder::new(config);
    ancestor.build(&pos);
    let mut since = 0;
    for (i, &m) in moves.iter().enumerate() {
        let empty: Vec<Cell> = pos.empty_cells().iter().collect();
        if empty.len() < 2 || pos.winner().is_some() {
            break;
        }
        let cell = empty[m % empty.len()];
        if m % 4 == 0 {
            // Two fill-in stones of one colour at once.
            let color = if m % 8 == 0 { Color::Black } else { Color::White };
            let other = empty[(m / 4 + 1 + empty.len() / 2) % empty.len()];
            pos.fill(color, Bitboard::single(cell).with(other));
        } else {
            pos.play(cell).unwrap();
        }
        let stones =
            |b: &VcBuilder<Bitboard>| (b.stones(Color::Black) | b.stones(Color::White)).len();
        let added = (pos.black() | pos.white()).len() - stones(&ancestor);
        if added <= 8 {
            assert_eq!(ancestor.derivation_cost(&pos), Some(added), "cost in\n{pos}");
        }
        child.build_from(&ancestor, &pos);
        full.build(&pos);
        let (a, b) = (canon(&child), canon(&full));
        assert!(a == b, "set derived from {gap} moves up differs after {cell} in\n{pos}");
        assert_eq!(child.mustplay(), full.mustplay());
        since += 1;
        if since == gap || i % 5 == 4 {
            std::mem::swap(&mut ancestor, &mut child);
            since = 0;
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, ..ProptestConfig::default() })]

    #[test]
    fn derived_from_far_equals_rebuild(
        n in 3usize..=6,
        gap in 2usize..=5,
        moves in prop::collection::vec(0usize..1000, 1..20),
    ) {
        check_derived_far(HSearchConfig::thesis_base(), n, gap, &moves);
    }

    #[test]
    fn derived_from_far_equals_rebuild_strong(
        n in 3usize..=4,
        gap in 2usize..=4,
        moves in prop::collection::vec(0usize..1000, 1..12),
    ) {
        let config = HSearchConfig {
            or_limit: OrLimit::AtMost(4),
            border_midpoint: true,
            ..HSearchConfig::default().exact()
        };
        check_derived_far(config, n, gap, &moves);
    }

    #[test]
    fn incremental_equals_rebuild_or3(n in 3usize..=6, moves in prop::collection::vec(0usize..1000, 1..20)) {
        check_game(HSearchConfig::thesis_base(), n, &moves, false);
    }

    #[test]
    fn incremental_equals_rebuild_strong(n in 3usize..=4, moves in prop::collection::vec(0usize..1000, 1..16)) {
        // The default's rules (edges as midpoints, the semi AND rule) with a bounded OR rule:
        // the unlimited OR rule without its budget is exponential on open boards.
        let config = HSearchConfig {
            or_limit: OrLimit::AtMost(4),
            border_midpoint: true,
            ..HSearchConfig::default().exact()
        };
        check_game(config, n, &moves, true);
    }

    #[test]
    fn derived_equals_rebuild(n in 3usize..=6, moves in prop::collection::vec(0usize..1000, 1..20)) {
        check_derived(HSearchConfig::thesis_base(), n, &moves);
    }

    #[test]
    fn incremental_equals_rebuild_with_templates(
        n in 5usize..=6,
        moves in prop::collection::vec(0usize..1000, 1..14),
    ) {
        // Edge templates need an end on the fourth or fifth row with a helper stone near it.
        let config = HSearchConfig { templates: true, ..HSearchConfig::thesis_base() };
        check_game(config, n, &moves, false);
        check_derived(config, n, &moves);
    }
}

/// A builder where only one player's set was built last (a solver stops there when the mover
/// already wins) still holds the other player's set of an older position. A child must not
/// take that set as its parent's: `build_from` checks what each set describes, not the
/// builder's stones.
/// The 5x5 position after `moves`.
fn play5(moves: &str) -> Position<Bitboard> {
    let mut pos: Position<Bitboard> = Position::square(5).unwrap();
    for m in moves.split_whitespace() {
        pos.play(m.parse().unwrap()).unwrap();
    }
    pos
}

/// A builder is a derivation source only for positions with all its stones and more; one
/// whose stone was taken back, or that holds an opponent stone on a now empty cell, is not.
#[test]
fn derivation_cost_needs_a_subset_of_the_stones() {
    let config = HSearchConfig::default().exact();
    let mut builder = VcBuilder::new(config);
    builder.build(&play5("c3 b4"));
    assert_eq!(builder.derivation_cost(&play5("c3 b4")), Some(0));
    assert_eq!(builder.derivation_cost(&play5("c3 b4 d2 a1 e1")), Some(3));
    assert_eq!(builder.derivation_cost(&play5("c3 b3")), None);
    assert_eq!(builder.derivation_cost(&play5("b4 c3")), None);
    assert_eq!(builder.derivation_cost(&play5("c3")), None);
    let unbuilt: VcBuilder<Bitboard> = VcBuilder::new(config);
    assert_eq!(unbuilt.derivation_cost(&play5("c3")), None);
}

#[test]
fn a_set_of_an_older_position_is_not_derived_from() {
    let config = HSearchConfig::default().exact();
    // Black's set is built for an old position, then only White's for the parent.
    let old = play5("c3 b4 d2");
    let parent = play5("b2 c3 d4 b4");
    let child = play5("b2 c3 d4 b4 c2");
    let mut builder = VcBuilder::new(config);
    builder.build(&old);
    builder.build_side(None, &parent, Color::White);
    let mut derived = VcBuilder::new(config);
    derived.build_from(&builder, &child);
    let mut full = VcBuilder::new(config);
    full.build(&child);
    assert_eq!(canon(&derived), canon(&full));
    assert_eq!(derived.mustplay(), full.mustplay());
}
