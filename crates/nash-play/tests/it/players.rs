//! What every searching player must do: take a win in one, block a loss in one, repeat itself
//! given a node budget, and stay within that budget.

use nash_board::{with_position, Move};
use nash_play::{build, players, MoveBudget};

use crate::common::{cell, nodes, position};

/// Every registered player but the random one and `vc-greedy`, which searches nothing: it
/// plays H-search's winning key or the best mustplay cell by H-score, and in a position
/// H-search proves lost (the 7x7 one below) it has no mustplay and plays by shortest path,
/// without blocking the loss in one.
fn searching_players() -> impl Iterator<Item = &'static str> {
    players().iter().map(|p| p.name).filter(|&n| n != "random" && n != "vc-greedy")
}

/// (board size, moves, the move that must be played): the side to move wins at once there.
const WINS_IN_ONE: &[(usize, &str, &str)] = &[
    // Black b1 b2 b3 on 4x4: a4 or b4 connects.
    (4, "b1 a1 b2 c2 b3 d1", "a4 b4"),
    // White a3 b3 c3 d3 on 5x5; White to move: e3 or e2 connects.
    (5, "a1 a3 b5 b3 c1 c3 e5 d3 a5", "e2 e3"),
];

/// (board size, moves, the only move that does not lose at once).
const LOSSES_IN_ONE: &[(usize, &str, &str)] = &[
    // White a2 b2 on 3x3, Black c1: c2 is White's one winning cell.
    (3, "c1 a2 a3 b2", "c2"),
    // White a3 b3 c3 d3 on 5x5, Black e2: e3 is White's one winning cell.
    (5, "e2 a3 a1 b3 a5 c3 c5 d3", "e3"),
    // White's row c on 7x7 from a4 to f4, Black holds g3: g4 must be blocked.
    (7, "g3 a4 a1 b4 a7 c4 b1 d4 b7 e4 c1 f4", "g4"),
];

#[test]
fn every_player_takes_a_win_in_one() {
    for name in searching_players() {
        for &(size, moves, wins) in WINS_IN_ONE {
            let pos = position(size, moves);
            let mut p = build(name).unwrap();
            let c = p.choose(&pos, &nodes(20_000));
            let m = cell(&c).to_string();
            assert!(wins.split(' ').any(|w| w == m), "{name} on {moves}: played {m}, not {wins}");
        }
    }
}

#[test]
fn every_player_blocks_a_loss_in_one() {
    for name in searching_players() {
        for &(size, moves, block) in LOSSES_IN_ONE {
            let pos = position(size, moves);
            let mut p = build(name).unwrap();
            let c = p.choose(&pos, &nodes(20_000));
            assert_eq!(cell(&c).to_string(), block, "{name} on {moves}");
        }
    }
}

#[test]
fn players_repeat_themselves_given_a_node_budget() {
    let pos = position(7, "d4 c5");
    for name in searching_players() {
        let run = || {
            let mut p = build(name).unwrap();
            let a = p.choose(&pos, &nodes(3_000));
            let b = p.choose(&pos, &nodes(3_000));
            (a.mv, a.value, a.pv, a.nodes, b.mv, b.value, b.nodes)
        };
        assert_eq!(run(), run(), "{name}");
    }
}

#[test]
fn players_stay_within_a_node_budget() {
    let pos = position(9, "e5");
    // The greedy player looks one ply and no further, whatever its budget.
    for name in searching_players().filter(|&n| n != "greedy") {
        for budget in [1, 50, 400] {
            let mut p = build(name).unwrap();
            let c = p.choose(&pos, &nodes(budget));
            assert!(c.nodes <= budget, "{name}: {} nodes for a budget of {budget}", c.nodes);
            assert!(matches!(c.mv, Move::Cell(_)), "{name}: {:?}", c.mv);
            let legal = with_position!(&pos, p => p.empty_cells().contains(cell(&c)));
            assert!(legal, "{name} played {:?}", c.mv);
        }
    }
}

#[test]
fn a_cancelled_search_still_answers() {
    let pos = position(9, "e5");
    let cancel = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    for name in searching_players() {
        let mut p = build(name).unwrap();
        let c =
            p.choose(&pos, &MoveBudget { cancel: Some(cancel.clone()), ..MoveBudget::default() });
        assert!(matches!(c.mv, Move::Cell(_)), "{name}: {:?}", c.mv);
    }
}
