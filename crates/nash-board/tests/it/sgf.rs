//! SGF: data-driven samples (HexGui and Little Golem dialects, malformed files with their
//! errors) and round trips through the writer.

use nash_board::sgf::{self, Edit, GameRecord};
use nash_board::{
    fits_small, AnyPosition, BitSet, Bitboard, Cell, Color, Move, Position, WideBitboard,
};
use proptest::prelude::*;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// A position in one line: size, stones of each colour in board order, side to move.
fn summary<B: BitSet>(p: &Position<B>) -> String {
    let list = |b: B| b.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(",");
    format!(
        "{}x{} B[{}] W[{}] {} to move",
        p.cols(),
        p.rows(),
        list(p.black()),
        list(p.white()),
        p.to_move()
    )
}

/// Reads `text` and replays `upto` moves; the summary of the position, or the error's text.
fn load(text: &str, upto: Option<usize>) -> String {
    let any = sgf::parse(text).and_then(|r| r.any_position(upto));
    match any {
        Ok(AnyPosition::Small(p)) => summary(&p),
        Ok(AnyPosition::Wide(p)) => summary(&p),
        Err(e) => format!("error: {e}"),
    }
}

fn check(text: &str, expected: &str) {
    assert_eq!(load(text, None), expected, "for SGF:\n{text}");
}

#[test]
fn hexgui_square_game() {
    let text = "(;FF[4]AP[HexGui:0.9]GM[11]SZ[5]PB[alice]PW[bob]RE[B+]\n;B[c3];W[b4]\n;B[d2]C[a \\] comment];W[resign])";
    check(text, "5x5 B[d2,c3] W[b4] white to move");
    let rec = sgf::parse(text).unwrap();
    assert_eq!(rec.property("PB"), Some("alice"));
    assert_eq!(rec.property("RE"), Some("B+"));
    assert_eq!(rec.property("AP"), Some("HexGui:0.9"));
    assert_eq!(rec.moves.len(), 4);
    assert_eq!(rec.moves[3], (Color::White, Move::Resign));
    assert_eq!(load(text, Some(1)), "5x5 B[c3] W[] white to move");
    assert_eq!(load(text, Some(0)), "5x5 B[] W[] black to move");
    assert_eq!(load(text, Some(99)), "5x5 B[d2,c3] W[b4] white to move");
}

#[test]
fn rectangular_board() {
    // SZ[7:6] is 7 columns and 6 rows: g6 is the far corner, a7 does not exist.
    check("(;GM[11]SZ[7:6];B[g6];W[a1])", "7x6 B[g6] W[a1] black to move");
    check("(;GM[11]SZ[7:6];B[a7])", "error: sgf property B[a7]: cell a7 is not on the 7x6 board");
    check("(;SZ[ 13 : 12 ];B[m12])", "13x12 B[m12] W[] white to move");
    check(
        "(;SZ[7:6];B[a1];W[swap-pieces])",
        "error: sgf move 2 (white swap-pieces): swap-pieces needs a square board",
    );
    check("(;SZ[7:6];B[a1];W[swap-sides];W[b1])", "7x6 B[a1] W[b1] black to move");
}

#[test]
fn swaps_and_passes() {
    check("(;SZ[5];B[b3];W[swap-pieces];B[a1])", "5x5 B[a1] W[c2] white to move");
    check("(;SZ[5];B[b3];W[swap-sides];W[a1])", "5x5 B[b3] W[a1] black to move");
    // HexGui's and Benzene's swap-pieces keeps the stone and the swapper's colour moves
    // again: the next move's colour tells it from the board-transform form.
    check("(;SZ[5];B[b3];W[swap-pieces];W[a1])", "5x5 B[b3] W[a1] black to move");
    check("(;FF[4]AP[HexGui:0.9]GM[11]SZ[5];B[b3];W[swap-pieces])", "5x5 B[b3] W[] white to move");
    check("(;SZ[5];B[b3];W[swap-pieces])", "5x5 B[] W[c2] black to move");
    let hexgui = sgf::parse("(;AP[HexGui:0.9]SZ[5];B[b3];W[swap-pieces];W[a1])").unwrap();
    assert_eq!(hexgui.moves[1], (Color::White, Move::SwapSides));
    // Nash writes HexGui's form, so a swap that ends one of its records keeps the stone too.
    let nash = sgf::parse("(;AP[Nash:0.1.0]SZ[5];B[b3];W[swap-pieces];W[a1])").unwrap();
    assert_eq!(nash.moves[1], (Color::White, Move::SwapSides));
    check("(;AP[Nash:0.1.0]SZ[5];B[b3];W[swap-pieces])", "5x5 B[b3] W[] white to move");
    check("(;SZ[5];B[b3];W[pass];B[a1])", "5x5 B[a1,b3] W[] white to move");
    check("(;SZ[5];B[b3];W[];B[a1])", "5x5 B[a1,b3] W[] white to move");
    check(
        "(;SZ[5];B[b3];W[a1];B[swap-pieces])",
        "error: sgf move 3 (black swap-pieces): swap-pieces is only allowed as the second move, after a single black stone",
    );
}

#[test]
fn little_golem_game() {
    // Little Golem writes the first player as W, cells as two letters (mf = m6) and `swap` for
    // swap-pieces: the first stone m6 turns into a white stone on f13, and Black moves.
    let text = "(;FF[4]EV[hex.mc.2010.oct.1.11]PB[Player One]PW[Player Two]SZ[13]RE[B]GC[ game #1]SO[http://www.littlegolem.com];W[mf];B[swap];W[kj];B[ie];W[resign])";
    check(text, "13x13 B[k10] W[i5,f13] black to move");
    let rec = sgf::parse(text).unwrap();
    assert_eq!(rec.moves[0], (Color::Black, Move::Cell("m6".parse().unwrap())));
    assert_eq!(rec.moves[1], (Color::White, Move::SwapPieces));
    assert_eq!(rec.property("GC"), Some(" game #1"));
    // Its RE names the winner by the letters of the moves: Player Two, White in Hex terms.
    assert_eq!(rec.property("RE"), Some("W"));
    // Written back in HexGui's form: the stone stays, the players exchange colours (their
    // names go with them) and the later moves are mirrored with their colours exchanged.
    let text = rec.to_sgf();
    assert!(text.contains("PW[Player One]PB[Player Two]RE[B]"), "{text}");
    assert!(text.contains(";B[m6];W[swap-pieces];W[j11];B[e9];W[resign])"), "{text}");
    let back = sgf::parse(&text).unwrap();
    assert_eq!(back.moves[1], (Color::White, Move::SwapSides));
    check(&text, "13x13 B[m6,e9] W[j11] white to move");
    // Two-letter cells alone mark the dialect, and so does `swap`.
    check("(;SZ[4];B[cd];W[swap];B[aa])", "4x4 B[a1] W[d3] white to move");
    check("(;SZ[4];W[cd];B[ab])", "4x4 B[c4] W[a2] black to move");
    // A side to move or setup stones in the record: its colours are taken as written.
    check("(;SZ[4]PL[W];W[cd];B[ab])", "4x4 B[a2] W[c4] white to move");
    check("(;SZ[4]AB[a1];W[cd])", "4x4 B[a1] W[c4] black to move");
}

#[test]
fn setup_and_edits() {
    check("(;SZ[4]AB[a1][b2]AW[c3]PL[W])", "4x4 B[a1,b2] W[c3] white to move");
    check("(;SZ[4]AB[a1]AW[a1])", "4x4 B[] W[a1] black to move");
    // Setup in a node before the first move is the record's setup, and is written so: HexGui
    // reads setup only outside the root.
    let rec = sgf::parse("(;SZ[4]AB[a1];AW[c3]PL[W];AE[a1]AB[b2];W[d4])").unwrap();
    assert!(rec.edits.is_empty(), "{:?}", rec.edits);
    assert_eq!(rec.to_move, Some(Color::White));
    let mut setup = rec.setup.clone();
    setup.sort_by_key(|s| s.1);
    assert_eq!(
        setup,
        [(Color::Black, "b2".parse().unwrap()), (Color::White, "c3".parse().unwrap())]
    );
    assert!(rec.to_sgf().ends_with("SZ[4]\n;AB[b2]AW[c3]PL[W]\n;W[d4])\n"), "{}", rec.to_sgf());
    // A setup node inside the game: AE empties a cell, AB adds a stone, PL sets the turn.
    let text = "(;SZ[4]AB[a1];W[b1];B[c1];AE[b1]AB[d4]PL[B];B[b1])";
    check(text, "4x4 B[a1,b1,c1,d4] W[] white to move");
    assert_eq!(load(text, Some(2)), "4x4 B[a1,c1,d4] W[] black to move");
    assert_eq!(load(text, Some(1)), "4x4 B[a1] W[b1] black to move");
    let rec = sgf::parse(text).unwrap();
    assert_eq!(rec.edits[0], (2, Edit::Clear("b1".parse().unwrap())));
    // Setup then swap-pieces is not a swap opening.
    check(
        "(;SZ[4]AB[a1];W[swap-pieces])",
        "error: sgf move 1 (white swap-pieces): swap-pieces is only allowed as the second move, after a single black stone",
    );
}

#[test]
fn tolerated_syntax() {
    // Main line only; whitespace anywhere; old-style identifiers; text before the game.
    check("(;SZ[3];B[a1](;W[b1];B[c1])(;W[c3]))", "3x3 B[a1,c1] W[b1] white to move");
    check("(;SZ[3];B[a1])(;SZ[5];B[e5])", "3x3 B[a1] W[] white to move");
    check(
        "header text\n( ; GaMe [11] SiZe [3]\n ; Black [a1] ; White [ B2 ] )",
        "3x3 B[a1] W[b2] black to move",
    );
    check("(;gm[11]sz[3];b[c3])", "3x3 B[c3] W[] white to move");
    check("(;FF[4]GM[11]SZ[3]PB[a \\\\ b]C[soft\\\nbreak];B[a1])", "3x3 B[a1] W[] white to move");
    let rec = sgf::parse("(;SZ[3]PB[a \\\\ b]PW[x\\]y]C[soft\\\nbreak])").unwrap();
    assert_eq!(rec.property("PB"), Some("a \\ b"));
    assert_eq!(rec.property("PW"), Some("x]y"));
    assert_eq!(rec.property("C"), Some("softbreak"));
    // Without SZ the board is 11x11.
    check("(;B[k11])", "11x11 B[k11] W[] white to move");
    check("(;SZ[19];B[s19])", "19x19 B[s19] W[] white to move");
}

#[test]
fn malformed_files() {
    check("", "error: sgf syntax error at line 1, column 1: no game tree: expected '('");
    check("just text", "error: sgf syntax error at line 1, column 10: no game tree: expected '('");
    check("(;SZ[3];B[a1]", "error: sgf syntax error at line 1, column 14: unexpected end of text: game tree not closed with ')'");
    check(
        "(;SZ[3;B(a1)\n",
        "error: sgf syntax error at line 1, column 3: value of property SZ is not closed with ']'",
    );
    check("(;SZ[3];B)", "error: sgf syntax error at line 1, column 10: property B has no value");
    check(
        "(;SZ[3];B[a1]!)",
        "error: sgf syntax error at line 1, column 14: unexpected character '!'",
    );
    check(
        "(B[a1])",
        "error: sgf syntax error at line 1, column 2: property 'B' before the first node ';'",
    );
    check("()", "error: sgf syntax error at line 1, column 2: empty game tree: expected ';'");
    check("(;GM[1]SZ[19])", "error: sgf property GM[1]: not a Hex game (Hex is GM[11])");
    check("(;SZ[0])", "error: sgf property SZ[0]: columns and rows must be 1 to 19");
    check("(;SZ[20])", "error: sgf property SZ[20]: columns and rows must be 1 to 19");
    check("(;SZ[big])", "error: sgf property SZ[big]: expected N or COLS:ROWS");
    check("(;SZ[3:])", "error: sgf property SZ[3:]: expected N or COLS:ROWS");
    check("(;SZ[3];B[d1])", "error: sgf property B[d1]: cell d1 is not on the 3x3 board");
    check("(;SZ[3];B[a0])", "error: sgf property B[a0]: expected a cell such as a1 or cd");
    check("(;SZ[3];B[north])", "error: sgf property B[north]: expected a cell such as a1 or cd");
    check("(;SZ[3]AW[zz])", "error: sgf property AW[zz]: cell z26 is not on the 3x3 board");
    check("(;SZ[3]PL[red])", "error: sgf property PL[red]: expected B or W");
    check("(;SZ[3];B[a1];W[a1])", "error: sgf move 2 (white a1): cell a1 is already occupied");
    check("(;SZ[3];B[a1];SZ[4])", "error: sgf property SZ[4]: only allowed in the root node");
}

#[test]
fn issue62_records_too_large_for_any_game_are_refused() {
    // Node after node: refused at the first node over the limit, wherever it is.
    let nodes = format!("(;SZ[3]{})", ";".repeat(sgf::MAX_NODES));
    let col = 8 + sgf::MAX_NODES - 1;
    check(
        &nodes,
        &format!("error: sgf syntax error at line 1, column {col}: more than 1000000 nodes"),
    );
    check(&format!("(;SZ[3]{})", ";".repeat(sgf::MAX_NODES - 1)), "3x3 B[] W[] black to move");
    // The most nodes, each with a move, and root properties: within the values' limit.
    let passes = format!("(;FF[4]GM[11]SZ[3]{})", ";B[]".repeat(sgf::MAX_NODES - 1));
    check(&passes, "3x3 B[] W[] white to move");
    // Value after value, in one node.
    let values = format!("(;SZ[3]C{})", "[]".repeat(sgf::MAX_VALUES));
    let col = 8 + 2 * sgf::MAX_VALUES - 1;
    check(
        &values,
        &format!(
            "error: sgf syntax error at line 1, column {col}: more than {} property values",
            sgf::MAX_VALUES
        ),
    );
    // A cell set up again and again is held once, the last colour winning.
    let setup = format!("(;SZ[3]AB{}AW[b2]AB[a1]AE{})", "[a1]".repeat(1000), "[b2]".repeat(1000));
    let rec = sgf::parse(&setup).expect("parse");
    assert_eq!(rec.setup, [(Color::Black, "a1".parse().unwrap())]);
}

#[test]
fn a_finished_game_takes_no_more_moves() {
    // Black's a1 a2 joins north and south of the 2x2 board at move 3.
    let won = "(;GM[11]SZ[2];B[a1];W[b1];B[a2];W[b2])";
    check(won, "error: sgf move 4 (white b2): the game is over: black has won");
    assert_eq!(load(won, Some(3)), "2x2 B[a1,a2] W[b1] white to move");
    let resigned = "(;GM[11]SZ[3];B[a1];W[resign];B[b2])";
    check(resigned, "error: sgf move 3 (black b2): the game is over: white resigned");
    assert_eq!(load(resigned, Some(2)), "3x3 B[a1] W[] white to move");
    // A position played on after its win is written as setup, which reads back.
    let mut pos = Position::<Bitboard>::square(2).unwrap();
    for m in ["a1", "b1", "a2", "b2"] {
        pos.play(m.parse().unwrap()).unwrap();
    }
    let rec = GameRecord::from_position(&pos);
    assert!(rec.moves.is_empty());
    assert_eq!(rec.position::<Bitboard>(None).unwrap(), pos);
}

/// A random game, possibly with setup stones, a swap, passes and explicit colours.
fn random_game<B: BitSet>(cols: usize, rows: usize, rng: &mut SmallRng) -> Position<B> {
    let mut pos = Position::<B>::new(cols, rows).unwrap();
    if rng.gen_bool(0.3) {
        let black: B = pos.empty_cells().iter().filter(|_| rng.gen_bool(0.1)).collect();
        pos.setup(Color::Black, black);
        let white: B = pos.empty_cells().iter().filter(|_| rng.gen_bool(0.1)).collect();
        pos.setup(Color::White, white);
        if rng.gen_bool(0.5) {
            pos.set_to_move(Color::White);
        }
    }
    let moves = rng.gen_range(0..cols * rows + 2);
    for i in 0..moves {
        // A record ends at the win.
        if pos.winner().is_some() {
            break;
        }
        if i == 1 && rng.gen_bool(0.5) {
            let swap = if rng.gen_bool(0.5) { Move::SwapPieces } else { Move::SwapSides };
            if pos.apply(swap).is_ok() {
                continue;
            }
        }
        let empty = pos.empty_cells();
        if empty.is_empty() {
            break;
        }
        if rng.gen_bool(0.05) {
            pos.pass();
            continue;
        }
        let c = empty.iter().nth(rng.gen_range(0..empty.len())).unwrap();
        if rng.gen_bool(0.1) {
            let color = if rng.gen_bool(0.5) { Color::Black } else { Color::White };
            pos.play_as(color, c).unwrap();
        } else {
            pos.play(c).unwrap();
        }
    }
    if rng.gen_bool(0.1) {
        pos.set_to_move(!pos.to_move());
    }
    pos
}

fn round_trip<B: BitSet>(pos: &Position<B>) -> Result<(), TestCaseError> {
    let rec = GameRecord::from_position(pos);
    let text = rec.to_sgf();
    let back = sgf::parse(&text).unwrap();
    let replayed: Position<B> = back.position(None).unwrap();
    if rec.moves.iter().any(|&(_, m)| m == Move::SwapPieces) {
        // Written in HexGui's form: the same game mirrored with the colours exchanged after
        // the swap, which the winner shows.
        prop_assert_eq!(&back, &rec.hexgui_form(), "{}", text);
        prop_assert!(back.moves.iter().all(|&(_, m)| m != Move::SwapPieces), "{}", text);
        prop_assert_eq!(replayed.winner(), pos.winner().map(|w| !w), "{}", text);
        prop_assert_eq!(replayed.to_move(), !pos.to_move(), "{}", text);
        for cell in pos.geometry().cells().iter() {
            let image = Cell::new(cell.row(), cell.col()).unwrap();
            prop_assert_eq!(replayed.color_at(image), pos.color_at(cell).map(|c| !c), "{}", text);
        }
        return Ok(());
    }
    prop_assert_eq!(&back, &rec, "{}", text);
    prop_assert_eq!(&replayed, pos, "{}", text);
    prop_assert_eq!(replayed.hash(), pos.hash());
    prop_assert_eq!(replayed.winner(), pos.winner());
    prop_assert_eq!(replayed.history(), pos.history());
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn positions_round_trip_through_sgf(
        cols in 1..=19usize,
        rows in 1..=19usize,
        square in any::<bool>(),
        seed in any::<u64>(),
    ) {
        let rows = if square { cols } else { rows };
        let mut rng = SmallRng::seed_from_u64(seed);
        round_trip(&random_game::<WideBitboard>(cols, rows, &mut rng))?;
        if fits_small(cols, rows) {
            round_trip(&random_game::<Bitboard>(cols, rows, &mut rng))?;
        }
    }

    #[test]
    fn records_round_trip_through_sgf(
        props in prop::collection::vec(("[A-Z]{1,2}", "[ -~\n]{0,12}"), 0..5),
        edits in prop::collection::vec((0..4usize, 0..3usize, 0..4u8, 0..4u8), 0..6),
        moves in prop::collection::vec((0..4u8, 0..4u8, any::<bool>()), 0..6),
    ) {
        let mut rec = GameRecord::new(4, 4);
        rec.properties = props
            .into_iter()
            .filter(|(k, _)| !["FF", "GM", "SZ", "AB", "AW", "AE", "PL", "B", "W"].contains(&k.as_str()))
            .collect();
        rec.moves = moves
            .into_iter()
            .map(|(c, r, w)| (if w { Color::White } else { Color::Black }, Move::Cell(Cell::at(c, r))))
            .collect();
        let n = rec.moves.len();
        let mut edits: Vec<(usize, Edit)> = edits
            .into_iter()
            .map(|(after, kind, c, r)| {
                let cell = Cell::at(c, r);
                let edit = match kind {
                    0 => Edit::Place(Color::Black, cell),
                    1 => Edit::Clear(cell),
                    _ => Edit::ToMove(if c % 2 == 0 { Color::Black } else { Color::White }),
                };
                (after.min(n), edit)
            })
            // An edit before the first move is setup, and reads back as such.
            .filter(|&(after, _)| after > 0)
            .collect();
        edits.sort_by_key(|e| e.0);
        rec.edits = edits;
        let text = rec.to_sgf();
        prop_assert_eq!(sgf::parse(&text).unwrap(), rec, "{}", text);
    }
}

#[test]
fn hand_made_records_are_checked() {
    let mut rec = GameRecord::new(3, 3);
    rec.setup.push((Color::White, Cell::at(5, 0)));
    assert_eq!(
        rec.any_position(None).unwrap_err().to_string(),
        "sgf property AW[f1]: cell f1 is not on the 3x3 board"
    );
    let mut rec = GameRecord::new(3, 3);
    rec.moves.push((Color::Black, Move::Cell(Cell::NORTH)));
    assert_eq!(
        rec.any_position(None).unwrap_err().to_string(),
        "sgf move 1 (black north): cell north is not on the 3x3 board"
    );
    let rec = GameRecord::new(12, 12);
    assert_eq!(
        rec.position::<Bitboard>(None).unwrap_err().to_string(),
        "sgf property SZ[12:12]: invalid board size 12x12: columns and rows must be 1 to 11"
    );
    assert!(rec.position::<WideBitboard>(None).is_ok());
    assert!(matches!(rec.any_position(None), Ok(AnyPosition::Wide(_))));
}
