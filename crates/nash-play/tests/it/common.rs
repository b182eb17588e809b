//! Helpers shared by the tests: positions from move lists, moves as cells.

use nash_board::{with_position, AnyPosition, Cell, Move, MoveList};
use nash_play::{Choice, MoveBudget};

/// The position after `moves` on a `size`x`size` board.
pub fn position(size: usize, moves: &str) -> AnyPosition {
    let mut pos = AnyPosition::new(size, size).expect("board size");
    let list: MoveList = moves.parse().expect("move list");
    nash_board::with_position!(&mut pos, p => list.play_on(p).expect("legal moves"));
    pos
}

/// The cell a choice plays (a test failure otherwise).
pub fn cell(c: &Choice) -> Cell {
    match c.mv {
        Move::Cell(cell) => cell,
        other => panic!("expected a cell, got {other:?}"),
    }
}

/// The cell a choice plays, checked to be empty in `pos` (a test failure otherwise).
pub fn empty_cell(pos: &AnyPosition, c: &Choice) -> Cell {
    let m = cell(c);
    assert!(with_position!(pos, p => p.empty_cells().contains(m)), "{m} is not empty");
    m
}

/// A budget of `n` nodes.
pub fn nodes(n: u64) -> MoveBudget {
    MoveBudget { nodes: Some(n), ..MoveBudget::default() }
}

/// Values beyond this are proven wins or losses in every player's scale.
pub const PROVEN: f64 = nash_play::eval::WIN / 2.0;
