//! Proof-number search (Allis, van der Meulen and van den Herik 1994; Chen 2025 s.2.2): a
//! best-first search over an explicit tree that always expands a most-proving leaf.
//!
//! Negamax form, as in [`crate::dfpn`]: `pn = min dn(child)`, `dn = Σ pn(child)`. The tree lives
//! in one arena whose size comes from the memory limit; running out of it stops the search with
//! `Unknown`. Each node keeps the fill-in placed at it, so a descent replays the exact positions
//! the children were generated in. Carriers are combined as in pattern search: a win's carrier
//! is the move plus the child's loss carrier, a loss's is the union of its children's plus the
//! knowledge support.

use nash_board::{BitSet, Cell, Color, Position};

use crate::budget::Limits;
use crate::connect;
use crate::entry::Ctx;
use crate::knowledge::{Pipeline, Verdict};
use crate::memory;
use crate::outcome::{Outcome, SolveResult, Stats, StopReason};
use crate::table::INF;

const NONE: u32 = u32::MAX;

#[derive(Clone, Copy, Debug)]
struct Node<B> {
    pn: u32,
    dn: u32,
    first: u32,
    count: u32,
    parent: u32,
    mv: u16,
    best: u16,
    carrier: B,
    support: B,
    fill: [B; 2],
    expanded: bool,
}

impl<B: BitSet> Node<B> {
    fn leaf(parent: u32, mv: u16) -> Node<B> {
        Node {
            pn: 1,
            dn: 1,
            first: NONE,
            count: 0,
            parent,
            mv,
            best: u16::MAX,
            carrier: B::EMPTY,
            support: B::EMPTY,
            fill: [B::EMPTY; 2],
            expanded: false,
        }
    }
}

/// Solves `pos` (nobody has won yet) by proof-number search.
pub(crate) fn solve<B: BitSet>(pos: &Position<B>, ctx: &Ctx<'_, B>) -> SolveResult<B> {
    let (cfg, plan) = (ctx.cfg, ctx.plan);
    let mut limits = Limits::new(cfg);
    let mut stats = Stats::default();
    let mut pipe = Pipeline::with_plan(&cfg.knowledge, pos.geometry(), plan);
    let cap = (plan.table_bytes / std::mem::size_of::<Node<B>>()).max(16);
    let mut tree: Vec<Node<B>> = Vec::with_capacity(cap.min(1 << 16));
    tree.push(Node::leaf(NONE, u16::MAX));
    let mut p = pos.clone();
    let mut order = Vec::with_capacity(pos.geometry().cells().len());
    let mut stop = None;
    while tree[0].pn != 0 && tree[0].dn != 0 {
        stats.nodes += 1;
        if limits.exceeded(stats.nodes) {
            stop = limits.reason();
            break;
        }
        // Select a most-proving leaf, replaying moves and fill-in on the way down.
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
            let range = n.first as usize..(n.first + n.count) as usize;
            let best = range.clone().find(|&i| tree[i].dn == n.pn).unwrap_or(range.start);
            p.play_unchecked(B::cell_of(tree[best].mv as usize));
            undo += 1;
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
        expand(&mut tree, at, depth, &mut p, &mut pipe, &mut order, &mut stats);
        for _ in 0..undo {
            p.undo();
        }
        // Back up proof numbers and carriers to the root.
        let mut up = tree[at].parent;
        while up != NONE {
            let u = up as usize;
            update(&mut tree, u);
            up = tree[u].parent;
        }
    }
    stats.time = limits.start.elapsed();
    let root = tree[0];
    let outcome = if root.pn == 0 {
        let mv = (root.best != u16::MAX).then(|| B::cell_of(root.best as usize));
        Outcome::Win { winning_move: mv, carrier: root.carrier }
    } else if root.dn == 0 {
        Outcome::Loss { carrier: root.carrier }
    } else {
        Outcome::Unknown { reason: stop.unwrap_or(StopReason::Cancelled) }
    };
    SolveResult { outcome, stats }
}

fn expand<B: BitSet>(
    tree: &mut Vec<Node<B>>,
    at: usize,
    depth: usize,
    p: &mut Position<B>,
    pipe: &mut Pipeline<B>,
    order: &mut Vec<Cell>,
    stats: &mut Stats,
) {
    let me = p.to_move();
    let node = pipe.analyse(p, depth, stats);
    tree[at].expanded = true;
    match node.verdict {
        Verdict::Win { mv, carrier } => {
            let n = &mut tree[at];
            (n.pn, n.dn) = (0, INF);
            n.best = mv.map_or(u16::MAX, |c| B::bit_of(c) as u16);
            n.carrier = carrier | node.filled[0] | node.filled[1];
        }
        Verdict::Loss { carrier } => {
            let n = &mut tree[at];
            (n.pn, n.dn) = (INF, 0);
            n.carrier = carrier | node.filled[0] | node.filled[1];
        }
        Verdict::Open => {
            let wins = connect::winning_cells(p, me);
            let first = tree.len() as u32;
            pipe.order(p, node.moves, order);
            for &m in order.iter() {
                let mut child = Node::leaf(at as u32, B::bit_of(m) as u16);
                if wins.contains(m) {
                    // The mover has connected: the child's player to move has lost.
                    (child.pn, child.dn) = (INF, 0);
                    child.expanded = true;
                }
                tree.push(child);
            }
            let n = &mut tree[at];
            n.first = first;
            n.count = order.len() as u32;
            n.support = node.support;
            n.fill = node.filled;
            update(tree, at);
        }
    }
    for _ in 0..node.fills {
        p.undo();
    }
}

fn update<B: BitSet>(tree: &mut [Node<B>], at: usize) {
    let n = tree[at];
    if n.count == 0 {
        if n.pn != 0 && n.dn != 0 {
            let n = &mut tree[at];
            (n.pn, n.dn) = (INF, 0);
            n.carrier = n.support | n.fill[0] | n.fill[1];
        }
        return;
    }
    let mut pn = INF;
    let mut dn = 0u32;
    let mut best = u16::MAX;
    let mut best_carrier = B::EMPTY;
    let mut union = B::EMPTY;
    for c in &tree[n.first as usize..(n.first + n.count) as usize] {
        if c.dn < pn {
            pn = c.dn;
            if c.dn == 0 {
                best = c.mv;
                best_carrier = c.carrier.with(B::cell_of(c.mv as usize));
            }
        }
        dn = dn.saturating_add(c.pn).min(INF);
        union |= c.carrier;
    }
    let fill = n.fill[0] | n.fill[1];
    let n = &mut tree[at];
    n.pn = pn;
    n.dn = dn;
    if pn == 0 {
        n.dn = INF;
        n.best = best;
        n.carrier = best_carrier | fill;
    } else if dn == 0 {
        n.pn = INF;
        n.carrier = union | n.support | fill;
    }
}
