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

use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::Arc;

use nash_board::{BitSet, Cell, Color, Position};

use crate::budget::Limits;
use crate::config::{Budget, Parallel, SolverConfig};
use crate::connect;
use crate::entry::Ctx;
use crate::keys;
use crate::knowledge::{self, Pipeline, Verdict};
use crate::memory;
use crate::outcome::{Outcome, SolveResult, Stats, StopReason};
use crate::table::{Entry, Table, INF, NO_MOVE};

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

#[derive(Clone, Copy, Debug)]
struct Child {
    bit: u16,
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
    best: u16,
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
    /// Shared "being searched" counters of parallel workers, by key; `None` single-threaded.
    busy: Option<&'t [AtomicU32]>,
    /// The root's proof and disproof numbers when the last [`Dfpn::run`] returned.
    bounds: (u32, u32),
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
        return if tree { solve_parallel(pos, ctx) } else { solve_root_jobs(pos, ctx) };
    }
    let mut w = Dfpn::new(pos, cfg, table, plan);
    let outcome = w.run();
    w.stats.time = w.limits.start.elapsed();
    SolveResult { outcome, stats: w.stats }
}

/// The board size (in cells) from which [`Parallel::Auto`] runs the shared tree.
const SHARED_TREE_CELLS: usize = 64;

/// A root move of [`solve_root_jobs`].
#[derive(Clone, Copy, Debug)]
struct Job {
    mv: Cell,
    /// The child's disproof number (what proving that the move wins costs), as last seen.
    dn: u32,
    /// Nodes the next search of this move may take.
    budget: u64,
    /// Whether a worker searches the move within its budget now (it took it).
    taken: bool,
    /// Workers searching the move now: the one that took it, and helpers.
    workers: u32,
    solved: bool,
}

/// Nodes of a root move's first search in [`solve_root_jobs`]; each further search of the same
/// move may take twice as many.
const FIRST_BUDGET: u64 = 256;

/// Parallel df-pn over the root's moves as jobs with node budgets. A free worker takes the
/// unsolved move with the smallest disproof number (the move df-pn at the root would search),
/// searches it within its budget and, if it is still open, puts it back with its new numbers
/// and a doubled budget. The table keeps the work, so a move searched again resumes where it
/// stopped. A move whose opponent looks twice as close to a win as to a loss (counting
/// unsearched replies at [`START_PN`] each: `pn · 2 · START_PN < dn`) is searched to the end
/// the next time: it is most likely a refutation that a lost root needs anyway. Like df-pn at
/// the root, the workers leave a move that grows hard for one that looks easier, which finds a
/// winning move that the move order ranks low; like a plain split of the root, the moves of a
/// lost root are refuted side by side. A worker that finds every open move taken helps with
/// one (the fewest workers, then the smallest disproof number) until it is solved or its
/// budget runs out, spreading over its subtree as the workers of [`solve_parallel`] do: a lost
/// root often ends with one hard refutation, which used to leave the other workers idle.
fn solve_root_jobs<B: BitSet>(pos: &Position<B>, ctx: &Ctx<'_, B>) -> SolveResult<B> {
    let (cfg, table, plan) = (ctx.cfg, ctx.table, ctx.plan);
    let start = std::time::Instant::now();
    let mut stats = Stats::default();
    let mut root = pos.clone();
    let mut pipe = Pipeline::with_plan(&cfg.knowledge, pos.geometry(), plan);
    let node = pipe.analyse(&mut root, 0, &mut stats);
    let moves = match node.verdict {
        Verdict::Win { mv, carrier } => {
            stats.time = start.elapsed();
            return SolveResult { outcome: Outcome::Win { winning_move: mv, carrier }, stats };
        }
        Verdict::Loss { carrier } => {
            stats.time = start.elapsed();
            return SolveResult { outcome: Outcome::Loss { carrier }, stats };
        }
        Verdict::Open => {
            let mut order = Vec::new();
            pipe.order(&root, node.moves, &mut order);
            order
        }
    };
    knowledge::undo_fills(&mut root, &node);
    drop(pipe);
    let me = pos.to_move();
    let n = moves.len();
    let jobs = moves
        .iter()
        .enumerate()
        .map(|(rank, &mv)| Job {
            mv,
            dn: start_dn(rank),
            budget: FIRST_BUDGET,
            taken: false,
            workers: 0,
            solved: false,
        })
        .collect();
    let busy: Vec<AtomicU32> = (0..BUSY).map(|_| AtomicU32::new(0)).collect();
    let shared = std::sync::Mutex::new(JobBoard {
        jobs,
        threats: node.support | node.fill_carrier(!me),
        refuted: 0,
        win: None,
        stopped: None,
        recall: (0..n).map(|_| Arc::default()).collect(),
    });
    let done = Arc::new(AtomicBool::new(false));
    let single = SolverConfig { threads: 1, ..cfg.clone() };
    let worker_stats: Vec<Stats> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..cfg.threads.min(n).max(1))
            .map(|_| {
                let (done, shared, single) = (done.clone(), &shared, &single);
                let busy = &busy[..];
                s.spawn(move || {
                    let mut w = Dfpn::new(pos, single, table, plan);
                    w.busy = Some(busy);
                    let mut st = Stats::default();
                    let mut last = None;
                    while !done.load(Ordering::Relaxed) {
                        let mut board = shared.lock().unwrap_or_else(|e| e.into_inner());
                        let (i, job, helper) = match board.take(last) {
                            Take::Job(i, job) => (i, job, false),
                            Take::Help(i, job) => (i, job, true),
                            Take::Finished => break,
                        };
                        let recall = board.recall[i].clone();
                        drop(board);
                        last = Some(i);
                        let mut p = pos.clone();
                        p.play_unchecked(job.mv);
                        let (o, bounds) = if p.winner() == Some(me) {
                            (Outcome::Loss { carrier: B::EMPTY }, (INF, 0))
                        } else {
                            // A helper stays until the move is solved or its taker's budget
                            // runs out.
                            let nodes = (!helper).then_some(job.budget);
                            let budget = Budget { nodes, ..single.budget.clone() };
                            let limits = Limits::started_at(single, &budget, start)
                                .with_done(done.clone())
                                .with_done(recall);
                            w.reroot(&p, limits);
                            let o = w.run();
                            st.merge(&std::mem::take(&mut w.stats));
                            (o, w.bounds)
                        };
                        let mut board = shared.lock().unwrap_or_else(|e| e.into_inner());
                        if board.report(i, o, bounds, n, helper) {
                            done.store(true, Ordering::Relaxed);
                        }
                        drop(board);
                    }
                    st
                })
            })
            .collect();
        handles.into_iter().filter_map(|h| h.join().ok()).collect()
    });
    for st in &worker_stats {
        stats.merge(st);
    }
    let board = shared.into_inner().unwrap_or_else(|e| e.into_inner());
    stats.time = start.elapsed();
    let outcome = match board.win {
        Some(w) => w,
        None if board.refuted == n => Outcome::Loss { carrier: board.threats },
        None => Outcome::Unknown { reason: board.stopped.unwrap_or(StopReason::Cancelled) },
    };
    SolveResult { outcome, stats }
}

/// The shared state of [`solve_root_jobs`].
struct JobBoard<B> {
    jobs: Vec<Job>,
    /// The union of the refuted moves' carriers and the root's support.
    threats: B,
    refuted: usize,
    win: Option<Outcome<B>>,
    stopped: Option<StopReason>,
    /// Per job, raised to call its workers back (their limits poll it): the move was solved, or
    /// the budget of the worker that took it ran out. Lowered when a worker takes it again.
    recall: Vec<Arc<AtomicBool>>,
}

/// What a worker gets from the [`JobBoard`].
enum Take {
    /// A move to search with its budget.
    Job(usize, Job),
    /// A move another worker is searching, to search alongside it.
    Help(usize, Job),
    Finished,
}

impl<B: BitSet> JobBoard<B> {
    /// Marks the next job to search as running and returns it: the free move with the smallest
    /// disproof number, the worker's `last` move on a tie (its caches are warm), then the
    /// earliest in the move order. When every open move is being searched, the worker helps
    /// with the one that has the fewest workers (the smallest disproof number on a tie): at the
    /// end of a solve one hard move is often all that is left.
    fn take(&mut self, last: Option<usize>) -> Take {
        let open = self.jobs.iter().enumerate().filter(|(_, j)| !j.solved);
        let pick = open.min_by_key(|&(i, j)| (j.workers, j.dn, last != Some(i), i));
        match pick {
            Some((i, j)) => {
                let helper = j.taken;
                let j = &mut self.jobs[i];
                j.workers += 1;
                j.taken = true;
                if helper {
                    Take::Help(i, *j)
                } else {
                    self.recall[i].store(false, Ordering::Relaxed);
                    Take::Job(i, *j)
                }
            }
            None => Take::Finished,
        }
    }

    /// Records what a search of job `i` found (the child's outcome and its proof and
    /// disproof numbers); returns whether the solve is over. The search of a `helper`, or one
    /// that was recalled (the move was solved meanwhile, or its budget ran out), only counts
    /// when it solved the move. A search that ended on its own (solved, or out of budget)
    /// recalls the other workers on the move.
    fn report(
        &mut self,
        i: usize,
        o: Outcome<B>,
        (pn, dn): (u32, u32),
        n: usize,
        helper: bool,
    ) -> bool {
        let recalled = helper || self.recall[i].load(Ordering::Relaxed);
        if !matches!(o, Outcome::Unknown { reason: StopReason::Cancelled }) {
            self.recall[i].store(true, Ordering::Relaxed);
        }
        let j = &mut self.jobs[i];
        j.workers -= 1;
        if !helper {
            j.taken = false;
        }
        if j.solved {
            return false;
        }
        match o {
            Outcome::Loss { carrier } => {
                j.solved = true;
                let mv = j.mv;
                self.win = Some(Outcome::Win { winning_move: Some(mv), carrier: carrier.with(mv) });
                true
            }
            Outcome::Win { carrier, .. } => {
                j.solved = true;
                self.threats |= carrier;
                self.refuted += 1;
                self.refuted == n
            }
            Outcome::Unknown { reason: StopReason::NodeLimit | StopReason::Cancelled }
                if recalled =>
            {
                false
            }
            Outcome::Unknown { reason: StopReason::NodeLimit } => {
                j.dn = dn.max(1);
                j.budget = if pn.saturating_mul(2 * START_PN) < dn {
                    u64::MAX
                } else {
                    j.budget.saturating_mul(2)
                };
                false
            }
            Outcome::Unknown { reason } => {
                self.stopped.get_or_insert(reason);
                true
            }
        }
    }
}

/// Size of the shared busy-counter array (a hash of keys; collisions only bend the choice of
/// child, never a value).
const BUSY: usize = 1 << 16;

/// Parallel df-pn in the spirit of Pawlewicz and Hayward 2013 ([`Parallel::SharedTree`]):
/// workers run df-pn from the root on one shared table. They all follow the root's choice of
/// move; below the root, a child another worker is searching looks more expensive (its
/// disproof number is scaled by the number of workers inside it), so the workers spread over
/// that move's subtree. The first worker to solve the root stops the others. Solves with a node
/// limit use it: its workers count nodes against the limit the way one df-pn does.
///
/// Scaling at the root too sent the second worker to another root move: the empty 8x8 board
/// took 109 s with two threads, against 70 to 87 s when both follow the root's choice.
fn solve_parallel<B: BitSet>(pos: &Position<B>, ctx: &Ctx<'_, B>) -> SolveResult<B> {
    let (cfg, table, plan) = (ctx.cfg, ctx.table, ctx.plan);
    let start = std::time::Instant::now();
    let busy: Vec<AtomicU32> = (0..BUSY).map(|_| AtomicU32::new(0)).collect();
    let done = Arc::new(AtomicBool::new(false));
    let results: Vec<(Outcome<B>, Stats)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..cfg.threads)
            .map(|_| {
                let done = done.clone();
                let busy = &busy[..];
                s.spawn(move || {
                    let mut w = Dfpn::new(pos, cfg, table, plan);
                    w.limits = Limits::new(cfg).with_done(done.clone());
                    w.busy = Some(busy);
                    let o = w.run();
                    if !matches!(o, Outcome::Unknown { .. }) {
                        done.store(true, Ordering::Relaxed);
                    }
                    (o, w.stats)
                })
            })
            .collect();
        handles.into_iter().filter_map(|h| h.join().ok()).collect()
    });
    let mut stats = Stats::default();
    let mut outcome = None;
    for (o, st) in results {
        stats.merge(&st);
        match (&outcome, &o) {
            (None, _)
            | (Some(Outcome::Unknown { .. }), Outcome::Win { .. } | Outcome::Loss { .. }) => {
                outcome = Some(o)
            }
            _ => {}
        }
    }
    stats.time = start.elapsed();
    let outcome = outcome.unwrap_or(Outcome::Unknown { reason: StopReason::Cancelled });
    SolveResult { outcome, stats }
}

impl<'t, B: BitSet> Dfpn<'t, B> {
    pub(crate) fn new(
        pos: &Position<B>,
        cfg: &SolverConfig,
        table: &'t Table<B>,
        plan: &memory::Plan,
    ) -> Dfpn<'t, B> {
        let geom = pos.geometry();
        let n = geom.cells().len() + 2;
        Dfpn {
            pos: pos.clone(),
            pipe: Pipeline::with_plan(&cfg.knowledge, geom, plan),
            table,
            limits: Limits::new(cfg),
            stats: Stats::default(),
            key: keys::position(pos),
            children: (0..n).map(|_| Vec::with_capacity(n)).collect(),
            order: Vec::with_capacity(n),
            busy: None,
            bounds: (1, 1),
        }
    }

    /// Makes `pos` (a position of the same board) the root of the next [`Dfpn::run`], with
    /// fresh limits; the knowledge caches are kept.
    fn reroot(&mut self, pos: &Position<B>, limits: Limits) {
        self.pos.clone_from(pos);
        self.key = keys::position(pos);
        self.limits = limits;
    }

    /// Searches the root until it is solved or the budget runs out.
    pub(crate) fn run(&mut self) -> Outcome<B> {
        let r = self.mid(0, INF, INF);
        self.bounds = (r.pn, r.dn);
        if r.pn == 0 {
            let mv = (r.best != NO_MOVE).then(|| B::cell_of(r.best as usize));
            Outcome::Win { winning_move: mv, carrier: r.carrier }
        } else if r.dn == 0 {
            Outcome::Loss { carrier: r.carrier }
        } else {
            Outcome::Unknown { reason: self.limits.reason().unwrap_or(StopReason::Cancelled) }
        }
    }

    fn store(&mut self, key: u64, r: &Res<B>, work: u64) {
        let work = work.min(u64::from(u32::MAX)) as u32;
        let e = if r.pn == 0 || r.dn == 0 {
            Entry::solved(key, r.pn == 0, r.best, r.carrier, work)
        } else {
            Entry { key, pn: r.pn, dn: r.dn, work, best: r.best, carrier: B::EMPTY }
        };
        self.table.put(e);
        self.stats.tt_stores += 1;
    }

    /// Multiple iterative deepening at one node: search until `pn >= thpn` or `dn >= thdn`.
    fn mid(&mut self, depth: usize, thpn: u32, thdn: u32) -> Res<B> {
        self.stats.nodes += 1;
        let start_nodes = self.stats.nodes;
        let key = self.key;
        if self.limits.exceeded(self.stats.nodes) {
            return Res { pn: 1, dn: 1, carrier: B::EMPTY, best: NO_MOVE };
        }
        let me = self.pos.to_move();
        let node = self.pipe.analyse(&mut self.pos, depth, &mut self.stats);
        let res = match node.decided(me) {
            Some((true, carrier, mv)) => {
                Res { pn: 0, dn: INF, carrier, best: mv.map_or(NO_MOVE, |c| B::bit_of(c) as u16) }
            }
            Some((false, carrier, _)) => Res { pn: INF, dn: 0, carrier, best: NO_MOVE },
            None => {
                for c in Color::ALL {
                    self.key ^= keys::stones(self.pos.geometry(), c, node.filled[c.index()]);
                }
                let mut r = self.expand(depth, me, node.moves, node.support, thpn, thdn);
                for c in Color::ALL {
                    self.key ^= keys::stones(self.pos.geometry(), c, node.filled[c.index()]);
                }
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
            self.store(key, &res, self.stats.nodes - start_nodes + 1);
        }
        res
    }

    /// Analyses the child after `m` (whose key is `ck`, `rank` in the move order) without
    /// searching it, and returns the table entry it stores for the child: solved when knowledge
    /// decides it, else open with a disproof number from the opponent's replies (`look_dn`).
    /// Kept in the table, a root searched again (a root job that comes back) does not look
    /// again; the analysis stays in the pipeline's cache for the visit that follows.
    fn look(&mut self, depth: usize, m: Cell, ck: u64, rank: usize) -> Entry<B> {
        let them = !self.pos.to_move();
        self.pos.play_unchecked(m);
        let node = self.pipe.analyse(&mut self.pos, depth + 1, &mut self.stats);
        knowledge::undo_fills(&mut self.pos, &node);
        self.pos.undo();
        let e = match node.decided(them) {
            Some((they_win, carrier, mv)) => {
                let best = mv.map_or(NO_MOVE, |c| B::bit_of(c) as u16);
                Entry::solved(ck, they_win, best, carrier, 1)
            }
            None => {
                let dn = look_dn(node.moves.len(), rank);
                Entry { key: ck, pn: 1, dn, work: 1, best: NO_MOVE, carrier: B::EMPTY }
            }
        };
        self.table.put(e);
        e
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
        let mut kids = std::mem::take(&mut self.children[depth]);
        kids.clear();
        let mut order = std::mem::take(&mut self.order);
        self.pipe.order(&self.pos, moves, &mut order);
        // Children proven lost for us shrink the candidates to their carriers.
        let mut allowed = moves;
        let mut threats = support;
        let mut result = None;
        {
            // Fill-in may have made an immediate win that the threat check before it missed.
            if let Some(c) = connect::winning_cells(&self.pos, me).first() {
                result =
                    Some(Res { pn: 0, dn: INF, carrier: B::single(c), best: B::bit_of(c) as u16 });
            }
        }
        if result.is_none() {
            for (rank, &m) in order.iter().enumerate() {
                let bit = B::bit_of(m);
                let ck = keys::child(self.pos.geometry(), self.key, me, bit);
                let known = match self.table.get(ck) {
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
                            result = Some(Res {
                                pn: 0,
                                dn: INF,
                                carrier: e.carrier.with(m),
                                best: bit as u16,
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
                kids.push(Child { bit: bit as u16, pn, dn });
            }
        }
        self.order = order;
        if let Some(r) = result {
            self.children[depth] = kids;
            return r;
        }
        kids.retain(|c| allowed.has_bit(c.bit as usize));

        let res = loop {
            if kids.is_empty() {
                break Res { pn: INF, dn: 0, carrier: threats, best: NO_MOVE };
            }
            let mut pn = INF;
            let mut dn: u32 = 0;
            let mut best = 0;
            let mut dn2 = INF;
            let mut eff_best = INF;
            for (i, c) in kids.iter().enumerate() {
                dn = dn.saturating_add(c.pn).min(INF - 1);
                pn = pn.min(c.dn);
                // The child's disproof number as this worker sees it: scaled up while other
                // workers search it.
                let eff = match self.busy {
                    // At the root every worker follows df-pn's choice (see `solve_parallel`).
                    None => c.dn,
                    Some(_) if depth == 0 => c.dn,
                    Some(b) => {
                        let ck = keys::child(self.pos.geometry(), self.key, me, c.bit as usize);
                        let n = b[ck as usize & (BUSY - 1)].load(Ordering::Relaxed);
                        // Capped below the threshold, so the chosen child can always progress.
                        c.dn.saturating_mul(1 + n).min(thpn.saturating_sub(1)).max(c.dn)
                    }
                };
                if eff < eff_best {
                    dn2 = eff_best;
                    eff_best = eff;
                    best = i;
                } else if eff < dn2 {
                    dn2 = eff;
                }
            }
            if pn >= thpn || dn >= thdn || self.limits.reason().is_some() {
                break Res { pn, dn, carrier: B::EMPTY, best: kids[best].bit };
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
            let m = B::cell_of(c.bit as usize);
            let parent = self.key;
            self.key = keys::child(self.pos.geometry(), parent, me, c.bit as usize);
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
                break Res { pn: 0, dn: INF, carrier: r.carrier.with(m), best: c.bit };
            }
            if r.pn == 0 {
                threats |= r.carrier;
                let t = r.carrier;
                kids.retain(|k| k.bit != c.bit && t.has_bit(k.bit as usize));
                continue;
            }
            kids[best].pn = r.pn;
            kids[best].dn = r.dn;
        };
        self.children[depth] = kids;
        res
    }
}
