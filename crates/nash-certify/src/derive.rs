//! A small H-search that remembers how it derived each connection, for the `Vc` leaves of
//! certificates where nash-vc's recorded H-search (tried first) finds no connection between
//! the winner's edges: its ends and lists differ, and it finds some that nash-vc misses.
//!
//! The ends are the winner's groups (each named by its edge, or else its first stone) and the
//! empty cells. It starts from the ends that touch, applies the AND rule through every end and
//! the OR rule over a pair's semi connections (Anshelevich 2000 s.5), and stops at the
//! first connection between the winner's edges: full, or semi when the winner is to move. The
//! lists per pair are capped and the work is bounded, so it may miss a connection; it never
//! writes a wrong one, and the checker re-derives every step anyway. One [`Deriver`] serves a
//! whole certificate: its lists are kept between searches, so a search allocates nothing but
//! the derivations it returns.

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
pub(crate) struct Derived<B> {
    pub steps: Vec<Step>,
    pub carrier: B,
}

#[derive(Clone, Copy)]
enum Rule {
    Touch,
    And(u32, u32),
    /// The members of an OR step: `members[start..start + len]`.
    Or(u32, u32),
}

struct Rec<B> {
    ends: [u16; 2],
    carrier: B,
    full: bool,
    rule: Rule,
}

/// The connections kept for one pair of ends (indices into `recs`), at most `N`.
#[derive(Clone, Copy)]
struct List<const N: usize> {
    ids: [u32; N],
}

/// The H-search's state, kept between searches so that they allocate nothing.
pub(crate) struct Deriver<B> {
    /// Each end's name (a cell, an edge or a group's first stone) and whether it is empty.
    names: Vec<Cell>,
    empty: Vec<bool>,
    /// Each end's cells, and those with their neighbours.
    bodies: Vec<B>,
    reach: Vec<B>,
    recs: Vec<Rec<B>>,
    /// The members of every OR step, one after another.
    members: Vec<u32>,
    /// Per pair of ends (`slot`): full and semi connections, and how many of each.
    fulls: Vec<List<MAX_FULL>>,
    semis: Vec<List<MAX_SEMI>>,
    lens: Vec<[u8; 2]>,
    /// Full connections waiting for the AND rule, oldest first (from `head`): connections
    /// with small carriers come first, and the first edge-to-edge connection found is smaller
    /// (a last-in-first-out queue made certificates of 6x6 openings half as large again).
    queue: Vec<u32>,
    head: usize,
    goal: [u16; 2],
    semi_ok: bool,
    found: Option<u32>,
}

impl<B: BitSet> Deriver<B> {
    pub(crate) fn new() -> Deriver<B> {
        Deriver {
            names: Vec::new(),
            empty: Vec::new(),
            bodies: Vec::new(),
            reach: Vec::new(),
            recs: Vec::new(),
            members: Vec::new(),
            fulls: Vec::new(),
            semis: Vec::new(),
            lens: Vec::new(),
            queue: Vec::new(),
            head: 0,
            goal: [0, 1],
            semi_ok: false,
            found: None,
        }
    }

    /// A virtual connection of `winner` between their edges in `pos`: full, or semi when
    /// `semi_ok` (the winner is to move). Without one, the semi connections between the edges
    /// found on the way are added to `semis`.
    pub(crate) fn edge_to_edge(
        &mut self,
        pos: &Position<B>,
        winner: Color,
        semi_ok: bool,
        semis: &mut Vec<Derived<B>>,
    ) -> Option<Derived<B>> {
        let geom = pos.geometry();
        let edges = winner.edges().map(Cell::edge);
        let own = edges.iter().fold(pos.stones(winner), |s, &e| s.with(e));
        // Ends: the winner's groups, edges first, then the empty cells.
        self.names.clear();
        self.bodies.clear();
        self.empty.clear();
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
            self.names.push(start);
            self.bodies.push(group);
            self.empty.push(false);
        }
        if self.bodies[0].contains(edges[1]) {
            return None;
        }
        for c in pos.empty_cells().iter() {
            self.names.push(c);
            self.bodies.push(B::single(c));
            self.empty.push(true);
        }
        let n = self.names.len();
        let pairs = n * (n - 1) / 2;
        if self.fulls.len() < pairs {
            self.fulls.resize(pairs, List { ids: [0; MAX_FULL] });
            self.semis.resize(pairs, List { ids: [0; MAX_SEMI] });
        }
        self.lens.clear();
        self.lens.resize(pairs, [0; 2]);
        self.recs.clear();
        self.members.clear();
        self.queue.clear();
        self.head = 0;
        self.goal = [0, 1];
        self.semi_ok = semi_ok;
        self.found = None;
        self.reach.clear();
        for b in &self.bodies {
            self.reach.push(b.iter().fold(*b, |r, c| r | geom.neighbours(c)));
        }
        for i in 0..n {
            for j in i + 1..n {
                if self.reach[i].intersects(self.bodies[j]) {
                    let ends = [i as u16, j as u16];
                    self.add(Rec { ends, carrier: B::EMPTY, full: true, rule: Rule::Touch });
                }
            }
        }
        while self.head < self.queue.len() {
            if self.found.is_some() || self.recs.len() > MAX_CONNECTIONS {
                break;
            }
            let f = self.queue[self.head];
            self.head += 1;
            self.and_rule(f);
        }
        let Some(found) = self.found else {
            let goal = self.slot(0, 1);
            let kept = usize::from(self.lens[goal][1]);
            semis.extend(self.semis[goal].ids[..kept].iter().map(|&k| self.extract(k)));
            return None;
        };
        Some(self.extract(found))
    }

    fn n(&self) -> usize {
        self.names.len()
    }

    /// The index of the pair of ends `a` and `b` (distinct).
    fn slot(&self, a: u16, b: u16) -> usize {
        let (a, b) = if a < b { (a as usize, b as usize) } else { (b as usize, a as usize) };
        b * (b - 1) / 2 + a
    }

    /// The full (or semi) connections kept for `slot`.
    fn list(&self, slot: usize, full: bool) -> &[u32] {
        if full {
            &self.fulls[slot].ids[..usize::from(self.lens[slot][0])]
        } else {
            &self.semis[slot].ids[..usize::from(self.lens[slot][1])]
        }
    }

    /// Whether the list of `slot`'s full (or semi) connections is at its cap.
    fn is_full(&self, slot: usize, full: bool) -> bool {
        if full {
            usize::from(self.lens[slot][0]) >= MAX_FULL
        } else {
            usize::from(self.lens[slot][1]) >= MAX_SEMI
        }
    }

    /// Adds a connection unless a kept one of its pair is at least as good or the pair's list
    /// is full; semis are then tried in the OR rule, fulls queued for the AND rule.
    fn add(&mut self, rec: Rec<B>) {
        let slot = self.slot(rec.ends[0], rec.ends[1]);
        if self.is_full(slot, rec.full) {
            return;
        }
        let covered = |list: &[u32]| {
            list.iter().any(|&k| {
                let c = self.recs[k as usize].carrier;
                c & rec.carrier == c
            })
        };
        if covered(self.list(slot, true)) || (!rec.full && covered(self.list(slot, false))) {
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
            let len = &mut self.lens[slot][0];
            self.fulls[slot].ids[usize::from(*len)] = id;
            *len += 1;
            self.queue.push(id);
        } else {
            let len = &mut self.lens[slot][1];
            self.semis[slot].ids[usize::from(*len)] = id;
            *len += 1;
            self.or_rule(slot, id);
        }
    }

    /// The OR rule for a new semi: with the pair's other semis, taken while they shrink the
    /// carriers' common part, until nothing is common.
    fn or_rule(&mut self, slot: usize, new: u32) {
        let mut common = self.recs[new as usize].carrier;
        let mut union = common;
        let start = self.members.len();
        self.members.push(new);
        for i in (0..usize::from(self.lens[slot][1])).rev() {
            let k = self.semis[slot].ids[i];
            let c = self.recs[k as usize].carrier;
            if k != new && common & c != common {
                common &= c;
                union |= c;
                self.members.push(k);
                if common.is_empty() {
                    break;
                }
            }
        }
        if common.is_empty() {
            let ends = self.recs[new as usize].ends;
            let rule = Rule::Or(start as u32, (self.members.len() - start) as u32);
            self.add(Rec { ends, carrier: union, full: true, rule });
        } else {
            self.members.truncate(start);
        }
    }

    /// The AND rule for a new full connection, with every full connection that shares an end.
    fn and_rule(&mut self, f: u32) {
        let Rec { ends, carrier, .. } = self.recs[f as usize];
        for (mid, x) in [(ends[1], ends[0]), (ends[0], ends[1])] {
            // Through an empty midpoint the AND rule makes semi connections.
            let full = !self.empty[mid as usize];
            let x_empty = self.empty[x as usize].then_some(self.names[x as usize]);
            for z in 0..self.n() as u16 {
                if z == x || z == mid {
                    continue;
                }
                let slot = self.slot(mid, z);
                let target = self.slot(x, z);
                let z_empty = self.empty[z as usize].then_some(self.names[z as usize]);
                for k in 0..usize::from(self.lens[slot][0]) {
                    // A list at its cap takes nothing more (`add` would refuse each).
                    if self.is_full(target, full) {
                        break;
                    }
                    let g = self.fulls[slot].ids[k];
                    let other = self.recs[g as usize].carrier;
                    if other.intersects(carrier)
                        || x_empty.is_some_and(|c| other.contains(c))
                        || z_empty.is_some_and(|c| carrier.contains(c))
                    {
                        continue;
                    }
                    let mut rec = Rec {
                        ends: [x, z],
                        carrier: carrier | other,
                        full: true,
                        rule: Rule::And(f, g),
                    };
                    if !full {
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
            let children: &[u32] = match &self.recs[r as usize].rule {
                Rule::Touch => &[],
                Rule::And(a, b) => &[*a, *b],
                Rule::Or(start, len) => &self.members[*start as usize..(*start + *len) as usize],
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
                Rule::Or(..) => Step::Or(children.iter().map(|&c| index[c as usize]).collect()),
            };
            index[r as usize] = steps.len() as u32;
            steps.push(step);
        }
        Derived { steps, carrier: self.recs[top as usize].carrier }
    }
}
