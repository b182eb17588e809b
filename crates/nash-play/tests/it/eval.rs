//! Every evaluation through `Evaluator`: finished games are worth `WIN`, values and move scores
//! stay finite on every board size, values are antisymmetric, and evaluating allocates nothing
//! once the buffers are warm.

use nash_board::alloc_count::{allocations, CountingAllocator};
use nash_board::{BitSet, Bitboard, Cell, Color, Position, Symmetry, WideBitboard};
use nash_play::eval::{EvalKind, Evaluator, WIN};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

#[global_allocator]
static GLOBAL: CountingAllocator = CountingAllocator;

/// A random game of up to `moves` moves on a `cols` x `rows` board, stopped at a win.
fn random_game<B: BitSet>(
    rng: &mut SmallRng,
    cols: usize,
    rows: usize,
    moves: usize,
) -> Position<B> {
    let mut p = Position::<B>::new(cols, rows).unwrap();
    for _ in 0..moves {
        let empty: Vec<Cell> = p.empty_cells().iter().collect();
        if p.winner().is_some() || empty.is_empty() {
            break;
        }
        p.play(empty[rng.gen_range(0..empty.len())]).unwrap();
    }
    p
}

fn check_values<B: BitSet>(kind: EvalKind, pos: &Position<B>, eval: &mut Evaluator<B>) {
    let v = eval.value(pos);
    let mut scores = Vec::new();
    eval.move_scores(pos, &mut scores);
    match pos.winner() {
        Some(w) => {
            assert_eq!(v, if w == pos.to_move() { WIN } else { -WIN }, "{kind}\n{pos}");
            assert!(scores.is_empty());
        }
        None => {
            assert!(v.is_finite() && v.abs() < WIN, "{kind}: {v}\n{pos}");
            let cells: Vec<Cell> = scores.iter().map(|s| s.0).collect();
            assert_eq!(cells, pos.empty_cells().iter().collect::<Vec<_>>(), "{kind}");
            for (c, s) in scores {
                assert!(s.is_finite() && s.abs() <= WIN, "{kind} {c}: {s}\n{pos}");
            }
        }
    }
}

#[test]
fn values_and_scores_on_every_board_size() {
    let mut rng = SmallRng::seed_from_u64(31);
    for &kind in EvalKind::ALL {
        let mut small = Evaluator::<Bitboard>::new(kind);
        for (cols, rows) in [(1, 1), (1, 4), (2, 2), (3, 5), (5, 5), (7, 4), (9, 9), (11, 11)] {
            for moves in [0, 3, 12, 200] {
                check_values(kind, &random_game(&mut rng, cols, rows, moves), &mut small);
            }
        }
        let mut wide = Evaluator::<WideBitboard>::new(kind);
        for (cols, rows) in [(3, 3), (12, 10), (13, 13), (19, 19)] {
            for moves in [0, 20, 500] {
                check_values(kind, &random_game(&mut rng, cols, rows, moves), &mut wide);
            }
        }
    }
}

#[test]
fn values_are_antisymmetric_under_the_colour_swap() {
    // Transposing a square board and swapping the colours gives the same game with the roles
    // exchanged. Resistance with virtual connections is left out: H-search stops at caps in an
    // order that depends on the board's orientation (nash-vc checks its circuit on the exact
    // closure).
    let mut rng = SmallRng::seed_from_u64(37);
    for &kind in EvalKind::ALL.iter().filter(|&&k| k != EvalKind::Resistance) {
        let mut eval = Evaluator::<Bitboard>::new(kind);
        for _ in 0..30 {
            let n = rng.gen_range(1..10);
            let moves = rng.gen_range(0..n * n);
            let p = random_game::<Bitboard>(&mut rng, n, n, moves);
            let q = p.transformed(Symmetry::Transpose);
            assert_eq!(q.to_move(), !p.to_move());
            let (a, b) = (eval.value(&p), eval.value(&q));
            assert!((a - b).abs() < 1e-9, "{kind}: {a} vs {b}\n{p}");
        }
    }
}

#[test]
fn the_side_to_move_changes_the_sign() {
    let mut rng = SmallRng::seed_from_u64(41);
    for &kind in EvalKind::ALL {
        let mut eval = Evaluator::<Bitboard>::new(kind);
        for _ in 0..20 {
            let moves = rng.gen_range(0..10);
            let mut p = random_game::<Bitboard>(&mut rng, 6, 6, moves);
            if p.winner().is_some() {
                continue;
            }
            let a = eval.value(&p);
            p.set_to_move(!p.to_move());
            let b = eval.value(&p);
            assert!((a + b).abs() < 1e-9, "{kind}: {a} vs {b}\n{p}");
        }
    }
}

#[test]
fn evaluating_allocates_nothing_once_warm() {
    let mut rng = SmallRng::seed_from_u64(43);
    let positions: Vec<Position<Bitboard>> =
        (0..20).map(|i| random_game(&mut rng, 11, 11, i * 4)).collect();
    let mut scores = Vec::new();
    for &kind in EvalKind::ALL {
        let mut eval = Evaluator::<Bitboard>::new(kind);
        let mut run = |eval: &mut Evaluator<Bitboard>| {
            for p in &positions {
                eval.value(p);
                eval.move_scores(p, &mut scores);
            }
        };
        // The resistance circuit keeps eight interior positions' connection sets in turn, and
        // the twenty positions land in other slots on the second pass: after two passes every
        // slot has held every position it holds on the third.
        run(&mut eval);
        run(&mut eval);
        let before = allocations();
        run(&mut eval);
        assert_eq!(allocations() - before, 0, "{kind} allocated");
    }
}

#[test]
fn every_kind_round_trips_through_its_name() {
    for &kind in EvalKind::ALL {
        assert_eq!(kind.name().parse::<EvalKind>(), Ok(kind));
        assert_eq!(Evaluator::<Bitboard>::new(kind).kind(), kind);
    }
    let err = "flow".parse::<EvalKind>().unwrap_err().to_string();
    assert!(err.contains("'flow'") && err.contains("y-reduction"), "{err}");
}

#[test]
fn obvious_moves_score_first() {
    // Black to move on 3x3 with b1 and b2 black and a3 white: b3 wins at once. Every
    // evaluation's best move (or one tied with it) must connect.
    let mut p = Position::<Bitboard>::square(3).unwrap();
    for m in ["b1", "a1", "b2", "a3"] {
        p.play(m.parse().unwrap()).unwrap();
    }
    assert_eq!(p.to_move(), Color::Black);
    for &kind in EvalKind::ALL {
        let mut eval = Evaluator::<Bitboard>::new(kind);
        let mut scores = Vec::new();
        eval.move_scores(&p, &mut scores);
        let best = scores.iter().map(|s| s.1).fold(f64::NEG_INFINITY, f64::max);
        let winners: Vec<Cell> = scores.iter().filter(|s| s.1 == best).map(|s| s.0).collect();
        for c in winners {
            let mut q = p.clone();
            q.play(c).unwrap();
            assert_eq!(q.winner(), Some(Color::Black), "{kind} likes {c}");
        }
    }
}

#[test]
fn resistance_without_connections_is_the_plain_circuit() {
    let mut rng = SmallRng::seed_from_u64(47);
    let mut with = Evaluator::<Bitboard>::new(EvalKind::Resistance);
    let none = nash_vc::HSearchConfig {
        max_fulls: Some(0),
        max_semis: Some(0),
        ..nash_vc::HSearchConfig::default()
    };
    with.set_hsearch(none);
    let mut plain = Evaluator::<Bitboard>::new(EvalKind::ResistancePlain);
    for _ in 0..20 {
        let moves = rng.gen_range(0..30);
        let p = random_game::<Bitboard>(&mut rng, 7, 7, moves);
        assert_eq!(with.value(&p), plain.value(&p), "{p}");
    }
}

#[test]
fn resistance_derived_from_an_ancestor_matches_a_rebuild() {
    // Under the exact H-search closure a set derived from an ancestor's is the rebuilt set, so
    // the values an evaluator gives after scoring the parent's moves are a fresh evaluator's.
    let exact = nash_vc::HSearchConfig::default().exact();
    let mut rng = SmallRng::seed_from_u64(53);
    let mut warm = Evaluator::<Bitboard>::new(EvalKind::Resistance);
    warm.set_hsearch(exact);
    let (mut scores, mut checked) = (Vec::new(), 0);
    for _ in 0..4 {
        let moves = rng.gen_range(1..6);
        let p = random_game::<Bitboard>(&mut rng, 4, 4, moves);
        if p.winner().is_some() {
            continue;
        }
        warm.move_scores(&p, &mut scores);
        // The position just scored is valued on its own connection set.
        let mut fresh = Evaluator::<Bitboard>::new(EvalKind::Resistance);
        fresh.set_hsearch(exact);
        assert_eq!(warm.value(&p), fresh.value(&p), "{p}");
        for c in p.empty_cells().iter().take(6) {
            let mut q = p.clone();
            q.play(c).unwrap();
            let mut fresh = Evaluator::<Bitboard>::new(EvalKind::Resistance);
            fresh.set_hsearch(exact);
            let (a, b) = (warm.value(&q), fresh.value(&q));
            assert!((a - b).abs() < 1e-9, "{c}: {a} vs {b}\n{p}");
            checked += 1;
        }
    }
    assert!(checked >= 12, "{checked}");
}
