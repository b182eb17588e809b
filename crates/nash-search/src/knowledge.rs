//! The knowledge pipeline every solver calls at a node: the one place where fill-in, virtual
//! connection verdicts, mustplay pruning and move ordering enter the search (Chen 2025 s.5.3–5.7).
//! Each feature is a switch in [`Knowledge`], so experiments can turn them off one by one.
//!
//! A node's analysis returns either a verdict with its proof carrier, or the candidate moves
//! together with the `support`: the empty cells the pruning relied on. A solver that proves the
//! node lost adds the support to the loss carrier, which keeps carriers sound when moves were
//! pruned by knowledge rather than refuted by search.

use nash_board::{BitSet, Cell, Geometry, Position};

use crate::config::{Knowledge, MoveOrdering};
use crate::connect;
use crate::outcome::Stats;

/// What knowledge says about a node, for the player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Verdict<B> {
    /// The player to move wins; `mv` is a winning move when one is known.
    Win { mv: Option<Cell>, carrier: B },
    /// The player to move loses.
    Loss { carrier: B },
    /// Search must decide.
    Open,
}

/// The result of analysing a node.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Node<B> {
    /// A decided value, or `Open`.
    pub(crate) verdict: Verdict<B>,
    /// Candidate moves when open (a subset of the empty cells).
    pub(crate) moves: B,
    /// Empty cells the pruning of moves depended on; part of any loss carrier of this node.
    pub(crate) support: B,
    /// Undo steps the analysis pushed on the position (fill-in); the caller undoes them.
    pub(crate) fills: u8,
    /// Stones the analysis placed, per colour, so the caller can update its key.
    pub(crate) filled: [B; 2],
}

/// The pipeline: configuration plus the static per-cell move scores.
#[derive(Debug)]
pub(crate) struct Pipeline<B: BitSet> {
    cfg: Knowledge,
    /// Static move score by bit index (higher first).
    centre: Vec<i32>,
    _geom: &'static Geometry<B>,
}

impl<B: BitSet> Pipeline<B> {
    pub(crate) fn new(cfg: &Knowledge, geom: &'static Geometry<B>) -> Pipeline<B> {
        let mut centre = vec![0; B::CAPACITY];
        let (cols, rows) = (geom.cols() as i32, geom.rows() as i32);
        for cell in geom.cells() {
            let (c, r) = (i32::from(cell.col()), i32::from(cell.row()));
            // Centre weight of Chen 2025 s.5.7, scaled by 10: distance from the nearest border
            // row and column, plus a boost on the short diagonal between the obtuse corners.
            let mut w = 10 * (r.min(rows - 1 - r) + c.min(cols - 1 - c));
            if (c * (rows - 1) + r * (cols - 1)) == (cols - 1) * (rows - 1) {
                w += 10;
            }
            centre[B::bit_of(cell)] = w;
        }
        Pipeline { cfg: cfg.clone(), centre, _geom: geom }
    }

    /// The switches.
    pub(crate) fn knowledge(&self) -> &Knowledge {
        &self.cfg
    }

    /// Analyses a position that nobody has won yet. With `root` set, the analysis keeps every
    /// move a winning-move answer needs (no fill-in), so the verdict's move is a real move.
    pub(crate) fn analyse(&self, pos: &mut Position<B>, root: bool, stats: &mut Stats) -> Node<B> {
        let _ = root;
        debug_assert!(pos.winner().is_none());
        let me = pos.to_move();
        let empty = pos.empty_cells();
        let mut node = Node {
            verdict: Verdict::Open,
            moves: empty,
            support: B::EMPTY,
            fills: 0,
            filled: [B::EMPTY; 2],
        };
        if !(self.cfg.threats || self.cfg.fill_in || self.cfg.vc || self.cfg.mustplay) {
            return node;
        }
        stats.knowledge_calls += 1;
        if self.cfg.threats {
            // A 2-ply check: an immediate win, or an opponent with two immediate wins, decides;
            // an opponent with one immediate win forces the reply.
            let mine = connect::winning_cells(pos, me);
            if let Some(c) = mine.first() {
                stats.knowledge_decided += 1;
                node.verdict = Verdict::Win { mv: Some(c), carrier: B::single(c) };
                return node;
            }
            let theirs = connect::winning_cells(pos, !me);
            match theirs.len() {
                0 => {}
                1 => {
                    node.moves = theirs;
                    node.support = theirs;
                }
                _ => {
                    stats.knowledge_decided += 1;
                    let a = theirs.lowest_bit().map(B::from_bit).unwrap_or(B::EMPTY);
                    let b = theirs.without_lowest().lowest_bit().map(B::from_bit);
                    node.verdict = Verdict::Loss { carrier: a | b.unwrap_or(B::EMPTY) };
                    return node;
                }
            }
        }
        node
    }

    /// Writes `moves` into `out` in search order (best first).
    pub(crate) fn order(&self, pos: &Position<B>, moves: B, out: &mut Vec<Cell>) {
        out.clear();
        out.extend(moves.iter());
        match self.cfg.ordering {
            MoveOrdering::None => {}
            MoveOrdering::Centre | MoveOrdering::HScore => {
                let _ = pos;
                let score = &self.centre;
                // Board order breaks ties, so the order is deterministic.
                out.sort_unstable_by_key(|c| (-score[B::bit_of(*c)], B::bit_of(*c)));
            }
        }
    }

    /// The static score of a cell (higher is tried first).
    pub(crate) fn static_score(&self, cell: Cell) -> i32 {
        self.centre[B::bit_of(cell)]
    }
}

/// Undoes what an analysis pushed on the position.
pub(crate) fn undo_fills<B: BitSet>(pos: &mut Position<B>, node: &Node<B>) {
    for _ in 0..node.fills {
        pos.undo();
    }
}
