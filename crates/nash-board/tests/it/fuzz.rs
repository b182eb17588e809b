//! Fuzz-style tests: random bytes, random text and random token soups into every parser. They
//! must return `Ok` or `Err`, never panic; whatever parses must also replay without panicking.

use nash_board::{sgf, Bitboard, Cell, Color, Diagram, Move, MoveList, Position, WideBitboard};
use proptest::prelude::*;

fn all_parsers(text: &str) {
    let _ = text.parse::<Cell>();
    let _ = text.parse::<Color>();
    let _ = text.parse::<Move>();
    let _ = text.parse::<MoveList>();
    let _ = text.parse::<Position<Bitboard>>();
    let _ = text.parse::<Position<WideBitboard>>();
    if let Ok(d) = text.parse::<Diagram>() {
        let _ = nash_board::AnyPosition::from_diagram(&d);
    }
    if let Ok(rec) = sgf::parse(text) {
        for upto in [None, Some(0), Some(1), Some(3)] {
            let _ = rec.any_position(upto);
            let _ = rec.position::<WideBitboard>(upto);
            let _ = rec.position::<Bitboard>(upto);
        }
        let again = sgf::parse(&rec.to_sgf()).expect("written SGF reads back");
        assert_eq!(again.moves, rec.moves);
    }
}

/// Pieces of SGF, diagrams and move lists, so that random text reaches deep into the parsers.
fn token() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        "(",
        ")",
        ";",
        "[",
        "]",
        "\\",
        "\n",
        " ",
        ":",
        "SZ[",
        "SZ[3]",
        "SZ[4:3]",
        "SZ[19]",
        "GM[11]",
        "B[",
        "W[",
        "AB[",
        "AW[",
        "AE[",
        "PL[",
        "a1",
        "b2",
        "c3",
        "cd",
        "aa",
        "zz",
        "s19",
        "swap",
        "swap-pieces",
        "swap-sides",
        "resign",
        "pass",
        "1",
        "2",
        "3",
        ".",
        "B",
        "W",
        "X",
        "O",
        "black to move",
        "white",
        "north",
        "a",
        "0",
        "99999999999999999999",
        "é",
        "\u{0}",
    ])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        all_parsers(&String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn random_text_never_panics(text in "\\PC{0,80}") {
        all_parsers(&text);
    }

    #[test]
    fn token_soup_never_panics(tokens in prop::collection::vec(token(), 0..40)) {
        all_parsers(&tokens.concat());
    }

    #[test]
    fn sgf_soup_never_panics(tokens in prop::collection::vec(token(), 0..30)) {
        all_parsers(&format!("(;GM[11]SZ[3]{})", tokens.concat()));
        all_parsers(&format!("(;SZ[4];B[a1];{}", tokens.concat()));
    }

    #[test]
    fn diagram_soup_never_panics(rows in prop::collection::vec(prop::collection::vec(token(), 0..8), 0..6)) {
        let text: String = rows
            .iter()
            .enumerate()
            .map(|(i, r)| format!("{} {}\n", i + 1, r.concat()))
            .collect();
        all_parsers(&text);
    }
}
