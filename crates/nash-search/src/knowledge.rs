//! The knowledge pipeline every solver calls at a node: the one place where fill-in, virtual
//! connection verdicts, mustplay pruning and move ordering enter the search (Chen 2025 s.5.3–5.7).
//! Each feature is a switch in [`Knowledge`], so experiments can turn them off one by one.
//!
//! A node's analysis returns either a verdict with its proof carrier, or the candidate moves
//! together with the `support`: the empty cells the pruning relied on. A solver that proves the
//! node lost adds the support to the loss carrier, which keeps carriers sound when moves were
//! pruned by knowledge rather than refuted by search.

use std::cell::{Cell as Slot, RefCell};

use nash_board::{BitSet, Cell, Color, Geometry, Position};
use nash_patterns::Ice;
use nash_vc::{Resistance, VcBuilder};

use crate::config::{Knowledge, MoveOrdering};
use crate::connect;
use crate::decompose::Decomposer;
use crate::memory;
use crate::outcome::Stats;

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
    /// Undo steps the analysis pushed on the position (fill-in); the caller undoes them. One
    /// step per colour with stones in `filled`, always: a cached analysis replays the fill so,
    /// and the caller undoes this many (so a later fill must redo the others, not add a step).
    pub(crate) fills: u8,
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

/// The pipeline: configuration, the inferior-cell engine, the H-search builder and the static
/// per-cell move scores. One per search worker; analysing a node never allocates.
#[derive(Debug)]
pub(crate) struct Pipeline<B: BitSet> {
    cfg: Knowledge,
    /// Static move score by bit index (higher first).
    centre: Vec<i32>,
    ice: [Option<&'static Ice<B>>; 2],
    /// A pool of H-search builders, each describing a recently analysed position: a child's
    /// connections for the player who did not move are taken from its parent's (Chen 2025
    /// s.5.4.2) when the parent's builder is still in the pool.
    vc: Vec<VcBuilder<B>>,
    /// Per pool slot: the key of the position it describes (0: none) and when it was last used.
    vc_key: Vec<u64>,
    vc_used: Vec<u64>,
    clock: u64,
    /// The key of the position analysed last at each depth: the parent of the next analysis
    /// one level deeper.
    path: Vec<u64>,
    /// The builder describing the position last analysed, if any (for H-score ordering).
    vc_fresh: Option<usize>,
    /// Recent analyses of this worker (empty when there is no H-search to save).
    cache: Vec<Cached<B>>,
    /// The size the cache may grow to, and the analyses stored since it last grew.
    cache_max: usize,
    cache_stored: usize,
    /// The cache slot of the position last analysed, if it came from or went to the cache,
    /// and that position's depth below the root.
    cached: Option<usize>,
    last_depth: usize,
    scratch: Vec<Cell>,
    /// The circuit evaluator of resistance ordering; `order_uncached` takes `&self`, and a
    /// pipeline belongs to one worker, so a `RefCell` lends its buffers.
    resistance: RefCell<Resistance<B>>,
    /// The circuit's evaluation for the player to move of the position last analysed, when
    /// its order came from the circuit (NaN otherwise).
    evaluation: Slot<f32>,
    /// The search for decompositions, with its buffers.
    decomposer: Decomposer<B>,
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
        // One engine for each player to move: the same one unless the fill-in is for a known
        // winner, whose own moves are pruned and the loser's are not.
        let ice = match (cfg.fill_in, cfg.fill_in_for) {
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
        };
        let n = geom.cells().len() + 2;
        let vc: Vec<_> = (0..plan.pool).map(|_| VcBuilder::new(cfg.hsearch)).collect();
        let cache = vec![Cached::default(); plan.cache_slots.min(CACHE_START)];
        Pipeline {
            cfg: cfg.clone(),
            centre,
            ice,
            vc_key: vec![0; vc.len()],
            vc_used: vec![0; vc.len()],
            clock: 0,
            path: vec![0; n + 1],
            vc,
            vc_fresh: None,
            cache,
            cache_max: plan.cache_slots,
            cache_stored: 0,
            cached: None,
            last_depth: 0,
            scratch: Vec::with_capacity(n),
            resistance: RefCell::new(Resistance::default()),
            evaluation: Slot::new(f32::NAN),
            decomposer: Decomposer::default(),
        }
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
        self.evaluation.set(f32::NAN);
        let key = pos.hash().max(1);
        if let Some(k) = self.path.get_mut(depth) {
            *k = key;
        }
        if depth == 0 || self.cache.is_empty() {
            return self.analyse_uncached(pos, depth, stats);
        }
        // Df-pn visits a node many times; H-search is the expensive part of a visit, so each
        // worker remembers its last analyses (a direct-mapped cache keyed by position).
        let slot = key as usize & (self.cache.len() - 1);
        if self.cache[slot].key == key {
            let node = self.cache[slot].node;
            for c in Color::ALL {
                if !node.filled[c.index()].is_empty() {
                    pos.fill(c, node.filled[c.index()]);
                }
            }
            stats.knowledge_calls += 1;
            stats.knowledge_cached += 1;
            self.vc_fresh = None;
            self.cached = Some(slot);
            self.last_depth = depth;
            return node;
        }
        let node = self.analyse_uncached(pos, depth, stats);
        debug_assert_eq!(
            usize::from(node.fills),
            node.filled.iter().filter(|f| !f.is_empty()).count(),
            "one fill step per colour"
        );
        // The move order is left for [`Pipeline::order`]: most nodes df-pn analyses return to
        // their parent before a child is chosen, and never need one.
        let slot = self.cache_slot(key);
        let e = &mut self.cache[slot];
        e.key = key;
        e.node = node;
        e.len = 0;
        e.ordered = false;
        e.evaluation = f32::NAN;
        self.cached = Some(slot);
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
        let root = depth == 0;
        self.vc_fresh = None;
        let me = pos.to_move();
        let empty = pos.empty_cells();
        let mut node = Node {
            verdict: Verdict::Open,
            moves: empty,
            support: B::EMPTY,
            fills: 0,
            filled: [B::EMPTY; 2],
            captured: [B::EMPTY; 2],
            needs: [B::EMPTY; 2],
        };
        let cfg = &self.cfg;
        if !(cfg.threats || cfg.fill_in || cfg.vc || cfg.mustplay || !self.vc.is_empty()) {
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
                    // Two of their winning cells: we can block only one.
                    let two: B = theirs.iter().take(2).collect();
                    node.verdict = Verdict::Loss { carrier: two };
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

        // Fill-in and inferior cells (Chen 2025 s.3.3, s.5.3). Dead cells stay so when stones
        // are added elsewhere, and so do captures while the cells their patterns need stay
        // empty, so a proof of the filled position with carrier C is a proof of this one with
        // carrier C plus the winner's captured cells and those cells ([`Node::fill_carrier`]).
        let mut pruned = B::EMPTY;
        let mut analysis = None;
        if let Some(ice) = self.ice[me.index()] {
            let a = ice.analyse(pos);
            if let Some(w) = a.winner {
                if !root || w != me {
                    stats.knowledge_decided += 1;
                    let carrier = a.fill_carrier(w);
                    node.verdict = if w == me {
                        Verdict::Win { mv: None, carrier }
                    } else {
                        Verdict::Loss { carrier }
                    };
                    return node;
                }
            } else {
                if !root {
                    node.fills = a.apply_fill(pos) as u8;
                    node.filled = a.fill;
                    node.captured = a.captured;
                    node.needs = a.needs;
                }
                node.moves = a.candidates;
                pruned = a.pruned();
                // A loss must cover the moves not searched: the cells the opponent captured and
                // the empty cells its capture patterns needed, pruned cells, the cells they were
                // pruned in favour of and the empty cells the domination patterns needed.
                let mut dominators = B::EMPTY;
                for c in pruned {
                    if let Some(d) = a.dominator(c) {
                        dominators.insert(d);
                    }
                }
                node.support |= a.fill_carrier(!me) | a.prune_needs | pruned | dominators;
                analysis = Some(a);
            }
        }

        // Virtual connections (Anshelevich 2000; Chen 2025 s.5.5.3): decide the node, or
        // restrict the moves to the mustplay.
        if !self.vc.is_empty() {
            let started = self.start_vc(pos, depth);
            let slot = started.0;
            if self.cfg.vc {
                // The mover's connections alone can decide: then the other player's are
                // never built.
                if let Some(w) = self.vc[slot].win_now() {
                    stats.knowledge_decided += 1;
                    let mv = w
                        .key
                        .or_else(|| (w.carrier & pos.empty_cells()).first())
                        .or_else(|| pos.empty_cells().first());
                    node.verdict = Verdict::Win { mv, carrier: w.carrier | node.fill_carrier(me) };
                    return node;
                }
            }
            self.finish_vc(pos, depth, started);
            self.vc_fresh = Some(slot);
            let vc = &self.vc[slot];
            if self.cfg.vc {
                if let Some(c) = vc.opponent_won() {
                    stats.knowledge_decided += 1;
                    node.verdict = Verdict::Loss { carrier: c | node.fill_carrier(!me) };
                    return node;
                }
            }
            if self.cfg.mustplay {
                let m = vc.mustplay() & pos.empty_cells();
                let threats = small_threat(vc, !me, pos.empty_cells());
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
                        node.verdict =
                            Verdict::Loss { carrier: node.support | node.fill_carrier(!me) };
                        return node;
                    }
                }
            }
            if self.cfg.decompositions && !root && self.decompose(pos, slot, &mut node) {
                // The children derive their connections from a builder of the filled position,
                // which costs one build here instead of a rebuild in each child.
                self.vc_key[slot] = 0;
                let started = self.start_vc(pos, depth);
                self.finish_vc(pos, depth, started);
                self.vc_fresh = Some(started.0);
            }
        }
        node
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
            let Some(d) = self.decomposer.find(pos, &self.vc[slot], c) else { continue };
            let kept = node.moves - d;
            if kept.is_empty() || geom.connects(pos.stones(c) | d, c) {
                continue;
            }
            for _ in 0..node.fills {
                pos.undo();
            }
            node.filled[c.index()] |= d;
            node.captured[c.index()] |= d;
            node.fills = 0;
            for col in Color::ALL {
                if !node.filled[col.index()].is_empty() {
                    pos.fill(col, node.filled[col.index()]);
                    node.fills += 1;
                }
            }
            node.moves = kept;
            if c == me {
                node.support |= d;
            }
            return true;
        }
        false
    }

    /// Builds the connections of the player to move in `pos`, `depth` moves below the root, in
    /// the least recently used pool slot, and returns the slot and the slot of the parent's
    /// builder if it is still in the pool (the position last analysed one level up). The other
    /// player's connections follow with [`Pipeline::finish_vc`]; until then the slot describes
    /// no position, so no child derives from it.
    fn start_vc(&mut self, pos: &Position<B>, depth: usize) -> (usize, Option<usize>) {
        self.clock += 1;
        let parent_key = match depth {
            0 => 0,
            d => self.path.get(d - 1).copied().unwrap_or(0),
        };
        let parent = self.pooled(parent_key);
        // Without the parent's builder, the kept builder whose position is closest below this
        // one (an ancestor, or a position df-pn left for another line): updating it costs
        // less than building both sets from scratch.
        let parent = parent.or_else(|| {
            let costs = self.vc.iter().enumerate();
            costs.filter_map(|(i, b)| b.derivation_cost(pos).map(|c| (c, i))).min().map(|(_, i)| i)
        });
        let slot = (0..self.vc.len())
            .filter(|&i| Some(i) != parent)
            .min_by_key(|&i| self.vc_used[i])
            .unwrap_or(0);
        self.build_side(pos, slot, parent, pos.to_move());
        self.vc_key[slot] = 0;
        self.vc_used[slot] = self.clock;
        (slot, parent)
    }

    /// Builds the connections of the player who just moved in the slot [`Pipeline::start_vc`]
    /// returned; the slot then describes `pos`, `depth` moves below the root.
    fn finish_vc(
        &mut self,
        pos: &Position<B>,
        depth: usize,
        (slot, parent): (usize, Option<usize>),
    ) {
        self.build_side(pos, slot, parent, !pos.to_move());
        self.vc_key[slot] = self.path.get(depth).copied().unwrap_or(0);
    }

    /// The pool slot of the builder that describes the position of `key`, if any (0: none).
    fn pooled(&self, key: u64) -> Option<usize> {
        (key != 0).then(|| self.vc_key.iter().position(|&k| k == key)).flatten()
    }

    /// Builds `color`'s connections of `pos` in `slot`, from the builder in `parent` when
    /// there is one.
    fn build_side(&mut self, pos: &Position<B>, slot: usize, parent: Option<usize>, color: Color) {
        match parent {
            Some(p) => {
                let (a, b) = if p < slot {
                    let (x, y) = self.vc.split_at_mut(slot);
                    (&x[p], &mut y[0])
                } else {
                    let (x, y) = self.vc.split_at_mut(p);
                    (&y[0], &mut x[slot])
                };
                b.build_side(Some(a), pos, color);
                self.vc_used[p] = self.clock;
            }
            None => self.vc[slot].build_side(None, pos, color),
        }
    }

    /// The slot where the analysis of `key` goes. The cache starts small, so short solves do
    /// not pay for clearing a large one, and grows by fourfold steps up to its planned size
    /// while it keeps filling (what it held is dropped; it is only a cache).
    fn cache_slot(&mut self, key: u64) -> usize {
        self.cache_stored += 1;
        if self.cache_stored > self.cache.len() && self.cache.len() < self.cache_max {
            let len = (self.cache.len() * 4).min(self.cache_max);
            self.cache.clear();
            self.cache.resize(len, Cached::default());
            self.cache_stored = 0;
        }
        key as usize & (self.cache.len() - 1)
    }

    /// The circuit's evaluation (`ln(R_opp / R_me)`) for the player to move of the position
    /// last analysed, when the last [`Pipeline::order`] of it came from the circuit.
    pub(crate) fn evaluation(&self) -> Option<f64> {
        let e = self.evaluation.get();
        (!e.is_nan()).then_some(f64::from(e))
    }

    /// Writes `moves` into `out` in search order (best first), for the position analysed last.
    pub(crate) fn order(&mut self, pos: &Position<B>, moves: B, out: &mut Vec<Cell>) {
        out.clear();
        if let Some(slot) = self.cached {
            if !self.cache[slot].ordered {
                self.order_cached(pos, slot);
            }
            // The order kept with the cached analysis; cells past its length follow in centre
            // order.
            let score = &self.centre;
            let e = &self.cache[slot];
            self.evaluation.set(e.evaluation);
            let mut rest = moves;
            for &b in &e.order[..e.len as usize] {
                let c = B::cell_of(b as usize);
                if rest.contains(c) {
                    out.push(c);
                    rest.remove(c);
                }
            }
            let start = out.len();
            out.extend(rest.iter());
            out[start..].sort_unstable_by_key(|c| (-score[B::bit_of(*c)], B::bit_of(*c)));
            return;
        }
        self.order_uncached(pos, moves, out);
    }

    /// Orders the moves of the cached analysis in `slot`, of `pos`, and keeps the order there.
    /// An open analysis of more than one move made just now left its builder (`vc_fresh`); one
    /// that came from the cache did not, so its connections are those of the pool when they
    /// are still there, else they are built again (derived from the closest builder kept), and
    /// the node's children then derive theirs from them.
    fn order_cached(&mut self, pos: &Position<B>, slot: usize) {
        let key = self.cache[slot].key;
        let moves = self.cache[slot].node.moves;
        if self.vc_fresh.is_none()
            && moves.len() > 1
            && !self.vc.is_empty()
            && matches!(self.cfg.ordering, MoveOrdering::HScore | MoveOrdering::Resistance)
        {
            match self.pooled(key) {
                Some(i) => {
                    self.clock += 1;
                    self.vc_used[i] = self.clock;
                    self.vc_fresh = Some(i);
                }
                None => {
                    let started = self.start_vc(pos, self.last_depth);
                    self.finish_vc(pos, self.last_depth, started);
                    self.vc_fresh = Some(started.0);
                }
            }
        }
        let mut scratch = std::mem::take(&mut self.scratch);
        self.evaluation.set(f32::NAN);
        self.order_uncached(pos, moves, &mut scratch);
        let e = &mut self.cache[slot];
        e.len = scratch.len().min(ORDER_MAX) as u8;
        e.ordered = true;
        e.evaluation = self.evaluation.get();
        for (o, c) in e.order.iter_mut().zip(&scratch) {
            *o = B::bit_of(*c) as u16;
        }
        self.scratch = scratch;
    }

    /// Writes `moves` into `out` in search order, from the connections of the builder last
    /// built (when the ordering uses them).
    fn order_uncached(&self, pos: &Position<B>, moves: B, out: &mut Vec<Cell>) {
        out.clear();
        let score = &self.centre;
        out.extend(moves.iter());
        if out.len() < 2 {
            return;
        }
        match self.cfg.ordering {
            MoveOrdering::None => {}
            MoveOrdering::HScore if self.vc_fresh.is_some() => {
                if let Some(vc) = self.vc_fresh.and_then(|d| self.vc.get(d)) {
                    let me = pos.to_move();
                    out.sort_unstable_by_key(|c| {
                        let h = (vc.h_score(me, *c) * 100.0) as i32;
                        (-h, -score[B::bit_of(*c)], B::bit_of(*c))
                    });
                }
            }
            MoveOrdering::Resistance if self.vc_fresh.is_some() => {
                if let Some(vc) = self.vc_fresh.and_then(|d| self.vc.get(d)) {
                    let mut r = self.resistance.borrow_mut();
                    r.evaluate(vc);
                    let me = pos.to_move();
                    self.evaluation.set(r.evaluation(me) as f32);
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
            }
            MoveOrdering::Centre | MoveOrdering::HScore | MoveOrdering::Resistance => {
                // Board order breaks ties, so the order is deterministic.
                out.sort_unstable_by_key(|c| (-score[B::bit_of(*c)], B::bit_of(*c)));
            }
        }
    }
}

/// Slots of a new pipeline's analysis cache.
const CACHE_START: usize = 1 << 10;

/// The bytes of one analysis-cache slot.
pub(crate) fn cached_bytes<B: BitSet>() -> usize {
    std::mem::size_of::<Cached<B>>()
}

/// Moves whose order a cache slot remembers.
const ORDER_MAX: usize = 48;

/// One remembered analysis: the node (fill included) and the move order.
#[derive(Clone, Copy, Debug)]
struct Cached<B> {
    key: u64,
    node: Node<B>,
    len: u8,
    /// Whether `order` holds the move order yet.
    ordered: bool,
    /// The circuit's evaluation for the player to move (NaN when the order did not come
    /// from the circuit).
    evaluation: f32,
    order: [u16; ORDER_MAX],
}

impl<B: BitSet> Default for Cached<B> {
    fn default() -> Cached<B> {
        Cached {
            key: 0,
            node: Node {
                verdict: Verdict::Open,
                moves: B::EMPTY,
                support: B::EMPTY,
                fills: 0,
                filled: [B::EMPTY; 2],
                captured: [B::EMPTY; 2],
                needs: [B::EMPTY; 2],
            },
            len: 0,
            ordered: false,
            evaluation: f32::NAN,
            order: [0; ORDER_MAX],
        }
    }
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
    for _ in 0..node.fills {
        pos.undo();
    }
}
