//! The swap table: for each one-stone opening of the square boards it covers, whether White
//! should answer it with `swap-pieces`, from a proof where the solver knows the opening's
//! value and from a long Monte Carlo search of the position after it beyond.
//!
//! The table ships as `src/swap-table.tsv` (written by `cargo xtask swap-table`), read once
//! when first asked. Its rows are tab-separated: `size`, `cell` (Black's opening), `source`
//! (`proof` or `search`), `black` (the opening's value for Black: `win` or `loss` for a proof,
//! Black's win rate from 0 to 1 for a search), `playouts` (the search's playouts, `-` for a
//! proof by df-pn) and `swap` (`yes` or `no`). White swaps exactly when Black's opening is
//! worth more than even to Black: a proven win, or a win rate above one half. An opening and
//! its image under the 180-degree rotation have the same value, so both rows are always there
//! and agree; Hex has no mirror symmetry that keeps the side to move, so nothing else is
//! assumed. A table that breaks any of these rules is refused whole, with the line named.

use std::collections::HashMap;
use std::fmt;
use std::sync::OnceLock;

use nash_board::{Cell, Symmetry};

/// The table as shipped.
const SHIPPED: &str = include_str!("swap-table.tsv");

/// The header line of the table's columns.
pub const HEADER: &str = "size\tcell\tsource\tblack\tplayouts\tswap";

/// Where an opening's value comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// A proof: the solver's, or a map of solved openings.
    Proof,
    /// A Monte Carlo search's estimate.
    Search,
}

impl Source {
    /// The name the table uses.
    pub fn name(self) -> &'static str {
        match self {
            Source::Proof => "proof",
            Source::Search => "search",
        }
    }
}

/// An opening's value for Black, who played it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum BlackValue {
    /// Black wins with perfect play.
    Win,
    /// White wins with perfect play.
    Loss,
    /// Black's estimated chance to win, from 0 to 1.
    Rate(f64),
}

impl BlackValue {
    /// Whether White should swap: the opening is a proven win for Black, or its estimate is
    /// above one half.
    pub fn swap(self) -> bool {
        match self {
            BlackValue::Win => true,
            BlackValue::Loss => false,
            BlackValue::Rate(r) => r > 0.5,
        }
    }

    /// Black's chance to win, 1 or 0 for a proof.
    pub fn rate(self) -> f64 {
        match self {
            BlackValue::Win => 1.0,
            BlackValue::Loss => 0.0,
            BlackValue::Rate(r) => r,
        }
    }
}

impl fmt::Display for BlackValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BlackValue::Win => f.write_str("win"),
            BlackValue::Loss => f.write_str("loss"),
            BlackValue::Rate(r) => write!(f, "{r:.3}"),
        }
    }
}

/// One opening's row.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Entry {
    /// The board's side.
    pub size: usize,
    /// Black's opening stone.
    pub cell: Cell,
    /// Where the value comes from.
    pub source: Source,
    /// The opening's value for Black.
    pub black: BlackValue,
    /// The search's playouts (`None` for a proof by df-pn or a map).
    pub playouts: Option<u64>,
}

impl Entry {
    /// Whether White should swap.
    pub fn swap(&self) -> bool {
        self.black.swap()
    }
}

impl fmt::Display for Entry {
    /// The row as the table writes it (without a line end).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let playouts = self.playouts.map_or("-".to_owned(), |p| p.to_string());
        write!(
            f,
            "{}\t{}\t{}\t{}\t{playouts}\t{}",
            self.size,
            self.cell,
            self.source.name(),
            self.black,
            if self.swap() { "yes" } else { "no" }
        )
    }
}

/// A row the table refuses, by line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("swap table line {line}: {message}")]
pub struct TableError {
    /// The line, from 1.
    pub line: usize,
    /// What is wrong with it.
    pub message: String,
}

/// The openings' rows, by board size and cell.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SwapTable {
    rows: HashMap<(usize, Cell), Entry>,
}

/// `cell` turned half a circle on the `size` x `size` board (sizes are at most
/// `nash_board::MAX_SIDE`, so they fit a `u8`).
pub fn rotate(size: usize, cell: Cell) -> Cell {
    let n = size as u8;
    Symmetry::Rotate180.map_cell_on(n, n, cell)
}

impl SwapTable {
    /// Reads a table: comment lines (`#`), blank lines and the header are skipped, every other
    /// line is a row. A row with the wrong number of fields, a value out of range, a `swap`
    /// that does not follow from the value, a second row for one opening, or an opening whose
    /// rotation's row is missing or says otherwise is an error.
    pub fn parse(text: &str) -> Result<SwapTable, TableError> {
        let mut rows = HashMap::new();
        let mut order = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let line_no = i + 1;
            if line.starts_with('#') || line.trim().is_empty() || line == HEADER {
                continue;
            }
            let entry = parse_row(line).map_err(|message| TableError { line: line_no, message })?;
            let key = (entry.size, entry.cell);
            if rows.insert(key, entry).is_some() {
                return Err(TableError {
                    line: line_no,
                    message: format!(
                        "a second row for {} on {}x{}",
                        entry.cell, entry.size, entry.size
                    ),
                });
            }
            order.push((line_no, key));
        }
        for (line_no, (size, cell)) in order {
            let entry = &rows[&(size, cell)];
            let turned = rotate(size, cell);
            let agrees = rows.get(&(size, turned)).is_some_and(|r| {
                (r.source, r.black.to_string(), r.playouts)
                    == (entry.source, entry.black.to_string(), entry.playouts)
            });
            if !agrees {
                return Err(TableError {
                    line: line_no,
                    message: format!(
                        "{cell} on {size}x{size} needs a row for its rotation {turned} with the same value"
                    ),
                });
            }
        }
        Ok(SwapTable { rows })
    }

    /// The row of Black's opening `cell` on the `size` x `size` board.
    pub fn get(&self, size: usize, cell: Cell) -> Option<&Entry> {
        self.rows.get(&(size, cell))
    }

    /// Every row, by size and then in board order (row by row).
    pub fn entries(&self) -> Vec<&Entry> {
        let mut all: Vec<&Entry> = self.rows.values().collect();
        all.sort_by_key(|e| (e.size, e.cell.row(), e.cell.col()));
        all
    }

    /// Adds or replaces a row (the generator's way to build a table).
    pub fn insert(&mut self, entry: Entry) {
        self.rows.insert((entry.size, entry.cell), entry);
    }

    /// The board sizes the table has rows for, smallest first.
    pub fn sizes(&self) -> Vec<usize> {
        let mut sizes: Vec<usize> = self.rows.keys().map(|&(s, _)| s).collect();
        sizes.sort_unstable();
        sizes.dedup();
        sizes
    }
}

/// One row, or what is wrong with it.
fn parse_row(line: &str) -> Result<Entry, String> {
    let fields: Vec<&str> = line.split('\t').collect();
    let [size, cell, source, black, playouts, swap] = fields[..] else {
        return Err(format!("expected 6 tab-separated fields ({HEADER}), found {}", fields.len()));
    };
    let size: usize = match size.parse() {
        Ok(s) if (2..=nash_board::MAX_SIDE).contains(&s) => s,
        _ => return Err(format!("bad board size {size:?}")),
    };
    let cell: Cell = cell.parse().map_err(|e| format!("bad cell {cell:?}: {e}"))?;
    if usize::from(cell.col()) >= size || usize::from(cell.row()) >= size || cell.is_edge() {
        return Err(format!("{cell} is not a cell of the {size}x{size} board"));
    }
    let source = match source {
        "proof" => Source::Proof,
        "search" => Source::Search,
        _ => return Err(format!("bad source {source:?}: expected proof or search")),
    };
    let black = match (source, black) {
        (Source::Proof, "win") => BlackValue::Win,
        (Source::Proof, "loss") => BlackValue::Loss,
        (Source::Search, r) => match r.parse::<f64>() {
            Ok(r) if (0.0..=1.0).contains(&r) => BlackValue::Rate(r),
            _ => return Err(format!("bad win rate {r:?}: expected a number from 0 to 1")),
        },
        (Source::Proof, v) => return Err(format!("bad proven value {v:?}: expected win or loss")),
    };
    let playouts = match playouts {
        "-" if source == Source::Proof => None,
        p => match p.parse::<u64>() {
            Ok(n) if n > 0 => Some(n),
            _ => return Err(format!("bad playouts {p:?}: expected a positive number")),
        },
    };
    let said = match swap {
        "yes" => true,
        "no" => false,
        _ => return Err(format!("bad swap {swap:?}: expected yes or no")),
    };
    if said != black.swap() {
        return Err(format!("swap {swap} does not follow from Black's value {black}"));
    }
    Ok(Entry { size, cell, source, black, playouts })
}

/// The shipped table, read on first use. A table that does not read is left empty (with a
/// warning), so that moves are chosen as without it; the tests make sure it reads.
pub fn shipped() -> &'static SwapTable {
    static TABLE: OnceLock<SwapTable> = OnceLock::new();
    TABLE.get_or_init(|| match SwapTable::parse(SHIPPED) {
        Ok(t) => t,
        Err(e) => {
            tracing::warn!("{e}: moves are chosen without the swap table");
            SwapTable::default()
        }
    })
}

/// The shipped text, for the tests.
#[cfg(test)]
pub(crate) fn shipped_text() -> &'static str {
    SHIPPED
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cell(s: &str) -> Cell {
        s.parse().expect("a cell")
    }

    #[test]
    fn the_shipped_table_reads() {
        let t = SwapTable::parse(shipped_text()).expect("the shipped table");
        assert_eq!(&t, shipped());
    }

    #[test]
    fn every_size_of_the_shipped_table_is_whole() {
        let t = shipped();
        for size in t.sizes() {
            for row in 0..size as u8 {
                for col in 0..size as u8 {
                    let c = Cell::at(col, row);
                    assert!(t.get(size, c).is_some(), "{size}x{size}: no row for {c}");
                }
            }
        }
    }

    #[test]
    fn rows_round_trip() {
        let text = "# a comment\nsize\tcell\tsource\tblack\tplayouts\tswap\n\
                    3\ta1\tproof\tloss\t-\tno\n3\tc3\tproof\tloss\t-\tno\n\
                    9\te5\tsearch\t0.585\t300000\tyes\n\
                    9\ta1\tsearch\t0.440\t300000\tno\n9\ti9\tsearch\t0.440\t300000\tno\n";
        let t = SwapTable::parse(text).expect("a table");
        let e5 = t.get(9, cell("e5")).expect("e5");
        assert_eq!(
            (e5.source, e5.black, e5.playouts, e5.swap()),
            (Source::Search, BlackValue::Rate(0.585), Some(300000), true)
        );
        assert!(!t.get(3, cell("c3")).expect("c3").swap());
        assert_eq!(t.get(9, cell("e4")), None);
        let rows: Vec<String> = t.entries().iter().map(|e| e.to_string()).collect();
        let body: Vec<&str> = text.lines().skip(2).collect();
        let mut sorted = body.clone();
        sorted.sort_by_key(|l| {
            let e = parse_row(l).expect("a row");
            (e.size, e.cell.row(), e.cell.col())
        });
        assert_eq!(rows, sorted);
    }

    /// `(table text, what its error says)`.
    fn refused(cases: &[(&str, &str)]) {
        for (text, expected) in cases {
            let err = SwapTable::parse(text).expect_err(text).to_string();
            assert!(err.contains(expected), "{text:?}: {err}");
        }
    }

    #[test]
    fn malformed_tables_are_refused_by_line() {
        refused(&[
            ("7\ta1\tproof\tloss\t-\n", "line 1: expected 6"),
            ("x\ta1\tproof\tloss\t-\tno\n", "bad board size"),
            ("7\th1\tproof\tloss\t-\tno\n", "h1 is not a cell of the 7x7 board"),
            ("7\t1a\tproof\tloss\t-\tno\n", "bad cell"),
            ("7\ta1\tguess\tloss\t-\tno\n", "bad source"),
            ("7\ta1\tproof\t0.2\t-\tno\n", "bad proven value"),
            ("9\ta1\tsearch\t1.5\t10\tno\n", "bad win rate"),
            ("9\ta1\tsearch\t0.4\t-\tno\n", "bad playouts"),
            ("9\ta1\tsearch\t0.4\t10\tmaybe\n", "bad swap"),
            ("9\ta1\tsearch\t0.6\t10\tno\n", "does not follow"),
            ("7\ta1\tproof\twin\t-\tno\n", "does not follow"),
            (
                "# c\n\n7\ta1\tproof\tloss\t-\tno\n",
                "line 3: a1 on 7x7 needs a row for its rotation g7",
            ),
            (
                "7\ta1\tproof\tloss\t-\tno\n7\tg7\tproof\twin\t-\tyes\n",
                "needs a row for its rotation",
            ),
            (
                "7\ta1\tproof\tloss\t-\tno\n7\tg7\tproof\tloss\t-\tno\n7\ta1\tproof\tloss\t-\tno\n",
                "line 3: a second row for a1",
            ),
        ]);
    }

    #[test]
    fn rotation_turns_corners_into_corners() {
        assert_eq!(rotate(9, cell("a1")), cell("i9"));
        assert_eq!(rotate(9, cell("e5")), cell("e5"));
        assert_eq!(rotate(11, cell("b3")), cell("j9"));
    }
}
