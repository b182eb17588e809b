//! The knowledge pipeline every solver calls at a node: the one place where fill-in, virtual
//! connection verdicts, mustplay pruning and move ordering enter the search (Chen 2025 s.5.3–5.7).
//! Each feature is a switch in [`Knowledge`], so experiments can turn them off one by one.
//!
//! A node's analysis returns either a verdict with its proof carrier, or the candidate moves
//! together with the `support`: the empty cells the pruning relied on. A solver that proves the
//! node lost adds the support to the loss carrier, which keeps carriers sound when moves were
//! pruned by knowledge rather than refuted by search.

use nash_board::{BitSet, Cell, Geometry, Position};
use nash_patterns::{Ice, PatternSet};
use nash_vc::{HSearchConfig, VcBuilder};

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

/// The pipeline: configuration, the inferior-cell engine, the H-search builder and the static
/// per-cell move scores. One per search worker; analysing a node never allocates.
#[derive(Debug)]
pub(crate) struct Pipeline<B: BitSet> {
    cfg: Knowledge,
    /// Static move score by bit index (higher first).
    centre: Vec<i32>,
    ice: Option<Ice<B>>,
    vc: Option<VcBuilder<B>>,
    /// Whether `vc` describes the position last analysed (for H-score ordering).
    vc_fresh: bool,
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
        let ice = cfg
            .fill_in
            .then(|| Ice::new(geom, &PatternSet::builtin(), nash_patterns::Config::default()));
        let want_vc = cfg.vc || cfg.mustplay || cfg.ordering == MoveOrdering::HScore;
        let vc = want_vc.then(|| VcBuilder::new(HSearchConfig::default()));
        Pipeline { cfg: cfg.clone(), centre, ice, vc, vc_fresh: false }
    }

    /// The switches.
    pub(crate) fn knowledge(&self) -> &Knowledge {
        &self.cfg
    }

    /// Analyses a position that nobody has won yet. With `root` set, nothing is filled, so a
    /// win's move is a real move of the position and children are searched as they are.
    pub(crate) fn analyse(
        &mut self,
        pos: &mut Position<B>,
        root: bool,
        stats: &mut Stats,
    ) -> Node<B> {
        debug_assert!(pos.winner().is_none());
        self.vc_fresh = false;
        let me = pos.to_move();
        let empty = pos.empty_cells();
        let mut node = Node {
            verdict: Verdict::Open,
            moves: empty,
            support: B::EMPTY,
            fills: 0,
            filled: [B::EMPTY; 2],
        };
        let cfg = &self.cfg;
        if !(cfg.threats || cfg.fill_in || cfg.vc || cfg.mustplay || self.vc.is_some()) {
            return node;
        }
        stats.knowledge_calls += 1;
        let mut forced = None;
        if cfg.threats {
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
                1 => forced = Some(theirs),
                _ => {
                    stats.knowledge_decided += 1;
                    let a = theirs.lowest_bit().map(B::from_bit).unwrap_or(B::EMPTY);
                    let b = theirs.without_lowest().lowest_bit().map(B::from_bit);
                    node.verdict = Verdict::Loss { carrier: a | b.unwrap_or(B::EMPTY) };
                    return node;
                }
            }
        }
        if let Some(w) = forced {
            // The forced reply is the only move; no further knowledge can shrink it.
            node.moves = w;
            node.support = w;
            return node;
        }

        // Fill-in and inferior cells (Chen 2025 s.3.3, s.5.3). Captured and dead cells stay so
        // when stones are added elsewhere, so a proof of the filled position with carrier C is
        // a proof of this one with carrier C plus the filled cells.
        let mut pruned = B::EMPTY;
        let mut analysis = None;
        if let Some(ice) = &self.ice {
            let a = ice.analyse(pos);
            let fill = a.fill[0] | a.fill[1];
            if let Some(w) = a.winner {
                if !root || w != me {
                    stats.knowledge_decided += 1;
                    node.verdict = if w == me {
                        Verdict::Win { mv: None, carrier: fill }
                    } else {
                        Verdict::Loss { carrier: fill }
                    };
                    return node;
                }
            } else {
                if !root {
                    node.fills = a.apply_fill(pos) as u8;
                    node.filled = a.fill;
                }
                node.moves = a.candidates;
                pruned = a.pruned();
                // A loss must cover the moves not searched: filled cells, pruned cells and
                // the cells they were pruned in favour of.
                let mut dominators = B::EMPTY;
                for c in pruned {
                    if let Some(d) = a.dominator(c) {
                        dominators.insert(d);
                    }
                }
                node.support |= fill | pruned | dominators;
                analysis = Some(a);
            }
        }

        // Virtual connections (Anshelevich 2000; Chen 2025 s.5.5.3): decide the node, or
        // restrict the moves to the mustplay.
        if let Some(vc) = &mut self.vc {
            vc.build(pos);
            self.vc_fresh = true;
            if self.cfg.vc {
                if let Some(w) = vc.win_now() {
                    stats.knowledge_decided += 1;
                    let mv = w
                        .key
                        .or_else(|| (w.carrier & pos.empty_cells()).first())
                        .or_else(|| pos.empty_cells().first());
                    node.verdict =
                        Verdict::Win { mv, carrier: w.carrier | node.filled[0] | node.filled[1] };
                    return node;
                }
                if let Some(c) = vc.opponent_won() {
                    stats.knowledge_decided += 1;
                    node.verdict = Verdict::Loss { carrier: c | node.filled[0] | node.filled[1] };
                    return node;
                }
            }
            if self.cfg.mustplay {
                let m = vc.mustplay() & pos.empty_cells();
                let [e1, e2] = (!me).edges();
                let mut threats = B::EMPTY;
                for c in vc.connections(!me, Cell::edge(e1), Cell::edge(e2)) {
                    threats |= c.carrier;
                }
                threats &= pos.empty_cells();
                if !threats.is_empty() {
                    // Inferior pruning is only combined with the mustplay when the dominator
                    // is itself a kept mustplay move (the "pruning twice" pitfall): a cell of
                    // the mustplay pruned in favour of a cell outside it is searched.
                    let kept = m & node.moves;
                    let mut moves = kept;
                    if let Some(a) = &analysis {
                        for c in m & pruned {
                            match a.dominator(c) {
                                Some(d) if kept.contains(d) => {}
                                _ => moves.insert(c),
                            }
                        }
                    } else {
                        moves = m;
                    }
                    node.moves = moves;
                    node.support |= threats;
                    if moves.is_empty() {
                        stats.knowledge_decided += 1;
                        node.verdict = Verdict::Loss {
                            carrier: node.support | node.filled[0] | node.filled[1],
                        };
                        return node;
                    }
                }
            }
        }
        node
    }

    /// Writes `moves` into `out` in search order (best first).
    pub(crate) fn order(&self, pos: &Position<B>, moves: B, out: &mut Vec<Cell>) {
        out.clear();
        out.extend(moves.iter());
        let score = &self.centre;
        match self.cfg.ordering {
            MoveOrdering::None => {}
            MoveOrdering::HScore if self.vc_fresh => {
                if let Some(vc) = &self.vc {
                    let me = pos.to_move();
                    out.sort_unstable_by_key(|c| {
                        let h = (vc.h_score(me, *c) * 100.0) as i32;
                        (-h, -score[B::bit_of(*c)], B::bit_of(*c))
                    });
                }
            }
            MoveOrdering::Centre | MoveOrdering::HScore => {
                // Board order breaks ties, so the order is deterministic.
                out.sort_unstable_by_key(|c| (-score[B::bit_of(*c)], B::bit_of(*c)));
            }
        }
    }
}

/// Undoes what an analysis pushed on the position.
pub(crate) fn undo_fills<B: BitSet>(pos: &mut Position<B>, node: &Node<B>) {
    for _ in 0..node.fills {
        pos.undo();
    }
}
