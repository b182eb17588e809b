//! The analysis commands for HexGui's richer displays: connections between two cells (`vc`),
//! the proof's main line (`var`), a number on each cell (`pspairs`) and a player's search
//! (`gfx`), each answering in the format HexGui parses for that display.

use std::fmt::Write as _;

use nash_board::{BitSet, Cell, Color, Position};
use nash_play::eval::resistance::Circuit;
use nash_play::{Choice, MoveScore, Proven};
use nash_vc::{ConnectionKind, HSearchConfig, TwoDistance, VcBuilder};

use crate::engine::with_to_move;
use crate::HtpError;

/// Which connections `vc-between-cells` lists.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Kinds {
    Full,
    Semi,
    Both,
}

/// A cell argument: a cell of `pos`'s board, or an edge (`north`, `south`, `west`, `east`).
pub(crate) fn cell_arg<B: BitSet>(pos: &Position<B>, arg: &str) -> Result<Cell, HtpError> {
    let Ok(cell) = arg.parse::<Cell>() else {
        return Err(HtpError::NotACell(arg.to_owned()));
    };
    let (cols, rows) = (pos.geometry().cols(), pos.geometry().rows());
    if !cell.is_edge() && (cell.col() as usize >= cols || cell.row() as usize >= rows) {
        return Err(nash_board::PlayError::OffBoard { cell, cols, rows }.into());
    }
    Ok(cell)
}

/// `vc-between-cells`: `color`'s connections between the groups or cells `x` and `y` (H-search
/// with the solver's setting on the position as it is), one a line after an empty first line,
/// as HexGui's `vc` display reads them: `COLOUR FROM TO full|semi SOURCE [ CARRIER ] [ ]`,
/// a semi connection followed by its key. Full connections come first, then semis, each kind
/// smallest carrier first (a fixed order, whatever order H-search found them in).
pub(crate) fn vc_between<B: BitSet>(
    pos: &Position<B>,
    color: Color,
    x: Cell,
    y: Cell,
    kinds: Kinds,
    hsearch: HSearchConfig,
) -> Result<String, HtpError> {
    let mut vc = VcBuilder::new(hsearch);
    vc.build(pos);
    let name = if color == Color::Black { "black" } else { "white" };
    let mut out = String::from("\n");
    let mut list: Vec<_> = vc.connections(color, x, y).collect();
    list.sort_by_key(|c| {
        let key = match c.kind {
            ConnectionKind::Full => None,
            ConnectionKind::Semi { key } => Some(B::bit_of(key)),
        };
        (key.is_some(), c.carrier.len(), c.carrier, key)
    });
    for c in list {
        let (kind, key) = match c.kind {
            ConnectionKind::Full => ("full", None),
            ConnectionKind::Semi { key } => ("semi", Some(key)),
        };
        let wanted = match kinds {
            Kinds::Both => true,
            Kinds::Full => key.is_none(),
            Kinds::Semi => key.is_some(),
        };
        if !wanted {
            continue;
        }
        let [a, b] = c.ends;
        let _ = write!(out, "{name} {a} {b} {kind} hsearch [");
        for cell in c.carrier.iter() {
            let _ = write!(out, " {cell}");
        }
        let _ = write!(out, " ] [ ]");
        if let Some(k) = key {
            let _ = write!(out, " {k}");
        }
        out.push('\n');
    }
    Ok(out)
}

/// Which number `pspairs` commands put on each empty cell.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum CellValue {
    /// `color`'s two-distance potential (Anshelevich 2000 s.4; `-` for none).
    TwoDistance,
    /// Each cell's share of both resistance circuits' power (Anshelevich 2000 s.3), with
    /// `color` to move.
    Resistance,
    /// `color`'s H-score (Chen 2025 s.5.7).
    HScore,
}

/// A `pspairs` answer: ` CELL VALUE` pairs on one line, one per empty cell.
pub(crate) fn cell_values<B: BitSet>(
    pos: &Position<B>,
    color: Color,
    what: CellValue,
    hsearch: HSearchConfig,
) -> Result<String, HtpError> {
    let p = with_to_move(pos, color);
    let mut out = String::new();
    match what {
        CellValue::TwoDistance => {
            let mut td = TwoDistance::<B>::default();
            td.distance(&p, color);
            let far = (p.empty_cells().len() + 2) as u32;
            for cell in p.empty_cells().iter() {
                match td.potential(color, cell) {
                    v if v >= far => {
                        let _ = write!(out, " {cell} -");
                    }
                    v => {
                        let _ = write!(out, " {cell} {v}");
                    }
                }
            }
        }
        CellValue::Resistance => {
            let mut circuit = Circuit::<B>::new(false);
            let mut scores = Vec::new();
            circuit.move_scores(&p, &mut scores);
            for (cell, v) in scores {
                let _ = write!(out, " {cell} {v:.2}");
            }
        }
        CellValue::HScore => {
            let mut vc = VcBuilder::new(hsearch);
            vc.build(&p);
            for cell in p.empty_cells().iter() {
                let _ = write!(out, " {cell} {:.1}", vc.h_score(color, cell));
            }
        }
    }
    Ok(out.trim_start().to_owned())
}

/// `player-scores`: each root move the player looked at (`pspairs`), in its order of
/// preference: `W` or `L` for a proven win or loss, else a Monte Carlo player's win rate and
/// visits as `0.54@120` (as MoHex labels its moves), or another player's value in its scale.
pub(crate) fn scores_text(choice: Option<&Choice>) -> String {
    let Some(c) = choice else { return String::new() };
    let mut out = String::new();
    for m in &c.moves {
        let _ = write!(out, " {} {}", m.cell, cell_label(m));
    }
    out.trim_start().to_owned()
}

/// A move's label on the board: `W`, `L`, `rate@visits`, or the value.
fn cell_label(m: &MoveScore) -> String {
    match (m.proven, m.win_rate, m.visits) {
        (Proven::Win, ..) => "W".to_owned(),
        (Proven::Loss, ..) => "L".to_owned(),
        (Proven::Unknown, Some(r), Some(n)) => format!("{r:.2}@{n}"),
        _ => short(m.value.unwrap_or(0.0)),
    }
}

/// `player-search` and the answer of `nash-analyze-gfx`: the player's search as HexGui's
/// `gfx` display reads it: `INFLUENCE` (each move's win rate, 1 for a proven win and 0 for a
/// proven loss; a player without win rates has its values scaled to 0..1, best 1) and `TEXT`
/// (the move, value, line, depth, nodes and time, and the first moves with their visits).
pub(crate) fn search_gfx(choice: Option<&Choice>) -> String {
    let Some(c) = choice else { return "TEXT the game is over".to_owned() };
    let mut out = String::from("INFLUENCE");
    let scores: Vec<f64> = c.moves.iter().map(MoveScore::score).collect();
    let rates = c.moves.iter().any(|m| m.win_rate.is_some());
    let (lo, hi) = scores
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &v| (lo.min(v), hi.max(v)));
    for (m, v) in c.moves.iter().zip(&scores) {
        let x = if rates {
            *v
        } else if hi > lo {
            (v - lo) / (hi - lo)
        } else {
            1.0
        };
        let _ = write!(out, " {} {x:.2}", m.cell);
    }
    let _ = write!(out, "\nTEXT move {}", c.mv);
    if let Some(v) = c.value {
        let _ = write!(out, " value {}", short(v));
    }
    if !c.pv.is_empty() {
        out.push_str(" line");
        for cell in &c.pv {
            let _ = write!(out, " {cell}");
        }
    }
    let _ =
        write!(out, " depth {} nodes {} time {:.2}s", c.depth, c.nodes, c.elapsed.as_secs_f64());
    if !rates && !c.moves.is_empty() {
        out.push_str(" (values, no visits)");
    }
    for m in c.moves.iter().take(GFX_MOVES) {
        let _ = write!(out, ", {} {}", m.cell, cell_label(m));
    }
    out
}

/// The moves a `TEXT` line names with their win rates and visits.
const GFX_MOVES: usize = 5;

/// The lines of `nash-analyze`: one per root move, in the player's order, as
/// `info move CELL visits N winrate W prior P order K pv CELL ...` (`kata-analyze`'s fields),
/// with `proven win` or `proven loss` before `order` when the search proved it, and `value V`
/// in place of visits, win rate and prior for a player that measures none of them.
pub(crate) fn info_lines(c: &Choice, out: &mut String) {
    for (order, m) in c.moves.iter().enumerate() {
        let _ = write!(out, "info move {}", m.cell);
        if let Some(n) = m.visits {
            let _ = write!(out, " visits {n}");
        }
        if let Some(r) = m.win_rate {
            let _ = write!(out, " winrate {r:.4}");
        }
        if let Some(p) = m.prior {
            let _ = write!(out, " prior {p:.4}");
        }
        if m.win_rate.is_none() {
            if let Some(v) = m.value {
                let _ = write!(out, " value {}", short(v));
            }
        }
        if m.proven != Proven::Unknown {
            let _ = write!(out, " proven {}", m.proven.name());
        }
        let _ = write!(out, " order {order} pv");
        for cell in &m.pv {
            let _ = write!(out, " {cell}");
        }
        out.push('\n');
    }
}

/// The live block of `nash-analyze-gfx`, in the form HexGui reads from MoHex between answers
/// (`gogui-gfx:` then `uct`, ended by an empty line): `VAR` the best line (`B`/`W` and the
/// cell), `INFLUENCE` each move's label (`W` and `L` coloured), `LABEL` its visits (HexGui
/// writes `label@visits`), `TEXT` the playouts on the status bar. `None` with no move yet.
pub(crate) fn live_gfx(c: &Choice, to_move: Color) -> Option<String> {
    let best = c.moves.first()?;
    let mut out = String::from("gogui-gfx:\nuct\nVAR");
    let mut color = to_move;
    for cell in &best.pv {
        let _ = write!(out, " {} {cell}", if color == Color::Black { 'B' } else { 'W' });
        color = !color;
    }
    out.push_str("\nINFLUENCE");
    for m in &c.moves {
        let label = match (m.proven, m.win_rate) {
            (Proven::Win, _) => "W".to_owned(),
            (Proven::Loss, _) => "L".to_owned(),
            (_, Some(r)) => format!("{r:.2}"),
            (_, None) => short(m.value.unwrap_or(0.0)),
        };
        let _ = write!(out, " {} {label}", m.cell);
    }
    out.push_str("\nLABEL");
    for m in c.moves.iter().filter(|m| m.visits.is_some()) {
        let _ = write!(out, " {} {}", m.cell, m.visits.unwrap_or(0));
    }
    let _ = write!(
        out,
        "\nTEXT {} playouts, {:.1} s, best {} {}\n\n",
        c.nodes,
        c.elapsed.as_secs_f64(),
        best.cell,
        cell_label(best)
    );
    Some(out)
}

/// A score in few characters, for a cell label.
fn short(v: f64) -> String {
    // No "-0" on the board.
    let v = if v.abs() < 0.005 { 0.0 } else { v };
    if v.fract() == 0.0 || v.abs() >= 100.0 {
        format!("{v:.0}")
    } else {
        format!("{v:.2}")
    }
}
