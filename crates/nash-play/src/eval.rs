//! Static evaluations: how good a position is for the side to move, without searching.
//!
//! Every evaluation is reached through an [`Evaluator`], which keeps its scratch buffers
//! between calls so that evaluating a search node allocates nothing. Values are for the side
//! to move, larger is better, and a finished game is worth [`WIN`] to its winner.

use std::fmt;
use std::str::FromStr;

use nash_board::{BitSet, Cell, Color, Position};

pub mod shortest;

/// The value of a won position for the side that won it; every evaluation stays strictly
/// inside `(-WIN, WIN)` on unfinished positions.
pub const WIN: f64 = 1.0e9;

/// Which evaluation a player searches with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EvalKind {
    /// The shortest-path distance difference: empty cells the opponent must still fill minus
    /// the cells we must fill (a one-distance; the classic early-program evaluation).
    ShortestPath,
}

impl EvalKind {
    /// Every evaluation, in the order help texts list them.
    pub const ALL: &'static [EvalKind] = &[EvalKind::ShortestPath];

    /// The name used in player specs (`eval=NAME`).
    pub fn name(self) -> &'static str {
        match self {
            EvalKind::ShortestPath => "shortest-path",
        }
    }
}

impl fmt::Display for EvalKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for EvalKind {
    type Err = String;

    fn from_str(s: &str) -> Result<EvalKind, String> {
        EvalKind::ALL.iter().copied().find(|k| k.name() == s).ok_or_else(|| {
            let names: Vec<_> = EvalKind::ALL.iter().map(|k| k.name()).collect();
            format!("unknown evaluation '{s}' (evaluations: {})", names.join(", "))
        })
    }
}

/// An evaluation with its scratch space, for positions on one board type.
#[derive(Debug)]
pub struct Evaluator<B: BitSet> {
    kind: EvalKind,
    scratch: Option<Position<B>>,
}

impl<B: BitSet> Evaluator<B> {
    /// An evaluator computing `kind`.
    pub fn new(kind: EvalKind) -> Evaluator<B> {
        Evaluator { kind, scratch: None }
    }

    /// The evaluation it computes.
    pub fn kind(&self) -> EvalKind {
        self.kind
    }

    /// The value of `pos` for the side to move: `WIN` or `-WIN` when the game is over,
    /// otherwise strictly between them, larger meaning better for the side to move.
    pub fn value(&mut self, pos: &Position<B>) -> f64 {
        let me = pos.to_move();
        if let Some(w) = pos.winner() {
            return if w == me { WIN } else { -WIN };
        }
        match self.kind {
            EvalKind::ShortestPath => shortest_margin(pos, me),
        }
    }

    /// Scores of every empty cell as a move for the side to move, larger is better, written
    /// to `out` (cleared first). The default is the value of the position after the move,
    /// negated (it is the opponent's turn there); evaluations with a cheaper per-move score
    /// (resistance's current flow, Y-reduction's partial derivatives) use it instead.
    pub fn move_scores(&mut self, pos: &Position<B>, out: &mut Vec<(Cell, f64)>) {
        out.clear();
        let mut scratch = self.scratch.take().unwrap_or_else(|| pos.clone());
        scratch.clone_from(pos);
        for cell in pos.empty_cells().iter() {
            scratch.play_unchecked(cell);
            out.push((cell, -self.value(&scratch)));
            scratch.undo();
        }
        self.scratch = Some(scratch);
    }
}

/// The opponent's shortest-path distance minus ours, a cut-off path counting as very long.
fn shortest_margin<B: BitSet>(pos: &Position<B>, me: Color) -> f64 {
    let d = |c| match shortest::distance(pos, c) {
        u32::MAX => 1_000.0,
        d => d as f64,
    };
    d(!me) - d(me)
}
