//! Depth-first proof-number search, the production solver (Nagai's df-pn as Benzene uses it,
//! Henderson, Arneson and Hayward 2009 "Solving 8x8 Hex"; the 1+ε threshold trick of Pawlewicz
//! and Lew, as used by Pawlewicz and Hayward 2013).
//!
//! Negamax form: at a node where P is to move, `pn` is the cost to prove that P wins and `dn`
//! the cost to prove that P loses; `pn = min dn(child)` and `dn = Σ pn(child)`.
//!
//! Beyond plain df-pn:
//! - knowledge at every node (fill-in, VC verdicts, mustplay) through [`Pipeline`];
//! - proof carriers (van Rijswijck 2002 s.2.3, Chen 2025 s.4.2): when a move loses because the
//!   opponent wins with carrier `T`, every sibling outside `T` loses too and is pruned without
//!   search; a loss's carrier is the union of those threats, a win's is the move plus the
//!   child's loss carrier;
//! - a bounded table of [`Entry`]s shared by all workers.
//!
//! This file holds one worker's search; the two ways workers share a solve on several threads
//! are in `dfpn/jobs.rs` (the root's moves as jobs) and `dfpn/tree.rs` (one shared tree).

mod jobs;
mod tree;

use std::sync::atomic::{AtomicU32, Ordering};

use nash_board::{BitSet, Cell, Color, Move, Position, Symmetry};

use crate::budget::Limits;
use crate::config::{Parallel, SolverConfig};
use crate::connect;
use crate::context::Ctx;
use crate::knowledge::{self, Pipeline};
use crate::memory;
use crate::movebit::{self, MoveBit};
use crate::outcome::{Outcome, SolveResult, Stats, StopReason};
use crate::table::{Entry, Table, INF};

/// The ε of the 1+ε trick: a child keeps the search until its disproof number exceeds the
/// second-best sibling's by this factor, which saves most re-expansions.
const EPSILON: f64 = 0.25;

/// The disproof number a child not yet searched starts with, from its place in the move order
/// (0 for the first): 1, 1, 3, 5, 8, 11, 16, ... The search stays with the moves that knowledge
/// ranks first until their disproof numbers have grown well past 1 before it turns to the
/// others. Against a flat 1, this takes a third less time on the 7x7 openings; a linear start
/// (`1 + rank / 2`) gains half as much (docs/solving.md).
fn start_dn(rank: usize) -> u32 {
    let r = rank.min(1 << 12) as u32;
    1 + r / 2 + r * r / 3
}

/// The proof number a child neither searched nor looked at starts with: what refuting the move
/// is taken to cost the opponent before anything is known. Against 1, a start of 2 makes a
/// node with many unsearched children look harder to disprove than one whose children were
/// searched and found easy, which cut the nodes of the 49 7x7 openings by a tenth
/// (docs/solving.md).
const START_PN: u32 = 2;

/// The disproof number a child that was looked at starts with: the opponent's number of moves
/// there (after knowledge) on top of the start its rank gives.
fn look_dn(replies: usize, rank: usize) -> u32 {
    (replies.clamp(1, 1 << 12) as u32) + start_dn(rank) - 1
}

/// Nodes at depths below this look at each new child (a knowledge analysis of the child, without
/// search) when they are expanded: a decided child is proven at once, an open one starts with a
/// disproof number that counts the opponent's replies (`look_dn`). Only the root does: on the
/// 7x7 openings this saved a tenth of the time, and looking at depth 1 too cost more analyses
/// than it saved nodes (docs/solving.md).
const LOOK_DEPTH: usize = 1;

/// What won before, for the move order: by the opponent's last move, the two moves that last
/// won after it (counter moves), and by depth, the move that last won a node there (a killer).
/// Hex's answers are local and repeat: the reply that refuted an intrusion in one line often
/// refutes it in the next, and the same winning move often serves the siblings of a node.
/// The knowledge's order is kept but for these moves, which go first (the counter moves, the
/// latest first) and then the killer; on the empty 8x8 board and its openings this saves a
/// fifth to a quarter of the nodes (docs/solving.md, "Counter moves and killers").
#[derive(Debug)]
struct Replies {
    /// `[colour][bit of the opponent's last move]`: the mover's last winning reply to it.
    counter: Vec<Option<MoveBit>>,
    /// The same slots: the winning reply before the last, when it differs.
    counter2: Vec<Option<MoveBit>>,
    /// By depth: the last winning move at that depth.
    killer: Vec<Option<MoveBit>>,
    /// By depth: the move searched from the node at that depth (so a node knows the move that
    /// led to it).
    path: Vec<Option<MoveBit>>,
    bits: usize,
}

impl Replies {
    fn new(bits: usize, depths: usize) -> Replies {
        Replies {
            counter: vec![None; 2 * bits],
            counter2: vec![None; 2 * bits],
            killer: vec![None; depths],
            path: vec![None; depths],
            bits,
        }
    }

    /// Moves the counter moves to the front of `order` and the killer after them (second at
    /// the earliest), where they are among the moves; returns the node's counter-move slot,
    /// for [`Replies::won`].
    fn promote<B: BitSet>(&self, depth: usize, me: Color, order: &mut [Cell]) -> Option<usize> {
        let last = depth.checked_sub(1).and_then(|d| self.path[d]);
        let slot = last.map(|b| me as usize * self.bits + b.bit());
        // Puts `bit` at `at` (unless it is already before it) and moves `at` past it.
        let place = |order: &mut [Cell], bit: Option<MoveBit>, at: &mut usize| {
            let Some(bit) = bit else { return };
            if let Some(i) = order.iter().position(|&c| B::bit_of(c) == bit.bit()) {
                if i >= *at {
                    order[*at..=i].rotate_right(1);
                    *at += 1;
                }
            }
        };
        let mut at = 0;
        if let Some(s) = slot {
            place(order, self.counter[s], &mut at);
            place(order, self.counter2[s], &mut at);
        }
        at = at.max(1);
        place(order, self.killer[depth], &mut at);
        slot
    }

    /// The node at `depth` (counter-move slot `slot`) is won by the move `bit`.
    fn won(&mut self, depth: usize, slot: Option<usize>, bit: MoveBit) {
        let bit = Some(bit);
        self.killer[depth] = bit;
        if let Some(s) = slot {
            if self.counter[s] != bit {
                self.counter2[s] = self.counter[s];
                self.counter[s] = bit;
            }
        }
    }
}

#[derive(Clone, Copy, Debug)]
struct Child {
    bit: MoveBit,
    pn: u32,
    dn: u32,
}

/// What `mid` reports about the node it searched.
#[derive(Clone, Copy, Debug)]
struct Res<B> {
    pn: u32,
    dn: u32,
    /// The proof's carrier when solved.
    carrier: B,
    best: Option<MoveBit>,
}

/// One df-pn worker: its own position, knowledge and buffers, a shared table.
pub(crate) struct Dfpn<'t, B: BitSet> {
    pos: Position<B>,
    pipe: Pipeline<B>,
    table: &'t Table<B>,
    pub(crate) limits: Limits,
    pub(crate) stats: Stats,
    key: u64,
    children: Vec<Vec<Child>>,
    order: Vec<Cell>,
    /// The move order's memory of what won ([`SolverConfig::reply_order`]); `None` when off.
    replies: Option<Replies>,
    /// Shared "being searched" counters of parallel workers, by key; `None` single-threaded.
    busy: Option<&'t [AtomicU32]>,
    /// The root's proof and disproof numbers when the last [`Dfpn::run`] returned.
    bounds: (u32, u32),
    /// Table keys are canonical: a position and its images under the board's symmetries share
    /// one entry, stored as the canonical image sees it ([`SolverConfig::canonical_keys`]).
    canonical: bool,
}

impl<B: BitSet> std::fmt::Debug for Dfpn<'_, B> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Dfpn").field("stats", &self.stats).finish()
    }
}

/// Solves `pos` (nobody has won yet) by df-pn in `table`, on `cfg.threads` workers.
pub(crate) fn solve<B: BitSet>(pos: &Position<B>, ctx: &Ctx<'_, B>) -> SolveResult<B> {
    let (cfg, table, plan) = (ctx.cfg, ctx.table, ctx.plan);
    if cfg.threads > 1 {
        let tree = cfg.budget.nodes.is_some()
            || match cfg.parallel {
                Parallel::Auto => pos.geometry().cells().len() >= SHARED_TREE_CELLS,
                Parallel::RootJobs => false,
                Parallel::SharedTree => true,
            };
        return if tree { tree::solve_parallel(pos, ctx) } else { jobs::solve_root_jobs(pos, ctx) };
    }
    let mut w = Dfpn::new(pos, cfg, table, plan);
    let outcome = w.run();
    w.stats.time = w.limits.start.elapsed();
    SolveResult { outcome, stats: w.stats }
}

/// One df-pn worker that solves one position after another in the same table, its knowledge
/// caches kept warm between them (behind [`crate::Worker`]: a fresh worker per position
/// spent more on its caches than on its search).
pub(crate) struct Resolver<'t, B: BitSet> {
    w: Dfpn<'t, B>,
}

impl<'t, B: BitSet> Resolver<'t, B> {
    /// A worker for positions of `pos`'s board with the knowledge of `cfg`, its caches sized
    /// by `plan`, in `table`.
    pub(crate) fn new(
        pos: &Position<B>,
        cfg: &SolverConfig,
        plan: &memory::Plan,
        table: &'t Table<B>,
    ) -> Resolver<'t, B> {
        Resolver { w: Dfpn::new(pos, cfg, table, plan) }
    }

    /// Solves `pos` (nobody has won yet) on one thread within `cfg`'s budget, from now.
    pub(crate) fn solve(&mut self, pos: &Position<B>, cfg: &SolverConfig) -> SolveResult<B> {
        self.w.reroot(pos, Limits::new(cfg));
        let outcome = self.w.run();
        let mut stats = std::mem::take(&mut self.w.stats);
        stats.time = self.w.limits.start.elapsed();
        SolveResult { outcome, stats }
    }
}

/// The board size (in cells) from which [`Parallel::Auto`] runs the shared tree.
const SHARED_TREE_CELLS: usize = 49;

/// Size of the shared busy-counter array (a hash of keys; collisions only bend the choice of
/// child, never a value).
const BUSY: usize = 1 << 16;

impl<'t, B: BitSet> Dfpn<'t, B> {
    pub(crate) fn new(
        pos: &Position<B>,
        cfg: &SolverConfig,
        table: &'t Table<B>,
        plan: &memory::Plan,
    ) -> Dfpn<'t, B> {
        let geom = pos.geometry();
        let n = geom.cells().len() + 2;
        let mut w = Dfpn {
            pos: pos.clone(),
            pipe: Pipeline::with_plan(&cfg.knowledge, geom, plan),
            table,
            limits: Limits::new(cfg),
            stats: Stats::default(),
            key: pos.hash(),
            children: (0..n).map(|_| Vec::with_capacity(n)).collect(),
            order: Vec::with_capacity(n),
            replies: cfg.reply_order.then(|| Replies::new(B::CAPACITY, n + 1)),
            busy: None,
            bounds: (1, 1),
            canonical: cfg.canonical_keys,
        };
        w.pipe.set_stop(w.limits.stop());
        w
    }

    /// Makes `limits` the budget of the next [`Dfpn::run`], its stop polled inside the
    /// analyses of the nodes too.
    pub(crate) fn set_limits(&mut self, limits: Limits) {
        self.limits = limits;
        self.pipe.set_stop(self.limits.stop());
    }

    /// Makes `pos` (a position of the same board) the root of the next [`Dfpn::run`], with
    /// fresh limits; the knowledge caches are kept.
    fn reroot(&mut self, pos: &Position<B>, limits: Limits) {
        self.pos.clone_from(pos);
        self.key = pos.hash();
        self.set_limits(limits);
    }

    /// Searches the root until it is solved or the budget runs out.
    pub(crate) fn run(&mut self) -> Outcome<B> {
        let r = self.mid(0, INF, INF);
        self.bounds = (r.pn, r.dn);
        if r.pn == 0 {
            let mv = movebit::cell::<B>(r.best);
            Outcome::Win { winning_move: mv, carrier: r.carrier }
        } else if r.dn == 0 {
            Outcome::Loss { carrier: r.carrier }
        } else {
            Outcome::Unknown { reason: self.limits.reason().unwrap_or(StopReason::Cancelled) }
        }
    }

    /// The table key of the current position, with the symmetry that carries its entries
    /// to and from the frame they are stored in (the identity without canonical keys).
    #[inline]
    fn table_key(&self) -> (u64, Symmetry) {
        if self.canonical {
            self.pos.canonical_key()
        } else {
            (self.pos.hash(), Symmetry::Identity)
        }
    }

    /// [`Dfpn::table_key`] of the child after the side to move plays `m`, without playing it.
    #[inline]
    fn child_table_key(&self, m: Cell) -> (u64, Symmetry) {
        if self.canonical {
            self.pos.canonical_key_after(m)
        } else {
            (self.pos.hash_after(m), Symmetry::Identity)
        }
    }

    /// The entry stored for `key`, as the position the key was taken from sees it.
    #[inline]
    fn get(&self, (key, sym): (u64, Symmetry)) -> Option<Entry<B>> {
        self.table.get(key).map(|e| e.mapped(self.pos.geometry(), sym))
    }

    /// Stores `e`, an entry as the position `key` was taken from sees it.
    #[inline]
    fn put(&self, e: Entry<B>, (key, sym): (u64, Symmetry)) {
        self.table.put(Entry { key, ..e }.mapped(self.pos.geometry(), sym));
    }

    fn store(&mut self, key: (u64, Symmetry), r: &Res<B>, work: u64) {
        let work = work.min(u64::from(u32::MAX)) as u32;
        let e = if r.pn == 0 || r.dn == 0 {
            Entry::solved(key.0, r.pn == 0, r.best, r.carrier, work)
        } else {
            Entry { key: key.0, pn: r.pn, dn: r.dn, work, best: r.best, carrier: B::EMPTY }
        };
        self.put(e, key);
        self.stats.tt_stores += 1;
    }

    /// Multiple iterative deepening at one node: search until `pn >= thpn` or `dn >= thdn`.
    fn mid(&mut self, depth: usize, thpn: u32, thdn: u32) -> Res<B> {
        self.stats.nodes += 1;
        let start_nodes = self.stats.nodes;
        let key = self.key;
        let tkey = self.table_key();
        if self.limits.exceeded(self.stats.nodes) {
            return Res { pn: 1, dn: 1, carrier: B::EMPTY, best: None };
        }
        if let Some(p) = self.limits.line_due() {
            // Once a batch of nodes, and only for a progress that asks: the moves played on the
            // way here, for a GUI to draw.
            p.set_line(self.pos.history().into_iter().filter_map(|(c, m)| match m {
                Move::Cell(cell) => Some((c, cell)),
                _ => None,
            }));
        }
        let me = self.pos.to_move();
        let node = self.pipe.analyse(&mut self.pos, depth, &mut self.stats);
        let res = match node.decided(me) {
            Some((true, carrier, mv)) => {
                Res { pn: 0, dn: INF, carrier, best: movebit::of::<B>(mv) }
            }
            Some((false, carrier, _)) => Res { pn: INF, dn: 0, carrier, best: None },
            None => {
                self.key ^= node.fill_key(self.pos.geometry());
                self.stats.expanded += 1;
                let mut r = self.expand(depth, me, node.moves, node.support, thpn, thdn);
                self.key ^= node.fill_key(self.pos.geometry());
                if r.pn == 0 {
                    r.carrier |= node.fill_carrier(me);
                } else if r.dn == 0 {
                    r.carrier |= node.fill_carrier(!me);
                }
                r
            }
        };
        knowledge::undo_fills(&mut self.pos, &node);
        self.key = key;
        if res.pn == 0 || res.dn == 0 || self.limits.reason().is_none() {
            self.store(tkey, &res, self.stats.nodes - start_nodes + 1);
        }
        res
    }

    /// Analyses the child after `m` (whose key is `ck`, `rank` in the move order) without
    /// searching it, and returns the table entry it stores for the child: solved when knowledge
    /// decides it, else open with a disproof number from the opponent's replies (`look_dn`).
    /// Kept in the table, a root searched again (a root job that comes back) does not look
    /// again; the analysis stays in the pipeline's cache for the visit that follows.
    fn look(&mut self, depth: usize, m: Cell, ck: (u64, Symmetry), rank: usize) -> Entry<B> {
        let them = !self.pos.to_move();
        self.pos.play_unchecked(m);
        let node = self.pipe.analyse(&mut self.pos, depth + 1, &mut self.stats);
        knowledge::undo_fills(&mut self.pos, &node);
        self.pos.undo();
        let e = match node.decided(them) {
            Some((they_win, carrier, mv)) => {
                Entry::solved(ck.0, they_win, movebit::of::<B>(mv), carrier, 1)
            }
            None => {
                let dn = look_dn(node.moves.len(), rank);
                Entry { key: ck.0, pn: 1, dn, work: 1, best: None, carrier: B::EMPTY }
            }
        };
        self.put(e, ck);
        e
    }

    /// The numbers of an open node none of whose children is in the table yet, when they
    /// already pass its thresholds: every child starts at `START_PN` and the first one at a
    /// disproof number of 1 whatever the order, so the node goes back to its parent without its
    /// moves being ordered. Most nodes df-pn expands are such first visits, and ordering their
    /// moves is the circuit's work. `None` when the children must be generated.
    fn leave_unordered(
        &self,
        depth: usize,
        me: Color,
        moves: B,
        thpn: u32,
        thdn: u32,
    ) -> Option<Res<B>> {
        let n = moves.len();
        if depth < LOOK_DEPTH || n == 0 {
            return None;
        }
        let (pn, dn) = (start_dn(0), (START_PN as usize * n).min(INF as usize - 1) as u32);
        if pn < thpn && dn < thdn && self.limits.reason().is_none() {
            return None;
        }
        if moves.iter().any(|m| self.get(self.child_table_key(m)).is_some())
            || !connect::winning_cells(&self.pos, me).is_empty()
        {
            return None;
        }
        Some(Res { pn, dn, carrier: B::EMPTY, best: None })
    }

    /// The disproof number of the child `c` of the node at `depth` (`me` to move, proof
    /// threshold `thpn`) as this worker sees it: scaled up while other workers search it.
    #[inline]
    fn seen_dn(&self, depth: usize, me: Color, c: &Child, thpn: u32) -> u32 {
        match self.busy {
            // At the root every worker follows df-pn's choice (see `solve_parallel`).
            None => c.dn,
            Some(_) if depth == 0 => c.dn,
            Some(b) => {
                let ck = self.pos.geometry().child_hash(self.key, me, c.bit.bit());
                let n = b[ck as usize & (BUSY - 1)].load(Ordering::Relaxed);
                // Capped below the threshold, so the chosen child can always progress.
                c.dn.saturating_mul(1 + n).min(thpn.saturating_sub(1)).max(c.dn)
            }
        }
    }

    /// Generates and searches the children of an open node.
    fn expand(
        &mut self,
        depth: usize,
        me: Color,
        moves: B,
        support: B,
        thpn: u32,
        thdn: u32,
    ) -> Res<B> {
        if let Some(r) = self.leave_unordered(depth, me, moves, thpn, thdn) {
            return r;
        }
        let mut kids = std::mem::take(&mut self.children[depth]);
        kids.clear();
        let mut order = std::mem::take(&mut self.order);
        self.pipe.order(&self.pos, moves, &mut order);
        let reply_slot = self.replies.as_ref().and_then(|r| r.promote::<B>(depth, me, &mut order));
        // Children proven lost for us shrink the candidates to their carriers.
        let mut allowed = moves;
        let mut threats = support;
        let mut result = None;
        {
            // Fill-in may have made an immediate win that the threat check before it missed.
            if let Some(c) = connect::winning_cells(&self.pos, me).first() {
                let best = Some(MoveBit::of::<B>(c));
                result = Some(Res { pn: 0, dn: INF, carrier: B::single(c), best });
            }
        }
        if result.is_none() {
            for (rank, &m) in order.iter().enumerate() {
                let bit = MoveBit::of::<B>(m);
                let ck = self.child_table_key(m);
                let known = match self.get(ck) {
                    Some(e) => {
                        self.stats.tt_hits += 1;
                        Some(e)
                    }
                    None if depth < LOOK_DEPTH => Some(self.look(depth, m, ck, rank)),
                    None => None,
                };
                let (pn, dn) = match known {
                    Some(e) => {
                        if e.dn == 0 {
                            if let Some(r) = &mut self.replies {
                                r.won(depth, reply_slot, bit);
                            }
                            result = Some(Res {
                                pn: 0,
                                dn: INF,
                                carrier: e.carrier.with(m),
                                best: Some(bit),
                            });
                            break;
                        }
                        if e.pn == 0 {
                            allowed &= e.carrier;
                            threats |= e.carrier;
                            continue;
                        }
                        (e.pn, e.dn)
                    }
                    None => (START_PN, start_dn(rank)),
                };
                kids.push(Child { bit, pn, dn });
            }
        }
        self.order = order;
        if let Some(r) = result {
            self.children[depth] = kids;
            return r;
        }
        kids.retain(|c| allowed.has_bit(c.bit.bit()));

        let res = loop {
            if kids.is_empty() {
                break Res { pn: INF, dn: 0, carrier: threats, best: None };
            }
            let mut pn = INF;
            let mut dn: u32 = 0;
            let mut best = 0;
            let mut dn2 = INF;
            let mut eff_best = INF;
            for (i, c) in kids.iter().enumerate() {
                dn = dn.saturating_add(c.pn).min(INF - 1);
                pn = pn.min(c.dn);
                let eff = self.seen_dn(depth, me, c, thpn);
                if eff < eff_best {
                    dn2 = eff_best;
                    eff_best = eff;
                    best = i;
                } else if eff < dn2 {
                    dn2 = eff;
                }
            }
            if pn >= thpn || dn >= thdn || self.limits.reason().is_some() {
                break Res { pn, dn, carrier: B::EMPTY, best: Some(kids[best].bit) };
            }
            let c = kids[best];
            let child_thpn =
                if thdn >= INF { INF } else { (thdn - dn).saturating_add(c.pn).min(INF) };
            let child_thdn = if dn2 >= INF {
                thpn
            } else {
                let grown = ((f64::from(dn2) * (1.0 + EPSILON)).ceil() as u32).max(dn2 + 1);
                thpn.min(grown)
            };
            let m = c.bit.cell::<B>();
            if let Some(h) = &mut self.replies {
                h.path[depth] = Some(c.bit);
            }
            let parent = self.key;
            self.key = self.pos.geometry().child_hash(parent, me, c.bit.bit());
            self.pos.play_unchecked(m);
            let slot = self.busy.map(|b| &b[self.key as usize & (BUSY - 1)]);
            if let Some(x) = slot {
                x.fetch_add(1, Ordering::Relaxed);
            }
            let r = self.mid(depth + 1, child_thpn, child_thdn);
            if let Some(x) = slot {
                x.fetch_sub(1, Ordering::Relaxed);
            }
            self.pos.undo();
            self.key = parent;
            if r.dn == 0 {
                if let Some(h) = &mut self.replies {
                    h.won(depth, reply_slot, c.bit);
                }
                break Res { pn: 0, dn: INF, carrier: r.carrier.with(m), best: Some(c.bit) };
            }
            if r.pn == 0 {
                threats |= r.carrier;
                let t = r.carrier;
                kids.retain(|k| k.bit != c.bit && t.has_bit(k.bit.bit()));
                continue;
            }
            kids[best].pn = r.pn;
            kids[best].dn = r.dn;
        };
        self.children[depth] = kids;
        res
    }
}
