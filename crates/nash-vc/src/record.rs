//! Recorded derivations: with recording on ([`VcBuilder::set_recording`]), a build keeps, for
//! each connection it adds, the rule and the connections it combined, so that a connection can
//! be written out as an H-search derivation that an independent checker re-applies (proof
//! certificates).
//!
//! The written rules are the two of Anshelevich 2000 ([`DerivationStep`]): AND of two full
//! connections (through an empty midpoint it gives a semi), OR of connections between the same
//! ends with no common cell. A semi connection that the semi AND rule made (a full and a semi
//! meeting at a group) is written as a chain of full connections joined by the AND rule, with
//! the semi's key as the one empty midpoint. Connections that no recorded rule made (an update
//! after a move, or connections put in by other means) have no derivation.
//!
//! Off, recording costs one test of an empty option where a rule adds a connection; on, the
//! records are kept until the next build of the player's set, and any incremental update
//! makes them unusable.

use std::collections::HashMap;

use nash_board::{BitSet, Cell, Color};

use crate::hsearch::VcBuilder;
use crate::query::{Connection, ConnectionKind};
use crate::store::Store;

/// One step of a written derivation; steps name earlier steps by their index.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum DerivationStep {
    /// A full connection with an empty carrier: the ends' groups are adjacent or one (an end
    /// is an empty cell, or a stone or edge standing for its group).
    Touch(Cell, Cell),
    /// Two full connections with one common end and disjoint carriers: full through a stone or
    /// an edge, semi through an empty cell, which joins the carrier.
    And(u32, u32),
    /// Connections between the same ends whose carriers have no common cell: full, with the
    /// union of the carriers.
    Or(Vec<u32>),
}

/// A connection by its ends (bit indices, the smaller first), carrier and kind.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(crate) struct Key<B> {
    ends: [u16; 2],
    carrier: B,
    full: bool,
}

impl<B: BitSet> Key<B> {
    #[inline]
    pub(crate) fn new(a: usize, b: usize, carrier: B, full: bool) -> Key<B> {
        let ends = if a < b { [a as u16, b as u16] } else { [b as u16, a as u16] };
        Key { ends, carrier, full }
    }
}

/// How the next connection added was made (set by the rules before they add it).
#[derive(Clone, Copy, Debug)]
pub(crate) enum Origin<B> {
    /// Not by a recorded rule.
    Unknown,
    /// Adjacent ends.
    Touch,
    /// The AND rule (either operand may be a semi when the midpoint is a group).
    And(Key<B>, Key<B>),
    /// The OR rule over the semis in [`Recorder::or_members`] inside the new carrier.
    Or,
}

/// How a recorded connection was made, by record index.
#[derive(Clone, Copy, Debug)]
enum Made {
    Unknown,
    Touch,
    And(u32, u32),
    /// `members[start..start + len]`.
    Or(u32, u32),
}

#[derive(Clone, Copy, Debug)]
struct Rec<B> {
    key: Key<B>,
    made: Made,
}

/// The records of one player's build.
#[derive(Clone, Debug)]
pub(crate) struct Recorder<B> {
    /// The records describe the player's set as the last build made it.
    valid: bool,
    /// How the next connection added was made.
    pub origin: Origin<B>,
    /// The carriers of the semis an OR origin may draw on (the pair's semis).
    pub or_members: Vec<B>,
    recs: Vec<Rec<B>>,
    members: Vec<u32>,
    index: HashMap<Key<B>, u32>,
}

impl<B: BitSet> Recorder<B> {
    pub(crate) fn new() -> Recorder<B> {
        Recorder {
            valid: false,
            origin: Origin::Unknown,
            or_members: Vec::new(),
            recs: Vec::new(),
            members: Vec::new(),
            index: HashMap::new(),
        }
    }

    /// Forgets every record: a build starts.
    pub(crate) fn start(&mut self) {
        self.valid = true;
        self.origin = Origin::Unknown;
        self.recs.clear();
        self.members.clear();
        self.index.clear();
    }

    /// The set changed by other means than a build: the records no longer describe it.
    pub(crate) fn invalidate(&mut self) {
        self.valid = false;
    }

    /// Records a connection just added, as made by the current origin when that origin's
    /// operands are recorded and give exactly this connection.
    pub(crate) fn added(&mut self, a: usize, b: usize, carrier: B, full: bool) {
        if !self.valid {
            return;
        }
        let key = Key::new(a, b, carrier, full);
        let made = self.made(key).unwrap_or(Made::Unknown);
        let id = self.recs.len() as u32;
        self.recs.push(Rec { key, made });
        self.index.insert(key, id);
    }

    fn made(&mut self, key: Key<B>) -> Option<Made> {
        match self.origin {
            Origin::Unknown => None,
            Origin::Touch => (key.full && key.carrier.is_empty()).then_some(Made::Touch),
            Origin::And(l, r) => {
                let (li, ri) = (*self.index.get(&l)?, *self.index.get(&r)?);
                let mid = common_end(l.ends, r.ends)?;
                // Through an empty midpoint (two fulls make a semi) the midpoint joins.
                let empty_mid = !key.full && l.full && r.full;
                let extra = if empty_mid { B::from_bit(mid as usize) } else { B::EMPTY };
                (l.carrier | r.carrier | extra == key.carrier).then_some(Made::And(li, ri))
            }
            Origin::Or => {
                let start = self.members.len();
                let mut union = B::EMPTY;
                let mut common = key.carrier;
                for i in 0..self.or_members.len() {
                    let c = self.or_members[i];
                    if !c.is_subset(key.carrier) {
                        continue;
                    }
                    let Some(&id) =
                        self.index.get(&Key { ends: key.ends, carrier: c, full: false })
                    else {
                        self.members.truncate(start);
                        return None;
                    };
                    self.members.push(id);
                    union |= c;
                    common &= c;
                }
                let len = self.members.len() - start;
                if len < 2 || union != key.carrier || !common.is_empty() {
                    self.members.truncate(start);
                    return None;
                }
                Some(Made::Or(start as u32, len as u32))
            }
        }
    }
}

impl<B: BitSet> Store<B> {
    /// Tells the recorder, if any, how the next connection added is made.
    #[inline]
    pub(crate) fn origin(&mut self, origin: Origin<B>) {
        if let Some(r) = self.recorder.as_deref_mut() {
            r.origin = origin;
        }
    }

    /// The set is changed by an update: its records no longer describe it.
    #[inline]
    pub(crate) fn invalidate_records(&mut self) {
        if let Some(r) = self.recorder.as_deref_mut() {
            r.invalidate();
        }
    }
}

/// The end two pairs of ends share (exactly one).
fn common_end(l: [u16; 2], r: [u16; 2]) -> Option<u16> {
    match (r.contains(&l[0]), r.contains(&l[1])) {
        (true, false) => Some(l[0]),
        (false, true) => Some(l[1]),
        _ => None,
    }
}

/// The other end of a pair.
fn other(ends: [u16; 2], e: u16) -> u16 {
    if ends[0] == e {
        ends[1]
    } else {
        ends[0]
    }
}

/// A piece of a chain of connections from one end to another: a full connection (a record),
/// or the empty key where a semi connection's two halves meet.
#[derive(Clone, Copy)]
enum Link {
    Full(u32),
    Key,
}

/// The connection each written step derives, to check the rules while writing.
#[derive(Clone, Copy)]
struct Made2<B> {
    ends: [u16; 2],
    carrier: B,
    full: bool,
}

/// Writes the derivation of one recorded connection.
struct Writer<'a, B> {
    recs: &'a [Rec<B>],
    members: &'a [u32],
    /// The player's empty cells (an AND through one of them gives a semi).
    empty: B,
    steps: Vec<DerivationStep>,
    made: Vec<Made2<B>>,
    /// The step written for each record written so far.
    written: HashMap<u32, u32>,
}

impl<B: BitSet> Writer<'_, B> {
    fn push(&mut self, step: DerivationStep, m: Made2<B>) -> u32 {
        self.steps.push(step);
        self.made.push(m);
        (self.steps.len() - 1) as u32
    }

    /// The AND rule on two written full connections, with the checker's conditions.
    fn and(&mut self, i: u32, j: u32) -> Option<u32> {
        let (l, r) = (self.made[i as usize], self.made[j as usize]);
        let z = common_end(l.ends, r.ends)?;
        let (x, y) = (other(l.ends, z), other(r.ends, z));
        let bit = |e: u16| B::from_bit(e as usize);
        if !l.full
            || !r.full
            || x == y
            || l.carrier.intersects(r.carrier)
            || r.carrier.intersects(bit(x))
            || l.carrier.intersects(bit(y))
        {
            return None;
        }
        let empty_mid = (z as usize) < B::EDGE_BASE && self.empty.has_bit(z as usize);
        let carrier = l.carrier | r.carrier | if empty_mid { bit(z) } else { B::EMPTY };
        Some(
            self.push(DerivationStep::And(i, j), Made2 { ends: [x, y], carrier, full: !empty_mid }),
        )
    }

    /// The step of a recorded connection (written once).
    fn write(&mut self, id: u32, depth: usize) -> Option<u32> {
        if let Some(&s) = self.written.get(&id) {
            return Some(s);
        }
        if depth > 10_000 {
            return None;
        }
        let rec = self.recs[id as usize];
        let (key, made) = (rec.key, rec.made);
        let s = match made {
            Made::Unknown => return None,
            Made::Touch => {
                let [a, b] = key.ends;
                let cell = |e: u16| B::cell_of(e as usize);
                let m = Made2 { ends: key.ends, carrier: B::EMPTY, full: true };
                self.push(DerivationStep::Touch(cell(a), cell(b)), m)
            }
            Made::Or(start, len) => {
                let mut list = Vec::with_capacity(len as usize);
                for k in start..start + len {
                    list.push(self.write(self.members[k as usize], depth + 1)?);
                }
                let m = Made2 { ends: key.ends, carrier: key.carrier, full: true };
                self.push(DerivationStep::Or(list), m)
            }
            Made::And(l, r) if self.recs[l as usize].key.full && self.recs[r as usize].key.full => {
                let (i, j) = (self.write(l, depth + 1)?, self.write(r, depth + 1)?);
                self.and(i, j)?
            }
            Made::And(..) => {
                // A semi from the semi AND rule: its chain of fulls from one end to the
                // other, the key once among them; each side joined by the AND rule at its
                // groups, then the two sides at the key.
                let mut chain = Vec::new();
                self.chain(id, key.ends[0], &mut chain, 0)?;
                let at = chain.iter().position(|l| matches!(l, Link::Key))?;
                let left = self.fold(&chain[..at], depth)?;
                let right = self.fold(&chain[at + 1..], depth)?;
                self.and(left, right)?
            }
        };
        let m = self.made[s as usize];
        if m.carrier != key.carrier
            || m.full != key.full
            || Key::new(m.ends[0] as usize, m.ends[1] as usize, m.carrier, m.full) != key
        {
            return None;
        }
        self.written.insert(id, s);
        Some(s)
    }

    /// The links of recorded connection `id` from its end `from` to the other.
    fn chain(&self, id: u32, from: u16, out: &mut Vec<Link>, depth: usize) -> Option<()> {
        let rec = self.recs[id as usize];
        if rec.key.full {
            out.push(Link::Full(id));
            return Some(());
        }
        let Made::And(l, r) = rec.made else { return None };
        if depth > 1_000 {
            return None;
        }
        let (lk, rk) = (self.recs[l as usize].key, self.recs[r as usize].key);
        let (first, second) = if lk.ends.contains(&from) { (l, r) } else { (r, l) };
        let mid = common_end(lk.ends, rk.ends)?;
        let empty_mid = (mid as usize) < B::EDGE_BASE && self.empty.has_bit(mid as usize);
        self.chain(first, from, out, depth + 1)?;
        if empty_mid {
            out.push(Link::Key);
        }
        self.chain(second, mid, out, depth + 1)
    }

    /// The full connections of a chain without its key, joined one after another.
    fn fold(&mut self, links: &[Link], depth: usize) -> Option<u32> {
        let mut acc: Option<u32> = None;
        for link in links {
            let Link::Full(id) = *link else { return None };
            let s = self.write(id, depth + 1)?;
            acc = Some(match acc {
                None => s,
                Some(a) => self.and(a, s)?,
            });
        }
        acc
    }
}

impl<B: BitSet> VcBuilder<B> {
    /// Turns recording on or off for the builds that follow: with it on, each player's build
    /// keeps how it made each connection, for [`VcBuilder::derivation`]. Off (the default) it
    /// costs nothing but a test where a connection is added.
    pub fn set_recording(&mut self, on: bool) {
        for store in &mut self.stores {
            store.recorder = on.then(|| Box::new(Recorder::new()));
        }
    }

    /// The derivation of one of `conn.color`'s connections (as [`VcBuilder::connections`]
    /// gives it) by the AND and OR rules, children first, the last step the connection itself;
    /// `None` without recording, after an incremental update, or for a connection that no
    /// recorded rule made.
    pub fn derivation(&self, conn: &Connection<B>) -> Option<Vec<DerivationStep>> {
        let store = &self.stores[conn.color.index()];
        let rec = store.recorder.as_deref()?;
        if !rec.valid {
            return None;
        }
        let [a, b] = conn.ends.map(|c| store.end_of(B::bit_of(c)));
        let full = conn.kind == ConnectionKind::Full;
        let &id = rec.index.get(&Key::new(a, b, conn.carrier, full))?;
        let mut w = Writer {
            recs: &rec.recs,
            members: &rec.members,
            empty: store.empty,
            steps: Vec::new(),
            made: Vec::new(),
            written: HashMap::new(),
        };
        w.write(id, 0)?;
        Some(w.steps)
    }

    /// How many connections of `color` the last build recorded, and how many of them no
    /// recorded rule made.
    pub fn recorded(&self, color: Color) -> (usize, usize) {
        let Some(rec) = self.stores[color.index()].recorder.as_deref() else { return (0, 0) };
        let unknown = rec.recs.iter().filter(|r| matches!(r.made, Made::Unknown)).count();
        (rec.recs.len(), unknown)
    }
}

#[cfg(test)]
mod tests {
    use nash_board::{Bitboard, Position};

    use super::*;
    use crate::HSearchConfig;

    /// Every connection of both players has a derivation that the writer's own checks of the
    /// AND and OR rules accept, on the positions of a few games, under the default setting and
    /// the base one; an update in place after a move leaves none.
    #[test]
    fn every_connection_of_a_build_has_a_derivation() {
        for config in [HSearchConfig::default(), HSearchConfig::thesis_base()] {
            for game in 0..6usize {
                let mut pos: Position<Bitboard> = Position::square(5 + game % 2).unwrap();
                let mut step = 0;
                while pos.winner().is_none() {
                    let mut vc = VcBuilder::new(config);
                    vc.set_recording(true);
                    vc.build(&pos);
                    for color in Color::ALL {
                        let (recorded, unknown) = vc.recorded(color);
                        assert!(recorded > 0);
                        assert_eq!(unknown, 0, "{config} game {game} move {step}");
                        for c in vc.all_connections(color) {
                            let steps = vc.derivation(&c);
                            assert!(steps.is_some_and(|s| !s.is_empty()), "{c} has none");
                        }
                    }
                    let empty: Vec<Cell> = pos.empty_cells().iter().collect();
                    let cell = empty[(step * 7 + game * 5 + 3) % empty.len()];
                    vc.play(cell);
                    if !config.early_stop {
                        // Updated in place, not built again.
                        let c = vc.all_connections(Color::Black);
                        assert!(c.iter().all(|c| vc.derivation(c).is_none()));
                    }
                    pos.play(cell).unwrap();
                    step += 1;
                }
            }
        }
    }
}
