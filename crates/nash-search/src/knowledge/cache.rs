//! The analysis cache of one worker: df-pn visits a node many times, and H-search is the
//! expensive part of a visit, so each worker remembers its last analyses (a direct-mapped cache
//! keyed by position) with the move order found for them.

use nash_board::{BitSet, Cell};

use super::pool::Key;
use super::Node;

/// Slots of a new cache.
const CACHE_START: usize = 1 << 10;

/// Moves whose order a cache slot remembers.
const ORDER_MAX: usize = 48;

/// The move order remembered with an analysis, once it is known.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Order {
    /// The first moves in search order (bit indices), `len` of them.
    cells: [u16; ORDER_MAX],
    len: u8,
    /// The circuit's evaluation for the player to move, when the order came from the circuit.
    pub(crate) evaluation: Option<f32>,
}

impl Order {
    /// The first moves of `order` (at most [`ORDER_MAX`]), with the circuit's `evaluation`.
    pub(crate) fn of<B: BitSet>(order: &[Cell], evaluation: Option<f32>) -> Order {
        let mut cells = [0; ORDER_MAX];
        let len = order.len().min(ORDER_MAX);
        for (o, c) in cells.iter_mut().zip(order) {
            *o = B::bit_of(*c) as u16;
        }
        Order { cells, len: len as u8, evaluation }
    }

    /// The moves remembered, best first.
    pub(crate) fn cells<B: BitSet>(&self) -> impl Iterator<Item = Cell> + '_ {
        self.cells[..usize::from(self.len)].iter().map(|&b| B::cell_of(usize::from(b)))
    }
}

/// One remembered analysis: the position's key, the node (fill included) and, once ordered,
/// the move order.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Cached<B> {
    key: Option<Key>,
    pub(crate) node: Node<B>,
    pub(crate) order: Option<Order>,
}

impl<B: BitSet> Default for Cached<B> {
    fn default() -> Cached<B> {
        Cached { key: None, node: Node::open(B::EMPTY), order: None }
    }
}

/// The bytes of one cache slot.
pub(crate) fn cached_bytes<B: BitSet>() -> usize {
    std::mem::size_of::<Cached<B>>()
}

/// The analyses of one worker. The cache starts small, so short solves do not pay for clearing
/// a large one, and grows by fourfold steps up to its planned size while it keeps filling
/// (what it held is dropped; it is only a cache).
#[derive(Debug)]
pub(crate) struct AnalysisCache<B> {
    slots: Vec<Cached<B>>,
    /// The size the cache may grow to, and the analyses stored since it last grew.
    max: usize,
    stored: usize,
}

impl<B: BitSet> AnalysisCache<B> {
    /// A cache that grows to `max` slots (a power of two; 0: no cache).
    pub(crate) fn new(max: usize) -> AnalysisCache<B> {
        AnalysisCache { slots: vec![Cached::default(); max.min(CACHE_START)], max, stored: 0 }
    }

    /// Whether the cache has no slot.
    pub(crate) fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// The slot holding the analysis of `key`, if it is there.
    pub(crate) fn find(&self, key: Key) -> Option<usize> {
        let slot = self.index(key);
        (self.slots[slot].key == Some(key)).then_some(slot)
    }

    /// Stores `node`, the analysis of `key`, without an order yet; its slot.
    pub(crate) fn store(&mut self, key: Key, node: Node<B>) -> usize {
        self.stored += 1;
        if self.stored > self.slots.len() && self.slots.len() < self.max {
            let len = (self.slots.len() * 4).min(self.max);
            self.slots.clear();
            self.slots.resize(len, Cached::default());
            self.stored = 0;
        }
        let slot = self.index(key);
        self.slots[slot] = Cached { key: Some(key), node, order: None };
        slot
    }

    /// The analysis in `slot`.
    pub(crate) fn get(&self, slot: usize) -> &Cached<B> {
        &self.slots[slot]
    }

    /// Keeps `order` with the analysis in `slot`.
    pub(crate) fn set_order(&mut self, slot: usize, order: Order) {
        self.slots[slot].order = Some(order);
    }

    /// The position key of `slot`.
    pub(crate) fn key(&self, slot: usize) -> Option<Key> {
        self.slots[slot].key
    }

    fn index(&self, key: Key) -> usize {
        key.get() as usize & (self.slots.len() - 1)
    }
}

#[cfg(test)]
mod tests {
    use nash_board::{Bitboard, TinyBitboard, WideBitboard};

    use super::*;

    /// A slot is as large as it was when "none" was a zero key and a NaN evaluation, so the
    /// memory plan gives the cache (and the table) the same room on every width.
    #[test]
    fn typed_nones_cost_no_room() {
        assert_eq!(cached_bytes::<TinyBitboard>(), 200);
        assert_eq!(cached_bytes::<Bitboard>(), 288);
        assert_eq!(cached_bytes::<WideBitboard>(), 560);
    }
}
