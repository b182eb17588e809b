//! The pool of H-search builders of one worker: each slot describes a recently analysed
//! position, so that a child's connections for the player who did not move are taken from its
//! parent's (Chen 2025 s.5.4.2) when the parent's builder is still in the pool, and otherwise
//! from the kept builder whose position is closest. Slots are reused least recently used first.

use std::num::NonZeroU64;

use nash_board::{BitSet, Color, Position, Stop};
use nash_vc::{HSearchConfig, VcBuilder};

/// A position's key in the pool (a position hash, never zero).
pub(crate) type Key = NonZeroU64;

/// One slot of the pool: a builder, the position it describes, and when it was last used.
#[derive(Debug)]
struct PoolSlot<B: BitSet> {
    builder: VcBuilder<B>,
    /// The position the builder describes; `None` while it describes none (between the two
    /// sides of a build, or after a decomposition filled the position it was built for).
    key: Option<Key>,
    /// The pool's clock when the slot was last built or read.
    used: u64,
}

/// A slot being built: its index, and the slot of the builder it derives from, if any.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Started {
    pub(crate) slot: usize,
    parent: Option<usize>,
}

/// The builders of one worker and the path of positions analysed, by depth.
#[derive(Debug)]
pub(crate) struct BuilderPool<B: BitSet> {
    slots: Vec<PoolSlot<B>>,
    clock: u64,
    /// The key of the position analysed last at each depth: the parent of the next analysis
    /// one level deeper.
    path: Vec<Option<Key>>,
}

impl<B: BitSet> BuilderPool<B> {
    /// A pool of `len` builders of `hsearch`, for paths of up to `depths` positions.
    pub(crate) fn new(len: usize, hsearch: HSearchConfig, depths: usize) -> BuilderPool<B> {
        let slots = (0..len)
            .map(|_| PoolSlot { builder: VcBuilder::new(hsearch), key: None, used: 0 })
            .collect();
        BuilderPool { slots, clock: 0, path: vec![None; depths] }
    }

    /// Makes every builder of the pool poll `stop` inside H-search
    /// ([`VcBuilder::set_stop`]).
    pub(crate) fn set_stop(&mut self, stop: &Stop) {
        for s in &mut self.slots {
            s.builder.set_stop(stop);
        }
    }

    /// Whether the pool has no builder (no H-search to run).
    pub(crate) fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// The builder of `slot`.
    pub(crate) fn builder(&self, slot: usize) -> &VcBuilder<B> {
        &self.slots[slot].builder
    }

    /// The builder of `slot`, if there is one (`None` for an index past the pool).
    pub(crate) fn get(&self, slot: usize) -> Option<&VcBuilder<B>> {
        self.slots.get(slot).map(|s| &s.builder)
    }

    /// Records that the position of `key` is analysed `depth` moves below the root.
    pub(crate) fn enter(&mut self, depth: usize, key: Key) {
        if let Some(k) = self.path.get_mut(depth) {
            *k = Some(key);
        }
    }

    /// Marks `slot` as describing no position.
    pub(crate) fn forget(&mut self, slot: usize) {
        self.slots[slot].key = None;
    }

    /// The slot of the builder that describes the position of `key`, marked as just used.
    pub(crate) fn take(&mut self, key: Key) -> Option<usize> {
        let i = self.pooled(Some(key))?;
        self.clock += 1;
        self.slots[i].used = self.clock;
        Some(i)
    }

    /// Both players' connections of `pos`, `depth` moves below the root, in a slot of the pool
    /// ([`BuilderPool::start`] then [`BuilderPool::finish`]); the slot.
    pub(crate) fn build(&mut self, pos: &Position<B>, depth: usize) -> usize {
        let started = self.start(pos, depth);
        self.finish(pos, depth, started);
        started.slot
    }

    /// Builds the connections of the player to move in `pos`, `depth` moves below the root, in
    /// the least recently used slot, from the parent's builder if it is still in the pool (the
    /// position last analysed one level up). The other player's connections follow with
    /// [`BuilderPool::finish`]; until then the slot describes no position, so no child derives
    /// from it.
    pub(crate) fn start(&mut self, pos: &Position<B>, depth: usize) -> Started {
        self.clock += 1;
        let parent_key = match depth {
            0 => None,
            d => self.path.get(d - 1).copied().flatten(),
        };
        let parent = self.pooled(parent_key);
        // Without the parent's builder, the kept builder whose position is closest below this
        // one (an ancestor, or a position df-pn left for another line): updating it costs
        // less than building both sets from scratch.
        let parent = parent.or_else(|| {
            let costs = self.slots.iter().enumerate();
            costs
                .filter_map(|(i, s)| s.builder.derivation_cost(pos).map(|c| (c, i)))
                .min()
                .map(|(_, i)| i)
        });
        let slot = (0..self.slots.len())
            .filter(|&i| Some(i) != parent)
            .min_by_key(|&i| self.slots[i].used)
            .unwrap_or(0);
        let started = Started { slot, parent };
        self.build_side(pos, started, pos.to_move());
        self.slots[slot].key = None;
        self.slots[slot].used = self.clock;
        started
    }

    /// Builds the connections of the player who just moved in the slot [`BuilderPool::start`]
    /// returned; the slot then describes `pos`, `depth` moves below the root.
    pub(crate) fn finish(&mut self, pos: &Position<B>, depth: usize, started: Started) {
        self.build_side(pos, started, !pos.to_move());
        self.slots[started.slot].key = self.path.get(depth).copied().flatten();
    }

    /// The slot of the builder that describes the position of `key`, if any.
    fn pooled(&self, key: Option<Key>) -> Option<usize> {
        let key = key?;
        self.slots.iter().position(|s| s.key == Some(key))
    }

    /// Builds `color`'s connections of `pos` in the started slot, from the builder it derives
    /// from when there is one.
    fn build_side(&mut self, pos: &Position<B>, Started { slot, parent }: Started, color: Color) {
        match parent {
            Some(p) => {
                let (a, b) = if p < slot {
                    let (x, y) = self.slots.split_at_mut(slot);
                    (&x[p], &mut y[0])
                } else {
                    let (x, y) = self.slots.split_at_mut(p);
                    (&y[0], &mut x[slot])
                };
                b.builder.build_side(Some(&a.builder), pos, color);
                self.slots[p].used = self.clock;
            }
            None => self.slots[slot].builder.build_side(None, pos, color),
        }
    }
}
