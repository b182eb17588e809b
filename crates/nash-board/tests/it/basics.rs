//! Hand-written checks of the conventions and of play, undo and swap.

use nash_board::{
    bitboard, Bitboard, Cell, Color, Move, MoveList, Position, SmallPosition, Symmetry,
    WideBitboard, WidePosition,
};

fn cell(s: &str) -> Cell {
    s.parse().unwrap()
}

#[test]
fn a1_is_an_acute_corner() {
    let p = SmallPosition::square(5).unwrap();
    let n: Bitboard = p.geometry().neighbours(cell("a1"));
    assert_eq!(n, bitboard![b1 a2 north west]);
    let n = p.geometry().neighbours(cell("e1"));
    assert_eq!(n, bitboard![d1 d2 e2 north east]);
    let n = p.geometry().neighbours(cell("c3"));
    assert_eq!(n, bitboard![c2 d2 b3 d3 b4 c4]);
    let w = WidePosition::square(5).unwrap();
    let n: WideBitboard = w.geometry().neighbours(cell("c3"));
    assert_eq!(n, bitboard![c2 d2 b3 d3 b4 c4]);
}

#[test]
fn cell_names_round_trip() {
    for s in ["a1", "k11", "z3", "aa1", "ab12", "north", "south", "east", "west"] {
        assert_eq!(cell(s).to_string(), s);
    }
    assert_eq!(cell("aa1").col(), 26);
    for bad in ["", "a", "1", "a0", "a01", "?1", "abc1", "a1x"] {
        let e = bad.parse::<Cell>().unwrap_err();
        assert!(e.to_string().contains(&format!("{bad:?}")), "{e}");
    }
}

#[test]
fn black_wins_top_to_bottom() {
    let mut p = SmallPosition::square(3).unwrap();
    // Black: a1 a2 a3 down the left column; White plays elsewhere.
    let ml: MoveList = "a1 c1 a2 c2".parse().unwrap();
    ml.play_on(&mut p).unwrap();
    assert_eq!(p.winner(), None);
    p.play(cell("a3")).unwrap();
    assert_eq!(p.winner(), Some(Color::Black));
    assert!(p.undo());
    assert_eq!(p.winner(), None);
    p.pass();
    p.play(cell("c3")).unwrap();
    assert_eq!(p.winner(), None, "white column c touches north and south only");
}

#[test]
fn white_wins_left_to_right() {
    let mut p = SmallPosition::new(3, 2).unwrap();
    "b1 a2 c1 b2 a1 c2".parse::<MoveList>().unwrap().play_on(&mut p).unwrap();
    assert_eq!(p.winner(), Some(Color::White));
}

#[test]
fn a_move_list_is_one_game() {
    let play = |moves: &str| {
        let mut p = SmallPosition::square(2).unwrap();
        moves.parse::<MoveList>().unwrap().play_on(&mut p).map(|()| p).map_err(|e| e.to_string())
    };
    // Black's a1 a2 wins at move 3.
    assert_eq!(play("a1 b1 a2").unwrap().winner(), Some(Color::Black));
    assert_eq!(play("a1 b1 a2 b2").unwrap_err(), "move 4 (b2): the game is over: black has won");
    assert_eq!(
        play("a1 b1 a2 resign").unwrap_err(),
        "move 4 (resign): the game is over: black has won"
    );
    // `resign` ends the game and leaves the position.
    let p = play("a1 resign").unwrap();
    assert_eq!((p.black().len(), p.to_move()), (1, Color::White));
    assert!(play("resign").unwrap().occupied().is_empty());
    assert_eq!(play("a1 resign b2").unwrap_err(), "move 3 (b2): the game is over: white resigned");
    assert_eq!(
        play("resign resign").unwrap_err(),
        "move 2 (resign): the game is over: black resigned"
    );
}

#[test]
fn undo_restores_hash() {
    let mut p = SmallPosition::square(6).unwrap();
    let h0 = p.hash();
    "a1 b2 c3 d4".parse::<MoveList>().unwrap().play_on(&mut p).unwrap();
    for _ in 0..4 {
        assert!(p.undo());
    }
    assert!(!p.undo());
    assert_eq!(p.hash(), h0);
}

#[test]
fn swap_pieces_mirrors_and_recolours() {
    let mut p = SmallPosition::square(5).unwrap();
    p.apply(Move::Cell(cell("b3"))).unwrap();
    p.apply(Move::SwapPieces).unwrap();
    assert_eq!(p.color_at(cell("c2")), Some(Color::White));
    assert_eq!(p.color_at(cell("b3")), None);
    assert_eq!(p.to_move(), Color::Black);
    assert!(p.undo());
    assert_eq!(p.color_at(cell("b3")), Some(Color::Black));
    assert_eq!(p.to_move(), Color::White);
    p.apply(Move::SwapSides).unwrap();
    assert_eq!(p.color_at(cell("b3")), Some(Color::Black));
    assert_eq!(p.to_move(), Color::White);
    assert!(p.apply(Move::SwapSides).is_err());
}

#[test]
fn symmetric_positions_share_canonical_hash() {
    let mut p = SmallPosition::square(4).unwrap();
    "a1 b3".parse::<MoveList>().unwrap().play_on(&mut p).unwrap();
    for &s in p.geometry().symmetries() {
        let q = p.transformed(s);
        assert_eq!(q.canonical_hash(), p.canonical_hash(), "{s:?}");
    }
    let t = p.transformed(Symmetry::Transpose);
    assert_eq!(t.color_at(cell("a1")), Some(Color::White));
    assert_eq!(t.color_at(cell("c2")), Some(Color::Black));
    assert_eq!(t.to_move(), Color::White);
}

#[test]
fn diagram_round_trips() {
    let mut p = SmallPosition::new(4, 3).unwrap();
    "a1 b2 d3".parse::<MoveList>().unwrap().play_on(&mut p).unwrap();
    let text = p.to_string();
    let q: Position<Bitboard> = text.parse().unwrap();
    assert_eq!(p, q, "{text}");
    assert_eq!(q.to_move(), Color::White);
}
