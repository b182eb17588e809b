//! The nodes the builder writes: the plan of each position reached, the winner's move or a
//! cover of the loser's moves, and the shared leaves.

use nash_board::{BitSet, Cell, Position};
use nash_proof::{At, Node};
use nash_search::{Outcome, StopReason};

use super::{position_key, Builder};
use crate::derive;
use crate::error::CertifyError;
use crate::plan::{settle, Before, Plan};
use crate::sink::Out;

impl<B: BitSet> Builder<'_, B> {
    pub(super) fn push(&mut self, node: Node) -> Result<u32, CertifyError> {
        self.tick()?;
        if self.max_nodes.is_some_and(|n| self.closed.len() >= n) {
            return Err(CertifyError::Unknown(StopReason::NodeLimit));
        }
        self.closed.push(matches!(node, Node::Won | Node::Vc { .. }));
        match &mut self.out {
            Out::Memory(list) => list.push(node),
            Out::Spool(s) => {
                s.push(&node).map_err(|e| CertifyError::Write(e.to_string()))?;
            }
        }
        Ok((self.closed.len() - 1) as u32)
    }

    /// The one node of a kind of leaf (`Won`, `Search`), which every position shares.
    pub(super) fn leaf(&mut self, node: Node) -> Result<u32, CertifyError> {
        let slot = usize::from(node == Node::Search);
        match self.leaves[slot] {
            Some(id) => Ok(id),
            None => {
                let id = self.push(node)?;
                self.leaves[slot] = Some(id);
                Ok(id)
            }
        }
    }

    pub(super) fn inconsistent(&self, what: String) -> CertifyError {
        CertifyError::Inconsistent { line: self.line.clone(), what }
    }

    /// The node proving that the winner wins `pos`.
    pub(super) fn node(&mut self, pos: &mut Position<B>) -> Result<u32, CertifyError> {
        self.node_with(pos, None)
    }

    /// [`Builder::node`] with the plan made already, or made here (`None`).
    pub(super) fn node_with(
        &mut self,
        pos: &mut Position<B>,
        plan: Option<Plan<B>>,
    ) -> Result<u32, CertifyError> {
        let key = position_key(pos);
        if let Some(&id) = self.made.get(&key) {
            return Ok(id);
        }
        let plan = match plan {
            Some(plan) => plan,
            None => self.plan(pos)?,
        };
        let (keep, inner) = self.write(pos, plan)?;
        let id = if keep == pos.empty_cells() || self.closed[inner as usize] {
            inner
        } else {
            self.push(Node::Restrict { keep: keep.iter().map(At).collect(), next: inner })?
        };
        self.remember(key, id)?;
        Ok(id)
    }

    /// How the winner's win in `pos` will be shown, and the cells it keeps, without writing
    /// anything yet.
    pub(super) fn plan(&mut self, pos: &Position<B>) -> Result<Plan<B>, CertifyError> {
        match self.plan_unsolved(pos) {
            Before::Done(plan) => Ok(plan),
            Before::Solve(semis) => {
                let outcome = self.solve(pos)?.outcome;
                self.plan_solved(pos, outcome, semis)
            }
        }
    }

    /// [`Builder::plan`] as far as it goes without the solver ([`Planner::plan_unsolved`]),
    /// on the building thread.
    pub(super) fn plan_unsolved(&mut self, pos: &Position<B>) -> Before<B> {
        let (winner, search, vc) = (self.winner, self.search, self.vc);
        self.workers[0].planner.plan_unsolved(pos, winner, search, vc)
    }

    /// The plan of `pos` from the solver's `outcome`, with the semi connections `semis` that
    /// [`Builder::plan_unsolved`] found.
    pub(super) fn plan_solved(
        &mut self,
        pos: &Position<B>,
        outcome: Outcome<B>,
        semis: Vec<derive::Derived<B>>,
    ) -> Result<Plan<B>, CertifyError> {
        let empty = pos.empty_cells();
        let winner_moves = pos.to_move() == self.winner;
        match outcome {
            Outcome::Win { winning_move, carrier } if winner_moves => {
                let mv = match winning_move {
                    Some(m) => m,
                    None => self.keep_win(pos, carrier)?,
                };
                Ok(Plan::Solved { mv: Some(mv), keep: carrier.with(mv) & empty, semis })
            }
            Outcome::Loss { carrier } if !winner_moves => {
                Ok(Plan::Solved { mv: None, keep: carrier & empty, semis })
            }
            _ => Err(self.inconsistent(format!("{} does not win", self.winner))),
        }
    }

    /// The node of a plan made for `pos`, and the cells it keeps.
    pub(super) fn write(
        &mut self,
        pos: &mut Position<B>,
        plan: Plan<B>,
    ) -> Result<(B, u32), CertifyError> {
        let (mv, keep, mut semis) = match plan {
            Plan::Won => return Ok((B::EMPTY, self.leaf(Node::Won)?)),
            Plan::Search(empty) => return Ok((empty, self.leaf(Node::Search)?)),
            Plan::Vc(d) => {
                // Known by the position restricted to its carrier (as a `Solved` plan's node
                // below), as every node but the shared leaves, for a resumed build to find.
                pos.fill(!self.winner, pos.empty_cells() - d.carrier);
                let key = position_key(pos);
                pos.undo();
                let id = match self.made.get(&key) {
                    Some(&id) => id,
                    None => self.push(Node::Vc { steps: d.steps })?,
                };
                self.remember(key, id)?;
                return Ok((d.carrier, id));
            }
            Plan::Solved { mv, keep, semis } => (mv, keep, semis),
        };
        // The loser's stones outside `keep` break the semis that need them.
        semis.retain(|d| d.carrier.is_subset(keep));
        pos.fill(!self.winner, pos.empty_cells() - keep);
        let key = position_key(pos);
        let inner = match self.made.get(&key) {
            Some(&id) => Ok(id),
            None if keep.len() <= self.search => self.leaf(Node::Search),
            None => self.strategy(pos, mv, semis),
        };
        if let Ok(id) = inner {
            self.remember(key, id)?;
        }
        pos.undo();
        Ok((keep, inner?))
    }

    /// The winner's move `mv`; or, with `None`, options answering every move of the loser,
    /// each the strategy after one of the loser's moves, restricted to its carrier, until no
    /// cell is in every carrier. The options are chosen greedily as for a set cover: each is
    /// the loser's move, among the cells still in every carrier, whose own carrier keeps the
    /// fewest of them (the smallest carrier on a tie, then board order).
    pub(super) fn strategy(
        &mut self,
        pos: &mut Position<B>,
        mv: Option<Cell>,
        mut semis: Vec<derive::Derived<B>>,
    ) -> Result<u32, CertifyError> {
        if let Some(m) = mv {
            pos.play_unchecked(m);
            self.line.push(m);
            let next = self.node(pos);
            self.line.pop();
            pos.undo();
            return self.push(Node::Play { at: At(m), next: next? });
        }
        let mut plans: Vec<(Cell, Option<Plan<B>>)> = Vec::new();
        // The moves whose plans wait for the solver (their index in `plans` and the semis
        // found), and the positions after them, solved together below.
        let mut waiting = Vec::new();
        let mut positions = Vec::new();
        // On several threads, the moves that no semi connection answers are looked at side by
        // side first (their indices in `plans`, the positions after them, and what was found).
        let side_by_side = self.workers.len() > 1;
        let (mut look_at, mut after) = (Vec::new(), Vec::new());
        for x in pos.empty_cells().iter() {
            // A semi connection whose carrier misses x still holds after x: a derivation's
            // empty ends are all midpoints of its AND steps, so all in its carrier. The semis
            // of `pos` and those found after the loser's other moves (which do not use the
            // cell of that move) are tried before a new H-search.
            let known =
                semis.iter().filter(|d| !d.carrier.contains(x)).min_by_key(|d| d.carrier.len());
            if let Some(d) = known {
                plans.push((x, Some(Plan::Vc(d.clone()))));
                continue;
            }
            plans.push((x, None));
            pos.play_unchecked(x);
            if side_by_side {
                look_at.push(plans.len() - 1);
                after.push(pos.clone());
            } else {
                let before = self.plan_unsolved(pos);
                let i = plans.len() - 1;
                settle(i, pos, before, &mut plans, &mut semis, &mut waiting, &mut positions);
            }
            pos.undo();
        }
        let looked = self.plan_all(&after);
        for ((i, p), before) in look_at.into_iter().zip(&after).zip(looked) {
            settle(i, p, before, &mut plans, &mut semis, &mut waiting, &mut positions);
        }
        let solved = self.solve_all(&positions)?;
        for (((i, found), p), r) in waiting.into_iter().zip(&positions).zip(solved) {
            self.line.push(plans[i].0);
            let plan = self.plan_solved(p, r.outcome, found);
            self.line.pop();
            plans[i].1 = Some(plan?);
        }
        let mut common = pos.empty_cells();
        let mut options = Vec::new();
        while !common.is_empty() {
            let pick = plans
                .iter()
                .enumerate()
                .filter(|(_, (x, plan))| plan.is_some() && common.contains(*x))
                .min_by_key(|(_, (_, plan))| {
                    let keep = plan.as_ref().map_or(B::EMPTY, Plan::keep);
                    ((keep & common).len(), keep.len())
                })
                .map(|(i, _)| i);
            let Some((x, Some(plan))) = pick.map(|i| (plans[i].0, plans[i].1.take())) else {
                return Err(self.inconsistent("a loser's move has no answer".to_string()));
            };
            pos.play_unchecked(x);
            self.line.push(x);
            self.covers.push((options.len() + 1, common.len()));
            let option = self.write(pos, plan);
            self.covers.pop();
            self.line.pop();
            pos.undo();
            let (keep, next) = option?;
            common &= keep;
            options.push((keep.iter().map(At).collect(), next));
        }
        self.push(Node::Cover { options })
    }

    /// A winning move of `pos` when the solver named none (fill-in decided it): the first
    /// cell, inside the carrier first, after which the loser is lost.
    pub(super) fn keep_win(&mut self, pos: &Position<B>, carrier: B) -> Result<Cell, CertifyError> {
        let empty = pos.empty_cells();
        for m in (empty & carrier).iter().chain((empty - carrier).iter()) {
            let mut c = pos.clone();
            c.play_unchecked(m);
            if matches!(self.solve(&c)?.outcome, Outcome::Loss { .. }) {
                return Ok(m);
            }
        }
        Err(self.inconsistent(format!("{} has no winning move", self.winner)))
    }
}
