//! The search tree of one thread: an arena of nodes whose children lie side by side, UCT
//! selection (Kocsis and Szepesvári 2006) with RAVE (Gelly and Silver 2007, the AMAF of Horrell
//! et al. s.2.3.4), expansion with the knowledge pipeline's verdicts and pruned moves, and the
//! MCTS-solver's backup of proven nodes (Winands, Björnsson and Saito 2008; Chen 2025 s.2.3).
//!
//! Architecture Invariant: an iteration allocates nothing. The arena is one `Vec` that grows
//! by whole blocks of children until the memory limit, the position is played and undone in
//! place, and the playout reuses its buffers.

use nash_board::{BitSet, Cell, Color, Geometry, Position};
use nash_search::{Analyser, Verdict};

use super::playout::{Filled, Playouts, Rng};
use super::{Config, Limits};

/// What is proven about a node, for the player to move there.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum Proof {
    #[default]
    Unknown,
    Win,
    Loss,
}

/// One node: the move that leads to it and its statistics, counted for the player who made
/// that move.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Node {
    /// Index of the first child in the arena; the children are `first..first + children`.
    pub(crate) first: u32,
    /// Playouts through this node.
    pub(crate) visits: u32,
    /// Of those, the ones the player who moved here won.
    pub(crate) wins: f32,
    /// Playouts below the parent in which this node's mover took this cell later (AMAF),
    /// prior knowledge included as virtual playouts.
    pub(crate) amaf_visits: f32,
    /// Of those, the ones that mover won.
    pub(crate) amaf_wins: f32,
    /// Number of children.
    pub(crate) children: u16,
    /// The bit index of the move's cell.
    pub(crate) bit: u16,
    /// The proven value for the player to move here.
    pub(crate) proof: Proof,
    /// Whether the node was expanded (children made, or a verdict found).
    pub(crate) expanded: bool,
}

impl Node {
    fn range(&self) -> std::ops::Range<usize> {
        self.first as usize..self.first as usize + self.children as usize
    }
}

/// One thread's tree, playouts, knowledge and random numbers.
#[derive(Debug)]
pub(crate) struct Worker<B: BitSet> {
    geom: &'static Geometry<B>,
    pub(crate) nodes: Vec<Node>,
    /// The arena built while re-rooting (kept to reuse its memory).
    spare: Vec<Node>,
    max_nodes: usize,
    playouts: Playouts<B>,
    analyser: Option<Analyser<B>>,
    rng: Rng,
    path: Vec<u32>,
    order: Vec<Cell>,
    /// The root position of the tree (stones and side to move), for reuse at the next move.
    root: Option<([B; 2], Color)>,
    /// Playouts run in the current search.
    pub(crate) iterations: u64,
    /// The deepest node reached below the root.
    pub(crate) depth: u32,
}

impl<B: BitSet> Worker<B> {
    /// A worker for `geom` with the settings of `cfg`, drawing from `seed`.
    pub(crate) fn new(geom: &'static Geometry<B>, cfg: &Config, seed: u64) -> Worker<B> {
        let knowledge = cfg.knowledge();
        let max_nodes = (cfg.mem_mib << 20) / std::mem::size_of::<Node>() / cfg.threads.max(1);
        Worker {
            geom,
            nodes: Vec::new(),
            spare: Vec::new(),
            max_nodes: max_nodes.max(2),
            playouts: Playouts::new(geom, cfg.policy),
            analyser: knowledge.map(|k| Analyser::new(&k, geom, 8)),
            rng: Rng::new(seed),
            path: Vec::with_capacity(geom.cells().len() + 2),
            order: Vec::with_capacity(geom.cells().len()),
            root: None,
            iterations: 0,
            depth: 0,
        }
    }

    /// The board this worker plays on.
    pub(crate) fn geometry(&self) -> &'static Geometry<B> {
        self.geom
    }

    /// Starts a search of `pos`: keeps the subtree of the previous search's tree that `pos`
    /// is in when `reuse` allows, and starts afresh otherwise.
    pub(crate) fn start(&mut self, pos: &Position<B>, cfg: &Config, seed: u64) {
        self.rng = Rng::new(seed);
        self.iterations = 0;
        self.depth = 0;
        let kept = cfg.reuse && self.reroot(pos);
        if !kept {
            self.nodes.clear();
            self.nodes.push(Node::default());
        }
        self.root = Some(([pos.black(), pos.white()], pos.to_move()));
    }

    /// Makes the node of `pos` the root if the tree holds it one or two moves below its root,
    /// copying that subtree into a fresh arena; false when it does not.
    fn reroot(&mut self, pos: &Position<B>) -> bool {
        let Some((stones, to_move)) = self.root else { return false };
        if self.nodes.is_empty() {
            return false;
        }
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
            let n = self.nodes[at];
            match self.nodes[n.range()].iter().position(|c| usize::from(c.bit) == bit) {
                Some(i) => at = n.first as usize + i,
                None => return false,
            }
        }
        if self.nodes[at].children == 0 {
            return false;
        }
        if at == 0 {
            return true;
        }
        // Breadth first, so that each node's children stay side by side in the new arena.
        let mut out = std::mem::take(&mut self.spare);
        out.clear();
        out.push(Node { bit: 0, ..self.nodes[at] });
        let mut next = 0;
        while next < out.len() {
            let n = out[next];
            if n.children > 0 {
                let first = out.len() as u32;
                out.extend_from_slice(&self.nodes[n.range()]);
                out[next].first = first;
            }
            next += 1;
        }
        self.spare = std::mem::replace(&mut self.nodes, out);
        true
    }

    /// The root's statistics.
    pub(crate) fn root(&self) -> &Node {
        &self.nodes[0]
    }

    /// The root's children.
    pub(crate) fn root_children(&self) -> &[Node] {
        &self.nodes[self.nodes[0].range()]
    }

    /// The most visited child of `node`, its index.
    pub(crate) fn best_child(&self, node: usize) -> Option<usize> {
        let n = &self.nodes[node];
        if n.proof == Proof::Win {
            if let Some(i) = n.range().find(|&i| self.nodes[i].proof == Proof::Loss) {
                return Some(i);
            }
        }
        n.range().max_by(|&a, &b| {
            let (x, y) = (&self.nodes[a], &self.nodes[b]);
            (x.proof != Proof::Win)
                .cmp(&(y.proof != Proof::Win))
                .then(x.visits.cmp(&y.visits))
                .then(x.wins.total_cmp(&y.wins))
                .then(b.cmp(&a))
        })
    }

    /// Runs playouts from `pos` (the root, open) until `limits` say stop or the root is
    /// proven. `budget` is this worker's share of the playouts.
    pub(crate) fn search(
        &mut self,
        pos: &Position<B>,
        cfg: &Config,
        limits: &Limits,
        budget: Option<u64>,
    ) {
        let mut pos = pos.clone();
        if !self.nodes[0].expanded {
            self.expand(0, &mut pos, 0, cfg);
        }
        loop {
            if self.nodes[0].proof != Proof::Unknown
                || budget.is_some_and(|b| self.iterations >= b)
                || (self.iterations % 64 == 0 && limits.stop())
            {
                break;
            }
            self.iterate(&mut pos, cfg);
            self.iterations += 1;
        }
    }

    /// One playout: descend by the selection rule, expand, play out, back up.
    fn iterate(&mut self, pos: &mut Position<B>, cfg: &Config) {
        self.path.clear();
        self.path.push(0);
        let root_to_move = pos.to_move();
        let mut node = 0usize;
        let filled = loop {
            let n = self.nodes[node];
            match n.proof {
                Proof::Win => {
                    break Filled { winner: pos.to_move(), black: B::EMPTY, white: B::EMPTY }
                }
                Proof::Loss => {
                    break Filled { winner: !pos.to_move(), black: B::EMPTY, white: B::EMPTY }
                }
                Proof::Unknown => {}
            }
            if n.children == 0 {
                let depth = self.path.len() - 1;
                if !n.expanded && n.visits >= cfg.expand && self.expand(node, pos, depth, cfg) {
                    continue;
                }
                break self.playouts.run(pos.black(), pos.white(), pos.to_move(), &mut self.rng);
            }
            let child = self.select(node, cfg);
            pos.play_unchecked(B::cell_of(usize::from(self.nodes[child].bit)));
            if pos.winner().is_some() {
                self.nodes[child].proof = Proof::Loss;
            }
            self.path.push(child as u32);
            node = child;
        };
        let depth = self.path.len() as u32 - 1;
        self.depth = self.depth.max(depth);
        for _ in 1..self.path.len() {
            pos.undo();
        }
        self.backup(root_to_move, filled, cfg);
    }

    /// Makes the children of `node` (whose position is `pos`, `depth` moves below the root),
    /// or proves it by knowledge. False when the arena is full.
    fn expand(&mut self, node: usize, pos: &mut Position<B>, depth: usize, cfg: &Config) -> bool {
        let mut moves = pos.empty_cells();
        self.order.clear();
        if let Some(a) = self.analyser.as_mut() {
            let an = a.analyse(pos, depth);
            match an.verdict() {
                Verdict::Win { mv, .. } if depth > 0 || mv.is_some() => {
                    a.undo(pos, &an);
                    let n = &mut self.nodes[node];
                    (n.expanded, n.proof) = (true, Proof::Win);
                    if depth == 0 {
                        // The root keeps its winning move as its one child.
                        let first = self.nodes.len() as u32;
                        let bit = B::bit_of(mv.expect("checked")) as u16;
                        self.nodes.push(Node { bit, proof: Proof::Loss, ..Node::default() });
                        (self.nodes[0].first, self.nodes[0].children) = (first, 1);
                    }
                    return true;
                }
                Verdict::Loss { .. } if depth > 0 => {
                    a.undo(pos, &an);
                    let n = &mut self.nodes[node];
                    (n.expanded, n.proof) = (true, Proof::Loss);
                    return true;
                }
                Verdict::Open if !an.moves().is_empty() => {
                    moves = an.moves();
                    if cfg.prior > 0.0 {
                        a.order(pos, moves, &mut self.order);
                    }
                    a.undo(pos, &an);
                }
                // A lost root, or a win without a move: every empty cell is searched.
                _ => a.undo(pos, &an),
            }
        }
        let count = moves.len();
        if node != 0 && self.nodes.len() + count > self.max_nodes {
            return false;
        }
        let first = self.nodes.len();
        if self.order.is_empty() {
            self.nodes.extend(moves.bits().map(|b| Node { bit: b as u16, ..Node::default() }));
            // A random order of the children, so that ties (unvisited children) go to no cell
            // in particular.
            for i in (1..count).rev() {
                let j = self.rng.below(i + 1);
                self.nodes.swap(first + i, first + j);
            }
        } else {
            // Priors: virtual AMAF playouts whose win rate falls from 0.75 for the best move by
            // the circuit and H-score order to 0.25 for the worst.
            let last = (count.max(2) - 1) as f32;
            let prior = cfg.prior as f32;
            self.nodes.extend(self.order.iter().enumerate().map(|(rank, &c)| {
                let rate = 0.75 - 0.5 * rank as f32 / last;
                Node {
                    bit: B::bit_of(c) as u16,
                    amaf_visits: prior,
                    amaf_wins: prior * rate,
                    ..Node::default()
                }
            }));
        }
        let n = &mut self.nodes[node];
        n.first = first as u32;
        n.children = count as u16;
        n.expanded = true;
        true
    }

    /// The child of `node` to descend into: UCT with RAVE, proven children decided.
    fn select(&self, node: usize, cfg: &Config) -> usize {
        let n = &self.nodes[node];
        let log_n = f64::from(n.visits.max(1)).ln();
        let mut best = n.first as usize;
        let mut best_value = f64::NEG_INFINITY;
        for i in n.range() {
            let c = &self.nodes[i];
            if cfg.solver {
                match c.proof {
                    // The child's mover is lost there: this move wins.
                    Proof::Loss => return i,
                    Proof::Win => continue,
                    Proof::Unknown => {}
                }
            }
            let visits = f64::from(c.visits);
            let value = if cfg.rave > 0.0 {
                let amaf = if c.amaf_visits > 0.0 {
                    f64::from(c.amaf_wins) / f64::from(c.amaf_visits)
                } else {
                    cfg.fpu
                };
                if c.visits == 0 {
                    amaf + cfg.c * log_n.sqrt()
                } else {
                    // Gelly and Silver's schedule: beta = sqrt(k / (3n + k)).
                    let beta = (cfg.rave / (3.0 * visits + cfg.rave)).sqrt();
                    let q = f64::from(c.wins) / visits;
                    (1.0 - beta) * q + beta * amaf + cfg.c * (log_n / visits).sqrt()
                }
            } else if c.visits == 0 {
                f64::INFINITY
            } else {
                f64::from(c.wins) / visits + cfg.c * (log_n / visits).sqrt()
            };
            if value > best_value {
                (best, best_value) = (i, value);
            }
        }
        best
    }

    /// Counts the playout in every node of the path, updates the AMAF statistics of their
    /// children, and carries proofs up.
    fn backup(&mut self, root_to_move: Color, filled: Filled<B>, cfg: &Config) {
        let mut later = [filled.black, filled.white];
        let winner = filled.winner;
        let amaf = cfg.rave > 0.0;
        for k in (0..self.path.len()).rev() {
            let node = self.path[k] as usize;
            let to_move = if k % 2 == 0 { root_to_move } else { !root_to_move };
            let n = &mut self.nodes[node];
            n.visits += 1;
            if winner != to_move {
                n.wins += 1.0;
            }
            let (range, bit) = (n.range(), usize::from(n.bit));
            if amaf {
                // All moves as first: each child whose cell the player to move here took later
                // in this playout counts it (Horrell et al. s.2.3.4).
                let taken = later[to_move.index()];
                let won = if winner == to_move { 1.0 } else { 0.0 };
                for c in &mut self.nodes[range] {
                    if taken.has_bit(usize::from(c.bit)) {
                        c.amaf_visits += 1.0;
                        c.amaf_wins += won;
                    }
                }
            }
            if k > 0 {
                later[(!to_move).index()].set_bit(bit);
            }
        }
        if cfg.solver {
            for k in (1..self.path.len()).rev() {
                let (child, parent) = (self.path[k] as usize, self.path[k - 1] as usize);
                let proof = match self.nodes[child].proof {
                    Proof::Loss => Proof::Win,
                    Proof::Win => {
                        let p = &self.nodes[parent];
                        if self.nodes[p.range()].iter().all(|c| c.proof == Proof::Win) {
                            Proof::Loss
                        } else {
                            break;
                        }
                    }
                    Proof::Unknown => break,
                };
                self.nodes[parent].proof = proof;
            }
        }
    }

    /// The line of most visited children from the root.
    pub(crate) fn pv(&self, out: &mut Vec<Cell>) {
        let mut node = 0;
        while let Some(c) = self.best_child(node) {
            out.push(B::cell_of(usize::from(self.nodes[c].bit)));
            if self.nodes[c].visits == 0 && self.nodes[c].proof == Proof::Unknown {
                break;
            }
            node = c;
        }
    }
}
