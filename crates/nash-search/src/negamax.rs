//! Boolean negamax with an optional result table and move ordering (Chen 2025 Table 2.1 and
//! s.5.2, s.5.8): return as soon as a winning move is found, since Hex has no draws.
//!
//! Negamax proves values but no small carriers: its carriers are all empty cells of the node,
//! which is always a valid (if useless) threat pattern.

use nash_board::{BitSet, Cell, Position};

use crate::budget::Limits;
use crate::context::Ctx;
use crate::knowledge::{self, Pipeline, Verdict};
use crate::movebit;
use crate::outcome::{Outcome, SolveResult, Stats};
use crate::table::{Entry, Table};

struct Negamax<'t, B: BitSet> {
    pos: Position<B>,
    pipe: Pipeline<B>,
    table: Option<&'t Table<B>>,
    limits: Limits,
    stats: Stats,
    bufs: Vec<Vec<Cell>>,
    key: u64,
}

/// Solves `pos` (nobody has won yet) by boolean negamax.
pub(crate) fn solve<B: BitSet>(pos: &Position<B>, ctx: &Ctx<'_, B>) -> SolveResult<B> {
    let (cfg, table) = (ctx.cfg, ctx.table);
    let geom = pos.geometry();
    let n = geom.cells().len() + 2;
    let limits = Limits::new(cfg);
    let mut pipe = Pipeline::with_plan(&cfg.knowledge, geom, ctx.plan);
    pipe.set_stop(limits.stop());
    let mut s = Negamax {
        pos: pos.clone(),
        pipe,
        table: cfg.use_tt.then_some(table),
        limits,
        stats: Stats::default(),
        bufs: (0..n).map(|_| Vec::with_capacity(n)).collect(),
        key: pos.hash(),
    };
    let r = s.search(0);
    s.stats.time = s.limits.start.elapsed();
    let carrier = pos.empty_cells();
    let outcome = match r {
        Some((true, mv)) => Outcome::Win { winning_move: mv, carrier },
        Some((false, _)) => Outcome::Loss { carrier },
        None => {
            Outcome::Unknown { reason: s.limits.reason().unwrap_or(crate::StopReason::Cancelled) }
        }
    };
    SolveResult { outcome, stats: s.stats }
}

impl<B: BitSet> Negamax<'_, B> {
    /// Whether the player to move wins, with a winning move; `None` when the budget ran out.
    fn search(&mut self, depth: usize) -> Option<(bool, Option<Cell>)> {
        self.stats.nodes += 1;
        if self.limits.exceeded(self.stats.nodes) {
            return None;
        }
        let key = self.key;
        if let Some(t) = &self.table {
            if let Some(e) = t.get(key) {
                if e.is_solved() {
                    self.stats.tt_hits += 1;
                    let mv = movebit::cell::<B>(e.best);
                    return Some((e.pn == 0, mv));
                }
            }
        }
        let node = self.pipe.analyse(&mut self.pos, depth, &mut self.stats);
        let result = match node.verdict {
            Verdict::Win { mv, .. } => Some((true, mv)),
            Verdict::Loss { .. } => Some((false, None)),
            Verdict::Open => {
                self.key ^= node.fill_key(self.pos.geometry());
                let r = self.children(depth, node.moves);
                self.key ^= node.fill_key(self.pos.geometry());
                r
            }
        };
        knowledge::undo_fills(&mut self.pos, &node);
        let (win, mv) = result?;
        if let Some(t) = &self.table {
            let best = movebit::of::<B>(mv);
            t.put(Entry::solved(key, win, best, B::EMPTY, 1));
            self.stats.tt_stores += 1;
        }
        Some((win, mv))
    }

    fn children(&mut self, depth: usize, moves: B) -> Option<(bool, Option<Cell>)> {
        let mut buf = std::mem::take(&mut self.bufs[depth]);
        self.pipe.order(&self.pos, moves, &mut buf);
        let me = self.pos.to_move();
        let mut result = Some((false, None));
        for &m in &buf {
            let parent = self.key;
            self.key = self.pos.geometry().child_hash(parent, me, B::bit_of(m));
            self.pos.play_unchecked(m);
            let r = if self.pos.winner() == Some(me) {
                Some((false, None))
            } else {
                self.search(depth + 1)
            };
            self.pos.undo();
            self.key = parent;
            match r {
                None => {
                    result = None;
                    break;
                }
                Some((false, _)) => {
                    result = Some((true, Some(m)));
                    break;
                }
                Some((true, _)) => {}
            }
        }
        self.bufs[depth] = buf;
        result
    }
}
