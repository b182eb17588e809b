//! Expected-work search (Randall et al. 2024; Chen 2025 s.2.4, s.5.1, s.5.9–5.10).
//!
//! Each node estimates the work to prove it won and to prove it lost:
//! `EWloss(X) = Σ EWwin(Cᵢ)` (every child must be proven a win for the opponent) and
//! `EWwin(X) = Σᵢ EWloss(Cᵢ) · Πⱼ<ᵢ WR(Cⱼ)`, where the children are tried in order and `WR(C)` is
//! the estimated probability that the child's player to move wins. Win rates come from random
//! playouts run when a node is expanded, blended with the move order of the knowledge pipeline
//! (s.5.9: `WR = (wins + W·score) / (visits + W·maxscore)` with the child's index in the
//! H-score order as score, W = 5). Children are ordered by `EWloss / (1 − WR)`, the order that
//! minimises `EWwin`, and the search descends into the first child. The tree, its expansion
//! through knowledge and its carriers are the driver's in [`crate::bestfirst`].

use nash_board::{BitSet, Cell, Color, Position};

use crate::bestfirst::{self, Node, Policy, Value};
use crate::context::Ctx;
use crate::outcome::SolveResult;

/// Weight of the move-order score in the win rate (Chen 2025 s.5.9).
const SCORE_WEIGHT: f64 = 5.0;
/// Random playouts per new child.
const PLAYOUTS: u32 = 2;

/// A node's playout statistics, place in its parent's move order and expected work.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Work {
    /// Playouts through this node and wins among them, for its player to move.
    visits: f64,
    wins: f64,
    /// Index in the parent's move order and the number of siblings.
    rank: f64,
    siblings: f64,
    ew_win: f64,
    ew_loss: f64,
}

/// Estimated probability that the player to move at `n` wins.
fn win_rate<B>(n: &Node<B, Work>) -> f64 {
    let w = &n.data;
    match n.value {
        Value::Win => 1.0,
        Value::Loss => 0.0,
        Value::Open => {
            // Earlier in the move order means a better move for the parent, so a lower win
            // rate for this node's player.
            let score = w.rank;
            let wr =
                (w.wins + SCORE_WEIGHT * score) / (w.visits + SCORE_WEIGHT * w.siblings).max(1e-9);
            wr.clamp(0.02, 0.98)
        }
    }
}

/// The key children are ordered by: the cost of proving the child lost per unit of chance that
/// it is lost.
fn order_key<B>(n: &Node<B, Work>) -> f64 {
    match n.value {
        Value::Loss => 0.0,
        Value::Win => f64::INFINITY,
        Value::Open => n.data.ew_loss / (1.0 - win_rate(n)),
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
    // On a full board exactly one player connects.
    p.geometry().full_board_winner(stones[0])
}

/// Expected-work search's policy: playouts at each new child, the child with the least
/// expected work per chance of a loss first.
struct ExpectedWork {
    rng: Rng,
    cells: Vec<Cell>,
    /// Playout wins and visits of the leaf being expanded, then of each node above it on the
    /// way up, for that node's player to move.
    playouts: (f64, f64),
}

impl<B: BitSet> Policy<B> for ExpectedWork {
    type Data = Work;

    fn leaf(&self) -> Work {
        Work { visits: 0.0, wins: 0.0, rank: 0.0, siblings: 1.0, ew_win: 1.0, ew_loss: 1.0 }
    }

    /// Proven nodes cost nothing to prove and cannot be proven the other way.
    fn proven(w: &mut Work, value: Value) {
        match value {
            Value::Win => (w.ew_win, w.ew_loss) = (0.0, f64::INFINITY),
            Value::Loss => (w.ew_win, w.ew_loss) = (f64::INFINITY, 0.0),
            Value::Open => {}
        }
    }

    fn select(tree: &[Node<B, Work>], at: usize) -> usize {
        let range = tree[at].children();
        let mut best = range.start;
        let mut key = f64::INFINITY;
        for i in range {
            if tree[i].value == Value::Open {
                let k = order_key(&tree[i]);
                if k < key {
                    key = k;
                    best = i;
                }
            }
        }
        best
    }

    fn start(&mut self) {
        self.playouts = (0.0, 0.0);
    }

    fn child(
        &mut self,
        p: &Position<B>,
        m: Cell,
        rank: usize,
        count: usize,
        decided: bool,
        w: &mut Work,
    ) {
        w.rank = rank as f64;
        w.siblings = count as f64;
        if decided {
            return;
        }
        // Playouts from the child, counted for the child's player to move.
        let me = p.to_move();
        let mut won = 0.0;
        for _ in 0..PLAYOUTS {
            if playout(p, m, &mut self.cells, &mut self.rng) != me {
                won += 1.0;
            }
        }
        w.wins = won;
        w.visits = f64::from(PLAYOUTS);
        self.playouts.0 += f64::from(PLAYOUTS) - won;
        self.playouts.1 += f64::from(PLAYOUTS);
    }

    fn expanded(&mut self, w: &mut Work) {
        w.wins += self.playouts.0;
        w.visits += self.playouts.1;
    }

    /// The playouts counted again from the parent's side: its player's wins are the child's
    /// player's losses.
    fn passed(&mut self, w: &mut Work) {
        let (wins, visits) = self.playouts;
        self.playouts = (visits - wins, visits);
        w.wins += self.playouts.0;
        w.visits += self.playouts.1;
    }

    /// EWloss = Σ EWwin(child); EWwin = Σ EWloss(Cᵢ) Π_{j<i} WR(Cⱼ) in the best order. The
    /// children are few, so a selection pass per position beats sorting into a buffer.
    fn combine(tree: &mut [Node<B, Work>], at: usize) {
        let range = tree[at].children();
        let mut ew_loss = 0.0;
        for i in range.clone() {
            ew_loss += tree[i].data.ew_win;
        }
        let mut ew_win = 0.0;
        let mut reach = 1.0;
        let mut used = 0u128;
        for _ in 0..range.len().min(128) {
            let mut best = None;
            let mut key = f64::INFINITY;
            // Only the first 128 children fit the `used` mask (a 19x19 node has up to 361);
            // the rest are left out of the estimate, which only guides the search.
            for (k, i) in range.clone().enumerate().take(128) {
                if used & (1 << k) == 0 && tree[i].value == Value::Open {
                    let kk = order_key(&tree[i]);
                    if best.is_none() || kk < key {
                        key = kk;
                        best = Some((k, i));
                    }
                }
            }
            let Some((k, i)) = best else { break };
            used |= 1 << k;
            ew_win += reach * tree[i].data.ew_loss;
            reach *= win_rate(&tree[i]);
            if reach < 1e-12 {
                break;
            }
        }
        let w = &mut tree[at].data;
        w.ew_loss = ew_loss.min(1e300);
        w.ew_win = ew_win.min(1e300);
    }
}

/// Solves `pos` (nobody has won yet) by expected-work search.
pub(crate) fn solve<B: BitSet>(pos: &Position<B>, ctx: &Ctx<'_, B>) -> SolveResult<B> {
    let mut policy = ExpectedWork {
        rng: Rng(0x2545_f491_4f6c_dd1d),
        cells: Vec::with_capacity(pos.geometry().cells().len()),
        playouts: (0.0, 0.0),
    };
    bestfirst::solve(pos, ctx, &mut policy)
}
