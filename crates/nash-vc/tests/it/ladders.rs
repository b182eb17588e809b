//! Ladder connections (docs/vc.md, "Ladder connections"): every shape the builder adds on
//! empty boards up to 8×8, square and not, for both players, is a full connection by the exact
//! solver; and an H-search with them is as sound as one without (`variants_are_sound`).

use nash_board::{BitSet, Bitboard, Cell, Color, Position, SmallPosition};
use nash_vc::{ConnectionKind, VcBuilder};

use crate::oracle::Oracle;

/// Checks every ladder of `pos` for both players; returns how many were checked.
fn check_ladders(pos: &Position<Bitboard>) -> usize {
    let mut checked = 0;
    for color in Color::ALL {
        for conn in VcBuilder::ladder_connections(pos, color, u8::MAX) {
            assert_eq!(conn.kind, ConnectionKind::Full, "{conn}");
            let [a, b] = conn.ends;
            assert!(!a.is_edge() && !b.is_edge(), "{conn}");
            assert!(conn.carrier.is_subset(pos.empty_cells()), "{conn}\n{pos}");
            let own = pos.stones(color) | Bitboard::single(a) | Bitboard::single(b);
            let mut oracle = Oracle::new(pos.geometry(), color, a, b);
            assert!(
                oracle.owner_wins(own, conn.carrier, false),
                "{color:?} {conn} is not a full connection in\n{pos}"
            );
            checked += 1;
        }
    }
    checked
}

#[test]
fn every_ladder_shape_is_a_full_connection() {
    let mut checked = 0;
    for (cols, rows) in [(3, 3), (4, 4), (5, 5), (6, 6), (7, 7), (8, 8), (4, 6), (7, 5), (8, 3)] {
        let pos: Position<Bitboard> = Position::new(cols, rows).unwrap();
        checked += check_ladders(&pos);
    }
    assert!(checked > 1300, "only {checked} ladders checked");
}

#[test]
fn ladders_over_stones_are_full_connections() {
    // Own stones as ends and inside the run, and the opponent's stones cutting ladders short.
    for moves in ["c2 a5 e2 g6", "b2 c1 f2 b6 d2", "b6 c2 b3 a1 f6 e2"] {
        let mut pos: Position<Bitboard> = Position::square(7).unwrap();
        for m in moves.split(' ') {
            pos.play(m.parse().unwrap()).unwrap();
        }
        assert!(check_ladders(&pos) > 0, "{moves}");
    }
}

#[test]
fn the_shortest_ladders() {
    // Black's c2 and e2 on 7×7: d1 in front of c2, d2 between, e1 f1 e2's bridge; or c1
    // behind c2 instead of d1; or the same from e2 (e1 in front, c1 d1 c2's bridge).
    let pos = SmallPosition::square(7).unwrap();
    let carriers: Vec<Vec<String>> = VcBuilder::ladder_connections(&pos, Color::Black, 1)
        .into_iter()
        .filter(|c| c.ends == ["c2".parse::<Cell>().unwrap(), "e2".parse().unwrap()])
        .map(|c| c.carrier.iter().map(|x| x.to_string()).collect())
        .collect();
    for want in [["d1", "e1", "f1", "d2"], ["c1", "d1", "e1", "d2"], ["c1", "e1", "f1", "d2"]] {
        assert!(carriers.iter().any(|c| c == &want), "{want:?} not among {carriers:?}");
    }
    // With gap 1 only, no ladder from c2 reaches f2.
    assert!(VcBuilder::ladder_connections(&pos, Color::Black, 1)
        .iter()
        .all(|c| c.ends != ["c2".parse::<Cell>().unwrap(), "f2".parse().unwrap()]));
}
