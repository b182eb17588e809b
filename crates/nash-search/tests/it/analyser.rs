//! The knowledge pipeline's public face: the circuit's evaluation beside the move order.

use nash_board::{Bitboard, MoveList, Position};
use nash_search::{Analyser, Knowledge, Verdict};
use nash_vc::HSearchConfig;

fn position(size: usize, moves: &str) -> Position<Bitboard> {
    let mut p = Position::square(size).expect("size in range");
    let list: MoveList = moves.parse().expect("valid moves");
    list.play_on(&mut p).expect("legal moves");
    p
}

/// The evaluation of `moves` on 9x9 for the player to move, read after ordering its moves, and
/// whether it was there before the order.
fn evaluation(moves: &str, depth: usize) -> (bool, Option<f64>) {
    let mut p = position(9, moves);
    // Without the edge templates, with which Black's f5 would win "e5 a1" at once (the pair
    // e5 f5 reaches both edges by templates of the fifth row).
    let hsearch = HSearchConfig { templates: false, ..Knowledge::or5_hsearch() };
    let knowledge = Knowledge { hsearch, ..Knowledge::default() };
    let mut a = Analyser::new(&knowledge, p.geometry(), 8);
    let an = a.analyse(&mut p, depth);
    assert!(matches!(an.verdict(), Verdict::Open), "{moves} is open");
    let before = a.evaluation().is_some() && depth == 0;
    let mut order = Vec::new();
    a.order(&p, an.moves(), &mut order);
    let e = a.evaluation();
    a.undo(&mut p, &an);
    (before, e)
}

#[test]
fn the_circuit_evaluation_comes_with_the_circuit_order() {
    // At the root the circuit runs only when the moves are ordered; below it the cached
    // analysis keeps the evaluation beside its order.
    for depth in [0, 1] {
        let (before, e) = evaluation("e5 a1", depth);
        assert!(!before, "no evaluation at the root before the order");
        let e = e.expect("an evaluation after the circuit order");
        // Black to move, with the centre against a corner stone, is better off.
        assert!(e > 0.1, "depth {depth}: {e}");
        // The same position with White to move: White is the worse side.
        let (_, w) = evaluation("e5 a1 d3", depth);
        assert!(w.expect("an evaluation") < -0.1, "depth {depth}: {w:?}");
    }
}

/// The move order of `moves` on 7x7 from a new analyser, one node below the root.
fn first_order(moves: &str) -> Vec<nash_board::Cell> {
    let mut p = position(7, moves);
    let mut a = Analyser::new(&Knowledge::default(), p.geometry(), 8);
    let an = a.analyse(&mut p, 1);
    let mut order = Vec::new();
    a.order(&p, an.moves(), &mut order);
    a.undo(&mut p, &an);
    order
}

#[test]
fn a_cached_analysis_is_ordered_when_first_asked_as_it_would_have_been_at_once() {
    // The analysis is cached without its order; ordered on a later visit, its connections
    // come from the builder pool (a few analyses later) or are built again (after enough
    // analyses to empty the pool), and the order is the one an immediate request gives.
    let moves = "a1";
    let expected = first_order(moves);
    assert!(expected.len() > 1, "{moves} has moves to order");
    for others in [2, 40] {
        let mut p = position(7, moves);
        let mut a = Analyser::new(&Knowledge::default(), p.geometry(), 8);
        let an = a.analyse(&mut p, 1);
        assert!(matches!(an.verdict(), Verdict::Open), "{moves} is open");
        a.undo(&mut p, &an);
        // Other positions, none of which the position derives from (each has a black stone
        // that it lacks).
        let black = "b1 c1 d1 e1 f1 g1 a2 b2 c2 d2 e2 f2 g2 a3".split(' ');
        let white = ["a7", "g7", "a6"];
        let cells = white.iter().flat_map(|w| black.clone().map(move |b| format!("{b} {w}")));
        for q in cells.take(others) {
            let mut q = position(7, &q);
            let aq = a.analyse(&mut q, 1);
            a.undo(&mut q, &aq);
        }
        let cached = a.stats().knowledge_cached;
        let again = a.analyse(&mut p, 1);
        assert_eq!(a.stats().knowledge_cached, cached + 1, "the analysis comes from the cache");
        assert_eq!(again.moves(), an.moves(), "the cached analysis");
        let mut order = Vec::new();
        a.order(&p, again.moves(), &mut order);
        a.undo(&mut p, &again);
        assert_eq!(order, expected, "{others} analyses between the visits");
    }
}
