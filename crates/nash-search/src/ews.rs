//! Expected-work search (Randall et al. 2024; Chen 2025 s.2.4, s.5.1, s.5.9–5.10).
//!
//! Each node estimates the work to prove it won and to prove it lost:
//! `EWloss(X) = Σ EWwin(Cᵢ)` (every child must be proven a win for the opponent) and
//! `EWwin(X) = Σᵢ EWloss(Cᵢ) · Πⱼ<ᵢ WR(Cⱼ)`, where the children are tried in order and `WR(C)` is
//! the estimated probability that the child's player to move wins. Win rates come from random
//! playouts run when a node is expanded, blended with the move order of the knowledge pipeline
//! (s.5.9: `WR = (wins + W·score) / (visits + W·maxscore)` with the child's index in the
//! H-score order as score, W = 5). Children are ordered by `EWloss / (1 − WR)`, the order that
//! minimises `EWwin`, and the search descends into the first child. Proven nodes carry carriers
//! as in pattern search.

use nash_board::{BitSet, Cell, Color, Position};

use crate::budget::Limits;
use crate::connect;
use crate::entry::Ctx;
use crate::knowledge::{Pipeline, Verdict};
use crate::memory;
use crate::outcome::{Outcome, SolveResult, Stats, StopReason};

const NONE: u32 = u32::MAX;
/// Weight of the move-order score in the win rate (Chen 2025 s.5.9).
const SCORE_WEIGHT: f64 = 5.0;
/// Random playouts per new child.
const PLAYOUTS: u32 = 2;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Value {
    Open,
    Win,
    Loss,
}

#[derive(Clone, Copy, Debug)]
struct Node<B> {
    value: Value,
    /// Playouts through this node and wins among them, for its player to move.
    visits: f64,
    wins: f64,
    /// Index in the parent's move order and the number of siblings.
    rank: f64,
    siblings: f64,
    ew_win: f64,
    ew_loss: f64,
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
            value: Value::Open,
            visits: 0.0,
            wins: 0.0,
            rank: 0.0,
            siblings: 1.0,
            ew_win: 1.0,
            ew_loss: 1.0,
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

    /// Estimated probability that the player to move here wins.
    fn win_rate(&self) -> f64 {
        match self.value {
            Value::Win => 1.0,
            Value::Loss => 0.0,
            Value::Open => {
                // Earlier in the move order means a better move for the parent, so a lower win
                // rate for this node's player.
                let score = self.rank;
                let wr = (self.wins + SCORE_WEIGHT * score)
                    / (self.visits + SCORE_WEIGHT * self.siblings).max(1e-9);
                wr.clamp(0.02, 0.98)
            }
        }
    }

    /// The key children are ordered by: the cost of proving the child lost per unit of chance
    /// that it is lost.
    fn order_key(&self) -> f64 {
        match self.value {
            Value::Loss => 0.0,
            Value::Win => f64::INFINITY,
            Value::Open => self.ew_loss / (1.0 - self.win_rate()),
        }
    }
}

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// Solves `pos` (nobody has won yet) by expected-work search.
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
    let mut cells = Vec::with_capacity(pos.geometry().cells().len());
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let mut stop = None;
    while tree[0].value == Value::Open {
        stats.nodes += 1;
        if limits.exceeded(stats.nodes) {
            stop = limits.reason();
            break;
        }
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
            let mut best = n.first as usize;
            let mut key = f64::INFINITY;
            let first = n.first as usize;
            for (i, c) in tree[first..first + n.count as usize].iter().enumerate() {
                if c.value == Value::Open {
                    let k = c.order_key();
                    if k < key {
                        key = k;
                        best = first + i;
                    }
                }
            }
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
        let (w, v) = expand(
            &mut tree, at, depth, &mut p, &mut pipe, &mut order, &mut cells, &mut rng, &mut stats,
        );
        for _ in 0..undo {
            p.undo();
        }
        // Back up playout counts (from each node's own point of view), values and EW.
        let (mut wins, mut visits) = (w, v);
        let mut up = tree[at].parent;
        while up != NONE {
            let u = up as usize;
            (wins, visits) = (visits - wins, visits);
            tree[u].wins += wins;
            tree[u].visits += visits;
            update(&mut tree, u);
            up = tree[u].parent;
        }
    }
    stats.time = limits.start.elapsed();
    let root = tree[0];
    let outcome = match root.value {
        Value::Win => {
            let mv = (root.best != u16::MAX).then(|| B::cell_of(root.best as usize));
            Outcome::Win { winning_move: mv, carrier: root.carrier }
        }
        Value::Loss => Outcome::Loss { carrier: root.carrier },
        Value::Open => Outcome::Unknown { reason: stop.unwrap_or(StopReason::Cancelled) },
    };
    SolveResult { outcome, stats }
}

/// Expands a leaf: knowledge, then children with random playouts. Returns the playout wins and
/// visits for the leaf's player to move.
#[allow(clippy::too_many_arguments)]
fn expand<B: BitSet>(
    tree: &mut Vec<Node<B>>,
    at: usize,
    depth: usize,
    p: &mut Position<B>,
    pipe: &mut Pipeline<B>,
    order: &mut Vec<Cell>,
    cells: &mut Vec<Cell>,
    rng: &mut Rng,
    stats: &mut Stats,
) -> (f64, f64) {
    let me = p.to_move();
    let node = pipe.analyse(p, depth, stats);
    tree[at].expanded = true;
    let mut result = (0.0, 0.0);
    match node.verdict {
        Verdict::Win { mv, carrier } => {
            let n = &mut tree[at];
            n.value = Value::Win;
            n.best = mv.map_or(u16::MAX, |c| B::bit_of(c) as u16);
            n.carrier = carrier | node.filled[0] | node.filled[1];
            set_ew(n);
        }
        Verdict::Loss { carrier } => {
            let n = &mut tree[at];
            n.value = Value::Loss;
            n.carrier = carrier | node.filled[0] | node.filled[1];
            set_ew(n);
        }
        Verdict::Open => {
            let wins = connect::winning_cells(p, me);
            let first = tree.len() as u32;
            pipe.order(p, node.moves, order);
            let count = order.len();
            for (i, &m) in order.iter().enumerate() {
                let mut child = Node::leaf(at as u32, B::bit_of(m) as u16);
                child.rank = i as f64;
                child.siblings = count as f64;
                if wins.contains(m) {
                    child.value = Value::Loss;
                    child.expanded = true;
                    set_ew(&mut child);
                } else {
                    // Playouts from the child, counted for the child's player to move.
                    let mut w = 0.0;
                    for _ in 0..PLAYOUTS {
                        if playout(p, m, cells, rng) != me {
                            w += 1.0;
                        }
                    }
                    child.wins = w;
                    child.visits = f64::from(PLAYOUTS);
                    result.0 += f64::from(PLAYOUTS) - w;
                    result.1 += f64::from(PLAYOUTS);
                }
                tree.push(child);
            }
            let n = &mut tree[at];
            n.first = first;
            n.count = count as u32;
            n.support = node.support;
            n.fill = node.filled;
            n.wins += result.0;
            n.visits += result.1;
            update(tree, at);
        }
    }
    for _ in 0..node.fills {
        p.undo();
    }
    result
}

/// Proven nodes cost nothing to prove and cannot be proven the other way.
fn set_ew<B: BitSet>(n: &mut Node<B>) {
    match n.value {
        Value::Win => (n.ew_win, n.ew_loss) = (0.0, f64::INFINITY),
        Value::Loss => (n.ew_win, n.ew_loss) = (f64::INFINITY, 0.0),
        Value::Open => {}
    }
}

/// A random playout after the player to move plays `first`: the remaining cells are shared out
/// at random, alternately; returns the winner.
fn playout<B: BitSet>(p: &Position<B>, first: Cell, cells: &mut Vec<Cell>, rng: &mut Rng) -> Color {
    let me = p.to_move();
    cells.clear();
    cells.extend(p.empty_cells().without(first).iter());
    let mut stones = [p.stones(Color::Black), p.stones(Color::White)];
    stones[me.index()].insert(first);
    let mut turn = !me;
    for i in (0..cells.len()).rev() {
        let j = (rng.next() % (i as u64 + 1)) as usize;
        cells.swap(i, j);
        stones[turn.index()].insert(cells[i]);
        turn = !turn;
    }
    // On a full board exactly one player connects; check Black.
    let geom = p.geometry();
    let black = stones[0];
    let mut g = geom.edge_cells(nash_board::Edge::North) & black;
    loop {
        let next = g | (g.dilate() & black);
        if next == g {
            break;
        }
        g = next;
    }
    if g.intersects(geom.edge_cells(nash_board::Edge::South)) {
        Color::Black
    } else {
        Color::White
    }
}

fn update<B: BitSet>(tree: &mut [Node<B>], at: usize) {
    let n = tree[at];
    if n.value != Value::Open {
        return;
    }
    let fill = n.fill[0] | n.fill[1];
    if n.count == 0 {
        let n = &mut tree[at];
        n.value = Value::Loss;
        n.carrier = n.support | fill;
        set_ew(n);
        return;
    }
    let range = n.first as usize..(n.first + n.count) as usize;
    let mut union = B::EMPTY;
    let mut all_won = true;
    for i in range.clone() {
        let c = &tree[i];
        if c.value == Value::Loss {
            let (best, carrier) = (c.mv, c.carrier.with(B::cell_of(c.mv as usize)));
            let n = &mut tree[at];
            n.value = Value::Win;
            n.best = best;
            n.carrier = carrier | fill;
            set_ew(n);
            return;
        }
        if c.value != Value::Win {
            all_won = false;
        }
        union |= c.carrier;
    }
    if all_won {
        let n = &mut tree[at];
        n.value = Value::Loss;
        n.carrier = union | n.support | fill;
        set_ew(n);
        return;
    }
    // EWloss = Σ EWwin(child); EWwin = Σ EWloss(Cᵢ) Π_{j<i} WR(Cⱼ) in the best order. The
    // children are few, so a selection pass per position beats sorting into a buffer.
    let mut ew_loss = 0.0;
    for i in range.clone() {
        ew_loss += tree[i].ew_win;
    }
    let mut ew_win = 0.0;
    let mut reach = 1.0;
    let mut used = 0u128;
    let count = n.count as usize;
    for _ in 0..count.min(128) {
        let mut best = None;
        let mut key = f64::INFINITY;
        for (k, i) in range.clone().enumerate() {
            if used & (1 << k) == 0 && tree[i].value == Value::Open {
                let kk = tree[i].order_key();
                if best.is_none() || kk < key {
                    key = kk;
                    best = Some((k, i));
                }
            }
        }
        let Some((k, i)) = best else { break };
        used |= 1 << k;
        ew_win += reach * tree[i].ew_loss;
        reach *= tree[i].win_rate();
        if reach < 1e-12 {
            break;
        }
    }
    let n = &mut tree[at];
    n.ew_loss = ew_loss.min(1e300);
    n.ew_win = ew_win.min(1e300);
}
