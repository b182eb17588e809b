//! Expected-work search (Randall et al. 2024; Chen 2025 s.2.4, s.5.1, s.5.9–5.10).
//!
//! Each node estimates the work to prove it won and to prove it lost:
//! `EWloss(X) = Σ EWwin(Cᵢ)` (every child must be proven a win for the opponent) and
//! `EWwin(X) = Σᵢ EWloss(Cᵢ) · Πⱼ<ᵢ WR(Cⱼ)`, where the children are tried in order and `WR(C)` is
//! the estimated probability that the child's player to move wins. Win rates come from random
//! playouts run when a node is expanded, blended with the move order of the knowledge pipeline
//! (s.5.9: `WR = (wins + W·score) / (visits + W·maxscore)` with the child's index in the
//! H-score order as score; [`crate::EwsConfig`] sets W, 5 by default, and the playouts). Children are ordered by `EWloss / (1 − WR)`, the order that
//! minimises `EWwin`, and the search descends into the first child. A new leaf's expected
//! work starts at 1, or grows with its empty cells ([`crate::EwsConfig::growing_leaves`]). The tree, its expansion
//! through knowledge and its carriers are the driver's in [`crate::bestfirst`].

use nash_board::{BitSet, Cell, Color, Position};

use crate::bestfirst::{self, Node, Policy, Value};
use crate::config::EwsConfig;
use crate::context::Ctx;
use crate::outcome::SolveResult;

/// A node's playout statistics and expected work, in single precision to keep nodes small
/// (visits past 2^24 grow in coarser steps, which only blurs a win rate near the root).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Work {
    /// Playouts through this node and wins among them, for its player to move.
    visits: f32,
    wins: f32,
    ew_win: f32,
    ew_loss: f32,
}

/// Estimated probability that the player to move at `n`, child `rank` of `siblings`, wins,
/// with the move-order score weighted by `w`.
fn win_rate(n: &Node<Work>, rank: usize, siblings: usize, w: f32) -> f32 {
    match n.value {
        Value::Win => 1.0,
        Value::Loss => 0.0,
        Value::Open => {
            // Earlier in the move order means a better move for the parent, so a lower win
            // rate for this node's player.
            let d = &n.data;
            let wr = (d.wins + w * rank as f32) / (d.visits + w * siblings as f32).max(1e-9);
            wr.clamp(0.02, 0.98)
        }
    }
}

/// The key children are ordered by: the cost of proving the child lost per unit of chance that
/// it is lost.
fn order_key(n: &Node<Work>, rank: usize, siblings: usize, w: f32) -> f32 {
    match n.value {
        Value::Loss => 0.0,
        Value::Win => f32::INFINITY,
        Value::Open => n.data.ew_loss / (1.0 - win_rate(n, rank, siblings, w)),
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
    cfg: EwsConfig,
    /// The weight W of [`EwsConfig::weight`].
    weight: f32,
    /// The first expected work of a leaf with `k` empty cells.
    leaf_work: Vec<f32>,
    rng: Rng,
    cells: Vec<Cell>,
    /// Playout wins and visits of the leaf being expanded, then of each node above it on the
    /// way up, for that node's player to move.
    playouts: (f32, f32),
}

impl<B: BitSet> Policy<B> for ExpectedWork {
    type Data = Work;

    fn leaf(&self) -> Work {
        Work { visits: 0.0, wins: 0.0, ew_win: 1.0, ew_loss: 1.0 }
    }

    /// Proven nodes cost nothing to prove and cannot be proven the other way.
    fn proven(w: &mut Work, value: Value) {
        match value {
            Value::Win => (w.ew_win, w.ew_loss) = (0.0, f32::INFINITY),
            Value::Loss => (w.ew_win, w.ew_loss) = (f32::INFINITY, 0.0),
            Value::Open => {}
        }
    }

    fn select(&self, _: &Work, children: &[Node<Work>]) -> usize {
        let (n, w) = (children.len(), self.weight);
        let mut best = 0;
        let mut key = f32::INFINITY;
        let mut any = false;
        for (i, c) in children.iter().enumerate() {
            if c.value == Value::Open {
                let k = order_key(c, i, n, w);
                if !any || k < key {
                    (key, best, any) = (k, i, true);
                }
            }
        }
        best
    }

    fn start(&mut self) {
        self.playouts = (0.0, 0.0);
    }

    fn child(&mut self, p: &Position<B>, m: Cell, proven: bool, w: &mut Work) {
        if proven {
            return;
        }
        if self.cfg.growing_leaves {
            let k = p.empty_cells().len().saturating_sub(1);
            let e = self.leaf_work[k.min(self.leaf_work.len() - 1)];
            (w.ew_win, w.ew_loss) = (e, e);
        }
        // Playouts from the child, counted for the child's player to move.
        let me = p.to_move();
        let mut won = 0u32;
        for _ in 0..self.cfg.playouts {
            if playout(p, m, &mut self.cells, &mut self.rng) != me {
                won += 1;
            }
        }
        let n = self.cfg.playouts as f32;
        w.wins = won as f32;
        w.visits = n;
        self.playouts.0 += n - won as f32;
        self.playouts.1 += n;
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
    fn combine(&self, node: &mut Work, children: &[Node<Work>]) {
        let (n, w) = (children.len(), self.weight);
        let mut ew_loss = 0.0f32;
        for c in children {
            ew_loss += c.data.ew_win;
        }
        let mut ew_win = 0.0f32;
        let mut reach = 1.0f32;
        let mut used = 0u128;
        for _ in 0..n.min(128) {
            let mut best = None;
            let mut key = f32::INFINITY;
            // Only the first 128 children fit the `used` mask (a 19x19 node has up to 361);
            // the rest are left out of the estimate, which only guides the search.
            for (k, c) in children.iter().enumerate().take(128) {
                if used & (1 << k) == 0 && c.value == Value::Open {
                    let kk = order_key(c, k, n, w);
                    if best.is_none() || kk < key {
                        key = kk;
                        best = Some((k, c));
                    }
                }
            }
            let Some((k, c)) = best else { break };
            used |= 1 << k;
            ew_win += reach * c.data.ew_loss;
            reach *= win_rate(c, k, n, w);
            if reach < 1e-12 {
                break;
            }
        }
        node.ew_loss = ew_loss.min(1e30);
        node.ew_win = ew_win.min(1e30);
    }
}

/// Expected work of a leaf by its empty cells `k`, the same for a win and a loss, such that
/// expanding a leaf does not by itself make its estimate grow: a loss needs every child won,
/// `EWloss(k) = k · EWwin(k - 1)`, and a win takes about two tries, `EWwin(k) = 2 EWloss(k - 1)`,
/// so `EW(k) = 2k · EW(k - 2)`. With a constant first estimate the estimate of every expanded
/// node jumps by its number of children, and the search goes breadth first.
fn leaf_work(cells: usize) -> Vec<f32> {
    let mut ew = vec![1.0f32; cells + 1];
    for k in 2..=cells {
        ew[k] = (2.0 * k as f32 * ew[k - 2]).min(1e30);
    }
    ew
}

/// Solves `pos` (nobody has won yet) by expected-work search.
pub(crate) fn solve<B: BitSet>(pos: &Position<B>, ctx: &Ctx<'_, B>) -> SolveResult<B> {
    let cfg = ctx.cfg.ews;
    let mut policy = ExpectedWork {
        cfg,
        weight: cfg.weight as f32,
        leaf_work: leaf_work(pos.geometry().cells().len()),
        rng: Rng(0x2545_f491_4f6c_dd1d),
        cells: Vec::with_capacity(pos.geometry().cells().len()),
        playouts: (0.0, 0.0),
    };
    bestfirst::solve(pos, ctx, &mut policy)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A leaf's first estimate follows `EW(k) = 2k · EW(k - 2)` from `EW(0) = EW(1) = 1`.
    #[test]
    fn leaf_work_grows_as_a_proof_tree() {
        let ew = leaf_work(36);
        assert_eq!(&ew[..6], &[1.0, 1.0, 4.0, 6.0, 32.0, 60.0]);
        assert!(ew[36].is_finite() && ew[36] > 1e20);
    }
}
