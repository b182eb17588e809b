//! A small H-search that remembers how it derived each connection, for the `Vc` leaves of
//! certificates (nash-vc's faster search keeps carriers, not derivations).
//!
//! The ends are the winner's groups (each named by its edge, or else its first stone) and the
//! empty cells. It starts from the ends that touch, applies the AND rule through every end and
//! the OR rule over a pair's semi connections (Anshelevich 2002; seed 001 §5), and stops at the
//! first connection between the winner's edges: full, or semi when the winner is to move. The
//! lists per pair are capped and the work is bounded, so it may miss a connection; it never
//! writes a wrong one, and the checker re-derives every step anyway.

use nash_board::{BitSet, Cell, Color, Position};
use nash_proof::{End, Step};

/// Full connections kept per pair of ends.
const MAX_FULL: usize = 4;
/// Semi connections kept per pair of ends.
const MAX_SEMI: usize = 8;
/// Connections derived before giving up.
const MAX_CONNECTIONS: usize = 50_000;

/// A connection between the winner's edges: its derivation (children first) and carrier.
#[derive(Clone)]
pub(super) struct Derived<B> {
    pub steps: Vec<Step>,
    pub carrier: B,
}

#[derive(Clone, Copy)]
enum Rule {
    Touch,
    And(u32, u32),
    Or(u32),
}

struct Rec<B> {
    ends: [u16; 2],
    carrier: B,
    full: bool,
    rule: Rule,
}

struct Search<B> {
    /// Each end's name (a cell, an edge or a group's first stone) and whether it is empty.
    names: Vec<Cell>,
    empty: Vec<bool>,
    recs: Vec<Rec<B>>,
    /// The members of each OR step.
    ors: Vec<Vec<u32>>,
    /// Per ordered pair `i * n + j`: full and semi connections (indices into `recs`).
    fulls: Vec<Vec<u32>>,
    semis: Vec<Vec<u32>>,
    /// Full connections waiting for the AND rule, oldest first: connections with small
    /// carriers come first, and the first edge-to-edge connection found is smaller (a
    /// last-in-first-out queue made certificates of 6x6 openings half as large again).
    queue: std::collections::VecDeque<u32>,
    goal: [u16; 2],
    semi_ok: bool,
    found: Option<u32>,
}

/// A virtual connection of `winner` between their edges in `pos`: full, or semi when
/// `semi_ok` (the winner is to move). Without one, the semi connections between the edges
/// found on the way are added to `semis`.
pub(super) fn edge_to_edge<B: BitSet>(
    pos: &Position<B>,
    winner: Color,
    semi_ok: bool,
    semis: &mut Vec<Derived<B>>,
) -> Option<Derived<B>> {
    let geom = pos.geometry();
    let edges = winner.edges().map(Cell::edge);
    let own = edges.iter().fold(pos.stones(winner), |s, &e| s.with(e));
    // Ends: the winner's groups, edges first, then the empty cells.
    let mut names = Vec::new();
    let mut bodies = Vec::new();
    let mut empty = Vec::new();
    let mut rest = own;
    for start in edges.into_iter().chain(pos.stones(winner).iter()) {
        if !rest.contains(start) {
            continue;
        }
        let mut group = B::single(start);
        loop {
            let grown = group.iter().fold(group, |g, c| g | (geom.neighbours(c) & own));
            if grown == group {
                break;
            }
            group = grown;
        }
        rest -= group;
        names.push(start);
        bodies.push(group);
        empty.push(false);
    }
    if bodies[0].contains(edges[1]) {
        return None;
    }
    for c in pos.empty_cells().iter() {
        names.push(c);
        bodies.push(B::single(c));
        empty.push(true);
    }
    let n = names.len();
    let mut s = Search {
        names,
        empty,
        recs: Vec::new(),
        ors: Vec::new(),
        fulls: vec![Vec::new(); n * n],
        semis: vec![Vec::new(); n * n],
        queue: std::collections::VecDeque::new(),
        goal: [0, 1],
        semi_ok,
        found: None,
    };
    let reach: Vec<B> =
        bodies.iter().map(|b| b.iter().fold(*b, |r, c| r | geom.neighbours(c))).collect();
    for (i, near) in reach.iter().enumerate() {
        for (j, body) in bodies.iter().enumerate().skip(i + 1) {
            if near.intersects(*body) {
                let ends = [i as u16, j as u16];
                s.add(Rec { ends, carrier: B::EMPTY, full: true, rule: Rule::Touch });
            }
        }
    }
    while let Some(f) = s.queue.pop_front() {
        if s.found.is_some() || s.recs.len() > MAX_CONNECTIONS {
            break;
        }
        s.and_rule(f);
    }
    let Some(found) = s.found else {
        let goal = s.slot(0, 1);
        semis.extend(s.semis[goal].iter().map(|&k| s.extract(k)));
        return None;
    };
    Some(s.extract(found))
}

impl<B: BitSet> Search<B> {
    fn n(&self) -> usize {
        self.names.len()
    }

    fn slot(&self, a: u16, b: u16) -> usize {
        let (a, b) = if a < b { (a, b) } else { (b, a) };
        a as usize * self.n() + b as usize
    }

    /// Adds a connection unless a kept one of its pair is at least as good or the pair's list
    /// is full; semis are then tried in the OR rule, fulls queued for the AND rule.
    fn add(&mut self, rec: Rec<B>) {
        let slot = self.slot(rec.ends[0], rec.ends[1]);
        let covered = |list: &Vec<u32>, recs: &Vec<Rec<B>>| {
            list.iter().any(|&k| recs[k as usize].carrier & rec.carrier == recs[k as usize].carrier)
        };
        if covered(&self.fulls[slot], &self.recs)
            || (!rec.full && covered(&self.semis[slot], &self.recs))
        {
            return;
        }
        let cap = if rec.full { MAX_FULL } else { MAX_SEMI };
        let list = if rec.full { &self.fulls[slot] } else { &self.semis[slot] };
        if list.len() >= cap {
            return;
        }
        let id = self.recs.len() as u32;
        let goal = rec.ends == self.goal || rec.ends == [self.goal[1], self.goal[0]];
        let full = rec.full;
        self.recs.push(rec);
        if goal && (full || self.semi_ok) {
            self.found = Some(id);
        }
        if full {
            self.fulls[slot].push(id);
            self.queue.push_back(id);
        } else {
            self.semis[slot].push(id);
            self.or_rule(slot, id);
        }
    }

    /// The OR rule for a new semi: with the pair's other semis, taken while they shrink the
    /// carriers' common part, until nothing is common.
    fn or_rule(&mut self, slot: usize, new: u32) {
        let mut common = self.recs[new as usize].carrier;
        let mut union = common;
        let mut members = vec![new];
        for &k in self.semis[slot].iter().rev() {
            let c = self.recs[k as usize].carrier;
            if k != new && common & c != common {
                common &= c;
                union |= c;
                members.push(k);
                if common.is_empty() {
                    break;
                }
            }
        }
        if common.is_empty() {
            let ends = self.recs[new as usize].ends;
            self.ors.push(members);
            let rule = Rule::Or(self.ors.len() as u32 - 1);
            self.add(Rec { ends, carrier: union, full: true, rule });
        }
    }

    /// The AND rule for a new full connection, with every full connection that shares an end.
    fn and_rule(&mut self, f: u32) {
        let Rec { ends, carrier, .. } = self.recs[f as usize];
        for (mid, x) in [(ends[1], ends[0]), (ends[0], ends[1])] {
            for z in 0..self.n() as u16 {
                if z == x || z == mid {
                    continue;
                }
                let slot = self.slot(mid, z);
                for k in 0..self.fulls[slot].len() {
                    let g = self.fulls[slot][k];
                    let other = self.recs[g as usize].carrier;
                    if other.intersects(carrier)
                        || other.contains(self.names[x as usize]) && self.empty[x as usize]
                        || carrier.contains(self.names[z as usize]) && self.empty[z as usize]
                    {
                        continue;
                    }
                    let mut rec = Rec {
                        ends: [x, z],
                        carrier: carrier | other,
                        full: true,
                        rule: Rule::And(f, g),
                    };
                    if self.empty[mid as usize] {
                        rec.carrier = rec.carrier.with(self.names[mid as usize]);
                        rec.full = false;
                    }
                    self.add(rec);
                    if self.found.is_some() {
                        return;
                    }
                }
            }
        }
    }

    /// The steps that derive connection `top`, children first, and its carrier.
    fn extract(&self, top: u32) -> Derived<B> {
        let mut index = vec![u32::MAX; self.recs.len()];
        let mut steps = Vec::new();
        // Iterative post-order: a record is written once its children are.
        let mut stack = vec![(top, false)];
        while let Some((r, ready)) = stack.pop() {
            if index[r as usize] != u32::MAX {
                continue;
            }
            let children: Vec<u32> = match self.recs[r as usize].rule {
                Rule::Touch => Vec::new(),
                Rule::And(a, b) => vec![a, b],
                Rule::Or(o) => self.ors[o as usize].clone(),
            };
            if !ready {
                stack.push((r, true));
                stack.extend(children.iter().map(|&c| (c, false)));
                continue;
            }
            let rec = &self.recs[r as usize];
            let step = match rec.rule {
                Rule::Touch => Step::Touch(
                    End(self.names[rec.ends[0] as usize]),
                    End(self.names[rec.ends[1] as usize]),
                ),
                Rule::And(a, b) => Step::And(index[a as usize], index[b as usize]),
                Rule::Or(_) => Step::Or(children.iter().map(|&c| index[c as usize]).collect()),
            };
            index[r as usize] = steps.len() as u32;
            steps.push(step);
        }
        Derived { steps, carrier: self.recs[top as usize].carrier }
    }
}
