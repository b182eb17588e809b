//! The local-pattern matcher and its weights: a pattern is the same under the board's four
//! symmetries (the two that swap colours swap the side to move too), and the shipped weights
//! file reads.

use nash_board::{with_position, BitSet, Symmetry};
use nash_play::patterns::{self, canonical, Matcher, Weights};

use crate::common::position;

/// (board size, moves): positions whose every empty cell's pattern is compared with its
/// images'.
const POSITIONS: &[(usize, &str)] =
    &[(5, "c3"), (5, "a1 e5 b2"), (7, "d4 c5 e3 b6 f2 a7"), (9, "a1 i9 a9 i1 e5 d6 f4 c7 g3")];

#[test]
fn patterns_are_the_same_under_the_symmetries() {
    for &(size, moves) in POSITIONS {
        let pos = position(size, moves);
        with_position!(&pos, p => {
            let geom = p.geometry();
            let m = Matcher::new(geom);
            for sym in Symmetry::ALL {
                let q = p.transformed(sym);
                for bit in p.empty_cells().bits() {
                    let image = geom.map_bit(sym, bit);
                    assert_eq!(m.codes(p, bit), m.codes(&q, image), "{moves} {sym:?} bit {bit}");
                }
            }
        });
    }
}

#[test]
fn codes_are_canonical_and_the_shipped_weights_read() {
    for code in [0u32, 1, 0b0100, 0x00ff_ffff, 0x0012_3456] {
        assert_eq!(canonical(canonical(code)), canonical(code));
    }
    let w = patterns::builtin();
    assert_eq!(Weights::parse(&w.format("again")).unwrap().full_len(), w.full_len());
    assert!(Weights::parse("ring 1 0.5\nfull 7 2\n").is_ok());
    for bad in ["ring 5000 1", "full 1 -1", "ring x 1", "edge 1 1", "ring 1"] {
        assert!(Weights::parse(bad).unwrap_err().contains("bad line"), "{bad}");
    }
}
