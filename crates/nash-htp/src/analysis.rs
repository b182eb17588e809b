//! The solver and analysis commands, written once over the bitboard width and run on the
//! current position through `with_position!`.

use nash_board::{BitSet, Cell, Color, Move, Position};
use nash_search::{Outcome, SolveResult, SolverConfig, StopReason, WinningMoves};

use crate::engine::{cell_list, with_to_move};
use crate::{heuristic, HtpError};

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

fn solve<B: BitSet>(pos: &Position<B>, cfg: &SolverConfig) -> SolveResult<B> {
    let _ = (pos, cfg);
    SolveResult {
        outcome: Outcome::Unknown { reason: StopReason::Cancelled },
        stats: Default::default(),
    }
}

fn winning_moves<B: BitSet>(pos: &Position<B>, cfg: &SolverConfig) -> WinningMoves<B> {
    let _ = cfg;
    let empty = pos.empty_cells();
    WinningMoves { winning: B::EMPTY, losing: B::EMPTY, unknown: empty, stats: Default::default() }
}

/// The winner of the position with `to_move` (default: the side to move) to play, or why the
/// solver stopped.
pub(crate) fn solve_state<B: BitSet>(
    pos: &Position<B>,
    to_move: Option<Color>,
    cfg: &SolverConfig,
) -> Result<Color, StopReason> {
    let p = with_to_move(pos, to_move.unwrap_or(pos.to_move()));
    if let Some(w) = p.winner() {
        return Ok(w);
    }
    let r = solve(&p, cfg);
    match r.outcome {
        Outcome::Unknown { reason } => Err(reason),
        o => Ok(o.winner(p.to_move()).expect("decided outcome has a winner")),
    }
}

/// `dfpn-solver-find-winning`: every winning move of `color`, each legal move decided.
pub(crate) fn find_winning<B: BitSet>(
    pos: &Position<B>,
    color: Color,
    cfg: &SolverConfig,
) -> Result<String, HtpError> {
    let p = with_to_move(pos, color);
    if let Some(w) = p.winner() {
        // A finished game: every move keeps the winner's win, none saves the loser.
        return Ok(if w == color { cell_list(p.empty_cells()) } else { String::new() });
    }
    let w = winning_moves(&p, cfg);
    if !w.unknown.is_empty() {
        let reason = match cfg.budget.time {
            Some(_) => "time limit reached",
            None => "node limit reached",
        };
        return Err(HtpError::Undecided { reason: reason.to_owned(), cells: cell_list(w.unknown) });
    }
    Ok(cell_list(w.winning))
}

/// `genmove`: a winning move if the solver finds one within the budget, else the heuristic's
/// choice; `resign` when the game is already over.
pub(crate) fn choose_move<B: BitSet>(pos: &Position<B>, color: Color, cfg: &SolverConfig) -> Move {
    let p = with_to_move(pos, color);
    if p.winner().is_some() {
        return Move::Resign;
    }
    if let Outcome::Win { winning_move: Some(cell), .. } = solve(&p, cfg).outcome {
        if p.empty_cells().contains(cell) {
            return Move::Cell(cell);
        }
    }
    match heuristic::best_move(&p, color) {
        Some(cell) => Move::Cell(cell),
        None => Move::Resign,
    }
}

/// The inferior-cell commands, in HexGui's `inferior` display format.
pub(crate) fn inferior<B: BitSet>(
    pos: &Position<B>,
    color: Color,
    kind: Inferior,
) -> Result<String, HtpError> {
    let _ = (pos, color, kind);
    Err(HtpError::NotAvailable("inferior cell analysis"))
}

/// `vc-build`: builds the connections and shows the cells outside the moves to consider.
pub(crate) fn vc_build<B: BitSet>(pos: &Position<B>, color: Color) -> Result<String, HtpError> {
    let _ = (pos, color);
    Err(HtpError::NotAvailable("virtual connections"))
}

/// `vc-get-mustplay`: the cells outside the mustplay, marked for HexGui.
pub(crate) fn mustplay<B: BitSet>(pos: &Position<B>, color: Color) -> Result<String, HtpError> {
    let _ = (pos, color);
    let _: Option<Cell> = None;
    Err(HtpError::NotAvailable("virtual connections"))
}
