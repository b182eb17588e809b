//! The two players' colours.

use std::fmt;
use std::ops::Not;
use std::str::FromStr;

use crate::cell::Edge;

/// A stone colour, which is also the name of a player.
///
/// Black moves first and connects the top edge (`north`, row 1) with the bottom edge (`south`);
/// White connects the left edge (`west`, column a) with the right edge (`east`).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Color {
    Black = 0,
    White = 1,
}

impl Color {
    /// Both colours, Black first.
    pub const ALL: [Color; 2] = [Color::Black, Color::White];

    /// `0` for Black, `1` for White; handy for indexing per-colour arrays.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The opponent's colour.
    #[inline]
    pub const fn other(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// The two edges this colour tries to connect.
    #[inline]
    pub const fn edges(self) -> [Edge; 2] {
        match self {
            Color::Black => [Edge::North, Edge::South],
            Color::White => [Edge::West, Edge::East],
        }
    }

    /// One letter, as SGF and HTP write it: `B` or `W`.
    pub const fn letter(self) -> char {
        match self {
            Color::Black => 'B',
            Color::White => 'W',
        }
    }
}

impl Not for Color {
    type Output = Color;
    #[inline]
    fn not(self) -> Color {
        self.other()
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::Black => "black",
            Color::White => "white",
        })
    }
}

/// A colour name that is not `b`, `black`, `w` or `white`.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
#[error("invalid colour {0:?}: expected b, black, w or white")]
pub struct ParseColorError(pub String);

impl FromStr for Color {
    type Err = ParseColorError;

    fn from_str(s: &str) -> Result<Color, ParseColorError> {
        match s.to_ascii_lowercase().as_str() {
            "b" | "black" => Ok(Color::Black),
            "w" | "white" => Ok(Color::White),
            _ => Err(ParseColorError(s.to_owned())),
        }
    }
}
