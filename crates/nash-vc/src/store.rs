//! One player's connection set: full and semi connections per pair of ends, kept minimal, the
//! trivial connections a build starts from and the incremental updates after a stone (Chen
//! 2025 s.5.4.2). The AND and OR rules that grow the set are in [`rules`].
//!
//! Ends are cells, stone groups (named by the group's lowest stone) or the player's edges, all
//! in the bitboard index space; carriers are bitboards of empty cells. A pair's lists hold only
//! minimal carriers: a full connection drops every full or semi whose carrier contains its own,
//! and a semi drops every semi whose carrier contains its own.

use nash_board::{BitSet, Cell, Color, Geometry, Stop};

use crate::config::HSearchConfig;
use crate::record::{Origin, Recorder};

mod arena;
mod groups;
mod ladders;
mod pairs;
mod rules;
mod templates;

use arena::{drop_supersets, Arenas, PairLists, Span};
use groups::Groups;
use pairs::{EndId, PairAt, PairIdx, PairIndex, PerEnd};
use rules::{Engine, Work, NOT_WRITTEN};

/// The key of a semi connection: the bit index of the empty cell whose stone makes it full.
/// A full connection has none (`Option<KeyCell>`, as small as a key where it sits in a work
/// item).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub(crate) struct KeyCell(u16);

impl KeyCell {
    /// The key at the cell of bit index `bit`.
    #[inline]
    pub fn new(bit: usize) -> KeyCell {
        debug_assert!(bit < usize::from(u16::MAX));
        KeyCell(bit as u16)
    }

    /// The key's bit index.
    #[inline]
    pub fn bit(self) -> usize {
        usize::from(self.0)
    }
}

/// A semi connection: its carrier (key included) and key.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct SemiEntry<B> {
    pub carrier: B,
    pub key: KeyCell,
}

/// The semi connections of one pair of ends: carriers and keys in parallel slices.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Semis<'a, B> {
    pub carriers: &'a [B],
    pub keys: &'a [KeyCell],
}

impl<'a, B: Copy> Semis<'a, B> {
    pub fn len(&self) -> usize {
        self.carriers.len()
    }

    pub fn iter(&self) -> impl Iterator<Item = SemiEntry<B>> + 'a {
        let keys = self.keys;
        self.carriers.iter().zip(keys).map(|(&carrier, &key)| SemiEntry { carrier, key })
    }
}

/// Counters of one player's H-search, for benchmarks and experiments.
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
pub struct HSearchStats {
    /// AND-rule candidate pairs examined.
    pub and_tries: u64,
    /// OR-rule combination steps.
    pub or_steps: u64,
    /// Connections accepted into the set (including ones later dropped as non-minimal).
    pub added: u64,
    /// Connections refused because a pair's list was full.
    pub capped: u64,
}

/// One player's connections and the state the rules need, each part with its own code: the
/// index spaces ([`pairs`]), the lists ([`arena`]), the group names ([`groups`]), the rule
/// engine's queues and buffers ([`rules`]) and the recorder (crate::record).
#[derive(Debug)]
pub(crate) struct Store<B: BitSet> {
    pub color: Color,
    index: PairIndex<B>,
    arena: Arenas<B>,
    /// Per dense id, the ends it has at least one full (semi) connection with.
    full_nbrs: PerEnd<B>,
    semi_nbrs: PerEnd<B>,
    /// Per dense id, the ends it has a full connection with an empty carrier with (adjacent
    /// ends): the AND rule can add nothing between two such ends.
    adjacent: PerEnd<B>,
    engine: Engine<B>,
    /// The player's stones.
    pub own: B,
    /// Empty cells that take part (all empty cells, or the area of an area-limited search).
    pub empty: B,
    groups: Groups<B>,
    /// The player's two edges as bits.
    edge_bits: [usize; 2],
    /// The edge templates placed on the board of the last build (shared by the process).
    templates: Option<&'static crate::templates::TemplateIndex<B>>,
    /// Per own edge (as in `edge_bits`), the cells next to it: a cell two of whose neighbours
    /// lie there is on the second row, and those two are its captured set.
    first_rows: [B; 2],
    /// The early stop fired, or the run was interrupted: the set is not closed under the rules.
    pub stopped: bool,
    /// The run was cut short by [`Store::stop`]: every connection is valid, but some that the
    /// rules would find are missing (a sound, weaker set).
    pub interrupted: bool,
    /// Polled once per work item of the rules; set by the builder that owns the store.
    pub stop: Stop,
    pub stats: HSearchStats,
    config: HSearchConfig,
    /// How each connection was made, when recording (crate::record).
    pub(crate) recorder: Option<Box<Recorder<B>>>,
}

/// Bytes a vector holds on the heap (its capacity).
pub(super) fn cap<T>(v: &Vec<T>) -> usize {
    v.capacity() * std::mem::size_of::<T>()
}

impl<B: BitSet> Clone for Store<B> {
    fn clone(&self) -> Store<B> {
        let mut s = Store::new(self.color);
        s.clone_from(self);
        s
    }

    /// Copies only the pairs that hold connections, reusing this store's buffers: the cost is
    /// proportional to the connections, not to the number of pairs of ends.
    fn clone_from(&mut self, src: &Store<B>) {
        self.derive_from(src, B::EMPTY);
        self.stats = src.stats;
    }
}

impl<B: BitSet> Store<B> {
    pub fn new(color: Color) -> Store<B> {
        Store {
            color,
            index: PairIndex::new(),
            arena: Arenas::new(),
            full_nbrs: PerEnd::new(),
            semi_nbrs: PerEnd::new(),
            adjacent: PerEnd::new(),
            engine: Engine::new(),
            own: B::EMPTY,
            empty: B::EMPTY,
            groups: Groups::new(),
            edge_bits: [0; 2],
            templates: None,
            first_rows: [B::EMPTY; 2],
            stopped: false,
            interrupted: false,
            stop: Stop::never(),
            stats: HSearchStats::default(),
            config: HSearchConfig::default(),
            recorder: None,
        }
    }

    /// Prepares the tables for a board and forgets every connection.
    fn reset(&mut self, geom: &Geometry<B>, config: HSearchConfig) {
        self.config = config;
        if self.index.set_board(geom) {
            let pairs = self.index.pairs();
            self.arena.resize(pairs);
            self.engine.resize(pairs);
        }
        self.arena.forget_pairs();
        self.clear_nbrs(self.index.n);
        self.engine.queue.clear();
        self.stopped = false;
        self.interrupted = false;
        self.stats = HSearchStats::default();
        if let Some(r) = self.recorder.as_deref_mut() {
            r.start();
        }
        let [e1, e2] = self.color.edges();
        self.edge_bits = [B::bit_of(Cell::edge(e1)), B::bit_of(Cell::edge(e2))];
        self.first_rows = self.edge_bits.map(|e| geom.neighbours_of_bit(e) & geom.cells());
    }

    /// Empties the neighbour sets, sized for `n` dense ids.
    fn clear_nbrs(&mut self, n: usize) {
        for v in [&mut self.full_nbrs, &mut self.semi_nbrs, &mut self.adjacent] {
            v.reset(n, B::EMPTY);
        }
    }

    /// The captured set of end `x` (docs/vc.md): its two first-row neighbours when `x` is an
    /// empty cell on the second row of an own edge and both are empty and take part; nothing
    /// when the rule is off or a recorder is on (a certificate's checker knows only AND and
    /// OR over disjoint carriers).
    #[inline]
    pub(crate) fn captured(&self, x: usize) -> B {
        if !self.config.captured_sets || self.recorder.is_some() || !self.empty.has_bit(x) {
            return B::EMPTY;
        }
        // The later edge first: on a board three rows across, a cell can be on the second row
        // of both.
        for &first in self.first_rows.iter().rev() {
            if first.has_bit(x) {
                continue;
            }
            let pair = B::from_bit(x).dilate() & first;
            if pair.len() == 2 {
                return if pair.is_subset(self.empty) { pair } else { B::EMPTY };
            }
        }
        B::EMPTY
    }

    #[inline]
    fn id(&self, bit: usize) -> EndId {
        self.index.id(bit)
    }

    /// The pair index of two distinct dense ids.
    #[inline]
    fn pair_of_ids(&self, x: EndId, y: EndId) -> PairIdx {
        self.index.pair_of_ids(x, y)
    }

    #[inline]
    pub fn pair(&self, a: usize, b: usize) -> PairIdx {
        self.index.pair(a, b)
    }

    /// The two ends (bit indices) of a pair index.
    #[inline]
    fn ends_of(&self, p: PairIdx) -> (usize, usize) {
        self.index.ends_of(p)
    }

    /// The full carriers of a pair index.
    #[inline]
    fn full_list(&self, p: PairIdx) -> &[B] {
        self.arena.full_list(p)
    }

    #[inline]
    fn semis_at(&self, p: PairIdx) -> Semis<'_, B> {
        self.arena.semis_at(p)
    }

    /// Moves every list to the front of fresh arenas, each block just big enough.
    #[cfg(test)]
    fn compact(&mut self) {
        self.arena.compact();
    }

    /// Bytes this store holds on the heap (the capacity of its buffers).
    pub fn heap_bytes(&self) -> usize {
        self.index.heap_bytes()
            + self.arena.heap_bytes()
            + self.full_nbrs.heap_bytes()
            + self.semi_nbrs.heap_bytes()
            + self.adjacent.heap_bytes()
            + self.engine.heap_bytes()
    }

    /// The group name of a stone, or the cell or edge itself.
    pub fn end_of(&self, bit: usize) -> usize {
        self.groups.end_of(self.own, bit)
    }

    /// Whether `bit` is an end of this set (an empty cell that takes part, a group, an edge).
    pub fn is_end(&self, bit: usize) -> bool {
        self.empty.has_bit(bit) || self.groups.reps.has_bit(bit) || self.edge_bits.contains(&bit)
    }

    pub fn fulls(&self, a: usize, b: usize) -> &[B] {
        if a == b || !self.is_end(a) || !self.is_end(b) {
            return &[];
        }
        self.full_list(self.pair(a, b))
    }

    pub fn semis(&self, a: usize, b: usize) -> Semis<'_, B> {
        if a == b || !self.is_end(a) || !self.is_end(b) {
            return Semis { carriers: &[], keys: &[] };
        }
        self.semis_at(self.pair(a, b))
    }

    pub fn edge_pair(&self) -> (usize, usize) {
        (self.edge_bits[0], self.edge_bits[1])
    }

    /// Every connection: `(a, b, carrier, key)`, no key for a full one.
    pub fn for_each(&self, mut f: impl FnMut(usize, usize, B, Option<KeyCell>)) {
        for &p in &self.arena.touched {
            let (a, b) = self.ends_of(p);
            for &c in self.full_list(p) {
                f(a, b, c, None);
            }
            for s in self.semis_at(p).iter() {
                f(a, b, s.carrier, Some(s.key));
            }
        }
    }

    /// Every pair of ends with a full connection, with its list of full carriers.
    pub fn for_each_full_pair(&self, mut f: impl FnMut(usize, usize, &[B])) {
        for &p in &self.arena.touched {
            let list = self.full_list(p);
            if !list.is_empty() {
                let (a, b) = self.ends_of(p);
                f(a, b, list);
            }
        }
    }

    pub fn counts(&self) -> (usize, usize) {
        self.arena.counts()
    }

    /// Full H-search from scratch: the trivial connections, then the rules to a fixed point.
    /// `to_move` says whether the player is to move (for the early stop).
    pub fn build(
        &mut self,
        geom: &Geometry<B>,
        (own, area): (B, B),
        config: HSearchConfig,
        to_move: bool,
    ) {
        self.start(geom, own, area, config);
        self.engine.to_move = to_move;
        let own_edges = B::from_bit(self.edge_bits[0]) | B::from_bit(self.edge_bits[1]);
        // Trivial full connections (empty carrier) between adjacent ends.
        self.origin(Origin::Touch);
        for x in self.empty.bits() {
            let nb = geom.neighbours_of_bit(x);
            for y in (nb & self.empty).bits() {
                if y > x {
                    self.add_full(x, y, B::EMPTY);
                }
            }
            for e in (nb & own_edges).bits() {
                self.add_full(x, e, B::EMPTY);
            }
            for s in (nb & self.own).bits() {
                let g = self.groups.rep(s);
                self.add_full(x, g, B::EMPTY);
            }
        }
        for g in self.groups.reps.bits() {
            let group = B::from_bit(g).flood(self.own);
            for e in 0..2 {
                let edge = self.edge_bits[e];
                if geom.neighbours_of_bit(edge).intersects(group) {
                    self.add_full(g, edge, B::EMPTY);
                }
            }
        }
        self.origin(Origin::Unknown);
        self.add_ladders(geom);
        self.add_templates(geom, self.own);
        self.run();
    }

    /// Only the ladder connections of the position ([`HSearchConfig::ladders`]), as a build
    /// adds them before the rules run; the rules do not run.
    pub fn build_ladders(&mut self, geom: &Geometry<B>, own: B, area: B, config: HSearchConfig) {
        self.start(geom, own, area, config);
        self.add_ladders(geom);
    }

    /// An empty set for the position with the player's stones `own` and the cells `area`
    /// taking part, its groups named.
    fn start(&mut self, geom: &Geometry<B>, own: B, area: B, config: HSearchConfig) {
        self.reset(geom, config);
        self.own = own;
        self.empty = area;
        self.groups.name(own);
    }

    /// Becomes `src` without the connections that the opponent's new stones on `removed` (cells
    /// that are empty in `src`) break: those ending at such a cell or using one in the carrier.
    /// What remains is valid (a connection depends only on its ends and its carrier), so this
    /// is the incremental update of Chen 2025 s.5.4.2 for the player who did not move, done in
    /// one pass while copying. The cost is proportional to the connections of `src`, so the
    /// copy polls this store's stop: cut short, it keeps the pairs copied so far (each valid)
    /// and is marked stopped and interrupted, as a cut-short build is.
    pub fn derive_from(&mut self, src: &Store<B>, removed: B) {
        self.invalidate_records();
        if self.index.shape != src.index.shape {
            self.index.clone_from(&src.index);
            let pairs = self.index.pairs();
            self.arena.resize(pairs);
            self.engine.resize(pairs);
        }
        self.arena.forget_pairs();
        self.clear_nbrs(src.index.n);
        let mut cut = false;
        for &p in &src.arena.touched {
            if self.stop.should_stop() {
                cut = true;
                break;
            }
            let (a, b) = src.ends_of(p);
            if removed.has_bit(a) || removed.has_bit(b) {
                continue;
            }
            self.copy_pair(src, p, removed);
        }
        self.color = src.color;
        self.engine.queue.clear();
        self.own = src.own;
        self.empty = src.empty - removed;
        self.groups = src.groups;
        self.edge_bits = src.edge_bits;
        self.first_rows = src.first_rows;
        self.stopped = src.stopped || cut;
        self.interrupted = src.interrupted || cut;
        self.stats = HSearchStats::default();
        self.config = src.config;
    }

    /// Appends the connections of pair `p` of `src` that avoid `removed` to this store's
    /// arenas, as the list of its pair `p` (the same board, and the pair empty here).
    fn copy_pair(&mut self, src: &Store<B>, p: PairIdx, removed: B) {
        let (a, b) = src.ends_of(p);
        let l = src.arena.lists[p];
        let arena = &mut self.arena;
        let f_off = arena.fulls.len();
        arena
            .fulls
            .extend(src.arena.fulls[l.fulls.range()].iter().filter(|c| !c.intersects(removed)));
        let f_len = (arena.fulls.len() - f_off) as u32;
        let s_off = arena.semis.len();
        for i in l.semis.range() {
            let c = src.arena.semis[i];
            if !c.intersects(removed) {
                arena.semis.push(c);
                arena.keys.push(src.arena.keys[i]);
            }
        }
        let s_len = (arena.semis.len() - s_off) as u32;
        let (has_full, has_semi) = (f_len > 0, s_len > 0);
        let (ia, ib) = (self.id(a), self.id(b));
        if has_full {
            self.full_nbrs[ia] |= B::from_bit(b);
            self.full_nbrs[ib] |= B::from_bit(a);
            if self.arena.fulls[f_off..].iter().any(|c| c.is_empty()) {
                self.adjacent[ia] |= B::from_bit(b);
                self.adjacent[ib] |= B::from_bit(a);
            }
        }
        if has_semi {
            self.semi_nbrs[ia] |= B::from_bit(b);
            self.semi_nbrs[ib] |= B::from_bit(a);
        }
        if has_full || has_semi {
            self.arena.lists[p] = PairLists {
                fulls: Span { off: f_off as u32, len: f_len, cap: f_len },
                semis: Span { off: s_off as u32, len: s_len, cap: s_len },
                fulls_done: f_len,
            };
            self.arena.is_touched[p] = true;
            self.arena.touched.push(p);
        }
    }

    /// Incremental update after a stone of the opponent on `s` (Chen 2025 s.5.4.2, step 1a):
    /// every connection that ends at `s` or uses it is gone, and nothing new appears.
    pub fn opponent_stone(&mut self, s: usize) {
        self.invalidate_records();
        self.empty = self.empty.without_bit(s);
        let sb = B::from_bit(s);
        for i in 0..self.arena.touched.len() {
            let p = self.arena.touched[i];
            let (a, b) = self.ends_of(p);
            if a == s || b == s {
                self.arena.lists[p].fulls.len = 0;
                self.arena.lists[p].semis.len = 0;
            } else {
                self.arena.retain_fulls(p, |c| !c.intersects(sb));
                self.arena.retain_semis(p, |c, _| !c.intersects(sb));
            }
            if self.arena.lists[p].fulls.len == 0 {
                self.drop_nbr(true, a, b);
            }
            if self.arena.lists[p].semis.len == 0 {
                self.drop_nbr(false, a, b);
            }
        }
    }

    /// Incremental update after a stone of the player on `s` (Chen 2025 s.5.4.2, step 1b):
    /// semis keyed at `s` become full, carriers lose `s`, and the groups that `s` joins become
    /// one end that inherits their connections. The rules then run on what changed; `to_move`
    /// says whether the player is to move (for the early stop).
    pub fn own_stone(&mut self, geom: &Geometry<B>, s: usize, to_move: bool) {
        self.own_stones(geom, B::from_bit(s), to_move);
    }

    /// [`Store::own_stone`] for several new stones of the player at once (empty cells of the
    /// set): semis keyed at any of them become full, carriers lose them all, every group they
    /// join is renamed once, and the rules run once on what changed. The result is that of
    /// adding the stones one by one, as far as the rules' closure goes (every connection that
    /// would change on the way is put back to the queue); a search that gets a move and the
    /// fill-in after it pays for one pass instead of one per stone.
    pub fn own_stones(&mut self, geom: &Geometry<B>, stones: B, to_move: bool) {
        self.invalidate_records();
        self.engine.to_move = to_move;
        let sb = stones;
        self.empty -= sb;
        self.own |= sb;
        // Every group a new stone belongs to, renamed after its lowest stone; the old group
        // names inside it and the new stones themselves are the ends that move.
        let renamed = self.groups.join(self.own, sb);
        self.engine.pending.clear();
        for i in 0..self.arena.touched.len() {
            let p = self.arena.touched[i];
            self.lift_pair(p, sb, renamed);
        }
        for i in 0..self.engine.pending.len() {
            let w = self.engine.pending[i];
            match w.key {
                None => self.add_full(w.a as usize, w.b as usize, w.carrier),
                Some(key) => self.add_semi(w.a as usize, w.b as usize, w.carrier, key),
            };
        }
        // The stones' own adjacencies (already inherited from each stone as an empty end, but
        // a move by fill-in may land on a cell outside the previous ends).
        let own_edges = B::from_bit(self.edge_bits[0]) | B::from_bit(self.edge_bits[1]);
        for s in sb.bits() {
            let g = self.groups.rep(s);
            let nb = geom.neighbours_of_bit(s);
            for y in (nb & self.empty).bits() {
                self.add_full(g, y, B::EMPTY);
            }
            for e in (nb & own_edges).bits() {
                self.add_full(g, e, B::EMPTY);
            }
        }
        self.add_templates(geom, sb);
        self.run();
        self.arena.compact_if_sparse();
    }

    /// The part of [`Store::own_stones`] for pair `p`: the connections that use a new stone
    /// of `sb` or end at a renamed end of `renamed` leave the list for the pending queue,
    /// renamed, carriers without the stones, semis keyed at one made full.
    fn lift_pair(&mut self, p: PairIdx, sb: B, renamed: B) {
        let (a, b) = self.ends_of(p);
        // An end that was a new stone changes kind (empty cell to group) even when it
        // keeps its name, so every connection at a renamed end goes through the rules again.
        let moved = renamed.has_bit(a) || renamed.has_bit(b);
        let name = |x: usize| if renamed.has_bit(x) { self.groups.rep(x) } else { x };
        let (na, nb) = if moved { (name(a), name(b)) } else { (a, b) };
        let arena = &mut self.arena;
        let pending = &mut self.engine.pending;
        let l = arena.lists[p];
        let (mut wf, mut ws) = (0, 0);
        for r in l.fulls.range() {
            let c = arena.fulls[r];
            if moved || c.intersects(sb) {
                if na != nb {
                    let carrier = c - sb;
                    let (a, b) = (na as u16, nb as u16);
                    pending.push(Work { a, b, carrier, key: None, at: NOT_WRITTEN });
                }
            } else {
                arena.fulls[l.fulls.off as usize + wf] = c;
                wf += 1;
            }
        }
        for r in l.semis.range() {
            let (c, k) = (arena.semis[r], arena.keys[r]);
            if moved || c.intersects(sb) {
                if na != nb {
                    let key = (!sb.has_bit(k.bit())).then_some(k);
                    let (a, b, carrier) = (na as u16, nb as u16, c - sb);
                    pending.push(Work { a, b, carrier, key, at: NOT_WRITTEN });
                }
            } else {
                arena.semis[l.semis.off as usize + ws] = c;
                arena.keys[l.semis.off as usize + ws] = k;
                ws += 1;
            }
        }
        let lists = &mut arena.lists[p];
        lists.fulls.len = wf as u32;
        lists.fulls_done = wf as u32;
        lists.semis.len = ws as u32;
        if wf == 0 {
            self.drop_nbr(true, a, b);
        }
        if ws == 0 {
            self.drop_nbr(false, a, b);
        }
    }

    /// Records that `a` and `b` have no full (or no semi) connection left. An empty full
    /// carrier is never dropped while the pair keeps a full connection (no carrier is a strict
    /// subset of it, and it avoids every stone), so the pair is no longer adjacent only then.
    fn drop_nbr(&mut self, full: bool, a: usize, b: usize) {
        let (ia, ib) = (self.id(a), self.id(b));
        if full {
            self.adjacent[ia] = self.adjacent[ia].without_bit(b);
            self.adjacent[ib] = self.adjacent[ib].without_bit(a);
        }
        let v = if full { &mut self.full_nbrs } else { &mut self.semi_nbrs };
        v[ia] = v[ia].without_bit(b);
        v[ib] = v[ib].without_bit(a);
    }

    fn is_edge_pair(&self, a: usize, b: usize) -> bool {
        (a == self.edge_bits[0] && b == self.edge_bits[1])
            || (a == self.edge_bits[1] && b == self.edge_bits[0])
    }

    /// Adds a full connection unless a known one's carrier is a subset; drops the connections it
    /// makes non-minimal. Returns whether it was added.
    pub fn add_full(&mut self, a: usize, b: usize, carrier: B) -> bool {
        let at = self.index.at(a, b);
        self.add_full_at(at, carrier)
    }

    /// [`Store::add_full`] with the pair index and the ends' dense ids already known.
    ///
    /// The list is an antichain (no carrier contains another), so a carrier that is a subset of
    /// the new one and a carrier that contains it cannot both be there (unless equal): one pass
    /// finds the first kind or drops the second.
    fn add_full_at(&mut self, at: PairAt, carrier: B) -> bool {
        let PairAt { p, a, b, ia, ib } = at;
        debug_assert!(a != b);
        debug_assert!(!carrier.has_bit(a) && !carrier.has_bit(b));
        let span = self.arena.lists[p].fulls;
        let done = self.arena.lists[p].fulls_done as usize;
        // The combined fulls that stay are those before `done` that are not dropped.
        let mut done_dropped = 0;
        let list = &mut self.arena.fulls[span.range()];
        let Some(w) =
            drop_supersets(list, carrier, |_, _| {}, |r| done_dropped += (r < done) as usize)
        else {
            return false;
        };
        if self.config.lean_fulls && w == span.len as usize && w > 0 {
            let mut inter = B::AREA;
            for &f in &self.arena.fulls[span.range()] {
                inter &= f;
            }
            if inter.is_subset(carrier) {
                return false;
            }
        }
        self.arena.lists[p].fulls_done = (done - done_dropped) as u32;
        self.arena.lists[p].fulls.len = w as u32;
        if let Some(cap) = self.config.max_fulls {
            if w >= cap {
                self.stats.capped += 1;
                return false;
            }
        }
        self.arena.push_full(p, carrier, self.config.max_fulls);
        if let Some(r) = self.recorder.as_deref_mut() {
            r.added(a, b, carrier, true);
        }
        if self.config.optimization {
            self.arena.lists[p].semis.len = 0;
        } else {
            self.arena.retain_semis(p, |s, _| !carrier.is_subset(s));
        }
        if self.arena.lists[p].semis.len == 0 {
            self.semi_nbrs[ia] = self.semi_nbrs[ia].without_bit(b);
            self.semi_nbrs[ib] = self.semi_nbrs[ib].without_bit(a);
        }
        self.arena.touch(p);
        self.full_nbrs[ia] |= B::from_bit(b);
        self.full_nbrs[ib] |= B::from_bit(a);
        if carrier.is_empty() {
            self.adjacent[ia] |= B::from_bit(b);
            self.adjacent[ib] |= B::from_bit(a);
        }
        let fulls = self.arena.lists[p].fulls;
        let at = fulls.off + fulls.len - 1;
        self.engine.queue.push(Work { a: a as u16, b: b as u16, carrier, key: None, at });
        self.stats.added += 1;
        if self.config.early_stop && self.is_edge_pair(a, b) {
            self.stopped = true;
        }
        true
    }

    /// Adds a semi connection unless a known full or semi connection's carrier is a subset of
    /// its carrier; drops the semis it makes non-minimal. Returns whether it was added.
    pub fn add_semi(&mut self, a: usize, b: usize, carrier: B, key: KeyCell) -> bool {
        let at = self.index.at(a, b);
        self.add_semi_at(at, carrier, key)
    }

    /// [`Store::add_semi`] with the pair index and the ends' dense ids already known (one pass
    /// over the semis, as in [`Store::add_full_at`]).
    fn add_semi_at(&mut self, at: PairAt, carrier: B, key: KeyCell) -> bool {
        let PairAt { p, a, b, ia, ib } = at;
        debug_assert!(a != b);
        debug_assert!(carrier.has_bit(key.bit()));
        debug_assert!(!carrier.has_bit(a) && !carrier.has_bit(b));
        let l = self.arena.lists[p];
        if l.fulls.len > 0
            && (self.config.optimization
                || self.arena.fulls[l.fulls.range()].iter().any(|c| c.is_subset(carrier)))
        {
            return false;
        }
        let keys = &mut self.arena.keys[l.semis.range()];
        let semis = &mut self.arena.semis[l.semis.range()];
        let Some(w) = drop_supersets(semis, carrier, |w, r| keys[w] = keys[r], |_| {}) else {
            return false;
        };
        self.arena.lists[p].semis.len = w as u32;
        if let Some(cap) = self.config.max_semis {
            if w >= cap {
                self.stats.capped += 1;
                return false;
            }
        }
        self.arena.push_semi(p, carrier, key, self.config.max_semis);
        if let Some(r) = self.recorder.as_deref_mut() {
            r.added(a, b, carrier, false);
        }
        self.arena.touch(p);
        self.semi_nbrs[ia] |= B::from_bit(b);
        self.semi_nbrs[ib] |= B::from_bit(a);
        if self.batch_or() {
            self.engine.queue_or(p);
        } else {
            let semis = self.arena.lists[p].semis;
            let at = semis.off + semis.len - 1;
            let key = Some(key);
            self.engine.queue.push(Work { a: a as u16, b: b as u16, carrier, key, at });
        }
        self.stats.added += 1;
        if self.config.early_stop && self.engine.to_move && self.is_edge_pair(a, b) {
            self.stopped = true;
        }
        true
    }
}
/// Small helpers the board's `BitSet` does not have by bit index.
pub(crate) trait BitExt: BitSet {
    fn without_bit(self, bit: usize) -> Self {
        self - Self::from_bit(bit)
    }
}

impl<B: BitSet> BitExt for B {}

#[cfg(test)]
mod tests {
    use nash_board::{Bitboard, Position};

    use super::*;

    type Conns = Vec<(usize, usize, u128, Option<KeyCell>)>;

    fn conns(s: &Store<Bitboard>) -> Conns {
        let mut out = Vec::new();
        s.for_each(|a, b, c, k| out.push((a, b, c.0, k)));
        out
    }

    /// Compacting the arenas keeps every list and its order, and later updates of a compacted
    /// store give what they give on one that was not compacted.
    #[test]
    fn compacting_changes_nothing() {
        for config in [HSearchConfig::default(), HSearchConfig::thesis_base().exact()] {
            let mut pos: Position<Bitboard> = Position::square(6).unwrap();
            let geom = pos.geometry();
            let mut plain = Store::new(Color::Black);
            plain.build(geom, (pos.black(), pos.empty_cells()), config, false);
            let mut packed = Store::new(Color::Black);
            packed.clone_from(&plain);
            let mut step = 0usize;
            while pos.winner().is_none() {
                let empty: Vec<Cell> = pos.empty_cells().iter().collect();
                let cell = empty[(step * 7 + 3) % empty.len()];
                let color = pos.to_move();
                pos.play(cell).unwrap();
                let bit = Bitboard::bit_of(cell);
                for s in [&mut plain, &mut packed] {
                    if color == Color::Black {
                        s.own_stone(geom, bit, false);
                    } else {
                        s.opponent_stone(bit);
                    }
                }
                let before = conns(&packed);
                packed.compact();
                assert_eq!(conns(&packed), before, "compacting changed the lists");
                assert_eq!(conns(&plain), before, "updates differ after compacting");
                assert_eq!(plain.counts(), packed.counts());
                step += 1;
            }
            assert!(step > 5, "the game was too short to test anything");
        }
    }
}
