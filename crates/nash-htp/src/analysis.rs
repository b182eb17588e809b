//! The solver and analysis commands, written once over the bitboard width and run on the
//! current position through `with_position!`.

use std::fmt::Write as _;

use nash_board::{BitSet, CellList, Color, Position};
use nash_patterns::{Analysis, Ice};
use nash_search::{solve, Outcome, SolverConfig, SolverTable, Stats, StopReason};
use nash_vc::{HSearchConfig, VcBuilder};

use crate::engine::with_to_move;
use crate::HtpError;

/// Which inferior cells an analysis command shows.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Inferior {
    /// Dead, captured, vulnerable and dominated cells.
    All,
    /// Only the cells fill-in would fill.
    Fillin,
    /// Only the dead cells.
    Dead,
}

/// The winner of the position with `to_move` (default: the side to move) to play, or why the
/// solver stopped, and the search's counters; in `table` when one is kept between solves.
/// With a database, a stored answer is used and a new one stored.
pub(crate) fn solve_state<B: BitSet>(
    pos: &Position<B>,
    to_move: Option<Color>,
    cfg: &SolverConfig,
    table: Option<&mut SolverTable<B>>,
    db: Option<&mut nash_db::Db>,
) -> Result<(Result<Color, StopReason>, Stats), HtpError> {
    let p = with_to_move(pos, to_move.unwrap_or(pos.to_move()));
    if let Some(w) = p.winner() {
        return Ok((Ok(w), Stats::default()));
    }
    if let Some(r) = db.as_deref().and_then(|db| nash_db::lookup(db, &p)) {
        let w = r.outcome.winner(p.to_move()).expect("a stored outcome is decided");
        return Ok((Ok(w), Stats::default()));
    }
    let r = match table {
        Some(t) => t.solve(&p, cfg),
        None => solve(&p, cfg),
    };
    if let Some(db) = db {
        db.put(&p, &r.outcome, r.stats.nodes)?;
    }
    let winner = match r.outcome {
        Outcome::Unknown { reason } => Err(reason),
        o => Ok(o.winner(p.to_move()).expect("decided outcome has a winner")),
    };
    Ok((winner, r.stats))
}

/// `dfpn-solver-find-winning`: every winning move of `color`, each legal move decided.
pub(crate) fn find_winning<B: BitSet>(
    pos: &Position<B>,
    color: Color,
    cfg: &SolverConfig,
    table: &mut SolverTable<B>,
    db: Option<&mut nash_db::Db>,
) -> Result<String, HtpError> {
    let p = with_to_move(pos, color);
    if let Some(w) = p.winner() {
        // A finished game: every move keeps the winner's win, none saves the loser.
        return Ok(if w == color { CellList(p.empty_cells()).to_string() } else { String::new() });
    }
    if let Some(set) = db.as_deref().and_then(|db| db.get(&p)).and_then(|s| s.winning_set) {
        return Ok(CellList(set).to_string());
    }
    let w = table.winning_moves(&p, cfg);
    if let Some(db) = db {
        db.put_winning(&p, &w)?;
    }
    if !w.unknown.is_empty() {
        let reason = match cfg.budget.time {
            Some(_) => "time limit reached",
            None => "node limit reached",
        };
        return Err(HtpError::Undecided {
            reason: reason.to_owned(),
            cells: CellList(w.unknown).to_string(),
        });
    }
    Ok(CellList(w.winning).to_string())
}

/// The inferior cells of `pos` with `color` to move (nash-patterns' analysis).
fn analyse<B: BitSet>(pos: &Position<B>) -> Analysis<B> {
    Ice::shared(pos.geometry()).analyse(pos)
}

/// Which labels an inferior-cell answer shows.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Labels {
    dead: bool,
    captured: bool,
    pruned: bool,
}

/// Writes the cells of an analysis in Benzene's `inferior` label grammar, which HexGui draws:
/// ` cell label` pairs, where the label is `fb` or `fw` for a cell filled with that colour
/// (dead or captured: HexGui takes the stone's colour from the second letter),
/// `iv[killer]` for a vulnerable move and `ii[dominator]` for a dominated one (Benzene's
/// inferior move; `is[...]`, its strongly reversible move, has no counterpart here).
fn write_labels<B: BitSet>(out: &mut String, a: &Analysis<B>, labels: Labels) {
    let all = a.dead | a.captured[0] | a.captured[1] | a.dominated | a.vulnerable;
    for cell in all.iter() {
        let shown = if a.dead.contains(cell) {
            labels.dead
        } else if a.captured[0].contains(cell) || a.captured[1].contains(cell) {
            labels.captured
        } else {
            labels.pruned
        };
        if !shown {
            continue;
        }
        if a.fill[0].contains(cell) {
            let _ = write!(out, " {cell} fb");
        } else if a.fill[1].contains(cell) {
            let _ = write!(out, " {cell} fw");
        } else {
            let tag = if a.vulnerable.contains(cell) { "iv" } else { "ii" };
            let by = a.dominator(cell).map(|d| d.to_string()).unwrap_or_default();
            let _ = write!(out, " {cell} {tag}[{by}]");
        }
    }
}

/// `inferior-reasons`: why each cell is filled or pruned, one cell a line, as text (the
/// finer reason the one-letter fill labels leave out).
pub(crate) fn inferior_reasons<B: BitSet>(
    pos: &Position<B>,
    color: Color,
) -> Result<String, HtpError> {
    let p = with_to_move(pos, color);
    let a = analyse(&p);
    let colour = |i: usize| if i == 0 { "black" } else { "white" };
    let mut out = String::new();
    let all = a.dead | a.captured[0] | a.captured[1] | a.dominated | a.vulnerable;
    for cell in all.iter() {
        let fill = (0..2).find(|&i| a.fill[i].contains(cell)).map(colour);
        let what = if a.dead.contains(cell) {
            format!("dead, filled {}", fill.unwrap_or("-"))
        } else if let Some(i) = (0..2).find(|&i| a.captured[i].contains(cell)) {
            format!("captured by {}, filled {}", colour(i), fill.unwrap_or(colour(i)))
        } else if a.vulnerable.contains(cell) {
            let by = a.dominator(cell).map(|d| d.to_string()).unwrap_or_default();
            format!("vulnerable to {by}")
        } else {
            let by = a.dominator(cell).map(|d| d.to_string()).unwrap_or_default();
            format!("dominated by {by}")
        };
        let _ = writeln!(out, "{cell} {what}");
    }
    Ok(out)
}

/// The inferior-cell commands, in HexGui's `inferior` display format.
pub(crate) fn inferior<B: BitSet>(
    pos: &Position<B>,
    color: Color,
    kind: Inferior,
) -> Result<String, HtpError> {
    let p = with_to_move(pos, color);
    let a = analyse(&p);
    let labels = match kind {
        Inferior::All => Labels { dead: true, captured: true, pruned: true },
        Inferior::Fillin => Labels { dead: true, captured: true, pruned: false },
        Inferior::Dead => Labels { dead: true, captured: false, pruned: false },
    };
    let mut out = String::new();
    write_labels(&mut out, &a, labels);
    Ok(out.trim_start().to_owned())
}

/// Fill-in, then H-search on the filled position, with `color` to move. `hsearch` is the
/// solver's H-search setting, so that the connections shown are those the solver works with.
fn build<B: BitSet>(
    pos: &Position<B>,
    color: Color,
    hsearch: HSearchConfig,
) -> (Analysis<B>, VcBuilder<B>) {
    let mut p = with_to_move(pos, color);
    let a = analyse(&p);
    a.apply_fill(&mut p);
    let mut vc = VcBuilder::new(hsearch);
    vc.build(&p);
    (a, vc)
}

/// Marks with ` cell x` the empty cells outside `consider` that carry no other label.
fn write_outside<B: BitSet>(out: &mut String, pos: &Position<B>, labelled: B, consider: B) {
    for cell in (pos.empty_cells() - labelled - consider).iter() {
        let _ = write!(out, " {cell} x");
    }
}

/// `vc-build`: fill-in and connections for `color` to move; shows the inferior cells and, when
/// the position is not yet decided, marks the cells outside the moves a solver would consider
/// (the mustplay after pruning).
pub(crate) fn vc_build<B: BitSet>(
    pos: &Position<B>,
    color: Color,
    hsearch: HSearchConfig,
) -> Result<String, HtpError> {
    if pos.winner().is_some() {
        return Ok(String::new());
    }
    let (a, vc) = build(pos, color, hsearch);
    let mut out = String::new();
    write_labels(&mut out, &a, Labels { dead: true, captured: true, pruned: true });
    let decided = a.winner.is_some() || vc.win_now().is_some() || vc.opponent_won().is_some();
    if !decided {
        let labelled = a.fill[0] | a.fill[1] | a.pruned();
        write_outside(&mut out, pos, labelled, a.candidates & vc.mustplay());
    }
    Ok(out.trim_start().to_owned())
}

/// `vc-get-mustplay`: the filled cells, and the cells outside the mustplay of `color` (Chen 2025
/// Definition 7) marked `x`. When the opponent has a full connection between its edges every
/// move loses and every cell is marked: the intersection of the opponent's carriers would
/// depend on how far its H-search ran before it stopped at the first such connection.
pub(crate) fn mustplay<B: BitSet>(
    pos: &Position<B>,
    color: Color,
    hsearch: HSearchConfig,
) -> Result<String, HtpError> {
    if pos.winner().is_some() {
        return Ok(String::new());
    }
    let (a, vc) = build(pos, color, hsearch);
    let mut out = String::new();
    write_labels(&mut out, &a, Labels { dead: true, captured: true, pruned: false });
    if a.winner.is_none() {
        write_outside(&mut out, pos, a.fill[0] | a.fill[1], vc.saving_moves());
    }
    Ok(out.trim_start().to_owned())
}
