//! The storage of one player's connections: per pair of ends, its full carriers and its semis
//! (carriers and keys apart) in blocks of three shared arenas, and the pairs that hold any.
//!
//! A list that outgrows its block moves to the end of its arena; the arenas are emptied by
//! every build and copy, and compacted if incremental updates leave too much unused. Which
//! connections go in is the parent module's business; this one only keeps the lists.

use nash_board::BitSet;

use super::pairs::{PairIdx, PerPair};
use super::{KeyCell, Semis};

/// Where one pair's list lives in its arena: `len` entries from `off`, room for `cap`.
#[derive(Clone, Copy, Default, Debug)]
pub(super) struct Span {
    pub off: u32,
    pub len: u32,
    pub cap: u32,
}

impl Span {
    #[inline]
    pub fn range(self) -> std::ops::Range<usize> {
        self.off as usize..(self.off + self.len) as usize
    }
}

/// The lists of one pair of ends.
#[derive(Clone, Copy, Default, Debug)]
pub(super) struct PairLists {
    pub fulls: Span,
    pub semis: Span,
    /// How many of the full carriers, from the front of the list, the rules have combined
    /// already. The queue is first in, first out and a list only ever appends and closes
    /// gaps in order, so the combined ones are always the first ones; the AND rule pairs a new
    /// full only with those, and every two fulls are combined once, when the later of the two
    /// comes out of the queue (semi-naive evaluation).
    pub fulls_done: u32,
}

/// One pass over a pair's list of carriers (an antichain) before `carrier` joins it: `None` if
/// a carrier in the list is a subset of `carrier` (the new one is not minimal); else the list's
/// new length, the carriers that contain `carrier` dropped and the rest moved to the front in
/// order. `moved(w, r)` is told of each move from `r` to `w`, so that a parallel arena (the
/// semis' keys) follows, and `dropped(r)` of each carrier dropped from `r`.
#[inline]
pub(super) fn drop_supersets<B: BitSet>(
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

/// Every pair's lists: a small header per pair index pointing into three arenas (keys apart
/// from the semi carriers, so a semi takes 16 + 2 bytes instead of a padded 32).
#[derive(Debug)]
pub(super) struct Arenas<B> {
    pub lists: PerPair<PairLists>,
    pub fulls: Vec<B>,
    pub semis: Vec<B>,
    pub keys: Vec<KeyCell>,
    /// Pair indices that may hold connections.
    pub touched: Vec<PairIdx>,
    pub is_touched: PerPair<bool>,
}

impl<B: BitSet> Arenas<B> {
    pub fn new() -> Arenas<B> {
        Arenas {
            lists: PerPair::new(),
            fulls: Vec::new(),
            semis: Vec::new(),
            keys: Vec::new(),
            touched: Vec::new(),
            is_touched: PerPair::new(),
        }
    }

    /// Sizes the headers for `pairs` pair indices, every list empty.
    pub fn resize(&mut self, pairs: usize) {
        self.lists.reset(pairs, PairLists::default());
        self.is_touched.reset(pairs, false);
        self.touched.clear();
        self.clear_arenas();
    }

    pub fn clear_arenas(&mut self) {
        self.fulls.clear();
        self.semis.clear();
        self.keys.clear();
    }

    /// Empties every pair that holds connections, and the arenas.
    pub fn forget_pairs(&mut self) {
        if 2 * self.touched.len() > self.lists.len() {
            // Many pairs: clearing the whole table beats scattered writes.
            self.lists.fill(PairLists::default());
            self.is_touched.fill(false);
        } else {
            for &p in &self.touched {
                self.lists[p] = PairLists::default();
                self.is_touched[p] = false;
            }
        }
        self.touched.clear();
        self.clear_arenas();
    }

    #[inline]
    pub fn touch(&mut self, p: PairIdx) {
        if !self.is_touched[p] {
            self.is_touched[p] = true;
            self.touched.push(p);
        }
    }

    /// The full carriers of a pair index.
    #[inline]
    pub fn full_list(&self, p: PairIdx) -> &[B] {
        &self.fulls[self.lists[p].fulls.range()]
    }

    #[inline]
    pub fn semis_at(&self, p: PairIdx) -> Semis<'_, B> {
        let r = self.lists[p].semis.range();
        Semis { carriers: &self.semis[r.clone()], keys: &self.keys[r] }
    }

    /// Appends a full carrier to the list of pair `p` (room is made as needed, at most
    /// `limit` entries a block).
    #[inline]
    pub fn push_full(&mut self, p: PairIdx, carrier: B, limit: Option<usize>) {
        let span = &mut self.lists[p].fulls;
        grow(&mut self.fulls, span, limit);
        self.fulls[(span.off + span.len) as usize] = carrier;
        span.len += 1;
    }

    /// Appends a semi to the list of pair `p` (room is made as needed, at most `limit` entries
    /// a block).
    #[inline]
    pub fn push_semi(&mut self, p: PairIdx, carrier: B, key: KeyCell, limit: Option<usize>) {
        let span = &mut self.lists[p].semis;
        if span.len == span.cap {
            let mut keys = *span;
            grow(&mut self.keys, &mut keys, limit);
            grow(&mut self.semis, span, limit);
            debug_assert_eq!((keys.off, keys.cap), (span.off, span.cap));
        }
        let i = (span.off + span.len) as usize;
        self.semis[i] = carrier;
        self.keys[i] = key;
        span.len += 1;
    }

    /// Keeps the full carriers of pair `p` for which `keep` holds, in order. Only between
    /// runs of the rules, when every full has been combined.
    #[inline]
    pub fn retain_fulls(&mut self, p: PairIdx, mut keep: impl FnMut(B) -> bool) {
        let lists = &mut self.lists[p];
        let span = &mut lists.fulls;
        let base = span.off as usize;
        let mut w = 0;
        for r in 0..span.len as usize {
            let c = self.fulls[base + r];
            if keep(c) {
                self.fulls[base + w] = c;
                w += 1;
            }
        }
        span.len = w as u32;
        lists.fulls_done = w as u32;
    }

    /// Keeps the semis of pair `p` for which `keep` holds, in order.
    #[inline]
    pub fn retain_semis(&mut self, p: PairIdx, mut keep: impl FnMut(B, KeyCell) -> bool) {
        let span = &mut self.lists[p].semis;
        let base = span.off as usize;
        let mut w = 0;
        for r in 0..span.len as usize {
            let (c, k) = (self.semis[base + r], self.keys[base + r]);
            if keep(c, k) {
                self.semis[base + w] = c;
                self.keys[base + w] = k;
                w += 1;
            }
        }
        span.len = w as u32;
    }

    /// Moves every list to the front of fresh arenas when updates have left more than half of
    /// the arenas unused.
    pub fn compact_if_sparse(&mut self) {
        let (mut live_f, mut live_s) = (0usize, 0usize);
        for &p in &self.touched {
            let l = self.lists[p];
            live_f += l.fulls.cap as usize;
            live_s += l.semis.cap as usize;
        }
        if self.fulls.len() <= 2 * live_f + 64 && self.semis.len() <= 2 * live_s + 64 {
            return;
        }
        self.compact();
    }

    /// Moves every list to the front of fresh arenas, each block just big enough. This is the
    /// one place an update allocates once the buffers are warm (three new arenas, at most once
    /// per update, and only after updates left more than half of the arenas unused); a build
    /// or a copy empties the arenas instead, so a search that derives each child never gets
    /// here.
    pub fn compact(&mut self) {
        let (mut fa, mut sa, mut ka) = (Vec::new(), Vec::new(), Vec::new());
        for &p in &self.touched {
            let l = &mut self.lists[p];
            let off = fa.len();
            fa.extend_from_slice(&self.fulls[l.fulls.range()]);
            l.fulls = Span { off: off as u32, len: l.fulls.len, cap: l.fulls.len };
            let off = sa.len();
            sa.extend_from_slice(&self.semis[l.semis.range()]);
            ka.extend_from_slice(&self.keys[l.semis.range()]);
            l.semis = Span { off: off as u32, len: l.semis.len, cap: l.semis.len };
        }
        self.fulls = fa;
        self.semis = sa;
        self.keys = ka;
    }

    /// How many full and semi connections the lists hold.
    pub fn counts(&self) -> (usize, usize) {
        let mut out = (0, 0);
        for &p in &self.touched {
            let l = self.lists[p];
            out.0 += l.fulls.len as usize;
            out.1 += l.semis.len as usize;
        }
        out
    }

    /// Bytes the arenas and headers hold on the heap (the capacity of their buffers).
    pub fn heap_bytes(&self) -> usize {
        use super::cap;
        self.lists.heap_bytes()
            + cap(&self.fulls)
            + cap(&self.semis)
            + cap(&self.keys)
            + cap(&self.touched)
            + self.is_touched.heap_bytes()
    }
}
