//! The best-first driver that proof-number search ([`crate::pns`]) and expected-work search
//! ([`crate::ews`]) share: an explicit tree in one arena bounded by the memory plan, a descent
//! to a leaf chosen by the search's [`Policy`], the leaf's expansion through the knowledge
//! pipeline, and a backup of values, carriers and the policy's numbers to the root.
//!
//! Each node keeps the fill-in placed at it, so a descent replays the exact positions the
//! children were generated in. Values and carriers are the driver's (as in pattern search,
//! van Rijswijck 2002 s.2.3): a node with a lost child is won, with the move plus that child's
//! carrier; a node whose children are all won is lost, with the union of their carriers plus
//! the knowledge support. The policy owns the numbers of open nodes and the choice of child.

use std::num::NonZeroU32;

use nash_board::{BitSet, Cell, Color, Position};

use crate::budget::Limits;
use crate::connect;
use crate::context::Ctx;
use crate::knowledge::{Pipeline, Verdict};
use crate::memory;
use crate::movebit::{self, MoveBit};
use crate::outcome::{Outcome, SolveResult, Stats, StopReason};

/// A node's index in the arena, stored plus one so that "no node" (the root's parent) is
/// `None` of an `Option<NodeId>` in four bytes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct NodeId(NonZeroU32);

impl NodeId {
    fn new(index: usize) -> NodeId {
        NodeId(NonZeroU32::MIN.saturating_add(index as u32))
    }

    fn index(self) -> usize {
        (self.0.get() - 1) as usize
    }
}

/// What is known of a node, for its player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Value {
    Open,
    Win,
    Loss,
}

/// One node of the tree, with the policy's numbers in `data`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Node<B, D> {
    pub(crate) value: Value,
    /// The children are `first..first + count` in the arena (none for a leaf, `count` 0).
    pub(crate) first: u32,
    pub(crate) count: u32,
    /// The parent's index (none for the root).
    parent: Option<NodeId>,
    /// The move that led here (none for the root), and for a won node the winning move.
    pub(crate) mv: Option<MoveBit>,
    best: Option<MoveBit>,
    carrier: B,
    support: B,
    fill: [B; 2],
    expanded: bool,
    pub(crate) data: D,
}

impl<B: BitSet, D> Node<B, D> {
    fn leaf(parent: Option<NodeId>, mv: Option<MoveBit>, data: D) -> Node<B, D> {
        Node {
            value: Value::Open,
            first: 0,
            count: 0,
            parent,
            mv,
            best: None,
            carrier: B::EMPTY,
            support: B::EMPTY,
            fill: [B::EMPTY; 2],
            expanded: false,
            data,
        }
    }

    /// The arena indices of the children.
    pub(crate) fn children(&self) -> std::ops::Range<usize> {
        self.first as usize..(self.first + self.count) as usize
    }
}

/// What makes a best-first search its own: the numbers each node carries, which child a
/// descent takes, and how a node's numbers follow from its children's.
pub(crate) trait Policy<B: BitSet> {
    /// The numbers of a node.
    type Data: Copy;

    /// The numbers of a new node.
    fn leaf(&self) -> Self::Data;

    /// Sets the numbers of a node just proven won or lost.
    fn proven(data: &mut Self::Data, value: Value);

    /// The arena index of the child of the open, expanded node `at` that the descent takes.
    fn select(tree: &[Node<B, Self::Data>], at: usize) -> usize;

    /// A leaf is about to be expanded.
    fn start(&mut self) {}

    /// Sets the numbers of a new child: the move `m` of the position `p`, `rank` in a move
    /// order of `count`; `decided` when the move connects (the child is lost at once).
    fn child(
        &mut self,
        p: &Position<B>,
        m: Cell,
        rank: usize,
        count: usize,
        decided: bool,
        data: &mut Self::Data,
    );

    /// The expanded leaf's children are in place; called before its numbers are combined.
    fn expanded(&mut self, _data: &mut Self::Data) {}

    /// An ancestor of the expanded leaf, on the way up; called before its numbers are
    /// combined.
    fn passed(&mut self, _data: &mut Self::Data) {}

    /// Recomputes the numbers of the open node `at` from its children, none of them lost and
    /// not all won.
    fn combine(tree: &mut [Node<B, Self::Data>], at: usize);
}

/// Solves `pos` (nobody has won yet) by best-first search with `policy`.
pub(crate) fn solve<B: BitSet, P: Policy<B>>(
    pos: &Position<B>,
    ctx: &Ctx<'_, B>,
    policy: &mut P,
) -> SolveResult<B> {
    let (cfg, plan) = (ctx.cfg, ctx.plan);
    let mut limits = Limits::new(cfg);
    let mut stats = Stats::default();
    let mut pipe = Pipeline::with_plan(&cfg.knowledge, pos.geometry(), plan);
    pipe.set_stop(limits.stop());
    let cap = (plan.table_bytes / std::mem::size_of::<Node<B, P::Data>>()).max(16);
    let mut tree: Vec<Node<B, P::Data>> = Vec::with_capacity(cap.min(1 << 16));
    tree.push(Node::leaf(None, None, policy.leaf()));
    let mut p = pos.clone();
    let order = Vec::with_capacity(pos.geometry().cells().len());
    let mut tools = Tools { pipe, order, policy };
    let mut stop = None;
    while tree[0].value == Value::Open {
        stats.nodes += 1;
        if limits.exceeded(stats.nodes) {
            stop = limits.reason();
            break;
        }
        // Select a leaf, replaying moves and fill-in on the way down.
        let mut at = 0usize;
        let mut undo = 0usize;
        let mut depth = 0usize;
        while tree[at].expanded {
            let n = tree[at];
            for c in Color::ALL {
                if !n.fill[c.index()].is_empty() {
                    p.fill(c, n.fill[c.index()]);
                    undo += 1;
                }
            }
            let best = P::select(&tree, at);
            if let Some(mv) = tree[best].mv {
                p.play_unchecked(mv.cell::<B>());
                undo += 1;
            }
            depth += 1;
            at = best;
        }
        let need = p.empty_cells().len();
        let full = if tree.len() + need > cap {
            Some(StopReason::NodeLimit)
        } else {
            memory::grow(&mut tree, need, cap).err()
        };
        if full.is_some() {
            stop = full;
            for _ in 0..undo {
                p.undo();
            }
            break;
        }
        expand(&mut tree, at, depth, &mut p, &mut tools, &mut stats);
        for _ in 0..undo {
            p.undo();
        }
        // Back up values, carriers and numbers to the root.
        let mut up = tree[at].parent;
        while let Some(id) = up {
            let u = id.index();
            tools.policy.passed(&mut tree[u].data);
            update::<B, P>(&mut tree, u);
            up = tree[u].parent;
        }
    }
    stats.time = limits.start.elapsed();
    let root = tree[0];
    let outcome = match root.value {
        Value::Win => {
            let mv = movebit::cell::<B>(root.best);
            Outcome::Win { winning_move: mv, carrier: root.carrier }
        }
        Value::Loss => Outcome::Loss { carrier: root.carrier },
        Value::Open => Outcome::Unknown { reason: stop.unwrap_or(StopReason::Cancelled) },
    };
    SolveResult { outcome, stats }
}

/// What an expansion works with besides the tree, the position and the counters: the
/// knowledge pipeline, the move-order buffer and the search's policy.
struct Tools<'p, B: BitSet, P> {
    pipe: Pipeline<B>,
    order: Vec<Cell>,
    policy: &'p mut P,
}

/// Expands the leaf `at`, `depth` moves below the root in `p`: knowledge decides it, or its
/// children are added in the move order.
fn expand<B: BitSet, P: Policy<B>>(
    tree: &mut Vec<Node<B, P::Data>>,
    at: usize,
    depth: usize,
    p: &mut Position<B>,
    tools: &mut Tools<'_, B, P>,
    stats: &mut Stats,
) {
    let Tools { pipe, order, policy } = tools;
    let me = p.to_move();
    policy.start();
    let node = pipe.analyse(p, depth, stats);
    tree[at].expanded = true;
    match node.verdict {
        Verdict::Win { mv, carrier } => {
            let n = &mut tree[at];
            n.best = movebit::of::<B>(mv);
            prove::<B, P>(n, Value::Win, carrier | node.filled[0] | node.filled[1]);
        }
        Verdict::Loss { carrier } => {
            prove::<B, P>(&mut tree[at], Value::Loss, carrier | node.filled[0] | node.filled[1]);
        }
        Verdict::Open => {
            let wins = connect::winning_cells(p, me);
            let first = tree.len() as u32;
            pipe.order(p, node.moves, order);
            let count = order.len();
            for (rank, &m) in order.iter().enumerate() {
                let mv = Some(MoveBit::of::<B>(m));
                let mut child = Node::leaf(Some(NodeId::new(at)), mv, policy.leaf());
                let decided = wins.contains(m);
                policy.child(p, m, rank, count, decided, &mut child.data);
                if decided {
                    // The mover has connected: the child's player to move has lost.
                    child.expanded = true;
                    prove::<B, P>(&mut child, Value::Loss, B::EMPTY);
                }
                tree.push(child);
            }
            let n = &mut tree[at];
            n.first = first;
            n.count = count as u32;
            n.support = node.support;
            n.fill = node.filled;
            policy.expanded(&mut n.data);
            update::<B, P>(tree, at);
        }
    }
    for _ in 0..node.fills() {
        p.undo();
    }
}

/// Marks `n` proven with `carrier`.
fn prove<B: BitSet, P: Policy<B>>(n: &mut Node<B, P::Data>, value: Value, carrier: B) {
    n.value = value;
    n.carrier = carrier;
    P::proven(&mut n.data, value);
}

/// Brings the open node `at` up to date with its children.
fn update<B: BitSet, P: Policy<B>>(tree: &mut [Node<B, P::Data>], at: usize) {
    let n = tree[at];
    if n.value != Value::Open {
        return;
    }
    let fill = n.fill[0] | n.fill[1];
    let mut union = B::EMPTY;
    let mut all_won = true;
    for i in n.children() {
        let c = &tree[i];
        if let (Value::Loss, Some(mv)) = (c.value, c.mv) {
            let carrier = c.carrier.with(mv.cell::<B>());
            let n = &mut tree[at];
            n.best = Some(mv);
            prove::<B, P>(n, Value::Win, carrier | fill);
            return;
        }
        all_won &= c.value == Value::Win;
        union |= c.carrier;
    }
    if all_won {
        // Also a node without moves: the opponent's connections leave none.
        prove::<B, P>(&mut tree[at], Value::Loss, union | n.support | fill);
        return;
    }
    P::combine(tree, at);
}
