//! One player's connection set: full and semi connections per pair of ends, kept minimal, the
//! trivial connections a build starts from and the incremental updates after a stone (Chen
//! 2025 s.5.4.2). The AND and OR rules that grow the set are in [`rules`].
//!
//! Ends are cells, stone groups (named by the group's lowest stone) or the player's edges, all
//! in the bitboard index space; carriers are bitboards of empty cells. A pair's lists hold only
//! minimal carriers: a full connection drops every full or semi whose carrier contains its own,
//! and a semi drops every semi whose carrier contains its own.

use nash_board::{BitSet, Cell, Color, Geometry};

use crate::config::HSearchConfig;
use crate::record::{Origin, Recorder};

mod ladders;
mod rules;
mod templates;

/// The key field of a work item that is a full connection.
pub(crate) const NO_KEY: u16 = u16::MAX;

/// A semi connection: its carrier (key included) and key (a bit index).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct SemiEntry<B> {
    pub carrier: B,
    pub key: u16,
}

/// The semi connections of one pair of ends: carriers and keys in parallel slices.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Semis<'a, B> {
    pub carriers: &'a [B],
    pub keys: &'a [u16],
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

/// Where one pair's list lives in its arena: `len` entries from `off`, room for `cap`.
#[derive(Clone, Copy, Default, Debug)]
struct Span {
    off: u32,
    len: u32,
    cap: u32,
}

/// One pass over a pair's list of carriers (an antichain) before `carrier` joins it: `None` if
/// a carrier in the list is a subset of `carrier` (the new one is not minimal); else the list's
/// new length, the carriers that contain `carrier` dropped and the rest moved to the front in
/// order. `moved(w, r)` is told of each move from `r` to `w`, so that a parallel arena (the
/// semis' keys) follows, and `dropped(r)` of each carrier dropped from `r`.
#[inline]
fn drop_supersets<B: BitSet>(
    list: &mut [B],
    carrier: B,
    mut moved: impl FnMut(usize, usize),
    mut dropped: impl FnMut(usize),
) -> Option<usize> {
    let mut w = 0;
    for r in 0..list.len() {
        let c = list[r];
        if c.is_subset(carrier) {
            debug_assert_eq!(w, r, "the list of a pair is not an antichain");
            return None;
        }
        if !carrier.is_subset(c) {
            if w != r {
                list[w] = c;
                moved(w, r);
            }
            w += 1;
        } else {
            dropped(r);
        }
    }
    Some(w)
}

impl Span {
    #[inline]
    fn range(self) -> std::ops::Range<usize> {
        self.off as usize..(self.off + self.len) as usize
    }
}

/// The lists of one pair of ends.
#[derive(Clone, Copy, Default, Debug)]
struct PairLists {
    fulls: Span,
    semis: Span,
    /// How many of the full carriers, from the front of the list, the rules have combined
    /// already. The queue is first in, first out and a list only ever appends and closes
    /// gaps in order, so the combined ones are always the first ones; the AND rule pairs a new
    /// full only with those, and every two fulls are combined once, when the later of the two
    /// comes out of the queue (semi-naive evaluation).
    fulls_done: u32,
}

/// A connection waiting for the rules to combine it with the rest.
#[derive(Clone, Copy, Debug)]
struct Work<B> {
    a: u16,
    b: u16,
    carrier: B,
    key: u16,
    /// Where the connection was written in its arena (`u32::MAX` if nowhere yet): while it is
    /// still there, [`Store::run`] knows it live without scanning the pair's list.
    at: u32,
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

/// One player's connections and the state the rules need.
///
/// Each pair of ends (upper triangle of the dense ids) has a small header pointing into three
/// arenas: full carriers, semi carriers and semi keys (keys apart, so a semi takes 16 + 2 bytes
/// instead of a padded 32). A list that outgrows its block moves to the end of its arena; the
/// arenas are emptied by every build and copy, and compacted if incremental updates leave too
/// much unused.
#[derive(Debug)]
pub(crate) struct Store<B: BitSet> {
    pub color: Color,
    /// Dense ids: per bit index, the id of that cell or edge (`u16::MAX` off the board).
    id_of: B::Table,
    /// Number of dense ids (cells of the board plus the four edges).
    n: usize,
    /// The board's columns and rows the tables were made for.
    shape: (usize, usize),
    /// Per dense id `x`, the pair index of `(x, y)` for `y > x` is `row[x] + y` (wrapping).
    row: Vec<u32>,
    /// Per pair index, its two ends as bit indices.
    ends: Vec<[u16; 2]>,
    lists: Vec<PairLists>,
    full_arena: Vec<B>,
    semi_arena: Vec<B>,
    key_arena: Vec<u16>,
    /// Per dense id, the ends it has at least one full (semi) connection with.
    full_nbrs: Vec<B>,
    semi_nbrs: Vec<B>,
    /// Per dense id, the ends it has a full connection with an empty carrier with (adjacent
    /// ends): the AND rule can add nothing between two such ends.
    adjacent: Vec<B>,
    /// Pair indices that may hold connections.
    touched: Vec<u32>,
    is_touched: Vec<bool>,
    queue: Vec<Work<B>>,
    /// Pairs whose semis changed since their last OR pass, first in first out, when the OR
    /// rule runs once per pair ([`Store::batch_or`]); `or_queued` marks them per pair index.
    or_pairs: Vec<u32>,
    or_queued: Vec<bool>,
    or_buf: Vec<B>,
    or_out: Vec<B>,
    or_relaxed: Vec<B>,
    or_suffix: Vec<B>,
    pending: Vec<Work<B>>,
    /// The player's stones.
    pub own: B,
    /// Empty cells that take part (all empty cells, or the area of an area-limited search).
    pub empty: B,
    /// Group names: the lowest stone of each group.
    pub reps: B,
    /// Per stone bit, the name of its group.
    rep_of: B::Table,
    /// The player's two edges as bits.
    edge_bits: [usize; 2],
    /// The edge templates placed on the board of the last build (shared by the process).
    templates: Option<&'static crate::templates::TemplateIndex<B>>,
    /// Per own edge (as in `edge_bits`), the cells next to it: a cell two of whose neighbours
    /// lie there is on the second row, and those two are its captured set.
    first_rows: [B; 2],
    /// Whether the player is to move (for the early stop).
    pub to_move: bool,
    /// The early stop fired: the set is not closed under the rules.
    pub stopped: bool,
    pub stats: HSearchStats,
    config: HSearchConfig,
    /// How each connection was made, when recording (crate::record).
    pub(crate) recorder: Option<Box<Recorder<B>>>,
}

/// The first block size of a list, and the cap it never needs to pass.
const FIRST_BLOCK: u32 = 4;

/// Makes room for one more entry in the list `span` of an arena, moving the list to a bigger
/// block at the arena's end when its block is full. `limit` is the configured cap, if any.
#[inline]
fn grow<T: Copy + Default>(arena: &mut Vec<T>, span: &mut Span, limit: Option<usize>) {
    if span.len < span.cap {
        return;
    }
    let mut cap = (span.cap * 2).max(FIRST_BLOCK);
    if let Some(limit) = limit {
        cap = cap.min(limit as u32).max(span.len + 1);
    }
    let off = arena.len();
    arena.extend_from_within(span.range());
    arena.resize(off + cap as usize, T::default());
    span.off = off as u32;
    span.cap = cap;
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
            id_of: B::ZERO_TABLE,
            n: 0,
            shape: (0, 0),
            row: Vec::new(),
            ends: Vec::new(),
            lists: Vec::new(),
            full_arena: Vec::new(),
            semi_arena: Vec::new(),
            key_arena: Vec::new(),
            full_nbrs: Vec::new(),
            semi_nbrs: Vec::new(),
            adjacent: Vec::new(),
            touched: Vec::new(),
            is_touched: Vec::new(),
            queue: Vec::new(),
            or_pairs: Vec::new(),
            or_queued: Vec::new(),
            or_buf: Vec::new(),
            or_out: Vec::new(),
            or_relaxed: Vec::new(),
            or_suffix: Vec::new(),
            pending: Vec::new(),
            own: B::EMPTY,
            empty: B::EMPTY,
            reps: B::EMPTY,
            rep_of: B::ZERO_TABLE,
            edge_bits: [0; 2],
            templates: None,
            first_rows: [B::EMPTY; 2],
            to_move: false,
            stopped: false,
            stats: HSearchStats::default(),
            config: HSearchConfig::default(),
            recorder: None,
        }
    }

    /// Prepares the tables for a board and forgets every connection.
    fn reset(&mut self, geom: &Geometry<B>, config: HSearchConfig) {
        self.config = config;
        let n = geom.cols() * geom.rows() + 4;
        let shape = (geom.cols(), geom.rows());
        if shape != self.shape {
            let mut bit_of = vec![0u16; n];
            let ids = self.id_of.as_mut();
            ids.fill(u16::MAX);
            for (next, c) in (geom.cells() | B::EDGES).into_iter().enumerate() {
                let bit = B::bit_of(c);
                ids[bit] = next as u16;
                bit_of[next] = bit as u16;
            }
            self.resize(shape, n, &bit_of);
        }
        self.forget_pairs();
        self.full_nbrs.clear();
        self.full_nbrs.resize(n, B::EMPTY);
        self.semi_nbrs.clear();
        self.semi_nbrs.resize(n, B::EMPTY);
        self.adjacent.clear();
        self.adjacent.resize(n, B::EMPTY);
        self.queue.clear();
        self.stopped = false;
        self.stats = HSearchStats::default();
        if let Some(r) = self.recorder.as_deref_mut() {
            r.start();
        }
        let [e1, e2] = self.color.edges();
        self.edge_bits = [B::bit_of(Cell::edge(e1)), B::bit_of(Cell::edge(e2))];
        self.first_rows = self.edge_bits.map(|e| geom.neighbours_of_bit(e) & geom.cells());
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

    /// Sizes the pair tables for a board with `n` ends whose bit indices are `bit_of` (the id
    /// table is already set).
    fn resize(&mut self, shape: (usize, usize), n: usize, bit_of: &[u16]) {
        self.shape = shape;
        self.n = n;
        self.row.clear();
        self.ends.clear();
        for x in 0..n {
            // Pairs (x', y) with x' < x come first: x * (2n - x - 1) / 2 of them.
            let base = x * (2 * n - x - 1) / 2;
            self.row.push((base as u32).wrapping_sub(x as u32 + 1));
            for y in x + 1..n {
                self.ends.push([bit_of[x], bit_of[y]]);
            }
        }
        let pairs = self.ends.len();
        self.lists.clear();
        self.lists.resize(pairs, PairLists::default());
        self.is_touched.clear();
        self.is_touched.resize(pairs, false);
        self.or_queued.clear();
        self.or_queued.resize(pairs, false);
        self.or_pairs.clear();
        self.touched.clear();
        self.clear_arenas();
    }

    fn clear_arenas(&mut self) {
        self.full_arena.clear();
        self.semi_arena.clear();
        self.key_arena.clear();
    }

    /// Empties every pair that holds connections, and the arenas.
    fn forget_pairs(&mut self) {
        if 2 * self.touched.len() > self.lists.len() {
            // Many pairs: clearing the whole table beats scattered writes.
            self.lists.fill(PairLists::default());
            self.is_touched.fill(false);
        } else {
            for &p in &self.touched {
                let p = p as usize;
                self.lists[p] = PairLists::default();
                self.is_touched[p] = false;
            }
        }
        self.touched.clear();
        self.clear_arenas();
    }

    #[inline]
    fn id(&self, bit: usize) -> usize {
        self.id_of.as_ref()[bit] as usize
    }

    /// The pair index of two distinct dense ids.
    #[inline]
    fn pair_of_ids(&self, x: usize, y: usize) -> usize {
        let (lo, hi) = if x < y { (x, y) } else { (y, x) };
        self.row[lo].wrapping_add(hi as u32) as usize
    }

    #[inline]
    pub fn pair(&self, a: usize, b: usize) -> usize {
        self.pair_of_ids(self.id(a), self.id(b))
    }

    /// The two ends (bit indices) of a pair index.
    #[inline]
    fn ends_of(&self, p: usize) -> (usize, usize) {
        let [a, b] = self.ends[p];
        (a as usize, b as usize)
    }

    #[inline]
    fn touch(&mut self, p: usize) {
        if !self.is_touched[p] {
            self.is_touched[p] = true;
            self.touched.push(p as u32);
        }
    }

    /// The full carriers of a pair index.
    #[inline]
    fn full_list(&self, p: usize) -> &[B] {
        &self.full_arena[self.lists[p].fulls.range()]
    }

    #[inline]
    fn semis_at(&self, p: usize) -> Semis<'_, B> {
        let r = self.lists[p].semis.range();
        Semis { carriers: &self.semi_arena[r.clone()], keys: &self.key_arena[r] }
    }

    /// Appends a full carrier to the list of pair `p` (room is made as needed).
    #[inline]
    fn push_full(&mut self, p: usize, carrier: B) {
        let span = &mut self.lists[p].fulls;
        grow(&mut self.full_arena, span, self.config.max_fulls);
        self.full_arena[(span.off + span.len) as usize] = carrier;
        span.len += 1;
    }

    /// Appends a semi to the list of pair `p` (room is made as needed).
    #[inline]
    fn push_semi(&mut self, p: usize, carrier: B, key: u16) {
        let span = &mut self.lists[p].semis;
        if span.len == span.cap {
            let mut keys = *span;
            grow(&mut self.key_arena, &mut keys, self.config.max_semis);
            grow(&mut self.semi_arena, span, self.config.max_semis);
            debug_assert_eq!((keys.off, keys.cap), (span.off, span.cap));
        }
        let i = (span.off + span.len) as usize;
        self.semi_arena[i] = carrier;
        self.key_arena[i] = key;
        span.len += 1;
    }

    /// Keeps the full carriers of pair `p` for which `keep` holds, in order. Only between
    /// runs of the rules, when every full has been combined.
    #[inline]
    fn retain_fulls(&mut self, p: usize, mut keep: impl FnMut(B) -> bool) {
        let lists = &mut self.lists[p];
        let span = &mut lists.fulls;
        let base = span.off as usize;
        let mut w = 0;
        for r in 0..span.len as usize {
            let c = self.full_arena[base + r];
            if keep(c) {
                self.full_arena[base + w] = c;
                w += 1;
            }
        }
        span.len = w as u32;
        lists.fulls_done = w as u32;
    }

    /// Keeps the semis of pair `p` for which `keep` holds, in order.
    #[inline]
    fn retain_semis(&mut self, p: usize, mut keep: impl FnMut(B, u16) -> bool) {
        let span = &mut self.lists[p].semis;
        let base = span.off as usize;
        let mut w = 0;
        for r in 0..span.len as usize {
            let (c, k) = (self.semi_arena[base + r], self.key_arena[base + r]);
            if keep(c, k) {
                self.semi_arena[base + w] = c;
                self.key_arena[base + w] = k;
                w += 1;
            }
        }
        span.len = w as u32;
    }

    /// Moves every list to the front of fresh arenas when updates have left more than half of
    /// the arenas unused.
    fn compact_if_sparse(&mut self) {
        let (mut live_f, mut live_s) = (0usize, 0usize);
        for &p in &self.touched {
            let l = self.lists[p as usize];
            live_f += l.fulls.cap as usize;
            live_s += l.semis.cap as usize;
        }
        if self.full_arena.len() <= 2 * live_f + 64 && self.semi_arena.len() <= 2 * live_s + 64 {
            return;
        }
        self.compact();
    }

    /// Moves every list to the front of fresh arenas, each block just big enough.
    fn compact(&mut self) {
        let (mut fa, mut sa, mut ka) = (Vec::new(), Vec::new(), Vec::new());
        for &p in &self.touched {
            let l = &mut self.lists[p as usize];
            let off = fa.len();
            fa.extend_from_slice(&self.full_arena[l.fulls.range()]);
            l.fulls = Span { off: off as u32, len: l.fulls.len, cap: l.fulls.len };
            let off = sa.len();
            sa.extend_from_slice(&self.semi_arena[l.semis.range()]);
            ka.extend_from_slice(&self.key_arena[l.semis.range()]);
            l.semis = Span { off: off as u32, len: l.semis.len, cap: l.semis.len };
        }
        self.full_arena = fa;
        self.semi_arena = sa;
        self.key_arena = ka;
    }

    /// Bytes this store holds on the heap (the capacity of its buffers).
    pub fn heap_bytes(&self) -> usize {
        fn cap<T>(v: &Vec<T>) -> usize {
            v.capacity() * std::mem::size_of::<T>()
        }
        cap(&self.row)
            + cap(&self.ends)
            + cap(&self.lists)
            + cap(&self.full_arena)
            + cap(&self.semi_arena)
            + cap(&self.key_arena)
            + cap(&self.full_nbrs)
            + cap(&self.semi_nbrs)
            + cap(&self.adjacent)
            + cap(&self.touched)
            + cap(&self.is_touched)
            + cap(&self.queue)
            + cap(&self.or_pairs)
            + cap(&self.or_queued)
            + cap(&self.or_buf)
            + cap(&self.or_out)
            + cap(&self.or_suffix)
            + cap(&self.pending)
    }

    /// The group name of a stone, or the cell or edge itself.
    pub fn end_of(&self, bit: usize) -> usize {
        if bit < B::EDGE_BASE && self.own.has_bit(bit) {
            self.rep_of.as_ref()[bit] as usize
        } else {
            bit
        }
    }

    /// Whether `bit` is an end of this set (an empty cell that takes part, a group, an edge).
    pub fn is_end(&self, bit: usize) -> bool {
        self.empty.has_bit(bit) || self.reps.has_bit(bit) || self.edge_bits.contains(&bit)
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

    /// Every connection: `(a, b, carrier, key)` with `key == NO_KEY` for a full one.
    pub fn for_each(&self, mut f: impl FnMut(usize, usize, B, u16)) {
        for &p in &self.touched {
            let p = p as usize;
            let (a, b) = self.ends_of(p);
            for &c in self.full_list(p) {
                f(a, b, c, NO_KEY);
            }
            for s in self.semis_at(p).iter() {
                f(a, b, s.carrier, s.key);
            }
        }
    }

    /// Every pair of ends with a full connection, with its list of full carriers.
    pub fn for_each_full_pair(&self, mut f: impl FnMut(usize, usize, &[B])) {
        for &p in &self.touched {
            let p = p as usize;
            let list = self.full_list(p);
            if !list.is_empty() {
                let (a, b) = self.ends_of(p);
                f(a, b, list);
            }
        }
    }

    pub fn counts(&self) -> (usize, usize) {
        let mut out = (0, 0);
        for &p in &self.touched {
            let l = self.lists[p as usize];
            out.0 += l.fulls.len as usize;
            out.1 += l.semis.len as usize;
        }
        out
    }

    /// Names the player's groups from scratch.
    fn name_groups(&mut self) {
        self.reps = B::EMPTY;
        let mut rest = self.own;
        while let Some(first) = rest.lowest_bit() {
            let g = B::from_bit(first).flood(self.own);
            rest -= g;
            self.reps |= B::from_bit(first);
            for b in g.bits() {
                self.rep_of.as_mut()[b] = first as u16;
            }
        }
    }

    /// Full H-search from scratch: the trivial connections, then the rules to a fixed point.
    pub fn build(&mut self, geom: &Geometry<B>, own: B, area: B, config: HSearchConfig) {
        self.start(geom, own, area, config);
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
                let g = self.rep_of.as_ref()[s] as usize;
                self.add_full(x, g, B::EMPTY);
            }
        }
        for g in self.reps.bits() {
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
        self.name_groups();
    }

    /// Becomes `src` without the connections that the opponent's new stones on `removed` (cells
    /// that are empty in `src`) break: those ending at such a cell or using one in the carrier.
    /// What remains is valid (a connection depends only on its ends and its carrier), so this
    /// is the incremental update of Chen 2025 s.5.4.2 for the player who did not move, done in
    /// one pass while copying. The cost is proportional to the connections of `src`.
    pub fn derive_from(&mut self, src: &Store<B>, removed: B) {
        self.invalidate_records();
        if self.shape != src.shape {
            self.id_of = src.id_of;
            self.shape = src.shape;
            self.n = src.n;
            self.row.clone_from(&src.row);
            self.ends.clone_from(&src.ends);
            self.lists.clear();
            self.lists.resize(src.lists.len(), PairLists::default());
            self.is_touched.clear();
            self.is_touched.resize(src.lists.len(), false);
            self.or_queued.clear();
            self.or_queued.resize(src.lists.len(), false);
            self.or_pairs.clear();
            self.touched.clear();
        }
        self.forget_pairs();
        self.full_nbrs.clear();
        self.full_nbrs.resize(src.n, B::EMPTY);
        self.semi_nbrs.clear();
        self.semi_nbrs.resize(src.n, B::EMPTY);
        self.adjacent.clear();
        self.adjacent.resize(src.n, B::EMPTY);
        for &p in &src.touched {
            let p = p as usize;
            let (a, b) = src.ends_of(p);
            if removed.has_bit(a) || removed.has_bit(b) {
                continue;
            }
            let l = src.lists[p];
            let f_off = self.full_arena.len();
            self.full_arena
                .extend(src.full_arena[l.fulls.range()].iter().filter(|c| !c.intersects(removed)));
            let f_len = (self.full_arena.len() - f_off) as u32;
            let s_off = self.semi_arena.len();
            for i in l.semis.range() {
                let c = src.semi_arena[i];
                if !c.intersects(removed) {
                    self.semi_arena.push(c);
                    self.key_arena.push(src.key_arena[i]);
                }
            }
            let s_len = (self.semi_arena.len() - s_off) as u32;
            let (has_full, has_semi) = (f_len > 0, s_len > 0);
            let (ia, ib) = (self.id(a), self.id(b));
            if has_full {
                self.full_nbrs[ia] |= B::from_bit(b);
                self.full_nbrs[ib] |= B::from_bit(a);
                if self.full_arena[f_off..].iter().any(|c| c.is_empty()) {
                    self.adjacent[ia] |= B::from_bit(b);
                    self.adjacent[ib] |= B::from_bit(a);
                }
            }
            if has_semi {
                self.semi_nbrs[ia] |= B::from_bit(b);
                self.semi_nbrs[ib] |= B::from_bit(a);
            }
            if has_full || has_semi {
                self.lists[p] = PairLists {
                    fulls: Span { off: f_off as u32, len: f_len, cap: f_len },
                    semis: Span { off: s_off as u32, len: s_len, cap: s_len },
                    fulls_done: f_len,
                };
                self.is_touched[p] = true;
                self.touched.push(p as u32);
            }
        }
        self.color = src.color;
        self.queue.clear();
        self.own = src.own;
        self.empty = src.empty - removed;
        self.reps = src.reps;
        self.rep_of = src.rep_of;
        self.edge_bits = src.edge_bits;
        self.first_rows = src.first_rows;
        self.to_move = src.to_move;
        self.stopped = src.stopped;
        self.stats = HSearchStats::default();
        self.config = src.config;
    }

    /// Incremental update after a stone of the opponent on `s` (Chen 2025 s.5.4.2, step 1a):
    /// every connection that ends at `s` or uses it is gone, and nothing new appears.
    pub fn opponent_stone(&mut self, s: usize) {
        self.invalidate_records();
        self.empty = self.empty.without_bit(s);
        let sb = B::from_bit(s);
        for i in 0..self.touched.len() {
            let p = self.touched[i] as usize;
            let (a, b) = self.ends_of(p);
            if a == s || b == s {
                self.lists[p].fulls.len = 0;
                self.lists[p].semis.len = 0;
            } else {
                self.retain_fulls(p, |c| !c.intersects(sb));
                self.retain_semis(p, |c, _| !c.intersects(sb));
            }
            if self.lists[p].fulls.len == 0 {
                self.drop_nbr(true, a, b);
            }
            if self.lists[p].semis.len == 0 {
                self.drop_nbr(false, a, b);
            }
        }
    }

    /// Incremental update after a stone of the player on `s` (Chen 2025 s.5.4.2, step 1b):
    /// semis keyed at `s` become full, carriers lose `s`, and the groups that `s` joins become
    /// one end that inherits their connections. The rules then run on what changed.
    pub fn own_stone(&mut self, geom: &Geometry<B>, s: usize) {
        self.own_stones(geom, B::from_bit(s));
    }

    /// [`Store::own_stone`] for several new stones of the player at once (empty cells of the
    /// set): semis keyed at any of them become full, carriers lose them all, every group they
    /// join is renamed once, and the rules run once on what changed. The result is that of
    /// adding the stones one by one, as far as the rules' closure goes (every connection that
    /// would change on the way is put back to the queue); a search that gets a move and the
    /// fill-in after it pays for one pass instead of one per stone.
    pub fn own_stones(&mut self, geom: &Geometry<B>, stones: B) {
        self.invalidate_records();
        let sb = stones;
        self.empty -= sb;
        self.own |= sb;
        // Every group a new stone belongs to, renamed after its lowest stone; the old group
        // names inside it and the new stones themselves are the ends that move.
        let mut renamed = sb;
        let mut rest = sb;
        while let Some(first) = rest.lowest_bit() {
            let group = B::from_bit(first).flood(self.own);
            rest -= group;
            let g = group.lowest_bit().unwrap_or(first);
            renamed |= self.reps & group;
            self.reps = (self.reps - group) | B::from_bit(g);
            for b in group.bits() {
                self.rep_of.as_mut()[b] = g as u16;
            }
        }
        self.pending.clear();
        for i in 0..self.touched.len() {
            let p = self.touched[i] as usize;
            let (a, b) = self.ends_of(p);
            // An end that was a new stone changes kind (empty cell to group) even when it
            // keeps its name, so every connection at a renamed end goes through the rules again.
            let moved = renamed.has_bit(a) || renamed.has_bit(b);
            let (na, nb) = if moved {
                let name = |x: usize| {
                    if renamed.has_bit(x) {
                        self.rep_of.as_ref()[x] as usize
                    } else {
                        x
                    }
                };
                (name(a), name(b))
            } else {
                (a, b)
            };
            let l = self.lists[p];
            let (mut wf, mut ws) = (0, 0);
            for r in l.fulls.range() {
                let c = self.full_arena[r];
                if moved || c.intersects(sb) {
                    if na != nb {
                        let w = Work {
                            a: na as u16,
                            b: nb as u16,
                            carrier: c - sb,
                            key: NO_KEY,
                            at: u32::MAX,
                        };
                        self.pending.push(w);
                    }
                } else {
                    self.full_arena[l.fulls.off as usize + wf] = c;
                    wf += 1;
                }
            }
            for r in l.semis.range() {
                let (c, k) = (self.semi_arena[r], self.key_arena[r]);
                if moved || c.intersects(sb) {
                    if na != nb {
                        let key = if sb.has_bit(k as usize) { NO_KEY } else { k };
                        let carrier = c - sb;
                        let w = Work { a: na as u16, b: nb as u16, carrier, key, at: u32::MAX };
                        self.pending.push(w);
                    }
                } else {
                    self.semi_arena[l.semis.off as usize + ws] = c;
                    self.key_arena[l.semis.off as usize + ws] = k;
                    ws += 1;
                }
            }
            self.lists[p].fulls.len = wf as u32;
            self.lists[p].fulls_done = wf as u32;
            self.lists[p].semis.len = ws as u32;
            if wf == 0 {
                self.drop_nbr(true, a, b);
            }
            if ws == 0 {
                self.drop_nbr(false, a, b);
            }
        }
        for i in 0..self.pending.len() {
            let w = self.pending[i];
            if w.key == NO_KEY {
                self.add_full(w.a as usize, w.b as usize, w.carrier);
            } else {
                self.add_semi(w.a as usize, w.b as usize, w.carrier, w.key as usize);
            }
        }
        // The stones' own adjacencies (already inherited from each stone as an empty end, but
        // a move by fill-in may land on a cell outside the previous ends).
        let own_edges = B::from_bit(self.edge_bits[0]) | B::from_bit(self.edge_bits[1]);
        for s in sb.bits() {
            let g = self.rep_of.as_ref()[s] as usize;
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
        self.compact_if_sparse();
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
        let (ia, ib) = (self.id(a), self.id(b));
        let p = self.pair_of_ids(ia, ib);
        self.add_full_at(p, a, b, ia, ib, carrier)
    }

    /// [`Store::add_full`] with the pair index and the ends' dense ids already known.
    ///
    /// The list is an antichain (no carrier contains another), so a carrier that is a subset of
    /// the new one and a carrier that contains it cannot both be there (unless equal): one pass
    /// finds the first kind or drops the second.
    fn add_full_at(
        &mut self,
        p: usize,
        a: usize,
        b: usize,
        ia: usize,
        ib: usize,
        carrier: B,
    ) -> bool {
        debug_assert!(a != b);
        debug_assert!(!carrier.has_bit(a) && !carrier.has_bit(b));
        let span = self.lists[p].fulls;
        let done = self.lists[p].fulls_done as usize;
        // The combined fulls that stay are those before `done` that are not dropped.
        let mut done_dropped = 0;
        let list = &mut self.full_arena[span.range()];
        let Some(w) =
            drop_supersets(list, carrier, |_, _| {}, |r| done_dropped += (r < done) as usize)
        else {
            return false;
        };
        if self.config.lean_fulls && w == span.len as usize && w > 0 {
            let mut inter = B::AREA;
            for &f in &self.full_arena[span.range()] {
                inter &= f;
            }
            if inter.is_subset(carrier) {
                return false;
            }
        }
        self.lists[p].fulls_done = (done - done_dropped) as u32;
        self.lists[p].fulls.len = w as u32;
        if let Some(cap) = self.config.max_fulls {
            if w >= cap {
                self.stats.capped += 1;
                return false;
            }
        }
        self.push_full(p, carrier);
        if let Some(r) = self.recorder.as_deref_mut() {
            r.added(a, b, carrier, true);
        }
        if self.config.optimization {
            self.lists[p].semis.len = 0;
        } else {
            self.retain_semis(p, |s, _| !carrier.is_subset(s));
        }
        if self.lists[p].semis.len == 0 {
            self.semi_nbrs[ia] = self.semi_nbrs[ia].without_bit(b);
            self.semi_nbrs[ib] = self.semi_nbrs[ib].without_bit(a);
        }
        self.touch(p);
        self.full_nbrs[ia] |= B::from_bit(b);
        self.full_nbrs[ib] |= B::from_bit(a);
        if carrier.is_empty() {
            self.adjacent[ia] |= B::from_bit(b);
            self.adjacent[ib] |= B::from_bit(a);
        }
        let at = self.lists[p].fulls.off + self.lists[p].fulls.len - 1;
        self.queue.push(Work { a: a as u16, b: b as u16, carrier, key: NO_KEY, at });
        self.stats.added += 1;
        if self.config.early_stop && self.is_edge_pair(a, b) {
            self.stopped = true;
        }
        true
    }

    /// Adds a semi connection unless a known full or semi connection's carrier is a subset of
    /// its carrier; drops the semis it makes non-minimal. Returns whether it was added.
    pub fn add_semi(&mut self, a: usize, b: usize, carrier: B, key: usize) -> bool {
        let (ia, ib) = (self.id(a), self.id(b));
        let p = self.pair_of_ids(ia, ib);
        self.add_semi_at(p, a, b, ia, ib, carrier, key)
    }

    /// [`Store::add_semi`] with the pair index and the ends' dense ids already known (one pass
    /// over the semis, as in [`Store::add_full_at`]).
    #[allow(clippy::too_many_arguments)]
    fn add_semi_at(
        &mut self,
        p: usize,
        a: usize,
        b: usize,
        ia: usize,
        ib: usize,
        carrier: B,
        key: usize,
    ) -> bool {
        debug_assert!(a != b);
        debug_assert!(carrier.has_bit(key));
        debug_assert!(!carrier.has_bit(a) && !carrier.has_bit(b));
        let l = self.lists[p];
        if l.fulls.len > 0
            && (self.config.optimization
                || self.full_arena[l.fulls.range()].iter().any(|c| c.is_subset(carrier)))
        {
            return false;
        }
        let keys = &mut self.key_arena[l.semis.range()];
        let semis = &mut self.semi_arena[l.semis.range()];
        let Some(w) = drop_supersets(semis, carrier, |w, r| keys[w] = keys[r], |_| {}) else {
            return false;
        };
        self.lists[p].semis.len = w as u32;
        if let Some(cap) = self.config.max_semis {
            if w >= cap {
                self.stats.capped += 1;
                return false;
            }
        }
        self.push_semi(p, carrier, key as u16);
        if let Some(r) = self.recorder.as_deref_mut() {
            r.added(a, b, carrier, false);
        }
        self.touch(p);
        self.semi_nbrs[ia] |= B::from_bit(b);
        self.semi_nbrs[ib] |= B::from_bit(a);
        if self.batch_or() {
            if !self.or_queued[p] {
                self.or_queued[p] = true;
                self.or_pairs.push(p as u32);
            }
        } else {
            let at = self.lists[p].semis.off + self.lists[p].semis.len - 1;
            self.queue.push(Work { a: a as u16, b: b as u16, carrier, key: key as u16, at });
        }
        self.stats.added += 1;
        if self.config.early_stop && self.to_move && self.is_edge_pair(a, b) {
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

    type Conns = Vec<(usize, usize, u128, u16)>;

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
            plain.build(geom, pos.black(), pos.empty_cells(), config);
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
                        s.own_stone(geom, bit);
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
