//! Static evaluations: how good a position is for the side to move, without searching.
//!
//! Every evaluation is reached through an [`Evaluator`], which keeps its scratch buffers
//! between calls so that evaluating a search node allocates nothing once the buffers have grown
//! to the board's size. Values are for the side to move, larger is better, and a finished game
//! is worth [`WIN`] to its winner.
//!
//! The evaluations, one file each:
//! - `resistance.rs`: the electric circuits of Anshelevich 2000 s.3-4 (`resistance`, with
//!   virtual connections; `resistance-plain`, adjacency only).
//! - Queenbee's two-distance and potentials (van Rijswijck 2002 s.3.2) live in nash-vc
//!   ([`nash_vc::TwoDistance`]), where the solvers' move ordering reads them too.
//! - `y_reduction.rs`: Hex embedded in Y and reduced (van Rijswijck 2002 s.4, Table 3).
//! - `plays.rs`: Horrell et al.'s numPlaysToWin difference, with or without the bridge
//!   discount; without it, it is also the `shortest-path` evaluation.
//! - `shortest.rs`: the shortest-path distance and the greedy move choice of `genmove`.

use std::fmt;
use std::str::FromStr;

use nash_board::{BitSet, Cell, Position};

pub mod plays;
pub mod resistance;
pub mod shortest;
pub mod y_reduction;

/// The value of a won position for the side that won it; every evaluation stays strictly
/// inside `(-WIN, WIN)` on unfinished positions.
pub const WIN: f64 = 1.0e9;

/// Values at least this large in magnitude are proven wins or losses: a search that proves a
/// win some moves ahead scores it a little below [`WIN`] (the alpha-beta player: `WIN` less the
/// plies and the carrier's size), and evaluations of unfinished positions stay inside.
pub const PROVEN: f64 = WIN - 1000.0;

/// Which evaluation a player searches with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EvalKind {
    /// The shortest-path distance difference: empty cells the opponent must still fill minus
    /// the cells we must fill (a one-distance; the classic early-program evaluation).
    ShortestPath,
    /// Anshelevich's circuit evaluation with virtual connections (2000 s.3-4): the log of the
    /// opponent's resistance over ours; moves scored by the power they dissipate.
    Resistance,
    /// The same circuit with adjacency only (2000 s.3), no virtual connections.
    ResistancePlain,
    /// Queenbee's two-distance (van Rijswijck 2002 s.3.2): the difference of the players'
    /// best potentials, ties broken by how many cells reach them; moves scored by the sum of
    /// both players' potentials.
    TwoDistance,
    /// Y-reduction (van Rijswijck 2002 s.4): Hex embedded in Y, reduced to one value by eq. 2;
    /// moves scored by the partial derivatives of s.4.5.
    YReduction,
    /// Horrell et al.'s numPlaysToWin difference: the opponent's plays to win minus ours.
    PlaysToWin,
    /// numPlaysToWin with the bridge discount: crossing a bridge costs a fraction of a play.
    PlaysToWinBridge,
}

impl EvalKind {
    /// Every evaluation, in the order help texts list them.
    pub const ALL: &'static [EvalKind] = &[
        EvalKind::ShortestPath,
        EvalKind::Resistance,
        EvalKind::ResistancePlain,
        EvalKind::TwoDistance,
        EvalKind::YReduction,
        EvalKind::PlaysToWin,
        EvalKind::PlaysToWinBridge,
    ];

    /// The name used in player specs (`eval=NAME`).
    pub fn name(self) -> &'static str {
        match self {
            EvalKind::ShortestPath => "shortest-path",
            EvalKind::Resistance => "resistance",
            EvalKind::ResistancePlain => "resistance-plain",
            EvalKind::TwoDistance => "two-distance",
            EvalKind::YReduction => "y-reduction",
            EvalKind::PlaysToWin => "plays-to-win",
            EvalKind::PlaysToWinBridge => "plays-to-win-bridge",
        }
    }
}

impl fmt::Display for EvalKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is no evaluation's; the message lists the evaluations there are.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown evaluation '{name}' (evaluations: {})", eval_list())]
pub struct UnknownEval {
    /// The name given.
    pub name: String,
}

/// The evaluations' names, comma-separated.
fn eval_list() -> String {
    EvalKind::ALL.iter().map(|k| k.name()).collect::<Vec<_>>().join(", ")
}

impl FromStr for EvalKind {
    type Err = UnknownEval;

    fn from_str(s: &str) -> Result<EvalKind, UnknownEval> {
        EvalKind::ALL
            .iter()
            .copied()
            .find(|k| k.name() == s)
            .ok_or_else(|| UnknownEval { name: s.to_owned() })
    }
}

/// An evaluation with its scratch space, for positions on one board type.
///
/// Each evaluation's buffers are made on its first call and reused after; an evaluator used
/// on one board size allocates nothing after its first call.
#[derive(Debug)]
pub struct Evaluator<B: BitSet> {
    kind: EvalKind,
    plays: plays::PlaysToWin,
    circuit: Option<resistance::Circuit<B>>,
    two: nash_vc::TwoDistance<B>,
    pyramid: y_reduction::Pyramid,
}

impl<B: BitSet> Evaluator<B> {
    /// An evaluator computing `kind`.
    pub fn new(kind: EvalKind) -> Evaluator<B> {
        Evaluator {
            kind,
            plays: plays::PlaysToWin::default(),
            circuit: None,
            two: nash_vc::TwoDistance::default(),
            pyramid: y_reduction::Pyramid::default(),
        }
    }

    /// The evaluation it computes.
    pub fn kind(&self) -> EvalKind {
        self.kind
    }

    /// The H-search setting whose full connections the `resistance` circuit adds (by default
    /// [`resistance::Circuit::default_hsearch`]); it costs most of that evaluation's time, so a
    /// player may trade connections for speed. No effect on the other evaluations.
    pub fn set_hsearch(&mut self, config: nash_vc::HSearchConfig) {
        if self.kind == EvalKind::Resistance {
            self.circuit().set_hsearch(config);
        }
    }

    /// The value of `pos` for the side to move: `WIN` or `-WIN` when the game is over,
    /// otherwise strictly between them, larger meaning better for the side to move.
    pub fn value(&mut self, pos: &Position<B>) -> f64 {
        let me = pos.to_move();
        if let Some(w) = pos.winner() {
            return if w == me { WIN } else { -WIN };
        }
        match self.kind {
            EvalKind::ShortestPath | EvalKind::PlaysToWin => {
                self.plays.margin(pos, me, plays::Discount::None)
            }
            EvalKind::PlaysToWinBridge => self.plays.margin(pos, me, plays::Discount::Bridges),
            EvalKind::Resistance | EvalKind::ResistancePlain => self.circuit().value(pos, me),
            EvalKind::TwoDistance => self.two.value(pos, me),
            EvalKind::YReduction => self.pyramid.value(pos, me),
        }
    }

    /// Scores of every empty cell as a move for the side to move, larger is better, written
    /// to `out` (cleared first; cells in board order; nothing when the game is over).
    ///
    /// What a score means depends on the evaluation, following its seed:
    /// - shortest-path, plays-to-win and plays-to-win-bridge: the value of the position after
    ///   the move, for the mover (a depth-1 search, as Horrell et al.'s minimax does);
    /// - resistance and resistance-plain: the share of both circuits' power spent in the cell,
    ///   Hexy's move rating (van Rijswijck 2002 s.3.1), between 0 and 2;
    /// - two-distance: minus the sum of both players' potentials in the cell (Queenbee,
    ///   van Rijswijck 2002 s.3.2);
    /// - y-reduction: the value plus the partial derivative of the value with respect to the
    ///   cell (s.4.5), a first-order estimate of the value after the move.
    pub fn move_scores(&mut self, pos: &Position<B>, out: &mut Vec<(Cell, f64)>) {
        out.clear();
        if pos.winner().is_some() {
            return;
        }
        let me = pos.to_move();
        match self.kind {
            EvalKind::ShortestPath | EvalKind::PlaysToWin => {
                self.plays.move_scores(pos, me, plays::Discount::None, out)
            }
            EvalKind::PlaysToWinBridge => {
                self.plays.move_scores(pos, me, plays::Discount::Bridges, out)
            }
            EvalKind::Resistance | EvalKind::ResistancePlain => {
                self.circuit().move_scores(pos, out)
            }
            EvalKind::TwoDistance => self.two.move_scores(pos, out),
            EvalKind::YReduction => self.pyramid.move_scores(pos, me, out),
        }
    }

    /// The circuit of the resistance evaluations, made on first use (it holds an H-search).
    fn circuit(&mut self) -> &mut resistance::Circuit<B> {
        let plain = self.kind == EvalKind::ResistancePlain;
        self.circuit.get_or_insert_with(|| resistance::Circuit::new(plain))
    }
}
