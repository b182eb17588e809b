//! The board diagram: a rhombus of `.`, `B` and `W` with coordinates, written by `Display` for
//! [`Position`] and read back by its `FromStr`.
//!
//! ```text
//!    a  b  c
//! 1  .  .  .  1
//!  2  .  B  .  2
//!   3  W  .  .  3
//!       a  b  c
//! black to move
//! ```

use std::fmt;
use std::str::FromStr;

use crate::bitboard::BitSet;
use crate::cell::Cell;
use crate::color::Color;
use crate::position::Position;

/// A diagram that does not describe a board.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
#[error("invalid board diagram{}: {reason}", line_suffix(*.line))]
pub struct ParseDiagramError {
    /// The line, from 1 (0 when the problem is the diagram as a whole).
    pub line: usize,
    /// What is wrong there.
    pub reason: String,
}

fn line_suffix(line: usize) -> String {
    if line == 0 {
        String::new()
    } else {
        format!(", line {line}")
    }
}

/// Writes a diagram of `pos`, marking each cell with the character `mark` chooses (`.`, `B`,
/// `W` by default); other crates use this to show analysis results on the board.
pub fn write_diagram<B: BitSet>(
    f: &mut dyn fmt::Write,
    pos: &Position<B>,
    mark: &dyn Fn(Cell) -> char,
) -> fmt::Result {
    let (cols, rows) = (pos.cols(), pos.rows());
    let w = rows.to_string().len();
    let letters: String = (0..cols).map(|c| format!("{:<3}", Cell::column_name(c as u8))).collect();
    writeln!(f, "{:w$}  {}", "", letters.trim_end())?;
    for r in 0..rows {
        let cells: Vec<String> =
            (0..cols).map(|c| mark(Cell::at(c as u8, r as u8)).to_string()).collect();
        writeln!(f, "{:r$}{:>w$}  {}  {}", "", r + 1, cells.join("  "), r + 1)?;
    }
    writeln!(f, "{:pad$}{}", "", letters.trim_end(), pad = rows - 1 + w + 2)?;
    write!(f, "{} to move", pos.to_move())
}

impl<B: BitSet> fmt::Display for Position<B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_diagram(f, self, &|c| match self.color_at(c) {
            Some(Color::Black) => 'B',
            Some(Color::White) => 'W',
            None => '.',
        })
    }
}

/// The contents of a diagram, independent of bitboard width.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Diagram {
    /// Columns.
    pub cols: usize,
    /// Rows.
    pub rows: usize,
    /// Black's stones.
    pub black: Vec<Cell>,
    /// White's stones.
    pub white: Vec<Cell>,
    /// The side to move: as written, or Black when the stone counts are equal and White when
    /// Black has one stone more.
    pub to_move: Color,
}

impl FromStr for Diagram {
    type Err = ParseDiagramError;

    fn from_str(s: &str) -> Result<Diagram, ParseDiagramError> {
        let mut rows: Vec<Vec<char>> = Vec::new();
        let mut to_move = None;
        for (i, line) in s.lines().enumerate() {
            let err = |reason: String| ParseDiagramError { line: i + 1, reason };
            let t = line.trim();
            if t.is_empty() {
                continue;
            }
            let lower = t.to_ascii_lowercase();
            if let Some(who) =
                lower.strip_suffix("to move").or_else(|| lower.strip_suffix("to play"))
            {
                to_move = Some(who.trim().parse::<Color>().map_err(|e| err(e.to_string()))?);
                continue;
            }
            if is_hash_line(t) {
                continue; // Benzene writes the position's hash above the board
            }
            if !t.starts_with(|c: char| c.is_ascii_digit()) {
                if t.chars().all(|c| c.is_ascii_alphabetic() || c.is_whitespace()) {
                    continue; // column letters
                }
                return Err(err(format!("unexpected text {t:?}")));
            }
            let digits: String = t.chars().take_while(char::is_ascii_digit).collect();
            let number: usize = digits.parse().map_err(|_| err("bad row number".into()))?;
            if number != rows.len() + 1 {
                return Err(err(format!("expected row {}, found row {number}", rows.len() + 1)));
            }
            let body = t[digits.len()..].replace('\\', " ");
            let mut cells = Vec::new();
            let mut tokens = body.split_whitespace();
            while let Some(tok) = tokens.next() {
                if tok.chars().all(|c| c.is_ascii_digit()) {
                    if tok != digits {
                        return Err(err(format!("row {number} ends with the number {tok}")));
                    }
                    if let Some(extra) = tokens.next() {
                        return Err(err(format!("unexpected {extra:?} after row {number}")));
                    }
                    break;
                }
                for ch in tok.chars() {
                    match ch {
                        '.' | 'B' | 'W' | 'X' | 'O' | 'b' | 'w' | 'x' | 'o' => cells.push(ch),
                        _ => {
                            return Err(err(format!("unexpected character {ch:?} in row {number}")))
                        }
                    }
                }
            }
            if let Some(first) = rows.first() {
                if first.len() != cells.len() {
                    return Err(err(format!(
                        "row {number} has {} cells, row 1 has {}",
                        cells.len(),
                        first.len()
                    )));
                }
            }
            if cells.is_empty() {
                return Err(err(format!("row {number} has no cells")));
            }
            rows.push(cells);
        }
        if rows.is_empty() {
            return Err(ParseDiagramError { line: 0, reason: "no rows found".into() });
        }
        let (nrows, ncols) = (rows.len(), rows[0].len());
        if nrows >= Cell::MAX_COORD as usize || ncols >= Cell::MAX_COORD as usize {
            return Err(ParseDiagramError { line: 0, reason: "board too large".into() });
        }
        let (mut black, mut white) = (Vec::new(), Vec::new());
        for (r, row) in rows.iter().enumerate() {
            for (c, ch) in row.iter().enumerate() {
                let cell = Cell::at(c as u8, r as u8);
                match ch {
                    'B' | 'X' | 'b' | 'x' => black.push(cell),
                    'W' | 'O' | 'w' | 'o' => white.push(cell),
                    _ => {}
                }
            }
        }
        let to_move =
            to_move.unwrap_or(if black.len() > white.len() { Color::White } else { Color::Black });
        Ok(Diagram { cols: ncols, rows: nrows, black, white, to_move })
    }
}

/// A lone hash value (`0x1f3a…`, or a long decimal number), as Benzene prints above a board.
fn is_hash_line(t: &str) -> bool {
    let hex = t
        .strip_prefix("0x")
        .is_some_and(|h| !h.is_empty() && h.bytes().all(|b| b.is_ascii_hexdigit()));
    hex || (t.len() > 4 && t.bytes().all(|b| b.is_ascii_digit()))
}

impl Diagram {
    /// The position the diagram shows, with its stones as setup (no history).
    pub fn to_position<B: BitSet>(&self) -> Result<Position<B>, ParseDiagramError> {
        let mut pos = Position::<B>::new(self.cols, self.rows)
            .map_err(|e| ParseDiagramError { line: 0, reason: e.to_string() })?;
        pos.setup(Color::Black, self.black.iter().copied().collect());
        pos.setup(Color::White, self.white.iter().copied().collect());
        pos.set_to_move(self.to_move);
        Ok(pos)
    }
}

impl<B: BitSet> FromStr for Position<B> {
    type Err = ParseDiagramError;

    fn from_str(s: &str) -> Result<Position<B>, ParseDiagramError> {
        s.parse::<Diagram>()?.to_position()
    }
}
