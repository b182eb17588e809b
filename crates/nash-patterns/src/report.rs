//! A serializable account of an analysis, for `nash ica --json` and other tools.

use nash_board::{BitSet, Cell, CellList, Color};
use serde::Serialize;

use crate::ice::{Analysis, Ice};

/// One cell that was filled or pruned, and why.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct Finding {
    /// The cell, as `a1`.
    pub cell: String,
    /// `dead`, `captured-black`, `captured-white`, `dominated` or `vulnerable`.
    pub class: &'static str,
    /// The rule: a pattern name or a built-in test.
    pub rule: String,
    /// For `dominated` the dominating cell; for `vulnerable` the opponent's killing cell.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub by: Option<String>,
}

/// Everything an analysis found, in text form.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct Report {
    /// `black` or `white`.
    pub to_move: String,
    /// The winner after fill-in, if the position is decided.
    pub winner: Option<String>,
    /// Cells filled with Black stones.
    pub fill_black: Vec<String>,
    /// Cells filled with White stones.
    pub fill_white: Vec<String>,
    /// Moves left for the player to move.
    pub candidates: Vec<String>,
    /// Every filled or pruned cell with its reason, in board order.
    pub findings: Vec<Finding>,
    /// Fill-in passes run.
    pub passes: u32,
}

impl Report {
    /// Describes an analysis made by `ice`.
    pub fn new<B: BitSet>(ice: &Ice<B>, a: &Analysis<B>) -> Report {
        let mut findings = Vec::new();
        let touched = a.fill[0] | a.fill[1] | a.pruned();
        for cell in touched.iter() {
            let class = if a.dead.contains(cell) {
                "dead"
            } else if a.captured[0].contains(cell) {
                "captured-black"
            } else if a.captured[1].contains(cell) {
                "captured-white"
            } else if a.dominated.contains(cell) {
                "dominated"
            } else {
                "vulnerable"
            };
            findings.push(Finding {
                cell: cell.to_string(),
                class,
                rule: a.rule(cell).map_or("unknown", |r| ice.rule_name(r)).to_string(),
                by: a.dominator(cell).map(|c: Cell| c.to_string()),
            });
        }
        Report {
            to_move: a.to_move.to_string(),
            winner: a.winner.map(|c: Color| c.to_string()),
            fill_black: CellList(a.fill[0]).names(),
            fill_white: CellList(a.fill[1]).names(),
            candidates: CellList(a.candidates).names(),
            findings,
            passes: a.passes,
        }
    }
}
