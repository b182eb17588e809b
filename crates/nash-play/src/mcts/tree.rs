//! The search tree and the threads that grow it: an arena of nodes whose children lie side by
//! side, UCT selection (Kocsis and Szepesvári 2006) with RAVE (Gelly and Silver 2007, the AMAF
//! of Horrell et al. s.2.3.4), expansion with the knowledge pipeline's verdicts and pruned
//! moves, and the MCTS-solver's backup of proven nodes (Winands, Björnsson and Saito 2008;
//! Chen 2025 s.2.3).
//!
//! A tree is grown by one thread (root parallelism: one tree per thread) or by several at once
//! (tree parallelism), so its nodes are atomics and every thread reads and writes them with
//! relaxed loads and stores, lock-free as in Fuego (Enzenberger and Müller 2009): a visit is
//! counted when a thread descends through the node, before its playout is played, and the win
//! when it ends, so a playout in flight counts as a loss for the moves on its path (a virtual
//! loss, which sends the other threads elsewhere). An AMAF count lost to a race between two
//! threads is lost; the counts that decide the move (visits, wins) are atomic additions.
//! A node's children are written before the node is marked expanded (release), and read after
//! that mark is seen (acquire).
//!
//! Architecture Invariant: an iteration allocates nothing. The arena is a fixed table of
//! chunks, each allocated once the first time the tree reaches it and kept for later searches;
//! the position is played and undone in place, and the playout reuses its buffers.

use std::sync::atomic::{AtomicU16, AtomicU32, AtomicU8, AtomicUsize, Ordering::*};
use std::sync::{mpsc, OnceLock};
use std::time::Duration;

use nash_board::clock::Instant;
use nash_board::{BitSet, Cell, Color, Geometry, Position};
use nash_net::Evaluator;
use nash_search::{Analyser, Analysis, Verdict};

use super::playout::{Filled, Playouts, Rng};
use super::{Config, Limits, Order, Spread};
use crate::patterns::{self, Matcher, Weights};

/// What is proven about a node, for the player to move there.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum Proof {
    #[default]
    Unknown,
    Win,
    Loss,
}

/// `Node::flags`: the proof in the low two bits (0 unknown, 1 win, 2 loss), then these.
const PROOF_MASK: u8 = 3;
/// The node's children (or its proof by knowledge) are written.
const EXPANDED: u8 = 4;
/// A thread has taken the node to expand it (or found the arena full).
const CLAIMED: u8 = 8;
/// The knowledge has run on the node (or a thread is running it).
const KNOWN: u8 = 16;
/// The knowledge of the parent pruned this move: it is never selected, and counts as lost for
/// the parent's player when the other children are all lost (as a move left out would).
const PRUNED: u8 = 32;
/// The knowledge filled cells of the node's position: the thread that ran it keeps them in
/// its fill table.
const FILLED: u8 = 64;

/// One node: the move that leads to it and its statistics, counted for the player who made
/// that move.
#[derive(Debug, Default)]
pub(crate) struct Node {
    /// Index of the first child in the arena; the children are `first..first + children`.
    first: AtomicU32,
    /// Playouts through this node, those in flight included.
    visits: AtomicU32,
    /// Of the finished ones, those the player who moved here won.
    wins: AtomicU32,
    /// Playouts below the parent in which this node's mover took this cell later (AMAF),
    /// prior knowledge included as virtual playouts (an `f32`'s bits).
    amaf_visits: AtomicU32,
    /// Of those, the ones that mover won (an `f32`'s bits).
    amaf_wins: AtomicU32,
    /// Number of children.
    children: AtomicU16,
    /// The bit index of the move's cell.
    bit: AtomicU16,
    /// The move's rank (from 1) in the knowledge's order of its parent's moves, 0 for none:
    /// the progressive bias of the selection.
    rank: AtomicU16,
    /// The proof and the expansion state.
    flags: AtomicU8,
    /// The win rate the circuit's evaluation gives the player who moved here, once the
    /// knowledge has analysed the node (an `f32`'s bits; NaN for none).
    eval: AtomicU32,
    /// The net's policy for this move at its parent (an `f32`'s bits; 0 without a net): the
    /// prior of the PUCT term.
    policy: AtomicU32,
}

/// What the player reads of a node after the search.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Stats {
    pub(crate) bit: u16,
    pub(crate) visits: u32,
    pub(crate) wins: u32,
    pub(crate) proof: Proof,
    pub(crate) pruned: bool,
    /// The move's rank (from 1) in the knowledge's order of its parent's moves, 0 for none.
    pub(crate) rank: u16,
}

impl Node {
    fn range(&self) -> std::ops::Range<usize> {
        let first = self.first.load(Relaxed) as usize;
        first..first + usize::from(self.children.load(Relaxed))
    }

    fn children(&self) -> usize {
        usize::from(self.children.load(Relaxed))
    }

    pub(crate) fn proof(&self) -> Proof {
        match self.flags.load(Relaxed) & PROOF_MASK {
            0 => Proof::Unknown,
            1 => Proof::Win,
            _ => Proof::Loss,
        }
    }

    fn set_proof(&self, proof: Proof) {
        let bits = match proof {
            Proof::Unknown => 0,
            Proof::Win => 1,
            Proof::Loss => 2,
        };
        self.flags.fetch_or(bits, Relaxed);
    }

    /// Whether the children (or the proof by knowledge) are there to read.
    fn expanded(&self) -> bool {
        self.flags.load(Acquire) & EXPANDED != 0
    }

    /// Takes the node for expansion: false if another thread (or an earlier visit) did.
    fn claim(&self) -> bool {
        self.flags.fetch_or(CLAIMED, Acquire) & CLAIMED == 0
    }

    fn publish(&self) {
        self.flags.fetch_or(EXPANDED, Release);
    }

    /// Takes the node for its knowledge call: false if another thread (or an earlier visit,
    /// or its expansion) did.
    fn claim_knowledge(&self) -> bool {
        self.flags.fetch_or(KNOWN, Relaxed) & KNOWN == 0
    }

    fn known(&self) -> bool {
        self.flags.load(Relaxed) & KNOWN != 0
    }

    fn prune(&self) {
        self.flags.fetch_or(PRUNED, Relaxed);
    }

    fn mark_filled(&self) {
        self.flags.fetch_or(FILLED, Relaxed);
    }

    fn filled(&self) -> bool {
        self.flags.load(Relaxed) & FILLED != 0
    }

    fn pruned(&self) -> bool {
        self.flags.load(Relaxed) & PRUNED != 0
    }

    /// Whether the child's move is out of its parent's player's choice: proven lost for
    /// that player, or pruned.
    fn lost_or_pruned(&self) -> bool {
        self.flags.load(Relaxed) & PRUNED != 0 || self.proof() == Proof::Win
    }

    fn visits(&self) -> u32 {
        self.visits.load(Relaxed)
    }

    fn wins(&self) -> u32 {
        self.wins.load(Relaxed)
    }

    pub(crate) fn bit(&self) -> usize {
        usize::from(self.bit.load(Relaxed))
    }

    fn amaf(&self) -> (f32, f32) {
        (
            f32::from_bits(self.amaf_visits.load(Relaxed)),
            f32::from_bits(self.amaf_wins.load(Relaxed)),
        )
    }

    /// Counts one more AMAF playout, `won` or not (a plain load and store: a count that a
    /// race with another thread loses is lost).
    fn add_amaf(&self, won: bool) {
        let (v, w) = self.amaf();
        self.amaf_visits.store((v + 1.0).to_bits(), Relaxed);
        if won {
            self.amaf_wins.store((w + 1.0).to_bits(), Relaxed);
        }
    }

    /// Adds `amaf` virtual playouts (a prior given after the node's first playouts).
    fn add_prior(&self, amaf: (f32, f32)) {
        let (v, w) = self.amaf();
        self.amaf_visits.store((v + amaf.0).to_bits(), Relaxed);
        self.amaf_wins.store((w + amaf.1).to_bits(), Relaxed);
    }

    /// Makes this slot a fresh leaf for the move at `bit` with `amaf` virtual playouts.
    fn init(&self, bit: usize, amaf: (f32, f32)) {
        self.rank.store(0, Relaxed);
        self.first.store(0, Relaxed);
        self.visits.store(0, Relaxed);
        self.wins.store(0, Relaxed);
        self.amaf_visits.store(amaf.0.to_bits(), Relaxed);
        self.amaf_wins.store(amaf.1.to_bits(), Relaxed);
        self.children.store(0, Relaxed);
        self.bit.store(bit as u16, Relaxed);
        self.flags.store(0, Relaxed);
        self.eval.store(f32::NAN.to_bits(), Relaxed);
        self.policy.store(0, Relaxed);
    }

    /// Makes this slot a copy of `other` (its children are copied by the caller, who sets
    /// `first`); a node not expanded can be expanded again.
    fn copy(&self, other: &Node) {
        self.first.store(0, Relaxed);
        self.visits.store(other.visits(), Relaxed);
        self.wins.store(other.wins(), Relaxed);
        self.amaf_visits.store(other.amaf_visits.load(Relaxed), Relaxed);
        self.amaf_wins.store(other.amaf_wins.load(Relaxed), Relaxed);
        self.children.store(other.children.load(Relaxed), Relaxed);
        self.bit.store(other.bit.load(Relaxed), Relaxed);
        self.rank.store(other.rank.load(Relaxed), Relaxed);
        self.eval.store(other.eval.load(Relaxed), Relaxed);
        let flags = other.flags.load(Relaxed);
        let claimed = if flags & EXPANDED != 0 { CLAIMED } else { 0 };
        self.flags.store(flags & !CLAIMED | claimed, Relaxed);
    }

    /// The win rate of the circuit's evaluation for the node's mover, if it has one.
    fn eval(&self) -> Option<f64> {
        let e = f32::from_bits(self.eval.load(Relaxed));
        (!e.is_nan()).then_some(f64::from(e))
    }

    /// Records the circuit's evaluation `e` for the player to move at this node (with
    /// `cfg.value` on): the node's mover, the other player, gets the win rate
    /// `1 / (1 + exp(e / vscale))`, until the evaluations of its children replace it.
    fn set_eval(&self, e: Option<f64>, cfg: &Config) {
        if let Some(e) = e.filter(|_| cfg.value > 0.0) {
            let p = 1.0 / (1.0 + (e / cfg.vscale).exp());
            self.eval.store((p as f32).to_bits(), Relaxed);
        }
    }

    /// Records the win rate `p` of the node's mover from an evaluation of its own (the net's).
    fn set_win_rate(&self, p: f64) {
        self.eval.store((p as f32).to_bits(), Relaxed);
    }

    pub(crate) fn stats(&self) -> Stats {
        Stats {
            bit: self.bit.load(Relaxed),
            visits: self.visits(),
            wins: self.wins(),
            proof: self.proof(),
            pruned: self.pruned(),
            rank: self.rank.load(Relaxed),
        }
    }
}

/// Nodes a chunk of the arena holds (16,384: 448 KiB).
const CHUNK_BITS: u32 = 14;
const CHUNK: usize = 1 << CHUNK_BITS;

/// One search tree: nodes in chunks allocated as the tree first reaches them, shared by the
/// threads that grow it. The root is node 0.
#[derive(Debug)]
pub(crate) struct Tree {
    chunks: Box<[OnceLock<Box<[Node]>>]>,
    /// Slots handed out so far.
    len: AtomicUsize,
    /// The memory limit, in nodes (the root's children are made whatever it says).
    max_nodes: usize,
}

impl Tree {
    /// An empty tree of at most `max_nodes` nodes.
    pub(crate) fn new(max_nodes: usize) -> Tree {
        let chunks = max_nodes.max(2).div_ceil(CHUNK).max(1);
        let tree = Tree {
            chunks: (0..chunks).map(|_| OnceLock::new()).collect(),
            len: AtomicUsize::new(0),
            max_nodes: max_nodes.max(2),
        };
        tree.clear();
        tree
    }

    /// Back to a lone root.
    fn clear(&self) {
        self.chunk(0);
        self.len.store(1, Relaxed);
        self.node(0).init(0, (0.0, 0.0));
    }

    fn chunk(&self, i: usize) -> &[Node] {
        self.chunks[i].get_or_init(|| (0..CHUNK).map(|_| Node::default()).collect())
    }

    /// The node at `i` (handed out by [`Tree::alloc`], so its chunk exists).
    pub(crate) fn node(&self, i: usize) -> &Node {
        &self.chunks[i >> CHUNK_BITS].get().expect("an allocated node")[i & (CHUNK - 1)]
    }

    /// `k` consecutive slots in one chunk, the first one's index; `None` when the memory limit
    /// (or, for the root's children, the last chunk) is reached.
    fn alloc(&self, k: usize, root: bool) -> Option<usize> {
        let limit = if root { self.chunks.len() * CHUNK } else { self.max_nodes };
        let mut cur = self.len.load(Relaxed);
        let start = loop {
            let start = if (cur & (CHUNK - 1)) + k > CHUNK { (cur | (CHUNK - 1)) + 1 } else { cur };
            if start + k > limit {
                return None;
            }
            match self.len.compare_exchange_weak(cur, start + k, Relaxed, Relaxed) {
                Ok(_) => break start,
                Err(now) => cur = now,
            }
        };
        self.chunk(start >> CHUNK_BITS);
        Some(start)
    }

    /// The root.
    pub(crate) fn root(&self) -> &Node {
        self.node(0)
    }

    /// The root's children's statistics.
    pub(crate) fn root_children(&self) -> impl Iterator<Item = Stats> + '_ {
        self.root().range().map(|i| self.node(i).stats())
    }

    /// The best child of `node`: a proven win if there is one, else the most visited of those
    /// not proven lost.
    pub(crate) fn best_child(&self, node: usize) -> Option<usize> {
        let n = self.node(node);
        if !n.expanded() {
            return None;
        }
        if n.proof() == Proof::Win {
            if let Some(i) = n.range().find(|&i| self.node(i).proof() == Proof::Loss) {
                return Some(i);
            }
        }
        n.range().filter(|&i| !self.node(i).pruned()).max_by(|&a, &b| {
            let (x, y) = (self.node(a), self.node(b));
            (x.proof() != Proof::Win)
                .cmp(&(y.proof() != Proof::Win))
                .then(x.visits().cmp(&y.visits()))
                .then(x.wins().cmp(&y.wins()))
                .then(b.cmp(&a))
        })
    }

    /// The line of most visited children from the root.
    pub(crate) fn pv<B: BitSet>(&self, out: &mut Vec<Cell>) {
        self.line_below::<B>(0, out);
    }

    /// The line that starts with the root's child playing `bit`, then the most visited
    /// children below it; empty when the root has no such child. Safe to call while threads
    /// grow the tree: it reads only published children.
    pub(crate) fn line_from<B: BitSet>(&self, bit: usize, out: &mut Vec<Cell>) {
        let Some(child) = self.root().range().find(|&i| self.node(i).bit() == bit) else {
            return;
        };
        out.push(B::cell_of(bit));
        let n = self.node(child);
        if n.visits() > 0 || n.proof() != Proof::Unknown {
            self.line_below::<B>(child, out);
        }
    }

    /// Appends the line of most visited children below `node`.
    fn line_below<B: BitSet>(&self, mut node: usize, out: &mut Vec<Cell>) {
        while let Some(c) = self.best_child(node) {
            let n = self.node(c);
            out.push(B::cell_of(n.bit()));
            if n.visits() == 0 && n.proof() == Proof::Unknown {
                break;
            }
            node = c;
        }
    }

    /// Copies the subtree under `at` into `out` as its whole tree, `at` its root, breadth
    /// first (`queue` holds the nodes to copy the children of: original, copy). False when
    /// `out` is too small.
    fn copy_subtree(&self, at: usize, out: &Tree, queue: &mut Vec<(u32, u32)>) -> bool {
        out.clear();
        out.node(0).copy(self.node(at));
        out.node(0).bit.store(0, Relaxed);
        queue.clear();
        queue.push((at as u32, 0));
        let mut next = 0;
        while let Some(&(from, to)) = queue.get(next) {
            next += 1;
            let original = self.node(from as usize);
            if !original.expanded() || original.children() == 0 {
                continue;
            }
            let k = original.children();
            let Some(first) = out.alloc(k, to == 0) else { return false };
            let src = original.first.load(Relaxed) as usize;
            for j in 0..k {
                out.node(first + j).copy(self.node(src + j));
                queue.push(((src + j) as u32, (first + j) as u32));
            }
            out.node(to as usize).first.store(first as u32, Relaxed);
        }
        true
    }
}

impl Tree {
    /// The nodes at `range` (children of one node: one chunk).
    fn slice(&self, range: std::ops::Range<usize>) -> &[Node] {
        if range.is_empty() {
            return &[];
        }
        let chunk = self.chunks[range.start >> CHUNK_BITS].get().expect("an allocated node");
        let at = range.start & (CHUNK - 1);
        &chunk[at..at + range.len()]
    }
}

/// How often a search shows its trees while it runs, and to whom.
pub(crate) type TreeReport<'a> = (Duration, &'a mut dyn FnMut(&[Tree]));

/// The trees of a search and the threads that grow them, kept from one move to the next.
#[derive(Debug)]
pub(crate) struct Forest<B: BitSet> {
    geom: &'static Geometry<B>,
    pub(crate) workers: Vec<Worker<B>>,
    /// One tree per worker (root parallelism), or one that all of them grow.
    pub(crate) trees: Vec<Tree>,
    /// The position at each tree's root (stones and side to move), for reuse at the next move.
    roots: Vec<Option<([B; 2], Color)>>,
    /// The arena a tree is copied into when re-rooted (kept to reuse its memory).
    spare: Option<Tree>,
    queue: Vec<(u32, u32)>,
}

impl<B: BitSet> Forest<B> {
    /// Threads and trees for `geom` with the settings of `cfg`.
    pub(crate) fn new(geom: &'static Geometry<B>, cfg: &Config) -> Forest<B> {
        let trees = if cfg.shared_tree() { 1 } else { cfg.threads };
        let max_nodes = (cfg.mem_mib << 20) / std::mem::size_of::<Node>() / trees;
        Forest {
            geom,
            workers: (0..cfg.threads).map(|_| Worker::new(geom, cfg)).collect(),
            trees: (0..trees).map(|_| Tree::new(max_nodes)).collect(),
            roots: vec![None; trees],
            spare: None,
            queue: Vec::new(),
        }
    }

    /// Whether this forest was built for `geom` and `cfg`'s threads.
    pub(crate) fn fits(&self, geom: &'static Geometry<B>, cfg: &Config) -> bool {
        std::ptr::eq(self.geom, geom)
            && self.workers.len() == cfg.threads
            && (self.trees.len() == 1) == (cfg.shared_tree() || cfg.threads == 1)
    }

    /// Starts a search of `pos`: each tree keeps the subtree of the previous search's tree
    /// that `pos` is in when `reuse` allows, and starts afresh otherwise; the roots are
    /// expanded.
    pub(crate) fn start(&mut self, pos: &Position<B>, cfg: &Config, seed: u64) {
        for (i, w) in self.workers.iter_mut().enumerate() {
            w.start(seed.wrapping_add(i as u64));
        }
        for t in 0..self.trees.len() {
            let kept = cfg.reuse && self.reroot(t, pos);
            if !kept {
                self.trees[t].clear();
            }
            self.roots[t] = Some(([pos.black(), pos.white()], pos.to_move()));
            let tree = &self.trees[t];
            let mut p = pos.clone();
            if tree.root().claim() {
                self.workers[t].expand(tree, 0, &mut p, 0, cfg);
            } else if self.workers[t].analyser.is_some() && tree.root().claim_knowledge() {
                // A kept subtree whose root the knowledge has not seen yet.
                self.workers[t].know(tree, 0, &mut p, 0, cfg);
            }
        }
    }

    /// Makes the node of `pos` the root of tree `t` if the tree holds it one or two moves
    /// below its root, copying that subtree into a fresh arena; false when it does not.
    fn reroot(&mut self, t: usize, pos: &Position<B>) -> bool {
        let Some((stones, to_move)) = self.roots[t] else { return false };
        let tree = &self.trees[t];
        let now = [pos.black(), pos.white()];
        if !stones[0].is_subset(now[0]) || !stones[1].is_subset(now[1]) {
            return false;
        }
        // The moves since the old root, in turn: the old root's mover first.
        let mine = now[to_move.index()] - stones[to_move.index()];
        let theirs = now[(!to_move).index()] - stones[(!to_move).index()];
        let line: [Option<usize>; 2] = match (mine.len(), theirs.len()) {
            (0, 0) if pos.to_move() == to_move => [None, None],
            (1, 0) if pos.to_move() != to_move => [mine.lowest_bit(), None],
            (1, 1) if pos.to_move() == to_move => [mine.lowest_bit(), theirs.lowest_bit()],
            _ => return false,
        };
        let mut at = 0usize;
        for bit in line.into_iter().flatten() {
            let n = tree.node(at);
            if !n.expanded() {
                return false;
            }
            match n.range().find(|&i| tree.node(i).bit() == bit) {
                Some(i) => at = i,
                None => return false,
            }
        }
        let n = tree.node(at);
        if !n.expanded() || n.children() == 0 {
            return false;
        }
        if at == 0 {
            return true;
        }
        let spare = self.spare.get_or_insert_with(|| Tree::new(tree.max_nodes));
        if !tree.copy_subtree(at, spare, &mut self.queue) {
            return false;
        }
        std::mem::swap(&mut self.trees[t], spare);
        true
    }

    /// Runs the threads from `pos` until `limits` say stop, `total` playouts are played, or
    /// the root is proven. With `report`, every thread searches on a thread of its own and
    /// the caller's thread calls `report` with the trees about every `every` while they run
    /// (reading their atomics, so the threads' loop does not change).
    pub(crate) fn search(
        &mut self,
        pos: &Position<B>,
        cfg: &Config,
        limits: &Limits,
        total: Option<u64>,
        report: Option<TreeReport<'_>>,
    ) {
        let threads = self.workers.len() as u64;
        let share = |i: usize| total.map(|t| t / threads + u64::from((i as u64) < t % threads));
        let trees = &self.trees;
        let tree = |i: usize| &trees[i % trees.len()];
        if let Some((every, report)) = report {
            let every = every.max(Duration::from_millis(1));
            let (done, finished) = mpsc::channel::<()>();
            std::thread::scope(|s| {
                for (i, w) in self.workers.iter_mut().enumerate() {
                    let (limits, share, tree, done) = (limits, share(i), tree(i), done.clone());
                    s.spawn(move || {
                        w.search(tree, pos, cfg, limits, share);
                        drop(done);
                    });
                }
                drop(done);
                let mut next = Instant::now() + every;
                // Every sender gone: all threads have finished.
                while let Err(mpsc::RecvTimeoutError::Timeout) =
                    finished.recv_timeout(next.saturating_duration_since(Instant::now()))
                {
                    report(trees);
                    next = (next + every).max(Instant::now());
                }
            });
        } else if let [w] = self.workers.as_mut_slice() {
            w.search(tree(0), pos, cfg, limits, share(0));
        } else {
            std::thread::scope(|s| {
                let (first, rest) = self.workers.split_first_mut().expect("at least one thread");
                for (i, w) in rest.iter_mut().enumerate() {
                    let (limits, share, tree) = (limits, share(i + 1), tree(i + 1));
                    s.spawn(move || w.search(tree, pos, cfg, limits, share));
                }
                first.search(tree(0), pos, cfg, limits, share(0));
            });
        }
    }
}

/// One thread's playouts, knowledge, random numbers and buffers.
#[derive(Debug)]
pub(crate) struct Worker<B: BitSet> {
    playouts: Playouts<B>,
    analyser: Option<Analyser<B>>,
    rng: Rng,
    path: Vec<u32>,
    order: Vec<Cell>,
    /// The circuit order of a node the patterns rank (with `order=both`).
    circuit: Vec<Cell>,
    /// The rank of each cell (by bit) in `order`, for priors given to existing children.
    rank: Vec<u16>,
    shuffled: Vec<u16>,
    /// The local-pattern matcher and weights, with `order=patterns` or `order=both`.
    patterns: Option<(Matcher<B>, &'static Weights)>,
    /// The pattern weight, or the net's prior, of each cell (by bit) at the node being ordered.
    gammas: Vec<f32>,
    /// The policy and value network's evaluator, with a net loaded.
    net: Option<Evaluator>,
    /// The cells the knowledge filled (Black's, White's) at the positions it analysed, by
    /// their hash, direct-mapped: with `playfill`, a playout starts from the fill of the nodes
    /// on its path. A slot is the position's hash and the two fills.
    fills: Vec<(u64, B, B)>,
    /// Playouts run in the current search.
    pub(crate) iterations: u64,
    /// The deepest node reached below the root.
    pub(crate) depth: u32,
}

impl<B: BitSet> Worker<B> {
    /// A worker for `geom` with the settings of `cfg`.
    fn new(geom: &'static Geometry<B>, cfg: &Config) -> Worker<B> {
        let knowledge = cfg.knowledge();
        Worker {
            playouts: Playouts::new(geom, cfg.policy),
            analyser: knowledge.map(|k| Analyser::new(&k, geom, 8)),
            rng: Rng::new(0),
            path: Vec::with_capacity(geom.cells().len() + 2),
            order: Vec::with_capacity(geom.cells().len()),
            circuit: Vec::with_capacity(geom.cells().len()),
            rank: vec![0; B::CAPACITY],
            fills: if cfg.playfill && cfg.knowledge().is_some() {
                vec![(0, B::EMPTY, B::EMPTY); FILL_SLOTS]
            } else {
                Vec::new()
            },
            shuffled: Vec::with_capacity(geom.cells().len()),
            patterns: (matches!(cfg.order, Order::Patterns | Order::Both)
                && (cfg.prior > 0.0 || cfg.bias > 0.0))
                .then(|| (Matcher::new(geom), patterns::builtin())),
            gammas: vec![0.0; B::CAPACITY],
            net: cfg.loaded_net.clone().map(Evaluator::new),
            iterations: 0,
            depth: 0,
        }
    }

    fn start(&mut self, seed: u64) {
        self.rng = Rng::new(seed);
        self.iterations = 0;
        self.depth = 0;
    }

    /// Runs playouts in `tree` from `pos` (its root, expanded) until `limits` say stop or the
    /// root is proven. `budget` is this worker's share of the playouts.
    fn search(
        &mut self,
        tree: &Tree,
        pos: &Position<B>,
        cfg: &Config,
        limits: &Limits,
        budget: Option<u64>,
    ) {
        let mut pos = pos.clone();
        loop {
            if tree.root().proof() != Proof::Unknown
                || budget.is_some_and(|b| self.iterations >= b)
                || (self.iterations % 64 == 0 && limits.stop())
            {
                break;
            }
            self.iterate(tree, &mut pos, cfg);
            self.iterations += 1;
        }
    }

    /// One playout: descend by the selection rule (counting the visits on the way down),
    /// expand, play out, back up.
    fn iterate(&mut self, tree: &Tree, pos: &mut Position<B>, cfg: &Config) {
        self.path.clear();
        self.path.push(0);
        let root_to_move = pos.to_move();
        let mut node = 0usize;
        tree.root().visits.fetch_add(1, Relaxed);
        let (mut fill_black, mut fill_white) = (B::EMPTY, B::EMPTY);
        let filled = loop {
            let n = tree.node(node);
            if n.filled() && !self.fills.is_empty() {
                let hash = pos.hash();
                let (key, b, w) = self.fills[hash as usize & (FILL_SLOTS - 1)];
                if key == hash {
                    fill_black |= b;
                    fill_white |= w;
                }
            }
            match n.proof() {
                Proof::Win => {
                    break Filled { winner: pos.to_move(), black: B::EMPTY, white: B::EMPTY }
                }
                Proof::Loss => {
                    break Filled { winner: !pos.to_move(), black: B::EMPTY, white: B::EMPTY }
                }
                Proof::Unknown => {}
            }
            let depth = self.path.len() - 1;
            if !n.expanded() || n.children() == 0 {
                // This visit is counted already: a leaf is expanded after `expand` playouts.
                if !n.expanded()
                    && n.visits() > cfg.expand
                    && n.claim()
                    && self.expand(tree, node, pos, depth, cfg)
                {
                    continue;
                }
                // The fill of the nodes above, on the cells still empty (a cell two fills
                // claim goes to Black).
                let (black, white) = (pos.black(), pos.white());
                let empty = !(black | white);
                let b = fill_black & empty;
                let w = fill_white & empty & !b;
                let last = (depth > 0).then(|| n.bit());
                break self.playouts.run(black | b, white | w, pos.to_move(), last, &mut self.rng);
            }
            if cfg.know > 0
                && self.analyser.is_some()
                && n.visits() > cfg.know
                && !n.known()
                && n.claim_knowledge()
            {
                // The node has earned its knowledge call; it may prove the node.
                self.know(tree, node, pos, depth, cfg);
                continue;
            }
            let child = self.select(tree, node, cfg);
            let c = tree.node(child);
            c.visits.fetch_add(1, Relaxed);
            pos.play_unchecked(B::cell_of(c.bit()));
            if pos.winner().is_some() {
                c.set_proof(Proof::Loss);
            }
            self.path.push(child as u32);
            node = child;
        };
        let depth = self.path.len() as u32 - 1;
        self.depth = self.depth.max(depth);
        for _ in 1..self.path.len() {
            pos.undo();
        }
        self.backup(tree, root_to_move, filled, cfg);
    }

    /// Makes the children of `node` (claimed by this thread; its position is `pos`, `depth`
    /// moves below the root), or proves it by knowledge. False when the arena is full.
    fn expand(
        &mut self,
        tree: &Tree,
        node: usize,
        pos: &mut Position<B>,
        depth: usize,
        cfg: &Config,
    ) -> bool {
        let n = tree.node(node);
        let mut moves = pos.empty_cells();
        self.order.clear();
        // With `know`, a node below the root waits for its knowledge until it has earned it.
        let analyser = match self.analyser.as_mut() {
            Some(a) if depth == 0 || cfg.know == 0 || n.visits() > cfg.know => {
                n.claim_knowledge();
                Some(a)
            }
            _ => None,
        };
        if let Some(a) = analyser {
            let an = analyse(a, pos, depth, n, &mut self.fills);
            match an.verdict() {
                Verdict::Win { mv, .. } if depth > 0 || mv.is_some() => {
                    a.undo(pos, &an);
                    if depth == 0 {
                        // The root keeps its winning move as its one child.
                        let Some(first) = tree.alloc(1, true) else { return false };
                        let c = tree.node(first);
                        c.init(B::bit_of(mv.expect("checked")), (0.0, 0.0));
                        c.set_proof(Proof::Loss);
                        n.first.store(first as u32, Relaxed);
                        n.children.store(1, Relaxed);
                    }
                    n.set_proof(Proof::Win);
                    n.publish();
                    return true;
                }
                Verdict::Loss { .. } if depth > 0 => {
                    a.undo(pos, &an);
                    n.set_proof(Proof::Loss);
                    n.publish();
                    return true;
                }
                Verdict::Open if !an.moves().is_empty() => {
                    moves = an.moves();
                    if cfg.order != Order::Patterns && (cfg.prior > 0.0 || cfg.bias > 0.0) {
                        a.order(pos, moves, &mut self.order);
                    }
                    evaluate(a, pos, moves, n, cfg, &self.order, &mut self.circuit);
                    a.undo(pos, &an);
                }
                // A lost root, or a win without a move: every empty cell is searched.
                _ => a.undo(pos, &an),
            }
        }
        // With the patterns, the children are ranked by them, and a circuit order (with
        // `order=both`) adds its priors after.
        self.circuit.clear();
        if self.net.is_some() {
            std::mem::swap(&mut self.order, &mut self.circuit);
            self.net_order(pos, moves, n, cfg);
        } else if self.patterns.is_some() {
            std::mem::swap(&mut self.order, &mut self.circuit);
            self.pattern_order(pos, moves);
        }
        let count = moves.len();
        let Some(first) = tree.alloc(count, node == 0) else { return false };
        let children = tree.slice(first..first + count);
        if self.order.is_empty() {
            // A random order of the children, so that ties (unvisited children) go to no cell
            // in particular.
            self.shuffled.clear();
            self.shuffled.extend(moves.bits().map(|b| b as u16));
            for i in (1..count).rev() {
                let j = self.rng.below(i + 1);
                self.shuffled.swap(i, j);
            }
            for (c, &b) in children.iter().zip(&self.shuffled) {
                c.init(usize::from(b), (0.0, 0.0));
            }
        } else {
            let by_strength =
                self.net.is_some() || (self.patterns.is_some() && cfg.spread == Spread::Strength);
            let strongest = self.order.first().map_or(1.0, |&c| self.gammas[B::bit_of(c)]);
            for (rank, (c, &cell)) in children.iter().zip(&self.order).enumerate() {
                let bit = B::bit_of(cell);
                let amaf = if by_strength {
                    strength_prior(cfg, self.gammas[bit] / strongest)
                } else {
                    prior(cfg, rank, count)
                };
                c.init(bit, amaf);
                c.rank.store(rank as u16 + 1, Relaxed);
                if self.net.is_some() {
                    c.policy.store(self.gammas[bit].to_bits(), Relaxed);
                }
            }
            add_priors::<B>(children, &self.circuit, &mut self.rank, cfg);
        }
        n.first.store(first as u32, Relaxed);
        n.children.store(count as u16, Relaxed);
        n.publish();
        true
    }

    /// Runs the knowledge on `node`, expanded with every empty cell as a child (its position is
    /// `pos`, `depth` moves below the root): a win or loss proves it, and an open node has the
    /// moves the knowledge leaves out pruned and the priors added to the others' AMAF counts.
    pub(crate) fn know(
        &mut self,
        tree: &Tree,
        node: usize,
        pos: &mut Position<B>,
        depth: usize,
        cfg: &Config,
    ) {
        let n = tree.node(node);
        let Some(a) = self.analyser.as_mut() else { return };
        let an = analyse(a, pos, depth, n, &mut self.fills);
        self.order.clear();
        let children = tree.slice(n.range());
        match an.verdict() {
            Verdict::Win { mv, .. } if depth > 0 || mv.is_some() => {
                a.undo(pos, &an);
                if depth == 0 {
                    // The root's winning move is a real move, and so one of its children.
                    let bit = B::bit_of(mv.expect("checked"));
                    match children.iter().find(|c| c.bit() == bit) {
                        Some(c) => c.set_proof(Proof::Loss),
                        None => return,
                    }
                }
                n.set_proof(Proof::Win);
            }
            Verdict::Loss { .. } if depth > 0 => {
                a.undo(pos, &an);
                n.set_proof(Proof::Loss);
            }
            Verdict::Open if !an.moves().is_empty() => {
                let moves = an.moves();
                // The patterns ordered the children at their expansion already; with
                // `order=both` the circuit order adds its priors to theirs.
                if cfg.order != Order::Patterns && (cfg.prior > 0.0 || cfg.bias > 0.0) {
                    a.order(pos, moves, &mut self.order);
                }
                // The net's value, given at expansion, stands.
                if self.net.is_none() {
                    evaluate(a, pos, moves, n, cfg, &self.order, &mut self.circuit);
                }
                a.undo(pos, &an);
                for c in children {
                    if !moves.has_bit(c.bit()) {
                        c.prune();
                    }
                }
                add_priors::<B>(children, &self.order, &mut self.rank, cfg);
            }
            _ => a.undo(pos, &an),
        }
    }

    /// Writes `moves` into `self.order` by their local patterns' weights in `pos`, strongest
    /// first (equals by cell).
    fn pattern_order(&mut self, pos: &Position<B>, moves: B) {
        let Some((matcher, weights)) = &self.patterns else { return };
        self.order.clear();
        self.order.extend(moves.iter());
        for b in moves.bits() {
            let (ring, full) = matcher.codes(pos, b);
            self.gammas[b] = weights.gamma(ring, full);
        }
        let g = &self.gammas;
        self.order
            .sort_unstable_by(|&a, &b| g[B::bit_of(b)].total_cmp(&g[B::bit_of(a)]).then(a.cmp(&b)));
    }

    /// Writes `moves` into `self.order` by the net's prior in `pos`, strongest first (equals by
    /// cell), with the priors in `self.gammas`; the net's value becomes `node`'s evaluation
    /// (with `value` on).
    fn net_order(&mut self, pos: &Position<B>, moves: B, node: &Node, cfg: &Config) {
        let Some(net) = self.net.as_mut() else { return };
        let e = net.evaluate_one(pos);
        let cols = pos.cols();
        self.order.clear();
        for cell in moves.iter() {
            self.gammas[B::bit_of(cell)] =
                e.policy[usize::from(cell.row()) * cols + usize::from(cell.col())];
            self.order.push(cell);
        }
        if cfg.value > 0.0 {
            // The value is the player to move's; the node's mover is the other player.
            node.set_win_rate((1.0 - f64::from(e.value)) / 2.0);
        }
        let g = &self.gammas;
        self.order
            .sort_unstable_by(|&a, &b| g[B::bit_of(b)].total_cmp(&g[B::bit_of(a)]).then(a.cmp(&b)));
    }

    /// The child of `node` to descend into: UCT with RAVE, proven children decided.
    fn select(&self, tree: &Tree, node: usize, cfg: &Config) -> usize {
        let n = tree.node(node);
        // Progressive widening: the moves ranked past `widen` wait for more playouts.
        let limit = if cfg.widen > 0 {
            let grown = (f64::from(n.visits()) / WIDEN_START).max(1.0).ln() / WIDEN_STEP.ln();
            cfg.widen.saturating_add(grown as u32)
        } else {
            u32::MAX
        };
        match self.select_within(tree, node, cfg, limit) {
            Some(i) => i,
            None if limit < u32::MAX => {
                self.select_within(tree, node, cfg, u32::MAX).unwrap_or(n.range().start)
            }
            None => n.range().start,
        }
    }

    /// The child of `node` to descend into among those ranked at most `limit` (and those
    /// without a rank); `None` when none of them may be chosen.
    fn select_within(&self, tree: &Tree, node: usize, cfg: &Config, limit: u32) -> Option<usize> {
        let n = tree.node(node);
        let log_n = f64::from(n.visits().max(1)).ln();
        let sqrt_n = f64::from(n.visits().max(1)).sqrt();
        let range = n.range();
        let mut best = None;
        let mut best_value = f64::NEG_INFINITY;
        for (i, c) in tree.slice(range.clone()).iter().enumerate() {
            if c.pruned() {
                continue;
            }
            if cfg.solver {
                match c.proof() {
                    // The child's mover is lost there: this move wins, whatever its rank.
                    Proof::Loss => return Some(range.start + i),
                    Proof::Win => continue,
                    Proof::Unknown => {}
                }
            }
            if u32::from(c.rank.load(Relaxed)) > limit {
                continue;
            }
            let visits = f64::from(c.visits());
            // The playouts' win rate (of a visited child), with the evaluation's mixed in
            // (implicit minimax).
            let q = || {
                let won = f64::from(c.wins()) / visits;
                match c.eval().filter(|_| cfg.value > 0.0) {
                    Some(p) => (1.0 - cfg.value) * won + cfg.value * p,
                    None => won,
                }
            };
            let value = if cfg.rave > 0.0 {
                let (av, aw) = c.amaf();
                let amaf = if av > 0.0 { f64::from(aw) / f64::from(av) } else { cfg.fpu };
                if c.visits() == 0 {
                    amaf + cfg.c * log_n.sqrt()
                } else {
                    // Gelly and Silver's schedule: beta = sqrt(k / (3n + k)).
                    let beta = (cfg.rave / (3.0 * visits + cfg.rave)).sqrt();
                    (1.0 - beta) * q() + beta * amaf + cfg.c * (log_n / visits).sqrt()
                }
            } else if c.visits() == 0 {
                f64::INFINITY
            } else {
                q() + cfg.c * (log_n / visits).sqrt()
            };
            let value = match c.rank.load(Relaxed) {
                r if r > 0 && cfg.bias > 0.0 => {
                    value + cfg.bias / f64::from(r) / (visits + 1.0).sqrt()
                }
                _ => value,
            };
            // The PUCT term of AlphaZero (Silver et al. 2018): the net's prior for the move,
            // falling as the move's own playouts grow.
            let value = if cfg.puct > 0.0 {
                let p = f64::from(f32::from_bits(c.policy.load(Relaxed)));
                value + cfg.puct * p * sqrt_n / (visits + 1.0)
            } else {
                value
            };
            if best.is_none() || value > best_value {
                (best, best_value) = (Some(range.start + i), value);
            }
        }
        best
    }

    /// Counts the playout's win in every node of the path (the visits were counted on the way
    /// down), updates the AMAF statistics of their children, and carries proofs up.
    fn backup(&mut self, tree: &Tree, root_to_move: Color, filled: Filled<B>, cfg: &Config) {
        let mut later = [filled.black, filled.white];
        let winner = filled.winner;
        let amaf = cfg.rave > 0.0;
        for k in (0..self.path.len()).rev() {
            let n = tree.node(self.path[k] as usize);
            let to_move = if k % 2 == 0 { root_to_move } else { !root_to_move };
            if winner != to_move {
                n.wins.fetch_add(1, Relaxed);
            }
            if amaf && n.expanded() {
                // All moves as first: each child whose cell the player to move here took later
                // in this playout counts it (Horrell et al. s.2.3.4).
                let taken = later[to_move.index()];
                let won = winner == to_move;
                for c in tree.slice(n.range()) {
                    if taken.has_bit(c.bit()) {
                        c.add_amaf(won);
                    }
                }
            }
            if k > 0 {
                later[(!to_move).index()].set_bit(n.bit());
            }
        }
        if cfg.value > 0.0 {
            // Implicit minimax backups (Lanctot, Winands, Pepels and Sturtevant 2014): a node
            // whose children have evaluations takes the best of them for its player to move.
            for &i in self.path.iter().rev() {
                let n = tree.node(i as usize);
                if n.eval().is_none() || !n.expanded() {
                    continue;
                }
                let mut best: Option<f64> = None;
                for c in tree.slice(n.range()) {
                    let p = match c.proof() {
                        Proof::Loss => 1.0,
                        Proof::Win => 0.0,
                        Proof::Unknown if c.pruned() => continue,
                        Proof::Unknown => match c.eval() {
                            Some(p) => p,
                            None => continue,
                        },
                    };
                    best = Some(best.map_or(p, |b: f64| b.max(p)));
                }
                if let Some(b) = best {
                    n.eval.store(((1.0 - b) as f32).to_bits(), Relaxed);
                }
            }
        }
        if cfg.solver {
            for k in (1..self.path.len()).rev() {
                let child = tree.node(self.path[k] as usize);
                let parent = tree.node(self.path[k - 1] as usize);
                match child.proof() {
                    Proof::Loss => parent.set_proof(Proof::Win),
                    Proof::Win if tree.slice(parent.range()).iter().all(Node::lost_or_pruned) => {
                        parent.set_proof(Proof::Loss)
                    }
                    _ => break,
                }
            }
        }
    }
}

/// Playouts through a node at which progressive widening starts adding moves past `widen`,
/// and the factor of playouts between one more move and the next.
const WIDEN_START: f64 = 50.0;
const WIDEN_STEP: f64 = 1.4;

/// Slots of a worker's fill table.
const FILL_SLOTS: usize = 1 << 15;

/// Analyses `node`'s position `pos` and keeps what the analysis filled in `fills` (when the
/// table is on), marking the node.
fn analyse<B: BitSet>(
    a: &mut Analyser<B>,
    pos: &mut Position<B>,
    depth: usize,
    node: &Node,
    fills: &mut [(u64, B, B)],
) -> Analysis<B> {
    let (black, white, hash) = (pos.black(), pos.white(), pos.hash());
    let an = a.analyse(pos, depth);
    if an.filled() && !fills.is_empty() {
        fills[hash as usize & (FILL_SLOTS - 1)] = (hash, pos.black() - black, pos.white() - white);
        node.mark_filled();
    }
    an
}

/// Gives `node` the circuit's evaluation of `pos`, just analysed by `a` with `moves` open
/// (with `value` on): read from the circuit order if `order` holds it, else from an order
/// computed into `scratch` for it and dropped.
fn evaluate<B: BitSet>(
    a: &mut Analyser<B>,
    pos: &Position<B>,
    moves: B,
    node: &Node,
    cfg: &Config,
    order: &[Cell],
    scratch: &mut Vec<Cell>,
) {
    if cfg.value > 0.0 {
        if order.is_empty() {
            a.order(pos, moves, scratch);
            scratch.clear();
        }
        node.set_eval(a.evaluation(), cfg);
    }
}

/// Adds the priors of `order` (best first) to the `children` it ranks, and makes it their rank
/// for the progressive bias; `rank` is a zeroed table by cell bit, left zeroed.
fn add_priors<B: BitSet>(children: &[Node], order: &[Cell], rank: &mut [u16], cfg: &Config) {
    if order.is_empty() {
        return;
    }
    for (r, &cell) in order.iter().enumerate() {
        rank[B::bit_of(cell)] = r as u16 + 1;
    }
    for c in children {
        let r = rank[c.bit()];
        if r > 0 {
            c.add_prior(prior(cfg, usize::from(r - 1), order.len()));
            c.rank.store(r, Relaxed);
        }
    }
    for &cell in order {
        rank[B::bit_of(cell)] = 0;
    }
}

/// The prior of the move ranked `rank` (from 0) among `count` by the circuit and H-score
/// order: `cfg.prior` virtual AMAF playouts whose win rate falls from 0.75 for the best move
/// to 0.25 for the worst.
fn prior(cfg: &Config, rank: usize, count: usize) -> (f32, f32) {
    if cfg.prior == 0.0 {
        return (0.0, 0.0);
    }
    let last = (count.max(2) - 1) as f32;
    let n = cfg.prior as f32;
    (n, n * (0.75 - 0.5 * rank as f32 / last))
}

/// The win rate of the prior of the move ranked `rank` (from 1) among `count` ranked moves, as
/// [`prior`] gives it: `None` without priors or rank.
pub(crate) fn prior_rate(cfg: &Config, rank: u16, count: usize) -> Option<f64> {
    if cfg.prior == 0.0 || rank == 0 {
        return None;
    }
    let (n, w) = prior(cfg, usize::from(rank - 1), count);
    Some(f64::from(w / n))
}

/// The prior of a move whose pattern strength is `share` of the strongest move's:
/// `cfg.prior` virtual AMAF playouts at the win rate `0.25 + 0.5 share`.
fn strength_prior(cfg: &Config, share: f32) -> (f32, f32) {
    let n = cfg.prior as f32;
    (n, n * (0.25 + 0.5 * share.clamp(0.0, 1.0)))
}
