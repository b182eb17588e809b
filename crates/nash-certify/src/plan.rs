//! How a position's win is shown ([`Plan`]), and the H-searches that look for a virtual
//! connection between the winner's edges to close a line with ([`Planner`]).

use nash_board::{BitSet, Cell, Color, Position};
use nash_proof::End;

use crate::derive;

/// The most semi connections between the winner's edges kept from one nash-vc search (the
/// smallest), to answer the loser's moves outside their carriers.
const SEMIS: usize = 8;

/// A step of nash-vc's derivation as the certificate writes it.
fn step(s: nash_vc::DerivationStep) -> nash_proof::Step {
    match s {
        nash_vc::DerivationStep::Touch(a, b) => nash_proof::Step::Touch(End(a), End(b)),
        nash_vc::DerivationStep::And(i, j) => nash_proof::Step::And(i, j),
        nash_vc::DerivationStep::Or(list) => nash_proof::Step::Or(list),
    }
}

/// How a position's win is shown: the node to write and the empty cells it keeps.
pub(crate) enum Plan<B> {
    /// The winner has connected.
    Won,
    /// Few enough empty cells (all kept) for the checker's search.
    Search(B),
    /// A virtual connection between the winner's edges.
    Vc(derive::Derived<B>),
    /// The solver's move (the winner's turn) or none (the loser's), within its carrier; at the
    /// loser's turn also the semi connections between the winner's edges that the H-search
    /// found on the way (each answers every loser move outside its carrier).
    Solved { mv: Option<Cell>, keep: B, semis: Vec<derive::Derived<B>> },
}

/// A plan, or what is known of it before the solver decides.
pub(crate) enum Before<B> {
    Done(Plan<B>),
    /// The solver must decide; the semi connections between the winner's edges found so far.
    Solve(Vec<derive::Derived<B>>),
}

impl<B: BitSet> Plan<B> {
    pub(crate) fn keep(&self) -> B {
        match self {
            Plan::Won => B::EMPTY,
            Plan::Search(empty) => *empty,
            Plan::Vc(d) => d.carrier,
            Plan::Solved { keep, .. } => *keep,
        }
    }
}

/// The H-searches that look for a `Vc` leaf, one set per thread: nash-vc's, recording how it
/// makes each connection, tried first, and this module's own ([`derive::Deriver`]).
pub(crate) struct Planner<B: BitSet> {
    vcs: nash_vc::VcBuilder<B>,
    derive: derive::Deriver<B>,
}

impl<B: BitSet> Planner<B> {
    pub(crate) fn new() -> Planner<B> {
        let mut vcs = nash_vc::VcBuilder::<B>::default();
        vcs.set_recording(true);
        Planner { vcs, derive: derive::Deriver::new() }
    }

    /// [`crate::builder::Builder`]'s plan as far as it goes without the solver: the plan, or, where the solver
    /// must decide, the semi connections found on the way (`winner` wins; positions with at
    /// most `search` empty cells are left to the checker; `vc`: look for connections).
    pub(crate) fn plan_unsolved(
        &mut self,
        pos: &Position<B>,
        winner: Color,
        search: usize,
        vc: bool,
    ) -> Before<B> {
        let empty = pos.empty_cells();
        if pos.winner() == Some(winner) {
            return Before::Done(Plan::Won);
        }
        if empty.len() <= search {
            return Before::Done(Plan::Search(empty));
        }
        let winner_moves = pos.to_move() == winner;
        let mut semis = Vec::new();
        if vc {
            if let Some(d) = self.recorded(pos, winner, winner_moves, &mut semis) {
                return Before::Done(Plan::Vc(d));
            }
            if let Some(d) = self.derive.edge_to_edge(pos, winner, winner_moves, &mut semis) {
                return Before::Done(Plan::Vc(d));
            }
        }
        Before::Solve(semis)
    }

    /// A connection between the winner's edges that nash-vc's H-search finds in `pos`, with
    /// the derivation it recorded: full, or semi when the winner is to move; the one with the
    /// smallest carrier among those it derives. Without one, the semi connections between the
    /// edges are added to `semis`.
    fn recorded(
        &mut self,
        pos: &Position<B>,
        winner: Color,
        winner_moves: bool,
        semis: &mut Vec<derive::Derived<B>>,
    ) -> Option<derive::Derived<B>> {
        self.vcs.build_side(None, pos, winner);
        let [e1, e2] = winner.edges().map(Cell::edge);
        let mut conns: Vec<_> = self.vcs.connections(winner, e1, e2).collect();
        conns.sort_by_key(|c| c.carrier.len());
        let full = |c: &nash_vc::Connection<B>| c.kind == nash_vc::ConnectionKind::Full;
        let written = |c: &nash_vc::Connection<B>| {
            let steps = self.vcs.derivation(c)?.into_iter().map(step).collect();
            Some(derive::Derived { steps, carrier: c.carrier })
        };
        if let Some(d) = conns.iter().filter(|c| winner_moves || full(c)).find_map(written) {
            return Some(d);
        }
        semis.extend(conns.iter().filter(|c| !full(c)).take(SEMIS).filter_map(written));
        None
    }
}

/// What the look at `p`, the position after the loser's move of `plans[i]`, gave: its plan
/// (a connection found joins `semis`, for the loser's other moves), or the semi connections
/// found on the way, kept in `waiting` beside the position in `positions` for the solver.
pub(crate) fn settle<B: BitSet>(
    i: usize,
    p: &Position<B>,
    before: Before<B>,
    plans: &mut [(Cell, Option<Plan<B>>)],
    semis: &mut Vec<derive::Derived<B>>,
    waiting: &mut Vec<(usize, Vec<derive::Derived<B>>)>,
    positions: &mut Vec<Position<B>>,
) {
    match before {
        Before::Done(plan) => {
            if let Plan::Vc(d) = &plan {
                semis.push(d.clone());
            }
            plans[i].1 = Some(plan);
        }
        Before::Solve(found) => {
            waiting.push((i, found));
            positions.push(p.clone());
        }
    }
}
