//! Moves and move lists in their text form: `a1`, `swap-pieces`, `swap-sides`, `resign`, `pass`.

use std::fmt;
use std::str::FromStr;

use crate::bitboard::BitSet;
use crate::cell::{Cell, ParseCellError};
use crate::position::{PlayError, Position};

/// A move in a game of Hex.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Move {
    /// A stone on a cell.
    Cell(Cell),
    /// The swap that mirrors the opening stone in the long diagonal and changes its colour;
    /// Black moves next.
    SwapPieces,
    /// The swap that exchanges the players' colours and leaves the stone; White moves next.
    SwapSides,
    /// Giving up.
    Resign,
    /// Not moving (not part of Hex proper, but used by tools and HTP).
    Pass,
}

impl From<Cell> for Move {
    fn from(c: Cell) -> Move {
        Move::Cell(c)
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Cell(c) => write!(f, "{c}"),
            Move::SwapPieces => f.write_str("swap-pieces"),
            Move::SwapSides => f.write_str("swap-sides"),
            Move::Resign => f.write_str("resign"),
            Move::Pass => f.write_str("pass"),
        }
    }
}

/// Text that does not name a move.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
#[error(
    "invalid move {input:?}: expected a cell such as a1, swap-pieces, swap-sides, resign or pass"
)]
pub struct ParseMoveError {
    /// The text that was given.
    pub input: String,
}

impl From<ParseCellError> for ParseMoveError {
    fn from(e: ParseCellError) -> ParseMoveError {
        ParseMoveError { input: e.input }
    }
}

impl FromStr for Move {
    type Err = ParseMoveError;

    fn from_str(s: &str) -> Result<Move, ParseMoveError> {
        match s.to_ascii_lowercase().as_str() {
            "swap-pieces" => Ok(Move::SwapPieces),
            "swap-sides" => Ok(Move::SwapSides),
            "resign" => Ok(Move::Resign),
            "pass" => Ok(Move::Pass),
            _ => match s.parse::<Cell>() {
                Ok(c) if !c.is_edge() => Ok(Move::Cell(c)),
                _ => Err(ParseMoveError { input: s.to_owned() }),
            },
        }
    }
}

/// A sequence of moves, written separated by spaces: `b3 swap-pieces c3`.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct MoveList(pub Vec<Move>);

impl fmt::Display for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, m) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{m}")?;
        }
        Ok(())
    }
}

impl FromStr for MoveList {
    type Err = ParseMoveError;

    /// Moves separated by whitespace or commas; `-` alone is the empty list.
    fn from_str(s: &str) -> Result<MoveList, ParseMoveError> {
        if s.trim() == "-" {
            return Ok(MoveList::default());
        }
        s.split(|c: char| c.is_whitespace() || c == ',')
            .filter(|t| !t.is_empty())
            .map(str::parse)
            .collect::<Result<Vec<_>, _>>()
            .map(MoveList)
    }
}

/// A move of a list that could not be played.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
#[error("move {number} ({mv}): {reason}")]
pub struct MoveListError {
    /// The move's number in the list, from 1.
    pub number: usize,
    /// The move.
    pub mv: Move,
    /// Why it could not be played.
    pub reason: PlayError,
}

impl MoveList {
    /// Plays every move in order, alternating colours as the moves themselves dictate.
    ///
    /// The list is one game: `resign` ends it without changing the position, and a move after
    /// a win ([`PlayError::GameOver`]) or after `resign` ([`PlayError::AfterResign`]) is refused
    /// with its number, like any move that cannot be played.
    pub fn play_on<B: BitSet>(&self, pos: &mut Position<B>) -> Result<(), MoveListError> {
        let mut resigned = None;
        for (i, &mv) in self.0.iter().enumerate() {
            let fail = |reason| MoveListError { number: i + 1, mv, reason };
            if let Some(winner) = pos.winner() {
                return Err(fail(PlayError::GameOver(winner)));
            }
            if let Some(loser) = resigned {
                return Err(fail(PlayError::AfterResign(loser)));
            }
            if mv == Move::Resign {
                resigned = Some(pos.to_move());
                continue;
            }
            pos.apply(mv).map_err(fail)?;
        }
        Ok(())
    }
}
