//! Regression tests for issue 24: HexGui's exact command sequences (what HexGui 0.9 sends
//! when it connects, when a cell is clicked, for each analysis entry, for Play Swap Move and
//! for Stop), each answer checked.

use crate::check_session;

/// What HexGui sends on connecting, then a 6x6 board and five clicked cells.
const CONNECT_6X6: &[(&str, &str)] = &[
    ("name", "= nash"),
    ("boardsize 6 6", "= "),
    ("play black b2", "= "),
    ("play white c2", "= "),
    ("play black d4", "= "),
    ("play white b4", "= "),
    ("play black e2", "= "),
];

#[test]
fn issue_24_fill_in_labels_carry_the_colour_in_the_second_letter() {
    let mut steps = CONNECT_6X6.to_vec();
    steps.extend_from_slice(&[
        (
            "compute-inferior black",
            "= a1 fb b1 fb c1 fb d1 fw e1 fb f1 fb a2 fb d2 iv[c3] f2 iv[f3] a3 fw b3 iv[c3] \
             a4 fw a5 fw a6 iv[b5] b6 ii[b5] c6 ii[c5] d6 ii[d5] e6 ii[e5] f6 iv[f5]",
        ),
        ("compute-fillin white", "= a1 fb b1 fb c1 fb d1 fb e1 fb f1 fb a2 fb a3 fb a4 fw a5 fw"),
        (
            "inferior-reasons black",
            "= a1 captured by black, filled black\nb1 captured by black, filled black\n\
             c1 captured by black, filled black\nd1 dead, filled white\n\
             e1 captured by black, filled black\nf1 captured by black, filled black\n\
             a2 captured by black, filled black\nd2 vulnerable to c3\nf2 vulnerable to f3\n\
             a3 dead, filled white\nb3 vulnerable to c3\na4 captured by white, filled white\n\
             a5 captured by white, filled white\na6 vulnerable to b5\nb6 dominated by b5\n\
             c6 dominated by c5\nd6 dominated by d5\ne6 dominated by e5\nf6 vulnerable to f5",
        ),
    ]);
    check_session(&steps);
}
