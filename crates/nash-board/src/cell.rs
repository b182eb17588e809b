//! Cells and edges, and their standard text form (`a1`, `aa10`, `north`).

use std::fmt;
use std::str::FromStr;

/// One of the four sides of the board. Edges share the index space of cells, so that a
/// connection between a group and an edge is a connection between two [`Cell`]s.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Edge {
    /// The top edge, above row 1 (Black's).
    North = 0,
    /// The bottom edge, below the last row (Black's).
    South = 1,
    /// The left edge, left of column a (White's).
    West = 2,
    /// The right edge, right of the last column (White's).
    East = 3,
}

impl Edge {
    /// All four edges in index order.
    pub const ALL: [Edge; 4] = [Edge::North, Edge::South, Edge::West, Edge::East];

    /// The edge's name as Benzene and HexGui write it.
    pub const fn name(self) -> &'static str {
        match self {
            Edge::North => "north",
            Edge::South => "south",
            Edge::West => "west",
            Edge::East => "east",
        }
    }

    /// The edge on the other side of the board.
    pub const fn opposite(self) -> Edge {
        match self {
            Edge::North => Edge::South,
            Edge::South => Edge::North,
            Edge::West => Edge::East,
            Edge::East => Edge::West,
        }
    }

    /// The colour that owns this edge.
    pub const fn color(self) -> crate::Color {
        match self {
            Edge::North | Edge::South => crate::Color::Black,
            Edge::West | Edge::East => crate::Color::White,
        }
    }

    const fn from_index(i: u16) -> Edge {
        match i & 3 {
            0 => Edge::North,
            1 => Edge::South,
            2 => Edge::West,
            _ => Edge::East,
        }
    }
}

/// A cell of the board, or one of the four edges.
///
/// A cell is written column letter + row number, row 1 at the top: `a1` is the acute top-left
/// corner, whose neighbours are `b1` and `a2`. Columns after `z` continue `aa`, `ab`, … as in
/// SGF. A `Cell` knows its coordinates but not the board it is on: the [`Geometry`] decides
/// whether it is on the board.
///
/// [`Geometry`]: crate::Geometry
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Cell(u16);

impl Cell {
    /// The largest number of columns or rows a `Cell` can name (`a`..`bk`, rows 1..63).
    pub const MAX_COORD: u8 = 63;

    const EDGE_TAG: u16 = 63 << 6;

    /// The top edge.
    pub const NORTH: Cell = Cell::edge(Edge::North);
    /// The bottom edge.
    pub const SOUTH: Cell = Cell::edge(Edge::South);
    /// The left edge.
    pub const WEST: Cell = Cell::edge(Edge::West);
    /// The right edge.
    pub const EAST: Cell = Cell::edge(Edge::East);

    /// The cell in column `col` and row `row`, both counted from 0, or `None` past
    /// [`Cell::MAX_COORD`].
    #[inline]
    pub const fn new(col: u8, row: u8) -> Option<Cell> {
        if col < Self::MAX_COORD && row < Self::MAX_COORD {
            Some(Cell(((row as u16) << 6) | col as u16))
        } else {
            None
        }
    }

    /// The cell in column `col` and row `row` (from 0).
    ///
    /// # Panics
    /// If a coordinate is `MAX_COORD` or more; in a `const` this is a compile error.
    #[inline]
    pub const fn at(col: u8, row: u8) -> Cell {
        match Cell::new(col, row) {
            Some(c) => c,
            None => panic!("cell coordinate out of range"),
        }
    }

    /// The edge as a cell.
    #[inline]
    pub const fn edge(edge: Edge) -> Cell {
        Cell(Self::EDGE_TAG | edge as u16)
    }

    /// Whether this is one of the four edges.
    #[inline]
    pub const fn is_edge(self) -> bool {
        self.0 >= Self::EDGE_TAG
    }

    /// Which edge this is, if it is one.
    #[inline]
    pub const fn as_edge(self) -> Option<Edge> {
        if self.is_edge() {
            Some(Edge::from_index(self.0))
        } else {
            None
        }
    }

    /// The column, from 0 (meaningless for edges).
    #[inline]
    pub const fn col(self) -> u8 {
        (self.0 & 63) as u8
    }

    /// The row, from 0 (meaningless for edges).
    #[inline]
    pub const fn row(self) -> u8 {
        (self.0 >> 6) as u8
    }

    /// The packed representation, stable across board sizes.
    #[inline]
    pub const fn raw(self) -> u16 {
        self.0
    }

    /// The column's letters: `a`..`z`, then `aa`, `ab`, ….
    pub fn column_name(col: u8) -> String {
        let mut s = String::with_capacity(2);
        push_column(&mut s, col);
        s
    }
}

fn push_column(s: &mut String, col: u8) {
    if col < 26 {
        s.push((b'a' + col) as char);
    } else {
        let c = col - 26;
        s.push((b'a' + c / 26) as char);
        s.push((b'a' + c % 26) as char);
    }
}

impl From<Edge> for Cell {
    fn from(e: Edge) -> Cell {
        Cell::edge(e)
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.as_edge() {
            Some(e) => f.write_str(e.name()),
            None => {
                let mut s = String::with_capacity(4);
                push_column(&mut s, self.col());
                write!(f, "{s}{}", self.row() + 1)
            }
        }
    }
}

impl fmt::Debug for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Text that does not name a cell.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
#[error("invalid cell {input:?}: {reason}")]
pub struct ParseCellError {
    /// The text that was given.
    pub input: String,
    /// What is wrong with it.
    pub reason: &'static str,
}

impl FromStr for Cell {
    type Err = ParseCellError;

    fn from_str(s: &str) -> Result<Cell, ParseCellError> {
        let err = |reason| ParseCellError { input: s.to_owned(), reason };
        let lower = s.to_ascii_lowercase();
        for e in Edge::ALL {
            if lower == e.name() {
                return Ok(Cell::edge(e));
            }
        }
        let bytes = lower.as_bytes();
        let letters = bytes.iter().take_while(|b| b.is_ascii_lowercase()).count();
        let col = match letters {
            0 => return Err(err("expected a column letter, as in a1")),
            1 => bytes[0] - b'a',
            2 => {
                let c = 26 + (bytes[0] - b'a') as u16 * 26 + (bytes[1] - b'a') as u16;
                if c >= Cell::MAX_COORD as u16 {
                    return Err(err("column out of range"));
                }
                c as u8
            }
            _ => return Err(err("column out of range")),
        };
        let digits = &lower[letters..];
        if digits.is_empty() {
            return Err(err("expected a row number after the column"));
        }
        if !digits.bytes().all(|b| b.is_ascii_digit()) || digits.starts_with('0') {
            return Err(err("row must be a number from 1"));
        }
        let row: u32 = digits.parse().map_err(|_| err("row out of range"))?;
        if row == 0 || row > Cell::MAX_COORD as u32 {
            return Err(err("row out of range"));
        }
        Ok(Cell::at(col, (row - 1) as u8))
    }
}
