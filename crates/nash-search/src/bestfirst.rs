//! The best-first driver that proof-number search ([`crate::pns`]) and expected-work search
//! ([`crate::ews`]) share: an explicit tree in a bounded node store, a descent to a leaf chosen
//! by the search's [`Policy`], the leaf's expansion through the knowledge pipeline, a backup of
//! values, carriers and the policy's numbers to the root, and the win/loss table of Chen 2025
//! s.5.2 ([`ResultTable`]).
//!
//! The store keeps memory per node small, as what decides the largest solvable board is the
//! number of nodes that fit: a node is its policy's numbers, its move, its value and the index
//! of its expansion record (24 bytes for expected-work search); the children of a node are
//! allocated together, when it is expanded, as one block of the node arena; the descent keeps
//! the path, so no node stores its parent; and a node proven won or lost gives its whole
//! subtree back (blocks on free lists by size, records on a free list), since a proven node is
//! never searched again. Only an expanded open node has a record: where its children are, the
//! fill-in placed at it (a descent replays the exact positions the children were generated
//! in), the support of its pruning and the union of its won children's carriers.
//!
//! Values and carriers are the driver's (as in pattern search, van Rijswijck 2002 s.2.3): a
//! node with a lost child is won, with the move plus that child's carrier; a node whose
//! children are all won is lost, with the union of their carriers plus the knowledge support.
//! A proof travels up the path as it is found, so a child needs no carrier of its own. When
//! the store is full the solve stops with [`StopReason::StoreFull`].

use nash_board::{BitSet, Cell, Color, Position};

use crate::budget::Limits;
use crate::config::ResultTable;
use crate::connect;
use crate::context::Ctx;
use crate::knowledge::{Pipeline, Verdict};
use crate::movebit::{self, MoveBit};
use crate::outcome::{Outcome, SolveResult, Stats, StopReason};
use crate::table::{Entry, Table};

const MIB: usize = 1 << 20;

/// What is known of a node, for its player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Value {
    Open,
    Win,
    Loss,
}

/// One node of the tree, with the policy's numbers in `data`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Node<D> {
    pub(crate) data: D,
    /// The node's expansion record plus one while it is expanded and open, else 0. In the
    /// first node of a free block: the next free block of the same size plus one.
    ext: u32,
    /// The move that led here (none for the root).
    mv: Option<MoveBit>,
    pub(crate) value: Value,
}

/// What an expanded open node keeps besides its numbers.
#[derive(Clone, Copy, Debug)]
struct Ext<B> {
    /// The children are `first..first + count` in the node arena. In a free record, `first`
    /// is the next free record plus one.
    first: u32,
    count: u16,
    /// Children not proven won yet; at 0 the node is lost.
    open: u16,
    /// The union of the carriers of the children proven won.
    won: B,
    /// Empty cells the pruning of moves relied on (part of a loss carrier).
    support: B,
    /// The fill-in placed at the node, per colour.
    fill: [B; 2],
}

/// A proof found for a node: its value for the player to move, the carrier, the winning move.
#[derive(Clone, Copy, Debug)]
struct Proof<B> {
    win: bool,
    carrier: B,
    best: Option<MoveBit>,
}

/// What makes a best-first search its own: the numbers each node carries, which child a
/// descent takes, and how a node's numbers follow from its children's. A child's place in its
/// parent's move order is its offset in `children`, and the number of siblings their count.
pub(crate) trait Policy<B: BitSet> {
    /// The numbers of a node.
    type Data: Copy;

    /// The numbers of a new node.
    fn leaf(&self) -> Self::Data;

    /// Sets the numbers of a node just proven won or lost.
    fn proven(data: &mut Self::Data, value: Value);

    /// The offset in `children` of the child of the open node with numbers `node` that the
    /// descent takes; some child is open.
    fn select(&self, node: &Self::Data, children: &[Node<Self::Data>]) -> usize;

    /// A leaf is about to be expanded.
    fn start(&mut self) {}

    /// Sets the numbers of a new child: the move `m` of the position `p`; `proven` when the
    /// result table already shows the child won.
    fn child(&mut self, p: &Position<B>, m: Cell, proven: bool, data: &mut Self::Data);

    /// The expanded leaf's children are in place; called before its numbers are combined.
    fn expanded(&mut self, _data: &mut Self::Data) {}

    /// An ancestor of the expanded leaf, on the way up; called before its numbers are
    /// combined.
    fn passed(&mut self, _data: &mut Self::Data) {}

    /// Recomputes the numbers `node` of an open node from its children, none of them lost and
    /// not all won.
    fn combine(&self, node: &mut Self::Data, children: &[Node<Self::Data>]);
}

/// The node arena and the expansion records, within a byte budget, with free lists.
struct Store<B, D> {
    nodes: Vec<Node<D>>,
    exts: Vec<Ext<B>>,
    /// Per block size, the first free block plus one (0: none).
    free_blocks: Vec<u32>,
    /// The first free record plus one.
    free_ext: u32,
    /// Records on the way to the free list, reused by [`Store::release`].
    stack: Vec<u32>,
    bytes: usize,
    /// Nodes and records in use, and the most nodes in use at once.
    live: usize,
    peak: usize,
}

impl<B: BitSet, D: Copy> Store<B, D> {
    fn new(bytes: usize, root: Node<D>, cells: usize) -> Store<B, D> {
        let mut nodes = Vec::with_capacity((bytes / std::mem::size_of::<Node<D>>()).min(1 << 14));
        nodes.push(root);
        Store {
            nodes,
            exts: Vec::new(),
            free_blocks: vec![0; cells + 1],
            free_ext: 0,
            stack: Vec::new(),
            bytes,
            live: 1,
            peak: 1,
        }
    }

    /// Bytes the arenas hold (their capacity).
    fn held(&self) -> usize {
        self.nodes.capacity() * std::mem::size_of::<Node<D>>()
            + self.exts.capacity() * std::mem::size_of::<Ext<B>>()
    }

    /// A block of `k` nodes (placeholders the caller overwrites), or why there is no room.
    fn alloc_block(&mut self, k: usize) -> Result<u32, StopReason> {
        if let Some(f) = self.pop_block(k) {
            return Ok(f);
        }
        let left = self.bytes.saturating_sub(self.held());
        let fits = match room(&mut self.nodes, k, left) {
            Ok(()) => true,
            Err(StopReason::StoreFull) => false,
            Err(e) => return Err(e),
        };
        if fits {
            let first = self.nodes.len() as u32;
            let filler = self.nodes[0];
            self.nodes.extend(std::iter::repeat(filler).take(k));
            return Ok(first);
        }
        // A free block of another size, its extra nodes left unused.
        for size in k + 1..self.free_blocks.len() {
            if let Some(f) = self.pop_block(size) {
                return Ok(f);
            }
        }
        Err(StopReason::StoreFull)
    }

    fn pop_block(&mut self, k: usize) -> Option<u32> {
        let head = *self.free_blocks.get(k)?;
        let f = head.checked_sub(1)?;
        self.free_blocks[k] = self.nodes[f as usize].ext;
        Some(f)
    }

    fn alloc_ext(&mut self, e: Ext<B>) -> Result<u32, StopReason> {
        if let Some(i) = self.free_ext.checked_sub(1) {
            self.free_ext = self.exts[i as usize].first;
            self.exts[i as usize] = e;
            return Ok(i);
        }
        let left = self.bytes.saturating_sub(self.held());
        room(&mut self.exts, 1, left)?;
        self.exts.push(e);
        Ok(self.exts.len() as u32 - 1)
    }

    /// Gives back everything below the node `at` (its children's block, and theirs): a proven
    /// node is never searched again.
    fn release(&mut self, at: usize) {
        let Some(e) = self.nodes[at].ext.checked_sub(1) else { return };
        self.nodes[at].ext = 0;
        self.stack.push(e);
        while let Some(x) = self.stack.pop() {
            let Ext { first, count, .. } = self.exts[x as usize];
            let (f, k) = (first as usize, usize::from(count));
            for i in f..f + k {
                if let Some(ce) = self.nodes[i].ext.checked_sub(1) {
                    self.stack.push(ce);
                }
            }
            self.nodes[f].ext = self.free_blocks[k];
            self.free_blocks[k] = first + 1;
            self.exts[x as usize].first = self.free_ext;
            self.free_ext = x + 1;
            self.live -= k;
        }
    }
}

/// Makes room in `v` for `need` more items within `bytes_left` more bytes of capacity: the
/// arena doubles while small, then grows by sixteenths of the budget, so that the arena that
/// fills last is refused less than a sixteenth before the budget is spent.
fn room<T>(v: &mut Vec<T>, need: usize, bytes_left: usize) -> Result<(), StopReason> {
    let len = v.len();
    if len + need <= v.capacity() {
        return Ok(());
    }
    let size = std::mem::size_of::<T>();
    let extra = bytes_left / size;
    if len + need > v.capacity() + extra {
        return Err(StopReason::StoreFull);
    }
    let step = v.capacity().max(1024).min((bytes_left + v.capacity() * size) / 16 / size + 1);
    let want = (v.capacity() + step.min(extra)).max(len + need);
    v.try_reserve_exact(want - len)
        .map_err(|_| StopReason::OutOfMemory { mib: (want * size).div_ceil(MIB) })
}

/// A node's entry in the result table, `depth` moves below the root: the shallower, the more
/// work its proof stands for, and the longer it stays.
fn entry<B: BitSet>(key: u64, proof: &Proof<B>, depth: usize) -> Entry<B> {
    let work = 64u32.saturating_sub(depth as u32);
    Entry::solved(key, proof.win, proof.best, proof.carrier, work)
}

/// A proven node of the table, if `key` has one.
fn lookup<B: BitSet>(table: &Table<B>, key: u64, stats: &mut Stats) -> Option<Proof<B>> {
    let e = table.get(key).filter(Entry::is_solved)?;
    stats.tt_hits += 1;
    Some(Proof { win: e.pn == 0, carrier: e.carrier, best: e.best })
}

/// Solves `pos` (nobody has won yet) by best-first search with `policy`.
pub(crate) fn solve<B: BitSet, P: Policy<B>>(
    pos: &Position<B>,
    ctx: &Ctx<'_, B>,
    policy: &mut P,
) -> SolveResult<B> {
    let (cfg, plan) = (ctx.cfg, ctx.plan);
    let results = if cfg.use_tt { cfg.result_table } else { ResultTable::Off };
    let mut limits = Limits::new(cfg);
    let mut stats = Stats::default();
    let mut pipe = Pipeline::with_plan(&cfg.knowledge, pos.geometry(), plan);
    pipe.set_stop(limits.stop());
    let bytes = match results {
        ResultTable::Off => plan.table_bytes,
        _ => plan.table_bytes.saturating_sub(ctx.table.bytes()),
    };
    let cells = pos.geometry().cells().len();
    let root = Node { data: policy.leaf(), ext: 0, mv: None, value: Value::Open };
    let mut store = Store::<B, P::Data>::new(bytes.max(MIB), root, cells);
    let mut p = pos.clone();
    let mut tools = Tools {
        pipe,
        order: Vec::with_capacity(cells),
        policy,
        table: ctx.table,
        results,
        path: Vec::with_capacity(cells + 1),
    };
    let mut stop = None;
    let mut answer: Option<Proof<B>> = None;
    while answer.is_none() {
        stats.nodes += 1;
        if limits.exceeded(stats.nodes) {
            stop = limits.reason();
            break;
        }
        match iterate(&mut store, &mut p, &mut tools, &mut stats) {
            Ok(a) => answer = a,
            Err(reason) => {
                stop = Some(reason);
                break;
            }
        }
    }
    stats.time = limits.start.elapsed();
    tracing::debug!(
        peak_nodes = store.peak,
        arena_mib = store.held() / MIB,
        expanded = stats.expanded,
        "best-first store"
    );
    let outcome = match answer {
        Some(Proof { win: true, carrier, best }) => {
            Outcome::Win { winning_move: movebit::cell::<B>(best), carrier }
        }
        Some(Proof { win: false, carrier, .. }) => Outcome::Loss { carrier },
        None => Outcome::Unknown { reason: stop.unwrap_or(StopReason::Cancelled) },
    };
    SolveResult { outcome, stats }
}

/// What an iteration works with besides the store, the position and the counters.
struct Tools<'p, B: BitSet, P> {
    pipe: Pipeline<B>,
    order: Vec<Cell>,
    policy: &'p mut P,
    table: &'p Table<B>,
    results: ResultTable,
    /// The descent: each node's arena index and the key of its position (before its fill).
    path: Vec<(u32, u64)>,
}

/// One descent, expansion and backup; the root's proof once there is one.
fn iterate<B: BitSet, P: Policy<B>>(
    store: &mut Store<B, P::Data>,
    p: &mut Position<B>,
    tools: &mut Tools<'_, B, P>,
    stats: &mut Stats,
) -> Result<Option<Proof<B>>, StopReason> {
    // Select a leaf, replaying fill-in and moves on the way down.
    tools.path.clear();
    let mut at = 0usize;
    let mut undo = 0usize;
    let mut found = None;
    loop {
        let key = p.hash();
        tools.path.push((at as u32, key));
        // Not at the root: a win there must name a move of the position.
        if tools.results == ResultTable::Reached && at != 0 {
            found = lookup(tools.table, key, stats);
            if found.is_some() {
                break;
            }
        }
        let Some(e) = store.nodes[at].ext.checked_sub(1) else { break };
        let ext = store.exts[e as usize];
        for c in Color::ALL {
            if !ext.fill[c.index()].is_empty() {
                p.fill(c, ext.fill[c.index()]);
                undo += 1;
            }
        }
        let f = ext.first as usize;
        let children = &store.nodes[f..f + usize::from(ext.count)];
        let best = f + tools.policy.select(&store.nodes[at].data, children);
        if let Some(mv) = store.nodes[best].mv {
            p.play_unchecked(mv.cell::<B>());
            undo += 1;
        }
        at = best;
    }
    let depth = tools.path.len() - 1;
    let mut proof = match found {
        Some(f) => Some(f),
        None => {
            let r = expand(store, at, depth, p, tools, stats);
            if r.is_err() {
                for _ in 0..undo {
                    p.undo();
                }
            }
            let proof = r?;
            if let Some(pr) = &proof {
                tools.table_put(tools.path[depth].1, pr, depth, stats);
            }
            proof
        }
    };
    for _ in 0..undo {
        p.undo();
    }
    if let Some(pr) = &proof {
        settle::<B, P>(store, at, pr);
    }
    // Back up proofs and numbers to the root.
    for k in (0..depth).rev() {
        let (u, key) = tools.path[k];
        let (u, child) = (u as usize, tools.path[k + 1].0 as usize);
        tools.policy.passed(&mut store.nodes[u].data);
        if store.nodes[u].value != Value::Open {
            // A table hit above proved it; nothing below changes that.
            proof = None;
            continue;
        }
        if let Some(pr) = proof.take() {
            proof = child_proven(store, u, child, &pr);
        }
        match &proof {
            Some(pr) => {
                tools.table_put(key, pr, k, stats);
                settle::<B, P>(store, u, pr);
            }
            None => combine(store, u, &*tools.policy),
        }
    }
    Ok(if store.nodes[0].value == Value::Open { None } else { proof })
}

impl<B: BitSet, P> Tools<'_, B, P> {
    fn table_put(&self, key: u64, proof: &Proof<B>, depth: usize, stats: &mut Stats) {
        if self.results != ResultTable::Off {
            self.table.put(entry(key, proof, depth));
            stats.tt_stores += 1;
        }
    }
}

/// Marks the node `at` proven and gives back its subtree.
fn settle<B: BitSet, P: Policy<B>>(store: &mut Store<B, P::Data>, at: usize, proof: &Proof<B>) {
    let n = &mut store.nodes[at];
    n.value = if proof.win { Value::Win } else { Value::Loss };
    P::proven(&mut n.data, n.value);
    store.release(at);
}

/// The child `child` of the open expanded node `u` is proven `proof` (for the child's player
/// to move): the proof of `u` this gives, if any.
fn child_proven<B: BitSet, D: Copy>(
    store: &mut Store<B, D>,
    u: usize,
    child: usize,
    proof: &Proof<B>,
) -> Option<Proof<B>> {
    let e = store.nodes[u].ext.checked_sub(1)? as usize;
    let ext = &mut store.exts[e];
    let fill = ext.fill[0] | ext.fill[1];
    if !proof.win {
        let mv = store.nodes[child].mv?;
        let carrier = proof.carrier.with(mv.cell::<B>()) | fill;
        return Some(Proof { win: true, carrier, best: Some(mv) });
    }
    ext.won |= proof.carrier;
    ext.open -= 1;
    (ext.open == 0).then(|| Proof { win: false, carrier: ext.won | ext.support | fill, best: None })
}

/// Recomputes the numbers of the open expanded node `u` from its children.
fn combine<B: BitSet, P: Policy<B>>(store: &mut Store<B, P::Data>, u: usize, policy: &P) {
    let Some(e) = store.nodes[u].ext.checked_sub(1) else { return };
    let ext = store.exts[e as usize];
    let (f, k) = (ext.first as usize, usize::from(ext.count));
    // A reused block may lie before its parent in the arena.
    if u < f {
        let (before, rest) = store.nodes.split_at_mut(f);
        policy.combine(&mut before[u].data, &rest[..k]);
    } else {
        let (before, rest) = store.nodes.split_at_mut(u);
        policy.combine(&mut rest[0].data, &before[f..f + k]);
    }
}

/// Expands the leaf `at`, `depth` moves below the root in `p`: knowledge or the result table
/// decides it (its proof), or its children are added in the move order (`None`).
fn expand<B: BitSet, P: Policy<B>>(
    store: &mut Store<B, P::Data>,
    at: usize,
    depth: usize,
    p: &mut Position<B>,
    tools: &mut Tools<'_, B, P>,
    stats: &mut Stats,
) -> Result<Option<Proof<B>>, StopReason> {
    let me = p.to_move();
    if tools.results == ResultTable::Children && depth > 0 {
        // Children are looked up when made; a leaf proven since then elsewhere is found here.
        if let Some(pr) = lookup(tools.table, p.hash(), stats) {
            return Ok(Some(pr));
        }
    }
    tools.policy.start();
    let node = tools.pipe.analyse(p, depth, stats);
    let filled = node.filled[0] | node.filled[1];
    let r = match node.verdict {
        Verdict::Win { mv, carrier } => {
            Ok(Some(Proof { win: true, carrier: carrier | filled, best: movebit::of::<B>(mv) }))
        }
        Verdict::Loss { carrier } => {
            Ok(Some(Proof { win: false, carrier: carrier | filled, best: None }))
        }
        Verdict::Open => add_children(store, at, p, tools, stats, &node, me),
    };
    for _ in 0..node.fills() {
        p.undo();
    }
    r
}

/// The children of the open leaf `at` in the (filled) position `p`, in the move order: a move
/// that connects or a child the table shows lost proves the leaf won at once.
fn add_children<B: BitSet, P: Policy<B>>(
    store: &mut Store<B, P::Data>,
    at: usize,
    p: &Position<B>,
    tools: &mut Tools<'_, B, P>,
    stats: &mut Stats,
    node: &crate::knowledge::Node<B>,
    me: Color,
) -> Result<Option<Proof<B>>, StopReason> {
    let fill = node.filled[0] | node.filled[1];
    let Tools { pipe, order, policy, table, results, .. } = tools;
    pipe.order(p, node.moves, order);
    let wins = connect::winning_cells(p, me);
    if let Some(&m) = order.iter().find(|&&m| wins.contains(m)) {
        // The mover connects: the child's player to move has lost.
        return Ok(Some(Proof {
            win: true,
            carrier: fill.with(m),
            best: movebit::of::<B>(Some(m)),
        }));
    }
    if order.is_empty() {
        // The opponent's connections leave no move.
        return Ok(Some(Proof { win: false, carrier: node.support | fill, best: None }));
    }
    let look = *results != ResultTable::Off;
    let mut won = B::EMPTY;
    let mut open = order.len();
    let mut known = B::EMPTY;
    if look {
        for &m in order.iter() {
            match lookup(table, p.hash_after(m), stats) {
                Some(pr) if !pr.win => {
                    let carrier = pr.carrier.with(m) | fill;
                    return Ok(Some(Proof { win: true, carrier, best: movebit::of::<B>(Some(m)) }));
                }
                Some(pr) => {
                    won |= pr.carrier;
                    known.insert(m);
                    open -= 1;
                }
                None => {}
            }
        }
        if open == 0 {
            return Ok(Some(Proof { win: false, carrier: won | node.support | fill, best: None }));
        }
    }
    let count = order.len();
    let first = store.alloc_block(count)?;
    let record = Ext {
        first,
        count: count as u16,
        open: open as u16,
        won,
        support: node.support,
        fill: node.filled,
    };
    let e = match store.alloc_ext(record) {
        Ok(e) => e,
        Err(reason) => {
            // Back on its free list, unused.
            store.nodes[first as usize].ext = store.free_blocks[count];
            store.free_blocks[count] = first + 1;
            return Err(reason);
        }
    };
    for (i, &m) in order.iter().enumerate() {
        let mut data = policy.leaf();
        let proven = known.contains(m);
        policy.child(p, m, proven, &mut data);
        let mut child = Node { data, ext: 0, mv: Some(MoveBit::of::<B>(m)), value: Value::Open };
        if proven {
            child.value = Value::Win;
            P::proven(&mut child.data, Value::Win);
        }
        store.nodes[first as usize + i] = child;
    }
    store.live += count;
    store.peak = store.peak.max(store.live);
    stats.expanded += 1;
    let n = &mut store.nodes[at];
    n.ext = e + 1;
    policy.expanded(&mut n.data);
    combine(store, at, &**policy);
    Ok(None)
}
