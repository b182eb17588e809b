//! The neighbourhood graph test for dead cells: groups of each colour merged with that colour's
//! edges, and the test whether an empty cell's neighbours form a clique.
//!
//! For a player P, contract each P group (with the P edges it touches) to one node and delete
//! the opponent's stones and edges. An empty cell whose neighbours in that graph form a clique
//! is in no minimal P winset: on any path through it, its predecessor and successor are
//! adjacent, so it can be skipped. The same holds when the cell touches exactly one P node and
//! every other neighbour touches that node: a path's step u-cell-v becomes u-node-v, and the
//! node's stones cost nothing. A cell that passes the test for both players is dead
//! (Chen 2025 s.3.3, Definition 5; the dead-cell theory of Hayward et al. that Chen 2025 cites
//! as [HR06]).
//! Adding stones only removes minimal winsets, so a dead cell stays dead whatever is played.
//!
//! One player's test is enough. In Hex a set T of empty cells wins for Q exactly when it meets
//! every winset of P (fill T with Q and the rest with P: exactly one player connects), so the
//! minimal winsets of Q are the minimal transversals (the blocker) of those of P. A clutter and
//! its blocker cover the same elements: if `e` lies in a minimal P winset A, then the cells
//! outside A together with `e` meet every P winset, and each minimal transversal inside that
//! set contains `e`. Hence a cell in no minimal winset of one player is in none of the other's,
//! and is dead (while nobody has won, both clutters are non-trivial).

use nash_board::{BitSet, Cell, Color, Geometry};

/// The bits of a colour's two edges.
#[inline]
pub(crate) fn edge_bits<B: BitSet>(color: Color) -> B {
    let [a, b] = color.edges();
    B::single(Cell::edge(a)) | B::single(Cell::edge(b))
}

/// Stones of both colours, as the analysis fills them in.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Stones<B> {
    pub black: B,
    pub white: B,
    pub empty: B,
}

impl<B: BitSet> Stones<B> {
    #[inline]
    pub fn of(&self, c: Color) -> B {
        match c {
            Color::Black => self.black,
            Color::White => self.white,
        }
    }

    #[inline]
    pub fn fill(&mut self, c: Color, set: B) {
        let set = set & self.empty;
        match c {
            Color::Black => self.black |= set,
            Color::White => self.white |= set,
        }
        self.empty -= set;
    }
}

/// The group of `seed` among `stones` of `color`, merged with the colour's edges it touches
/// (an edge bit in the result stands for the edge and every group touching it).
pub(crate) fn flood<B: BitSet>(geom: &Geometry<B>, stones: B, color: Color, seed: B) -> B {
    let edges = color.edges();
    let mut g = seed;
    loop {
        let mut next = g | ((g & B::AREA).dilate() & stones);
        for e in edges {
            let eb = B::single(Cell::edge(e));
            let ec = geom.edge_cells(e);
            if next.intersects(eb) {
                next |= ec & stones;
            } else if next.intersects(ec) {
                next |= eb | (ec & stones);
            }
        }
        if next == g {
            return g;
        }
        g = next;
    }
}

/// Whether the colour's stones join its two edges.
pub(crate) fn connects<B: BitSet>(geom: &Geometry<B>, stones: B, color: Color) -> bool {
    let [a, b] = color.edges();
    flood(geom, stones, color, B::single(Cell::edge(a))).contains(Cell::edge(b))
}

/// Group labels of one colour: for every stone and own edge bit, the lowest bit of its node.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Labels<B: BitSet> {
    label: B::Table,
    /// The colour's stones and edge bits.
    pub own: B,
}

impl<B: BitSet> Labels<B> {
    pub fn new() -> Labels<B> {
        Labels { label: B::ZERO_TABLE, own: B::EMPTY }
    }

    /// Labels the groups of `color` in `stones`.
    pub fn compute(&mut self, geom: &Geometry<B>, stones: B, color: Color) {
        self.own = stones | edge_bits::<B>(color);
        let mut rest = self.own;
        let label = self.label.as_mut();
        while let Some(bit) = rest.lowest_bit() {
            let g = flood(geom, stones, color, B::from_bit(bit));
            rest -= g;
            for b in g.bits() {
                label[b] = bit as u16;
            }
        }
    }

    #[inline]
    fn of(&self, bit: usize) -> u16 {
        self.label.as_ref()[bit]
    }

    /// Whether some own stone or edge in `set` has label `l`.
    #[inline]
    fn any_labelled(&self, set: B, l: u16) -> bool {
        (set & self.own).bits().any(|b| self.of(b) == l)
    }
}

/// Whether the neighbours of the empty cell `j` form a clique in `color`'s graph.
///
/// `blocked` holds cells to treat as opponent stones; `extra` is a cell to treat as a stone of
/// `color` (it must be an empty neighbour of `j`), merged with the groups it touches.
pub(crate) fn clique<B: BitSet>(
    geom: &Geometry<B>,
    st: &Stones<B>,
    labels: &Labels<B>,
    color: Color,
    j: usize,
    blocked: B,
    extra: Option<usize>,
) -> bool {
    let nb = geom.neighbours_of_bit(j) - st.of(!color) - edge_bits::<B>(!color) - blocked;
    let mut empties = nb & st.empty;
    let owns = nb & labels.own;
    // With one own node next to `j` that every other neighbour touches, a path through `j`
    // can step through that node instead (its stones are free), so the empty neighbours need
    // not touch each other: a step u-j-v becomes u-node-v.
    match extra {
        None => {
            if let Some(first) = owns.lowest_bit() {
                let l = labels.of(first);
                if owns.without_lowest().bits().any(|b| labels.of(b) != l) {
                    return false;
                }
                return empties.bits().all(|u| labels.any_labelled(geom.neighbours_of_bit(u), l));
            }
        }
        Some(k) => {
            debug_assert!(empties.has_bit(k));
            empties -= B::from_bit(k);
            // The node of k: k itself and every own group next to it.
            let kn = geom.neighbours_of_bit(k) & labels.own;
            let in_k = |b: usize| {
                let l = labels.of(b);
                labels.any_labelled(kn, l)
            };
            if !owns.bits().all(in_k) {
                return false;
            }
            // Every other empty neighbour must touch the node of k; then every neighbour
            // does, and the node of k joins any two of them.
            let kcells = geom.neighbours_of_bit(k);
            return (empties - kcells)
                .bits()
                .all(|u| (geom.neighbours_of_bit(u) & labels.own).bits().any(in_k));
        }
    }
    empties.bits().all(|u| (empties - B::from_bit(u)).is_subset(geom.neighbours_of_bit(u)))
}
