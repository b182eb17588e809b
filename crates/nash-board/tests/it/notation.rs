//! Round trips of the text forms: cells, moves, move lists and board diagrams.

use nash_board::{
    fits_small, AnyPosition, Bitboard, Cell, Color, Diagram, Edge, Move, MoveList, Position,
    WideBitboard,
};
use proptest::prelude::*;
use rand::rngs::SmallRng;
use rand::SeedableRng;

use crate::common::{position_of, random_grid};

fn cell() -> impl Strategy<Value = Cell> {
    (0..Cell::MAX_COORD, 0..Cell::MAX_COORD).prop_map(|(c, r)| Cell::at(c, r))
}

fn mv() -> impl Strategy<Value = Move> {
    prop_oneof![
        4 => cell().prop_map(Move::Cell),
        1 => Just(Move::SwapPieces),
        1 => Just(Move::SwapSides),
        1 => Just(Move::Resign),
        1 => Just(Move::Pass),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn cells_round_trip(c in cell()) {
        let text = c.to_string();
        prop_assert_eq!(text.parse::<Cell>().unwrap(), c);
        prop_assert_eq!(text.to_ascii_uppercase().parse::<Cell>().unwrap(), c);
        prop_assert_eq!(Cell::column_name(c.col()) + &(c.row() + 1).to_string(), text);
    }

    #[test]
    fn moves_round_trip(m in mv()) {
        prop_assert_eq!(m.to_string().parse::<Move>().unwrap(), m);
    }

    #[test]
    fn move_lists_round_trip(ms in prop::collection::vec(mv(), 0..20)) {
        let list = MoveList(ms);
        let text = list.to_string();
        let back: MoveList = if text.is_empty() { "-".parse().unwrap() } else { text.parse().unwrap() };
        prop_assert_eq!(back, list.clone());
        let commas = text.replace(' ', ",");
        if !commas.is_empty() {
            prop_assert_eq!(commas.parse::<MoveList>().unwrap(), list);
        }
    }

    #[test]
    fn diagrams_round_trip(
        cols in 1..=19usize,
        rows in 1..=19usize,
        empty in 0.0..1.0f64,
        white in any::<bool>(),
        seed in any::<u64>(),
    ) {
        let mut rng = SmallRng::seed_from_u64(seed);
        let grid = random_grid(&mut rng, cols, rows, empty);
        let to_move = if white { Color::White } else { Color::Black };
        let wide: Position<WideBitboard> = position_of(&grid, to_move);
        let text = wide.to_string();
        prop_assert_eq!(&text.parse::<Position<WideBitboard>>().unwrap(), &wide, "{}", text);
        let d: Diagram = text.parse().unwrap();
        prop_assert_eq!((d.cols, d.rows, d.to_move), (cols, rows, to_move));
        let any = AnyPosition::from_diagram(&d).unwrap();
        prop_assert_eq!(any.to_string(), text.clone());
        if fits_small(cols, rows) {
            let small: Position<Bitboard> = position_of(&grid, to_move);
            prop_assert_eq!(small.to_string(), text.clone());
            prop_assert_eq!(text.parse::<Position<Bitboard>>().unwrap(), small);
        }
    }
}

#[test]
fn edges_are_cells_but_not_moves() {
    for e in Edge::ALL {
        let c = Cell::edge(e);
        assert_eq!(c.to_string().parse::<Cell>().unwrap(), c);
        assert!(c.to_string().parse::<Move>().is_err());
    }
}

/// One helper per concern: a diagram text and the error it must give (or the stones it holds).
fn check_diagram(text: &str, expected: &str) {
    let got = match text.parse::<Diagram>() {
        Ok(d) => format!(
            "{}x{} black {} white {} {} to move",
            d.cols,
            d.rows,
            d.black.iter().map(Cell::to_string).collect::<Vec<_>>().join(","),
            d.white.iter().map(Cell::to_string).collect::<Vec<_>>().join(","),
            d.to_move
        ),
        Err(e) => e.to_string(),
    };
    assert_eq!(got, expected, "for diagram:\n{text}");
}

#[test]
fn diagram_samples() {
    check_diagram(
        "   a  b  c\n1  .  .  .  1\n 2  .  B  .  2\n  3  W  .  .  3\n      a  b  c\nblack to move",
        "3x3 black b2 white a3 black to move",
    );
    // Benzene-style backslashes, upper-case headers, and the side to move inferred.
    check_diagram(
        "  A  B\n 1\\.  B\\1\n  2\\.  .\\2\n     A  B\n",
        "2x2 black b1 white  white to move",
    );
    check_diagram("1 X O\n2 . x\nWhite to play", "2x2 black a1,b2 white b1 white to move");
    // Benzene's board: a hash line, backslashes, lower-case letters for setup stones.
    check_diagram(
        "\n  0x5ac1e2f09b3d4471\n  a  b  c  \n 1\\.  .  b\\1\n  2\\.  W  .\\2\n   3\\B  .  w\\3\n      a  b  c  ",
        "3x3 black c1,a3 white b2,c3 black to move",
    );
    check_diagram("\n  12345678901234\n 1\\.  B\\1", "2x1 black b1 white  white to move");
    check_diagram("", "invalid board diagram: no rows found");
    check_diagram("1 . .\n3 . .", "invalid board diagram, line 2: expected row 2, found row 3");
    check_diagram(
        "1 . .\n2 . . .",
        "invalid board diagram, line 2: row 2 has 3 cells, row 1 has 2",
    );
    check_diagram("1 . ?", "invalid board diagram, line 1: unexpected character '?' in row 1");
    check_diagram("1 . . 2", "invalid board diagram, line 1: row 1 ends with the number 2");
    check_diagram("1 . . 1 .", "invalid board diagram, line 1: unexpected \".\" after row 1");
    check_diagram("1 . .\nhello!", "invalid board diagram, line 2: unexpected text \"hello!\"");
    check_diagram(
        "1 . .\npurple to move",
        "invalid board diagram, line 2: invalid colour \"purple\": expected b, black, w or white",
    );
    let big = (1..=20).map(|r| format!("{r} {}", ". ".repeat(20))).collect::<Vec<_>>().join("\n");
    let d: Diagram = big.parse().unwrap();
    assert_eq!(
        AnyPosition::from_diagram(&d).unwrap_err().to_string(),
        "invalid board diagram: invalid board size 20x20: columns and rows must be 1 to 19"
    );
}
