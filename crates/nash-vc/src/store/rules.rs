//! The AND and OR rules of H-search on one player's [`Store`]: the work queue run to a fixed
//! point, the AND rule through a midpoint and the OR-k rule over a pair's semis (Anshelevich
//! 2000 s.5; Chen 2025 s.4.4 and s.5.4 for the variants).
//!
//! The storage (arenas, minimal lists, `add_full` and `add_semi`) is the parent module's; this
//! module only decides which connections to add.

use nash_board::BitSet;

use super::pairs::{PairIdx, PerPair};
use super::{BitExt, KeyCell, PairAt, Store};
use crate::config::OrLimit;
use crate::record::{Key, Origin};

/// A connection waiting for the rules to combine it with the rest.
#[derive(Clone, Copy, Debug)]
pub(super) struct Work<B> {
    pub a: u16,
    pub b: u16,
    pub carrier: B,
    /// The key of a semi; none for a full connection.
    pub key: Option<KeyCell>,
    /// Where the connection was written in its arena ([`NOT_WRITTEN`] if nowhere yet): while
    /// it is still there, [`Store::run`] knows it live without scanning the pair's list.
    pub at: u32,
}

/// The place of a work item not written in an arena: beyond every arena, so the test of the
/// written place fails by itself.
pub(super) const NOT_WRITTEN: u32 = u32::MAX;

/// The rule engine's state: the work queues and the OR rule's buffers, reused from run to run.
#[derive(Debug)]
pub(super) struct Engine<B> {
    pub queue: Vec<Work<B>>,
    /// Pairs whose semis changed since their last OR pass, first in first out, when the OR
    /// rule runs once per pair ([`Store::batch_or`]); `or_queued` marks them per pair index.
    or_pairs: Vec<PairIdx>,
    or_queued: PerPair<bool>,
    /// The OR rule's operands, its results, the results of its relaxed search and the suffix
    /// intersections of its operands.
    or_buf: Vec<B>,
    or_out: Vec<B>,
    or_relaxed: Vec<B>,
    or_suffix: Vec<B>,
    /// The connections an update of own stones takes out of the lists to add again.
    pub pending: Vec<Work<B>>,
    /// Whether the player is to move in the position of the run (for the early stop): set
    /// from the caller's side to move at each build or update.
    pub to_move: bool,
}

impl<B: BitSet> Engine<B> {
    pub fn new() -> Engine<B> {
        Engine {
            queue: Vec::new(),
            or_pairs: Vec::new(),
            or_queued: PerPair::new(),
            or_buf: Vec::new(),
            or_out: Vec::new(),
            or_relaxed: Vec::new(),
            or_suffix: Vec::new(),
            pending: Vec::new(),
            to_move: false,
        }
    }

    /// Sizes the per-pair marks for `pairs` pair indices, none queued.
    pub fn resize(&mut self, pairs: usize) {
        self.or_queued.reset(pairs, false);
        self.or_pairs.clear();
    }

    /// Queues pair `p` for an OR pass unless it waits for one already.
    #[inline]
    pub fn queue_or(&mut self, p: PairIdx) {
        if !self.or_queued[p] {
            self.or_queued[p] = true;
            self.or_pairs.push(p);
        }
    }

    /// Bytes the buffers hold on the heap (the capacity of their buffers).
    pub fn heap_bytes(&self) -> usize {
        use super::cap;
        cap(&self.queue)
            + cap(&self.or_pairs)
            + self.or_queued.heap_bytes()
            + cap(&self.or_buf)
            + cap(&self.or_out)
            + cap(&self.or_suffix)
            + cap(&self.pending)
    }
}

/// What an AND combination through a midpoint gives.
#[derive(Clone, Copy, Debug)]
enum AndGives<B> {
    /// A full connection (the midpoint is a group or an edge).
    Full,
    /// A semi keyed at `key`, with `extra` added to the carrier (the midpoint when it is an
    /// empty cell).
    Semi { key: KeyCell, extra: B },
}

impl<B: BitSet> Store<B> {
    /// The kind of AND-rule midpoint `m` can be: `Some(true)` for an empty cell (the result is a
    /// semi keyed at `m`), `Some(false)` for a group or, with the border switch, an own edge
    /// (the result is full), `None` if `m` may not be a midpoint (an edge may still be one
    /// between small connections with `border_local`, which [`Store::full_rules`] handles).
    #[inline]
    fn midpoint(&self, m: usize) -> Option<bool> {
        if m >= B::EDGE_BASE {
            if self.config.border_midpoint {
                Some(false)
            } else {
                None
            }
        } else if self.empty.has_bit(m) {
            Some(true)
        } else {
            Some(false)
        }
    }

    /// Whether the OR rule runs once per pair over all its semis, after the queued full
    /// connections have been combined, instead of once per new semi: with the greedy OR rule
    /// and without the semi AND rule, whose only use of a new semi is the OR rule.
    #[inline]
    pub(super) fn batch_or(&self) -> bool {
        self.config.or_limit == OrLimit::Greedy && !self.config.semi_and
    }

    /// Runs the rules on queued connections until none is left, the early stop fires or the
    /// store's [`nash_board::Stop`] does. Cut short, the set keeps every connection found so
    /// far (each is valid on its own) and is marked stopped and interrupted.
    pub fn run(&mut self) {
        let mut head = 0;
        let mut or_head = 0;
        while !self.stopped {
            if self.stop.should_stop() {
                self.stopped = true;
                self.interrupted = true;
                break;
            }
            if head >= self.engine.queue.len() {
                // The full connections are all combined: one OR pass for the next pair whose
                // semis changed, which may queue new fulls.
                let Some(&p) = self.engine.or_pairs.get(or_head) else { break };
                or_head += 1;
                self.engine.or_queued[p] = false;
                self.or_pass(p);
                continue;
            }
            if head >= 1024 && 2 * head >= self.engine.queue.len() {
                // Forget what was done, so the queue stays as long as what waits.
                self.engine.queue.drain(..head);
                head = 0;
            }
            let w = self.engine.queue[head];
            head += 1;
            let (a, b) = (w.a as usize, w.b as usize);
            let p = self.pair(a, b);
            // Carriers in a list are distinct (an antichain), so one match decides; the place
            // the connection was written is looked at first.
            let at = w.at as usize;
            let Some(key) = w.key else {
                let span = self.arena.lists[p].fulls;
                let found = if span.range().contains(&at) && self.arena.fulls[at] == w.carrier {
                    Some(at - span.off as usize)
                } else {
                    self.full_list(p).iter().position(|&c| c == w.carrier)
                };
                if let Some(i) = found {
                    // Every full before it in the list came out of the queue before it.
                    let done = &mut self.arena.lists[p].fulls_done;
                    *done = (*done).max(i as u32 + 1);
                    self.full_rules(a, b, w.carrier);
                }
                continue;
            };
            let span = self.arena.lists[p].semis;
            let live = if span.range().contains(&at) && self.arena.semis[at] == w.carrier {
                self.arena.keys[at] == key
            } else {
                let semis = self.semis_at(p);
                semis
                    .carriers
                    .iter()
                    .position(|&c| c == w.carrier)
                    .is_some_and(|i| semis.keys[i] == key)
            };
            if live {
                self.semi_rules(a, b, w.carrier, key);
            }
        }
        self.engine.queue.clear();
        for i in or_head..self.engine.or_pairs.len() {
            let p = self.engine.or_pairs[i];
            self.engine.or_queued[p] = false;
        }
        self.engine.or_pairs.clear();
    }

    /// The AND rule with a new full connection `(a, b, carrier)` as one operand.
    fn full_rules(&mut self, a: usize, b: usize, carrier: B) {
        for (m, o) in [(a, b), (b, a)] {
            let Some(empty_mid) = self.midpoint(m) else {
                // An own edge between two small connections to it (`border_local`).
                let local = self.config.border_local.map_or(0, |k| k as usize + 1);
                if m >= B::EDGE_BASE
                    && carrier.len() < local
                    && !self.and_with_fulls(m, o, carrier, AndGives::Full, local)
                {
                    return;
                }
                continue;
            };
            let gives = if empty_mid {
                AndGives::Semi { key: KeyCell::new(m), extra: B::from_bit(m) }
            } else {
                AndGives::Full
            };
            if !self.and_with_fulls(m, o, carrier, gives, usize::MAX) {
                return;
            }
            if !empty_mid && self.config.semi_and {
                let (im, io) = (self.id(m), self.id(o));
                // Between adjacent ends every result is refused (see `and_with_fulls`).
                let zs = self.semi_nbrs[im].without_bit(o) - carrier - self.adjacent[io];
                for z in zs.bits() {
                    let iz = self.id(z);
                    let span = self.arena.lists[self.pair_of_ids(im, iz)].semis;
                    let at = PairAt { p: self.pair_of_ids(io, iz), a: o, b: z, ia: io, ib: iz };
                    for i in span.range() {
                        let other = self.arena.semis[i];
                        self.stats.and_tries += 1;
                        if other.intersects(carrier) || other.has_bit(o) {
                            continue;
                        }
                        let key = self.arena.keys[i];
                        if self.recorder.is_some() {
                            let l = Key::new(o, m, carrier, true);
                            self.origin(Origin::And(l, Key::new(m, z, other, false)));
                        }
                        self.add_semi_at(at, carrier | other, key);
                        if self.stopped {
                            return;
                        }
                    }
                }
            }
        }
    }

    /// The AND rule between a connection `(o, m)` with `carrier` and every full connection
    /// `(m, z)` whose carrier is disjoint from it, avoids `o` and has fewer than `below` cells;
    /// `gives` says what each combination is. Returns `false` when the early stop fired.
    ///
    /// Adding to the pair `(o, z)` never changes the list of `(m, z)` (`o != m`), so that list's
    /// block is read in place while the rules add.
    ///
    /// Every combination's carrier contains `carrier`, so when `(o, z)` already has a full
    /// connection whose carrier is a subset of `carrier` nothing can be added there: such `z`
    /// are skipped, at once for adjacent ends (an empty carrier), and otherwise at the first
    /// combination that would be tried. `and_tries` counts only the combinations examined.
    fn and_with_fulls(
        &mut self,
        m: usize,
        o: usize,
        carrier: B,
        gives: AndGives<B>,
        below: usize,
    ) -> bool {
        let (im, io) = (self.id(m), self.id(o));
        let zs = self.full_nbrs[im].without_bit(o) - carrier - self.adjacent[io];
        let cap_o = self.captured(o);
        for z in zs.bits() {
            let iz = self.id(z);
            let l = self.arena.lists[self.pair_of_ids(im, iz)];
            let q = self.pair_of_ids(io, iz);
            let at = PairAt { p: q, a: o, b: z, ia: io, ib: iz };
            let cap = cap_o | self.captured(z);
            let mut checked = false;
            // Only the fulls already combined: a newer one meets this one when it comes out of
            // the queue itself (`semi_naive`; without it, every stored full).
            let start = l.fulls.off as usize;
            let n = if self.config.semi_naive { l.fulls_done } else { l.fulls.len };
            for i in start..start + n as usize {
                let other = self.arena.fulls[i];
                self.stats.and_tries += 1;
                // `below` is a bound only between small connections (`border_local`); the
                // test skips counting the carrier's cells (no popcount instruction on the
                // baseline target) when it is not.
                if other.has_bit(o) || (below != usize::MAX && other.len() >= below) {
                    continue;
                }
                // Carriers may overlap only inside the ends' captured sets, which then join.
                let overlap = other & carrier;
                let extra = if overlap.is_empty() {
                    B::EMPTY
                } else if overlap.is_subset(cap) {
                    cap
                } else {
                    continue;
                };
                if !checked {
                    checked = true;
                    if self.dominated(q, carrier, gives) {
                        break;
                    }
                }
                if self.recorder.is_some() {
                    // The new connection is a semi here only when `gives` adds no midpoint.
                    let full = !matches!(gives, AndGives::Semi { extra, .. } if extra.is_empty());
                    let (l, r) = (Key::new(o, m, carrier, full), Key::new(m, z, other, true));
                    self.origin(Origin::And(l, r));
                }
                match gives {
                    AndGives::Full => self.add_full_at(at, carrier | other | extra),
                    AndGives::Semi { key, extra: mid } => {
                        self.add_semi_at(at, carrier | other | mid | extra, key)
                    }
                };
                if self.stopped {
                    return false;
                }
            }
        }
        true
    }

    /// Whether pair `q` refuses every AND combination of an operand with `carrier` (as
    /// `gives` says): it has a full connection inside `carrier`, or, when the combinations are
    /// semis, a semi inside `carrier` and the midpoint. What dominates stays dominated while
    /// connections are added (a dropped carrier is dropped for a smaller one).
    fn dominated(&self, q: PairIdx, carrier: B, gives: AndGives<B>) -> bool {
        if self.full_list(q).iter().any(|c| c.is_subset(carrier)) {
            return true;
        }
        match gives {
            AndGives::Full => false,
            AndGives::Semi { extra, .. } => {
                let least = carrier | extra;
                self.semis_at(q).carriers.iter().any(|c| c.is_subset(least))
            }
        }
    }

    /// The OR rule over the semis of `(a, b)` including the new one, and the AND rule with the
    /// new semi as one operand at a group or edge.
    fn semi_rules(&mut self, a: usize, b: usize, carrier: B, key: KeyCell) {
        self.or_rule(a, b, carrier);
        if self.stopped || !self.config.semi_and {
            return;
        }
        for (m, o) in [(a, b), (b, a)] {
            if self.midpoint(m) == Some(false)
                && !self.and_with_fulls(
                    m,
                    o,
                    carrier,
                    AndGives::Semi { key, extra: B::EMPTY },
                    usize::MAX,
                )
            {
                return;
            }
        }
    }

    /// The OR rule: sets of semis between `a` and `b` whose carriers have an empty intersection
    /// give a full connection with the union carrier (Anshelevich 2000 s.5). Only sets that
    /// contain the new semi are tried, each added semi must shrink the running intersection,
    /// and at most `k` semis are combined (the OR-k rule).
    fn or_rule(&mut self, a: usize, b: usize, carrier: B) {
        let (ia, ib) = (self.id(a), self.id(b));
        let p = self.pair_of_ids(ia, ib);
        if self.config.or_limit == OrLimit::Greedy {
            // The greedy rule looks at all the pair's semis anyway, the new one among them.
            self.or_pass(p);
            return;
        }
        let (all, cap) = self.or_gather(p, a, b, Some(carrier));
        if !cap.is_empty() && carrier.is_subset(cap) {
            push_minimal(&mut self.engine.or_out, carrier | cap);
        }
        let plain = all.is_empty();
        let relaxed = !cap.is_empty() && all.is_subset(cap);
        if !self.engine.or_buf.is_empty() && (plain || relaxed) {
            let depth = self.config.or_limit.max_semis() - 1;
            let mut budget = self.config.or_budget.map_or(u64::MAX, u64::from);
            let start = budget;
            // Suffix intersections: a set drawn from `or_buf[j..]` cannot bring an
            // intersection that meets `or_suffix[j]` to empty, so the search skips it.
            self.engine.or_suffix.clear();
            self.engine.or_suffix.resize(self.engine.or_buf.len() + 1, B::AREA);
            for j in (0..self.engine.or_buf.len()).rev() {
                self.engine.or_suffix[j] = self.engine.or_suffix[j + 1] & self.engine.or_buf[j];
            }
            let e = &mut self.engine;
            let ops = OrOperands { list: &e.or_buf[..], suffix: &e.or_suffix[..] };
            if plain {
                let set = Partial { inter: carrier, union: carrier };
                budget = or_search(ops, 0, set, depth, budget, &mut e.or_out);
            }
            if relaxed && !(carrier - cap).is_empty() {
                // The intersection is kept without the captured cells, so the search empties
                // it as before; its unions then take the captured sets.
                e.or_relaxed.clear();
                let set = Partial { inter: carrier - cap, union: carrier };
                budget = or_search(ops, 0, set, depth, budget, &mut e.or_relaxed);
                for &u in &e.or_relaxed {
                    push_minimal(&mut e.or_out, u | cap);
                }
            }
            self.stats.or_steps += start - budget;
        }
        self.add_or_fulls(p, a, b, Some(carrier));
    }

    /// Gathers the OR rule's operands for pair `p` of ends `a` and `b`: the pair's semis other
    /// than `new` in `or_buf`, and `or_out` emptied for the fulls. Returns the intersection of
    /// all the pair's semis, `new` included (only sets with an empty one succeed, so if all the
    /// semis together share a cell there is nothing to search), and the ends' captured sets
    /// (with them, the semis need only meet inside those, a single semi too, and a set that
    /// does gives a full over its union and the captured sets).
    fn or_gather(&mut self, p: PairIdx, a: usize, b: usize, new: Option<B>) -> (B, B) {
        self.engine.or_buf.clear();
        self.engine.or_out.clear();
        let mut all = new.unwrap_or(B::AREA);
        for &s in &self.arena.semis[self.arena.lists[p].semis.range()] {
            all &= s;
            if Some(s) != new {
                self.engine.or_buf.push(s);
            }
        }
        (all, self.captured(a) | self.captured(b))
    }

    /// Adds the fulls in `or_out`, which the OR rule made from the semis in `or_buf` (and
    /// `newest`, the new semi when it is not among them), to pair `p` of ends `a` and `b`.
    fn add_or_fulls(&mut self, p: PairIdx, a: usize, b: usize, newest: Option<B>) {
        if self.engine.or_out.is_empty() {
            return;
        }
        if let Some(r) = self.recorder.as_deref_mut() {
            r.or_members.clear();
            r.or_members.extend_from_slice(&self.engine.or_buf);
            r.or_members.extend(newest);
            r.origin = Origin::Or;
        }
        let (ia, ib) = (self.id(a), self.id(b));
        let at = PairAt { p, a, b, ia, ib };
        for i in 0..self.engine.or_out.len() {
            let u = self.engine.or_out[i];
            self.add_full_at(at, u);
            if self.stopped {
                return;
            }
        }
    }

    /// The greedy OR rule over every semi of pair `p`: once for all the semis that came since
    /// the last pass ([`Store::batch_or`]), or for one new semi with the semi AND rule on.
    fn or_pass(&mut self, p: PairIdx) {
        let (a, b) = self.ends_of(p);
        let (all, cap) = self.or_gather(p, a, b, None);
        if self.engine.or_buf.is_empty() {
            return;
        }
        if !cap.is_empty() {
            for i in 0..self.engine.or_buf.len() {
                let c = self.engine.or_buf[i];
                if c.is_subset(cap) {
                    push_minimal(&mut self.engine.or_out, c | cap);
                }
            }
        }
        let plain = all.is_empty();
        let relaxed = !cap.is_empty() && all.is_subset(cap);
        if plain || relaxed {
            self.or_greedy(p, cap);
        }
        self.add_or_fulls(p, a, b, None);
    }

    /// The greedy OR rule ([`OrLimit::Greedy`]) over the semis in `or_buf`, for pair `p`:
    /// for each cell that all of the pair's full carriers hold (every cell if there is no
    /// full), the semis that avoid it are taken one by one while each shrinks the running
    /// intersection; if that empties it (or leaves only cells of the ends' captured sets `cap`),
    /// the union is a new full carrier, pushed to `or_out`, and only cells in it stay candidates.
    fn or_greedy(&mut self, p: PairIdx, cap: B) {
        let mut cands = B::AREA;
        for &f in &self.arena.fulls[self.arena.lists[p].fulls.range()] {
            cands &= f;
        }
        cands -= cap;
        let mut steps = 0u64;
        while let Some(c) = cands.lowest_bit() {
            cands = cands.without_bit(c);
            let mut inter = B::AREA;
            for &s in &self.engine.or_buf {
                if !s.has_bit(c) {
                    inter &= s;
                }
            }
            steps += self.engine.or_buf.len() as u64;
            let goal = if inter.is_empty() { B::EMPTY } else { cap };
            if !inter.is_subset(goal) {
                continue;
            }
            let (mut i, mut u) = (B::AREA, goal);
            for &s in &self.engine.or_buf {
                if s.has_bit(c) || i.is_subset(s) {
                    continue;
                }
                i &= s;
                u |= s;
                if i.is_subset(goal) {
                    break;
                }
            }
            push_minimal(&mut self.engine.or_out, u);
            cands &= u;
        }
        self.stats.or_steps += steps;
    }
}

/// The operands of the OR search: the semis' carriers, and `suffix[j]` the intersection of
/// `list[j..]` (`suffix[list.len()]` holds every cell).
#[derive(Clone, Copy, Debug)]
struct OrOperands<'a, B> {
    list: &'a [B],
    suffix: &'a [B],
}

/// A set of semis the OR search grows: the intersection and the union of their carriers.
#[derive(Clone, Copy, Debug)]
struct Partial<B> {
    inter: B,
    union: B,
}

/// Depth-first search for sets of at most `depth` more semis (from `list[start..]`) that bring
/// the intersection of `set` to empty; pushes each such union. Once the intersection meets
/// `suffix[j]`, no set from there on can succeed. Each semi looked at is one step of `budget`;
/// returns the steps left.
fn or_search<B: BitSet>(
    ops: OrOperands<'_, B>,
    start: usize,
    set: Partial<B>,
    depth: usize,
    mut budget: u64,
    out: &mut Vec<B>,
) -> u64 {
    let OrOperands { list, suffix } = ops;
    let Partial { inter, union } = set;
    if inter.intersects(suffix[start]) {
        return budget;
    }
    if depth <= 1 {
        // The last semi of a set: `inter` is not empty, so only a semi that empties it counts
        // (one that leaves it unchanged cannot). Same steps, without the branch per semi.
        let rest = list.get(start..).unwrap_or(&[]);
        let k = rest.len().min(usize::try_from(budget).unwrap_or(usize::MAX));
        for &c in &rest[..k] {
            if (inter & c).is_empty() {
                push_minimal(out, union | c);
            }
        }
        return budget - k as u64;
    }
    for (j, &c) in list.iter().enumerate().skip(start) {
        if budget == 0 || inter.intersects(suffix[j]) {
            break;
        }
        budget -= 1;
        let i2 = inter & c;
        if i2 == inter {
            continue;
        }
        let u2 = union | c;
        if i2.is_empty() {
            push_minimal(out, u2);
        } else {
            let set = Partial { inter: i2, union: u2 };
            budget = or_search(ops, j + 1, set, depth - 1, budget, out);
        }
    }
    budget
}

/// Adds `u` to `out` unless a carrier there is inside it, dropping those that contain it.
#[inline]
fn push_minimal<B: BitSet>(out: &mut Vec<B>, u: B) {
    if !out.iter().any(|o| o.is_subset(u)) {
        out.retain(|o| !u.is_subset(*o));
        out.push(u);
    }
}

#[cfg(test)]
mod tests {
    use nash_board::{Bitboard, Cell};

    use super::*;

    /// Every minimal union of at most `depth` carriers from `list` that, with `first`, have an
    /// empty intersection (brute force over all subsets).
    fn or_brute(list: &[Bitboard], first: Bitboard, depth: usize) -> Vec<Bitboard> {
        let mut out = Vec::new();
        for mask in 1u32..1 << list.len() {
            if mask.count_ones() as usize > depth {
                continue;
            }
            let (mut inter, mut union) = (first, first);
            for (i, &c) in list.iter().enumerate() {
                if mask & (1 << i) != 0 {
                    inter &= c;
                    union |= c;
                }
            }
            if inter.is_empty() {
                push_minimal(&mut out, union);
            }
        }
        out
    }

    /// The optional key and the place of a work item fit beside its ends in the padding of
    /// the carrier's alignment: an item is its carrier and 16 bytes, as with a bare `u16` key.
    #[test]
    fn a_work_item_is_its_carrier_and_sixteen_bytes() {
        use nash_board::{TinyBitboard, WideBitboard};
        use std::mem::size_of;
        assert_eq!(size_of::<Work<Bitboard>>(), size_of::<Bitboard>() + 16);
        assert_eq!(size_of::<Work<TinyBitboard>>(), size_of::<TinyBitboard>() + 16);
        assert_eq!(size_of::<Work<WideBitboard>>(), size_of::<WideBitboard>() + 16);
        assert_eq!(size_of::<Option<KeyCell>>(), 4);
    }

    proptest::proptest! {
        /// The OR search with its suffix pruning finds exactly the minimal unions that a search
        /// of every set of semis finds, when no budget cuts it short.
        #[test]
        fn or_search_finds_every_minimal_union(
            raw in proptest::collection::vec(0u16..1 << 9, 1..10),
            first in 1u16..1 << 9,
            depth in 1usize..5,
        ) {
            // Carriers over nine cells (a1..c3), small enough for many empty intersections.
            let cells: Vec<Cell> = (0..9).filter_map(|i| Cell::new(i % 3, i / 3)).collect();
            let set = |m: u16| -> Bitboard {
                cells.iter().enumerate().filter(|(i, _)| m & (1 << i) != 0).map(|(_, &c)| c).collect()
            };
            let list: Vec<Bitboard> = raw.iter().map(|&m| set(m)).collect();
            let first = set(first);
            let mut suffix = vec![Bitboard::AREA; list.len() + 1];
            for j in (0..list.len()).rev() {
                suffix[j] = suffix[j + 1] & list[j];
            }
            let mut found = Vec::new();
            let ops = OrOperands { list: &list, suffix: &suffix };
            let set = Partial { inter: first, union: first };
            or_search(ops, 0, set, depth, u64::MAX, &mut found);
            let mut want = or_brute(&list, first, depth);
            found.sort_by_key(|b| b.0);
            want.sort_by_key(|b| b.0);
            proptest::prop_assert_eq!(found, want);
        }
    }
}
