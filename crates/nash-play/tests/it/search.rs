//! The alpha-beta search against plain minimax, and its knowledge: proven values, patterns,
//! the swap rule.

use nash_board::{with_position, BitSet, Bitboard, Move, Position};
use nash_play::eval::{EvalKind, Evaluator, WIN};
use nash_play::{build, MoveBudget, Proven};
use proptest::prelude::*;

use crate::common::{cell, nodes, position, PROVEN};

/// Plain minimax to `depth` plies with the scoring of the alpha-beta players: a win `ply`
/// moves below the root is worth `WIN - ply`.
fn minimax(
    pos: &mut Position<Bitboard>,
    eval: &mut Evaluator<Bitboard>,
    depth: u32,
    ply: u32,
) -> f64 {
    if let Some(w) = pos.winner() {
        let v = WIN - f64::from(ply);
        return if w == pos.to_move() { v } else { -v };
    }
    if depth == 0 {
        return eval.value(pos).clamp(1.0 - (WIN - 1000.0), WIN - 1000.0 - 1.0);
    }
    let mut best = f64::NEG_INFINITY;
    for m in pos.empty_cells().iter() {
        pos.play_unchecked(m);
        best = best.max(-minimax(pos, eval, depth - 1, ply + 1));
        pos.undo();
    }
    best
}

/// A position of `size` after playing the cells of `picks` (indices into the empty cells),
/// stopping before a move would end the game.
fn random_position(size: usize, picks: &[usize]) -> Position<Bitboard> {
    let mut pos = Position::<Bitboard>::square(size).unwrap();
    for &i in picks {
        let empty: Vec<_> = pos.empty_cells().iter().collect();
        let m = empty[i % empty.len()];
        pos.play_unchecked(m);
        if pos.winner().is_some() {
            pos.undo();
            break;
        }
    }
    pos
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    /// Without knowledge and width, alpha-beta's value is minimax's: equal when heuristic,
    /// proven the same way when proven (alpha-beta stops at the first win it proves, so its
    /// distance to the end may be longer).
    #[test]
    fn alphabeta_equals_minimax(
        size in 3usize..=4,
        picks in proptest::collection::vec(0usize..16, 0..7),
        depth in 1u32..=3,
        patterns in any::<bool>(),
    ) {
        let pos = random_position(size, &picks);
        let mut eval = Evaluator::new(EvalKind::ShortestPath);
        let expected = minimax(&mut pos.clone(), &mut eval, depth, 0);
        let spec = format!(
            "alphabeta:eval=shortest-path,depth={depth},width=0,threats=false,fillin=false,\
             vc=false,mustplay=false,patterns={patterns}"
        );
        let mut p = build(&spec).unwrap();
        let c = p.choose(&nash_board::AnyPosition::Small(pos.clone()), &MoveBudget::default());
        let got = c.value.unwrap();
        if expected.abs() >= PROVEN {
            prop_assert!(got.abs() >= PROVEN && got.signum() == expected.signum(),
                "{pos}: minimax {expected}, alpha-beta {got}");
        } else {
            prop_assert_eq!(got, expected, "{}", pos);
        }
        // The move played has the value the search claims.
        let mut after = pos.clone();
        after.play(cell(&c)).unwrap();
        let mv_value = -minimax(&mut after, &mut eval, depth - 1, 1);
        if expected.abs() < PROVEN {
            prop_assert_eq!(mv_value, expected, "{} played {:?}", pos, c.mv);
        }
    }
}

#[test]
fn a_connection_won_position_is_scored_won() {
    // The empty 3x3 board: Black's b2 (or others) wins by virtual connection.
    let pos = position(3, "-");
    let mut p = build("alphabeta").unwrap();
    let c = p.choose(&pos, &nodes(1_000));
    assert!(c.value.unwrap() >= PROVEN, "{:?}", c.value);
    // After Black's b2, White is lost by Black's edge-to-edge connection.
    let pos = position(3, "b2");
    let c = p.choose(&pos, &nodes(1_000));
    assert!(c.value.unwrap() <= -PROVEN, "{:?}", c.value);
    // Issue 61: a root move whose value is a proof says so, and no move claims visits.
    assert!(!c.moves.is_empty());
    for m in &c.moves {
        assert_eq!((m.visits, m.win_rate), (None, None), "{m:?}");
        let v = m.value.expect("a value");
        let proven = if v >= PROVEN {
            Proven::Win
        } else if v <= -PROVEN {
            Proven::Loss
        } else {
            Proven::Unknown
        };
        assert_eq!(m.proven, proven, "{m:?}");
    }
}

#[test]
fn searchers_list_their_moves_by_value() {
    // The values of an alpha-beta player's root moves fall from the first to the last, and
    // the first is the move played, with the principal variation.
    let pos = position(7, "d4 c5");
    for spec in ["alphabeta:depth=2", "hexy:depth=1"] {
        let c = build(spec).unwrap().choose(&pos, &nodes(200_000));
        let values: Vec<f64> = c.moves.iter().map(|m| m.value.unwrap()).collect();
        assert!(values.len() > 1, "{spec}");
        assert!(values.windows(2).all(|w| w[0] >= w[1]), "{spec}: {values:?}");
        assert_eq!(Move::Cell(c.moves[0].cell), c.mv, "{spec}");
        assert_eq!(c.moves[0].pv, c.pv, "{spec}");
    }
}

#[test]
fn proven_values_agree_with_the_solver() {
    // Small positions the solver decides: every alpha-beta player proves the same winner
    // when it proves anything.
    for moves in ["-", "a1", "b2", "c1 b2", "a3 b1 c2"] {
        let pos = position(4, moves);
        let solved = with_position!(&pos, p => {
            nash_search::solve(p, &nash_search::SolverConfig::default()).outcome.wins()
        })
        .expect("4x4 solves");
        for name in ["alphabeta", "pattern-ab", "minimax"] {
            let mut p = build(name).unwrap();
            let v = p.choose(&pos, &nodes(50_000)).value.unwrap();
            if v.abs() >= PROVEN {
                assert_eq!(v > 0.0, solved, "{name} on {moves}: {v}");
            }
        }
    }
}

#[test]
fn pattern_search_proves_with_fewer_nodes() {
    // A 4x4 position searched to the end: threat patterns cut the refuted moves' siblings.
    let pos = position(4, "b2 c2");
    let run = |patterns: bool| {
        let spec = format!(
            "alphabeta:depth=16,width=0,threats=false,fillin=false,vc=false,mustplay=false,\
             patterns={patterns}"
        );
        let c = build(&spec).unwrap().choose(&pos, &MoveBudget::default());
        (c.value.unwrap(), c.nodes)
    };
    let (plain, plain_nodes) = run(false);
    let (pattern, pattern_nodes) = run(true);
    assert!(plain.abs() >= PROVEN && pattern.signum() == plain.signum(), "{plain} {pattern}");
    assert!(
        pattern_nodes < plain_nodes,
        "{pattern_nodes} nodes with patterns, {plain_nodes} without"
    );
}

#[test]
fn the_swap_rule_takes_a_strong_opening_and_leaves_a_weak_one() {
    // A centre stone on 5x5 is a won opening for Black: the player swaps. A corner stone on
    // the acute corner is weak: it answers.
    let mut p = build("alphabeta:swap=true").unwrap();
    let c = p.choose(&position(5, "c3"), &nodes(5_000));
    assert_eq!(c.mv, Move::SwapSides);
    let c = p.choose(&position(5, "a1"), &nodes(5_000));
    assert!(matches!(c.mv, Move::Cell(_)), "{:?}", c.mv);
    // Off by default, and never after the first move.
    let mut p = build("alphabeta").unwrap();
    assert!(matches!(p.choose(&position(5, "c3"), &nodes(5_000)).mv, Move::Cell(_)));
    let mut p = build("alphabeta:swap=true").unwrap();
    assert!(matches!(p.choose(&position(5, "c3 a1"), &nodes(5_000)).mv, Move::Cell(_)));
}
