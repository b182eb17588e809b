//! The knowledge pipeline for searches outside this crate: the players' alpha-beta asks an
//! [`Analyser`] what fill-in, inferior cells, virtual connections and the mustplay say about a
//! node, exactly as the solvers do (Chen 2025 s.5.3–5.7), without seeing the pipeline's
//! caches and builder pools.

use nash_board::{BitSet, Cell, Color, Geometry, Position};

use crate::config::{Knowledge, SolverConfig};
use crate::knowledge::{self, Node, Pipeline};
use crate::memory;
use crate::outcome::Stats;

pub use crate::knowledge::Verdict;

/// The knowledge pipeline of one search: its switches, caches and H-search builders, sized
/// within a memory limit. Analysing a node never allocates once the caches are warm.
#[derive(Debug)]
pub struct Analyser<B: BitSet> {
    pipe: Pipeline<B>,
    stats: Stats,
}

/// What knowledge says about one node. When the analysis filled cells (below the root), the
/// position holds the fill until [`Analyser::undo`] takes it back.
#[derive(Clone, Copy, Debug)]
pub struct Analysis<B> {
    node: Node<B>,
    to_move: Color,
}

impl<B: BitSet> Analyser<B> {
    /// An analyser for positions on `geom` with the switches of `knowledge`, its caches
    /// planned within `mib` MiB as one solver worker's would be.
    pub fn new(knowledge: &Knowledge, geom: &'static Geometry<B>, mib: usize) -> Analyser<B> {
        let cfg =
            SolverConfig { knowledge: knowledge.clone(), tt_mib: mib, ..SolverConfig::default() };
        let plan = memory::plan(&cfg, geom);
        Analyser { pipe: Pipeline::with_plan(knowledge, geom, &plan), stats: Stats::default() }
    }

    /// Analyses `pos`, which nobody has won yet, `depth` moves below the search's root (0 at
    /// the root, which is never filled). Below the root, dead and captured cells are filled on
    /// `pos`; call [`Analyser::undo`] with the answer before leaving the node.
    pub fn analyse(&mut self, pos: &mut Position<B>, depth: usize) -> Analysis<B> {
        let to_move = pos.to_move();
        let node = self.pipe.analyse(pos, depth, &mut self.stats);
        Analysis { node, to_move }
    }

    /// Takes back the fill an analysis placed on `pos`.
    pub fn undo(&self, pos: &mut Position<B>, analysis: &Analysis<B>) {
        knowledge::undo_fills(pos, &analysis.node);
    }

    /// Writes `moves` into `out` in the solvers' order, best first (the circuit's current and
    /// H-scores when virtual connections are on, the centre otherwise). Call it right after
    /// analysing `pos`, whose connections it reuses.
    pub fn order(&mut self, pos: &Position<B>, moves: B, out: &mut Vec<Cell>) {
        self.pipe.order(pos, moves, out);
    }

    /// The electric circuit's evaluation (Anshelevich 2000 s.3: the natural log of the
    /// opponent's resistance over the mover's, on the connections of the analysis) for the
    /// player to move of the position last analysed, once [`Analyser::order`] has ordered its
    /// moves by the circuit; `None` with another ordering, or for a decided position.
    pub fn evaluation(&self) -> Option<f64> {
        self.pipe.evaluation()
    }

    /// Knowledge calls so far and how many decided their node.
    pub fn stats(&self) -> &Stats {
        &self.stats
    }
}

impl<B: BitSet> Analysis<B> {
    /// The verdict for the player to move, as a proof of the position before any fill: a
    /// win's or loss's carrier includes the filled cells the proof needs.
    pub fn verdict(&self) -> Verdict<B> {
        match self.node.decided(self.to_move) {
            Some((true, carrier, mv)) => Verdict::Win { mv, carrier },
            Some((false, carrier, _)) => Verdict::Loss { carrier },
            None => Verdict::Open,
        }
    }

    /// The moves worth searching when the node is open: the empty cells left after fill-in,
    /// inferior-cell pruning and the mustplay.
    pub fn moves(&self) -> B {
        self.node.moves
    }

    /// The empty cells the pruning of moves relied on: a loss proven by searching only
    /// [`Analysis::moves`] needs them in its carrier.
    pub fn support(&self) -> B {
        self.node.support
    }

    /// The cells a proof for `winner` found after the fill depends on (the cells `winner`
    /// captured and the empty cells its capture patterns needed): add them to that proof's
    /// carrier.
    pub fn fill_carrier(&self, winner: Color) -> B {
        self.node.fill_carrier(winner)
    }

    /// Whether the analysis placed stones on the position.
    pub fn filled(&self) -> bool {
        self.node.fills() > 0
    }
}
