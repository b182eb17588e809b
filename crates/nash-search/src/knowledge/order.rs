//! Move ordering (Chen 2025 s.5.7): a static centre weight per cell, and from the connections
//! of the position's H-search builder the H-score or the resistance circuit's current, with
//! ties broken so that the order is deterministic; or Queenbee's two-distance potentials, which
//! need no connections.

use nash_board::{BitSet, Cell, Geometry, Position};
use nash_vc::{Resistance, TwoDistance, VcBuilder};

use crate::config::MoveOrdering;

/// The move orderer of one worker: the centre weights, the circuit evaluator with its buffers,
/// and the circuit's evaluation of the position ordered last.
#[derive(Debug)]
pub(crate) struct MoveOrderer<B: BitSet> {
    ordering: MoveOrdering,
    /// Static move score by bit index (higher first).
    centre: Vec<i32>,
    resistance: Resistance<B>,
    /// The two-distance evaluator and its move scores (for [`MoveOrdering::TwoDistance`]).
    two: TwoDistance<B>,
    two_scores: Vec<(Cell, f64)>,
    /// Minus the potential sum by bit index, of the position ordered last.
    two_by_bit: Vec<i32>,
    /// The circuit's evaluation for the player to move of the position ordered last, when its
    /// order came from the circuit.
    evaluation: Option<f32>,
}

impl<B: BitSet> MoveOrderer<B> {
    /// The orderer of `ordering` for positions of `geom`'s board.
    pub(crate) fn new(ordering: MoveOrdering, geom: &Geometry<B>) -> MoveOrderer<B> {
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
        MoveOrderer {
            ordering,
            centre,
            resistance: Resistance::default(),
            two: TwoDistance::default(),
            two_scores: Vec::new(),
            two_by_bit: vec![0; B::CAPACITY],
            evaluation: None,
        }
    }

    /// Whether the ordering reads the connections of an H-search builder.
    pub(crate) fn uses_connections(&self) -> bool {
        matches!(self.ordering, MoveOrdering::HScore | MoveOrdering::Resistance)
    }

    /// The circuit's evaluation (`ln(R_opp / R_me)`) for the player to move of the position
    /// ordered last, when its order came from the circuit.
    pub(crate) fn evaluation(&self) -> Option<f32> {
        self.evaluation
    }

    /// Sets what [`MoveOrderer::evaluation`] says (an order taken from a cache, or none yet).
    pub(crate) fn set_evaluation(&mut self, evaluation: Option<f32>) {
        self.evaluation = evaluation;
    }

    /// Sorts `cells` by centre weight, then board order.
    pub(crate) fn by_centre(&self, cells: &mut [Cell]) {
        let score = &self.centre;
        cells.sort_unstable_by_key(|c| (-score[B::bit_of(*c)], B::bit_of(*c)));
    }

    /// Writes `moves` into `out` in search order, from the connections of `vc`, the builder of
    /// `pos` (when the ordering uses them and there is one).
    pub(crate) fn order(
        &mut self,
        pos: &Position<B>,
        moves: B,
        vc: Option<&VcBuilder<B>>,
        out: &mut Vec<Cell>,
    ) {
        out.clear();
        let score = &self.centre;
        out.extend(moves.iter());
        if out.len() < 2 {
            return;
        }
        match (self.ordering, vc) {
            (MoveOrdering::None, _) => {}
            (MoveOrdering::HScore, Some(vc)) => {
                let me = pos.to_move();
                out.sort_unstable_by_key(|c| {
                    let h = (vc.h_score(me, *c) * 100.0) as i32;
                    (-h, -score[B::bit_of(*c)], B::bit_of(*c))
                });
            }
            (MoveOrdering::Resistance, Some(vc)) => {
                let r = &mut self.resistance;
                r.evaluate(vc);
                let me = pos.to_move();
                self.evaluation = Some(r.evaluation(me) as f32);
                // The circuit score in steps of 1/20 (of a maximum of 2), then the H-score,
                // the centre weight and board order: cells whose currents nearly tie are
                // told apart by the connections they take part in, and the order is
                // deterministic. Measured against finer and coarser steps and against
                // the score alone (docs/vc.md).
                out.sort_unstable_by_key(|c| {
                    let s = (r.score(*c) * 20.0).round() as i32;
                    let h = (vc.h_score(me, *c) * 100.0) as i32;
                    (-s, -h, -score[B::bit_of(*c)], B::bit_of(*c))
                });
            }
            (MoveOrdering::TwoDistance, _) => {
                // Minus the potential sum, higher first; then centre and board order.
                self.two_scores.clear();
                self.two.move_scores(pos, &mut self.two_scores);
                for &(c, s) in &self.two_scores {
                    self.two_by_bit[B::bit_of(c)] = s as i32;
                }
                let two = &self.two_by_bit;
                out.sort_unstable_by_key(|c| {
                    let b = B::bit_of(*c);
                    (-two[b], -score[b], b)
                });
            }
            (MoveOrdering::Centre | MoveOrdering::HScore | MoveOrdering::Resistance, _) => {
                // Board order breaks ties, so the order is deterministic.
                self.by_centre(out);
            }
        }
    }
}
