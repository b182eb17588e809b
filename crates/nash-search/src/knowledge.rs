//! The knowledge pipeline every solver calls at a node: the one place where fill-in, virtual
//! connection verdicts, mustplay pruning and move ordering enter the search (Chen 2025 s.5.3–5.7).
//! Each feature is a switch in [`Knowledge`], so experiments can turn them off one by one.
//!
//! A node's analysis returns either a verdict with its proof carrier, or the candidate moves
//! together with the `support`: the empty cells the pruning relied on. A solver that proves the
//! node lost adds the support to the loss carrier, which keeps carriers sound when moves were
//! pruned by knowledge rather than refuted by search.

use nash_board::{BitSet, Cell, Color, Geometry, Position, Stop};
use nash_patterns::Ice;
use nash_vc::VcBuilder;

use crate::config::Knowledge;
use crate::connect;
use crate::decompose::Decomposer;
use crate::memory;
use crate::outcome::Stats;

mod cache;
mod order;
mod pool;

pub(crate) use cache::cached_bytes;
use cache::{AnalysisCache, Order};
use order::MoveOrderer;
use pool::{BuilderPool, Key};

/// What knowledge says about a node, for the player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict<B> {
    /// The player to move wins; `mv` is a winning move when one is known.
    Win {
        /// A winning move, when one is known.
        mv: Option<Cell>,
        /// The empty cells the proof depends on.
        carrier: B,
    },
    /// The player to move loses.
    Loss {
        /// The empty cells the opponent's proof depends on.
        carrier: B,
    },
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
    /// Stones the analysis placed, per colour, so the caller can update its key.
    pub(crate) filled: [B; 2],
    /// The part of `filled` that was captured, per capturing colour. A proof of the filled
    /// position holds for this one once the winner's captured cells join its carrier; see
    /// [`Node::fill_carrier`].
    pub(crate) captured: [B; 2],
    /// Per colour, the empty cells that its pattern fills needed empty besides their targets
    /// ([`nash_patterns::Analysis::needs`]); part of [`Node::fill_carrier`].
    pub(crate) needs: [B; 2],
}

impl<B: BitSet> Node<B> {
    /// An open node with every cell of `moves` a candidate and nothing filled.
    pub(crate) fn open(moves: B) -> Node<B> {
        Node {
            verdict: Verdict::Open,
            moves,
            support: B::EMPTY,
            filled: [B::EMPTY; 2],
            captured: [B::EMPTY; 2],
            needs: [B::EMPTY; 2],
        }
    }

    /// Undo steps the analysis pushed on the position (fill-in); the caller undoes them. One
    /// step per colour with stones in `filled`, always: a cached analysis replays the fill so,
    /// and the caller undoes this many (so a later fill must redo the others, not add a step).
    pub(crate) fn fills(&self) -> usize {
        self.filled.iter().filter(|f| !f.is_empty()).count()
    }

    /// Plays the fill of this analysis on `pos`: one step per colour with stones in `filled`.
    fn replay_fill(&self, pos: &mut Position<B>) {
        for c in Color::ALL {
            if !self.filled[c.index()].is_empty() {
                pos.fill(c, self.filled[c.index()]);
            }
        }
    }

    /// What the fill-in stones change in a running table key: XORed in before the children
    /// are searched (their keys are the filled position's) and out again after.
    pub(crate) fn fill_key(&self, geom: &Geometry<B>) -> u64 {
        Color::ALL.iter().fold(0, |h, &c| h ^ geom.stones_hash(c, self.filled[c.index()]))
    }

    /// The cells of this position a proof for `winner` found after the fill depends on: the
    /// cells `winner` captured and the empty cells its capture patterns needed. Dead cells
    /// stay dead whatever is added, and the loser's fills only add the loser's stones, so the
    /// loser owning every other cell leaves `winner`'s fill sound and the proof standing (the
    /// argument is on [`nash_patterns::ice`]).
    pub(crate) fn fill_carrier(&self, winner: Color) -> B {
        self.captured[winner.index()] | self.needs[winner.index()]
    }

    /// A decided verdict for `me`, the player to move, as a proof of the position before the
    /// fill: whether `me` wins, the carrier with the filled cells it needs, and the winning move
    /// when one is known. `None` when the node is open.
    pub(crate) fn decided(&self, me: Color) -> Option<(bool, B, Option<Cell>)> {
        match self.verdict {
            Verdict::Win { mv, carrier } => Some((true, carrier | self.fill_carrier(me), mv)),
            Verdict::Loss { carrier } => Some((false, carrier | self.fill_carrier(!me), None)),
            Verdict::Open => None,
        }
    }
}

/// The pipeline of one search worker: the configuration, the inferior-cell engines, and three
/// parts with a job each — the [`BuilderPool`] of H-search builders, the [`AnalysisCache`] of
/// recent analyses and the [`MoveOrderer`]. Analysing a node never allocates.
#[derive(Debug)]
pub(crate) struct Pipeline<B: BitSet> {
    cfg: Knowledge,
    ice: [Option<&'static Ice<B>>; 2],
    pool: BuilderPool<B>,
    /// The pool slot of the builder describing the position last analysed, if any (for
    /// H-score and resistance ordering).
    fresh: Option<usize>,
    /// Recent analyses of this worker (empty when there is no H-search to save).
    cache: AnalysisCache<B>,
    /// The cache slot of the position last analysed, if it came from or went to the cache,
    /// and that position's depth below the root.
    cached: Option<usize>,
    last_depth: usize,
    orderer: MoveOrderer<B>,
    /// The order of a cached analysis being made, kept between calls.
    scratch: Vec<Cell>,
    /// The search for decompositions, with its buffers.
    decomposer: Decomposer<B>,
    /// The solve's deadline and flags, polled inside the inferior-cell analysis and (through
    /// the pool's builders) inside H-search.
    stop: Stop,
}

impl<B: BitSet> Pipeline<B> {
    /// The pipeline of one worker, its caches sized by `plan` (see [`memory::plan`]) so that
    /// the solve stays within its memory limit.
    pub(crate) fn with_plan(
        cfg: &Knowledge,
        geom: &'static Geometry<B>,
        plan: &memory::Plan,
    ) -> Pipeline<B> {
        // Once per worker and solve: compiling the inferior-cell patterns and sizing the caches.
        let _stage = tracing::debug_span!("knowledge_setup", pool = plan.pool).entered();
        let n = geom.cells().len() + 2;
        Pipeline {
            cfg: cfg.clone(),
            ice: engines(cfg, geom),
            pool: BuilderPool::new(plan.pool, cfg.hsearch, n + 1),
            fresh: None,
            cache: AnalysisCache::new(plan.cache_slots),
            cached: None,
            last_depth: 0,
            orderer: MoveOrderer::new(cfg.ordering, geom),
            scratch: Vec::with_capacity(n),
            decomposer: Decomposer::default(),
            stop: Stop::never(),
        }
    }

    /// Makes the analyses of this pipeline poll `stop` (the solver's [`crate::budget::Limits`]
    /// stop) inside H-search and the inferior-cell analysis. A cut-short analysis is sound
    /// (fewer connections, fewer fills and pruned moves), so a node it decides is decided; the
    /// solver sees the stop at its next node and returns unknown.
    pub(crate) fn set_stop(&mut self, stop: &Stop) {
        self.stop.clone_from(stop);
        self.pool.set_stop(stop);
    }

    /// Analyses a position that nobody has won yet, `depth` moves below the root. At the root
    /// nothing is filled, so a win's move is a real move of the position. The H-search builder
    /// of `depth - 1` is reused when it describes an ancestor of this position.
    pub(crate) fn analyse(
        &mut self,
        pos: &mut Position<B>,
        depth: usize,
        stats: &mut Stats,
    ) -> Node<B> {
        self.cached = None;
        self.orderer.set_evaluation(None);
        let key = Key::new(pos.hash()).unwrap_or(Key::MIN);
        self.pool.enter(depth, key);
        if depth == 0 || self.cache.is_empty() {
            return self.analyse_uncached(pos, depth, stats);
        }
        if let Some(slot) = self.cache.find(key) {
            let node = self.cache.get(slot).node;
            node.replay_fill(pos);
            stats.knowledge_calls += 1;
            stats.knowledge_cached += 1;
            self.fresh = None;
            self.cached = Some(slot);
            self.last_depth = depth;
            return node;
        }
        let node = self.analyse_uncached(pos, depth, stats);
        // The move order is left for [`Pipeline::order`]: most nodes df-pn analyses return to
        // their parent before a child is chosen, and never need one.
        self.cached = Some(self.cache.store(key, node));
        self.last_depth = depth;
        node
    }

    fn analyse_uncached(
        &mut self,
        pos: &mut Position<B>,
        depth: usize,
        stats: &mut Stats,
    ) -> Node<B> {
        debug_assert!(pos.winner().is_none());
        self.fresh = None;
        let mut node = Node::open(pos.empty_cells());
        let cfg = &self.cfg;
        if !(cfg.threats || cfg.fill_in || cfg.vc || cfg.mustplay || !self.pool.is_empty()) {
            return node;
        }
        stats.knowledge_calls += 1;
        if let Some(decided) = self.cfg.threats.then(|| threats(pos, &mut node)).flatten() {
            stats.knowledge_decided += u64::from(decided);
            return node;
        }
        let Some(analysis) = self.fill_in(pos, depth == 0, &mut node) else {
            stats.knowledge_decided += 1;
            return node;
        };
        if !self.pool.is_empty() && self.connections(pos, depth, analysis.as_ref(), &mut node) {
            stats.knowledge_decided += 1;
        }
        node
    }

    /// Fill-in and inferior cells (Chen 2025 s.3.3, s.5.3), applied to `node` of `pos`: `None`
    /// when they decide the node, else the engine's analysis (if there is an engine). Dead cells
    /// stay so when stones are added elsewhere, and so do captures while the cells their
    /// patterns need stay empty, so a proof of the filled position with carrier C is a proof of
    /// this one with carrier C plus the winner's captured cells and those cells
    /// ([`Node::fill_carrier`]).
    fn fill_in(
        &self,
        pos: &mut Position<B>,
        root: bool,
        node: &mut Node<B>,
    ) -> Option<Option<nash_patterns::Analysis<B>>> {
        let me = pos.to_move();
        let Some(ice) = self.ice[me.index()] else { return Some(None) };
        let a = ice.analyse_until(pos, &self.stop);
        if let Some(w) = a.winner {
            if !root || w != me {
                let carrier = a.fill_carrier(w);
                node.verdict = if w == me {
                    Verdict::Win { mv: None, carrier }
                } else {
                    Verdict::Loss { carrier }
                };
                return None;
            }
            return Some(None);
        }
        if !root {
            a.apply_fill(pos);
            node.filled = a.fill;
            node.captured = a.captured;
            node.needs = a.needs;
        }
        node.moves = a.candidates;
        let pruned = a.pruned();
        // A loss must cover the moves not searched: the cells the opponent captured and the
        // empty cells its capture patterns needed, pruned cells, the cells they were pruned in
        // favour of and the empty cells the domination patterns needed.
        let mut dominators = B::EMPTY;
        for c in pruned {
            if let Some(d) = a.dominator(c) {
                dominators.insert(d);
            }
        }
        node.support |= a.fill_carrier(!me) | a.prune_needs | pruned | dominators;
        Some(Some(a))
    }

    /// Virtual connections (Anshelevich 2000; Chen 2025 s.5.5.3) of `pos`, `depth` moves below
    /// the root: decide `node` (true), or restrict its moves to the mustplay; `analysis` is the
    /// inferior-cell engine's, if it ran.
    fn connections(
        &mut self,
        pos: &mut Position<B>,
        depth: usize,
        analysis: Option<&nash_patterns::Analysis<B>>,
        node: &mut Node<B>,
    ) -> bool {
        let me = pos.to_move();
        let started = self.pool.start(pos, depth);
        let slot = started.slot;
        if self.cfg.vc {
            // The mover's connections alone can decide: then the other player's are never
            // built.
            if let Some(w) = self.pool.builder(slot).win_now() {
                let mv = w
                    .key
                    .or_else(|| (w.carrier & pos.empty_cells()).first())
                    .or_else(|| pos.empty_cells().first());
                node.verdict = Verdict::Win { mv, carrier: w.carrier | node.fill_carrier(me) };
                return true;
            }
        }
        self.pool.finish(pos, depth, started);
        self.fresh = Some(slot);
        let vc = self.pool.builder(slot);
        if self.cfg.vc {
            if let Some(c) = vc.opponent_won() {
                node.verdict = Verdict::Loss { carrier: c | node.fill_carrier(!me) };
                return true;
            }
        }
        if self.cfg.mustplay && mustplay(vc, pos, analysis, node) {
            node.verdict = Verdict::Loss { carrier: node.support | node.fill_carrier(!me) };
            return true;
        }
        if self.cfg.decompositions && depth > 0 && self.decompose(pos, slot, node) {
            // The children derive their connections from a builder of the filled position,
            // which costs one build here instead of a rebuild in each child.
            self.pool.forget(slot);
            self.fresh = Some(self.pool.build(pos, depth));
        }
        false
    }

    /// Fills the carrier of a decomposition of either player ([`Decomposer`]) in `pos`, whose
    /// connections the builder in `slot` describes: the children of the node are searched with
    /// it filled. The value stays for either player to move; a move of the node inside the
    /// carrier wins only if every move does, so the node's moves lose the carrier's cells (as
    /// long as some are left). The carrier counts as the player's captured cells, and as support
    /// of a loss when it is the mover's. Returns whether a carrier was filled.
    fn decompose(&mut self, pos: &mut Position<B>, slot: usize, node: &mut Node<B>) -> bool {
        let me = pos.to_move();
        let geom = pos.geometry();
        for c in [me, !me] {
            let Some(d) = self.decomposer.find(pos, self.pool.builder(slot), c) else { continue };
            let kept = node.moves - d;
            if kept.is_empty() || geom.connects(pos.stones(c) | d, c) {
                continue;
            }
            undo_fills(pos, node);
            node.filled[c.index()] |= d;
            node.captured[c.index()] |= d;
            node.replay_fill(pos);
            node.moves = kept;
            if c == me {
                node.support |= d;
            }
            return true;
        }
        false
    }

    /// The circuit's evaluation (`ln(R_opp / R_me)`) for the player to move of the position
    /// last analysed, when the last [`Pipeline::order`] of it came from the circuit.
    pub(crate) fn evaluation(&self) -> Option<f64> {
        self.orderer.evaluation().map(f64::from)
    }

    /// Writes `moves` into `out` in search order (best first), for the position analysed last.
    pub(crate) fn order(&mut self, pos: &Position<B>, moves: B, out: &mut Vec<Cell>) {
        out.clear();
        let Some(slot) = self.cached else {
            let vc = self.fresh.and_then(|d| self.pool.get(d));
            self.orderer.order(pos, moves, vc, out);
            return;
        };
        let order = match self.cache.get(slot).order {
            Some(order) => order,
            None => self.order_cached(pos, slot),
        };
        // The order kept with the cached analysis; cells past its length follow in centre
        // order.
        self.orderer.set_evaluation(order.evaluation);
        let mut rest = moves;
        for c in order.cells::<B>() {
            if rest.contains(c) {
                out.push(c);
                rest.remove(c);
            }
        }
        let start = out.len();
        out.extend(rest.iter());
        self.orderer.by_centre(&mut out[start..]);
    }

    /// Orders the moves of the cached analysis in `slot`, of `pos`, and keeps the order there.
    /// An open analysis of more than one move made just now left its builder (`fresh`); one
    /// that came from the cache did not, so its connections are those of the pool when they
    /// are still there, else they are built again (derived from the closest builder kept), and
    /// the node's children then derive theirs from them.
    fn order_cached(&mut self, pos: &Position<B>, slot: usize) -> Order {
        let moves = self.cache.get(slot).node.moves;
        if self.fresh.is_none()
            && moves.len() > 1
            && !self.pool.is_empty()
            && self.orderer.uses_connections()
        {
            let pooled = self.cache.key(slot).and_then(|key| self.pool.take(key));
            self.fresh = Some(match pooled {
                Some(i) => i,
                None => self.pool.build(pos, self.last_depth),
            });
        }
        self.orderer.set_evaluation(None);
        let vc = self.fresh.and_then(|d| self.pool.get(d));
        self.orderer.order(pos, moves, vc, &mut self.scratch);
        let order = Order::of::<B>(&self.scratch, self.orderer.evaluation());
        self.cache.set_order(slot, order);
        order
    }
}

/// The inferior-cell engine for each player to move: the same one unless the fill-in is for a
/// known winner, whose own moves are pruned and the loser's are not; none without fill-in.
fn engines<B: BitSet>(cfg: &Knowledge, geom: &'static Geometry<B>) -> [Option<&'static Ice<B>>; 2] {
    match (cfg.fill_in, cfg.fill_in_for) {
        (false, _) => [None; 2],
        (true, None) => [Some(Ice::shared(geom)); 2],
        (true, Some(winner)) => {
            let config = nash_patterns::ice::Config {
                dead_fill: Some(!winner),
                captures_of: Some(!winner),
                ..nash_patterns::ice::Config::default()
            };
            let loser = nash_patterns::ice::Config {
                dominated: false,
                vulnerable: false,
                kill_dominated: false,
                ..config
            };
            let mut ice = [Some(Ice::shared_with(geom, config)); 2];
            ice[(!winner).index()] = Some(Ice::shared_with(geom, loser));
            ice
        }
    }
}

/// A 2-ply check of `pos` into `node`: an immediate win, or an opponent with two immediate
/// wins, decides; an opponent with one immediate win forces the reply, the only move, which no
/// further knowledge can shrink. Whether the check settled the node: `Some(true)` decided,
/// `Some(false)` the reply forced, `None` neither.
fn threats<B: BitSet>(pos: &Position<B>, node: &mut Node<B>) -> Option<bool> {
    let me = pos.to_move();
    let mine = connect::winning_cells(pos, me);
    if let Some(c) = mine.first() {
        node.verdict = Verdict::Win { mv: Some(c), carrier: B::single(c) };
        return Some(true);
    }
    let theirs = connect::winning_cells(pos, !me);
    match theirs.len() {
        0 => None,
        1 => {
            node.moves = theirs;
            node.support = theirs;
            Some(false)
        }
        _ => {
            // Two of their winning cells: we can block only one.
            let two: B = theirs.iter().take(2).collect();
            node.verdict = Verdict::Loss { carrier: two };
            Some(true)
        }
    }
}

/// Restricts `node`'s moves to the mustplay of the connections `vc` of `pos`, with the small
/// threat pattern that justifies it as support; true when no move is left (the node is lost).
/// `analysis` is the inferior-cell engine's, whose pruning is combined with the mustplay.
fn mustplay<B: BitSet>(
    vc: &VcBuilder<B>,
    pos: &Position<B>,
    analysis: Option<&nash_patterns::Analysis<B>>,
    node: &mut Node<B>,
) -> bool {
    let me = pos.to_move();
    let m = vc.mustplay() & pos.empty_cells();
    let threats = small_threat(vc, !me, pos.empty_cells());
    if threats.is_empty() {
        return false;
    }
    // Inferior pruning is only combined with the mustplay when the dominator is itself a kept
    // mustplay move (the "pruning twice" pitfall): a cell of the mustplay pruned in favour of
    // a cell outside it is searched.
    let kept = m & node.moves;
    let mut moves = kept;
    if let Some(a) = analysis {
        for c in m & a.pruned() {
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
    moves.is_empty()
}

/// The empty cells of a few of `color`'s edge-to-edge connections whose carriers meet exactly
/// in the mustplay of the other player (chosen greedily, each cutting the most cells from the
/// running intersection), or nothing when `color` has no such connection. Every move outside
/// the mustplay is outside one of these carriers, so their union justifies the pruning; it is
/// usually much smaller than the union of all the connections, and a smaller loss carrier
/// prunes more siblings higher up (van Rijswijck 2002 s.2.3 on small threat patterns).
fn small_threat<B: BitSet>(vc: &VcBuilder<B>, color: Color, empty: B) -> B {
    let [e1, e2] = color.edges();
    let (x, y) = (Cell::edge(e1), Cell::edge(e2));
    let mut inter = empty;
    let mut union = B::EMPTY;
    loop {
        let mut best: Option<(usize, B)> = None;
        for c in vc.connections(color, x, y) {
            let gain = (inter - c.carrier).len();
            if best.map_or(true, |(g, _)| gain > g) {
                best = Some((gain, c.carrier));
            }
        }
        match best {
            Some((gain, carrier)) if gain > 0 || union.is_empty() => {
                union |= carrier;
                inter &= carrier;
                if gain == 0 {
                    break;
                }
            }
            _ => break,
        }
    }
    union & empty
}

/// Undoes what an analysis pushed on the position.
pub(crate) fn undo_fills<B: BitSet>(pos: &mut Position<B>, node: &Node<B>) {
    for _ in 0..node.fills() {
        pos.undo();
    }
}
