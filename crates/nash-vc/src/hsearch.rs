//! The H-search builder: full builds and incremental updates of both players' connection sets,
//! with buffers that are reused from call to call (Anshelevich 2000 s.5; Chen 2025 s.5.4).

use nash_board::{BitSet, Cell, Color, Geometry, Position, Stop};

use crate::area::search_area;
use crate::config::HSearchConfig;
use crate::query::Connection;
use crate::store::{HSearchStats, Store};

/// Builds and updates the virtual connections of a position for both players.
///
/// A builder is meant to live long: [`VcBuilder::build`] and [`VcBuilder::play`] reuse its
/// buffers, so after the first few calls on a board size they do not allocate. To keep the
/// connections of a parent while exploring a child, keep one builder per search depth and copy
/// with [`Clone::clone_from`], which also reuses buffers.
///
/// A builder always describes a position: [`VcBuilder::new`] starts from the empty board of one
/// cell, built, so every update works on the board it has (there is no state in which an
/// update has no board to work on).
#[derive(Debug)]
pub struct VcBuilder<B: BitSet> {
    pub(crate) config: HSearchConfig,
    /// The board of the position the sets describe.
    pub(crate) geom: &'static Geometry<B>,
    /// Whether a position was given ([`VcBuilder::geometry`]); before that, the builder
    /// describes the empty board of one cell it starts from.
    given: bool,
    pub(crate) stones: [B; 2],
    /// The side to move: the one source of it (a store is told at each build or update).
    pub(crate) to_move: Color,
    pub(crate) stores: [Store<B>; 2],
    layers: Vec<B>,
}

/// The most new stones of one player that [`VcBuilder::build_from`] adds to the parent's
/// connections (in one update); with more, the player's set is built from scratch. A
/// one-thread solve of 7x7 c2 took 7.39, 7.12 and 7.14 billion instructions with limits of
/// 4, 8 and 16 (7.99 with 2 stones added one by one, before a solver derived from builders
/// other than the parent's; docs/vc.md).
const MAX_NEW_STONES: usize = 8;

impl<B: BitSet> Clone for VcBuilder<B> {
    fn clone(&self) -> VcBuilder<B> {
        let mut b = VcBuilder::new(self.config);
        b.clone_from(self);
        b
    }

    /// Copies the connections into this builder's buffers (no allocation once warm).
    fn clone_from(&mut self, src: &VcBuilder<B>) {
        self.config = src.config;
        self.geom = src.geom;
        self.given = src.given;
        self.stones = src.stones;
        self.to_move = src.to_move;
        let [b, w] = &mut self.stores;
        b.clone_from(&src.stores[0]);
        w.clone_from(&src.stores[1]);
        b.stop.clone_from(&src.stores[0].stop);
        w.stop.clone_from(&src.stores[1].stop);
    }
}

impl<B: BitSet> Default for VcBuilder<B> {
    fn default() -> VcBuilder<B> {
        VcBuilder::new(HSearchConfig::default())
    }
}

impl<B: BitSet> VcBuilder<B> {
    /// A builder with this configuration and no position given yet: it describes the empty
    /// board of one cell, Black to move, until the first build.
    pub fn new(config: HSearchConfig) -> VcBuilder<B> {
        let mut vc = VcBuilder {
            config,
            geom: Geometry::smallest(),
            given: false,
            stones: [B::EMPTY; 2],
            to_move: Color::Black,
            stores: [Store::new(Color::Black), Store::new(Color::White)],
            layers: Vec::new(),
        };
        for color in Color::ALL {
            vc.rebuild(color);
        }
        vc
    }

    /// Bytes this builder holds on the heap (the capacity of its buffers); a solver's memory
    /// plan bounds it.
    pub fn heap_bytes(&self) -> usize {
        self.stores.iter().map(|s| s.heap_bytes()).sum::<usize>()
            + self.layers.capacity() * std::mem::size_of::<B>()
    }

    /// The configuration.
    pub fn config(&self) -> &HSearchConfig {
        &self.config
    }

    /// Changes the configuration; it applies from the next [`VcBuilder::build`].
    pub fn set_config(&mut self, config: HSearchConfig) {
        self.config = config;
    }

    /// Makes every later build and update poll `stop` once per step of the rules (a clone of
    /// it is kept). A build that `stop` cuts short keeps the connections found so far: each
    /// is valid, so a win, a loss or a mustplay read from them is sound, only weaker than a
    /// full build's; [`VcBuilder::interrupted`] says it happened. Until then the builder
    /// never stops (what [`Stop::never`] gives).
    pub fn set_stop(&mut self, stop: &Stop) {
        for s in &mut self.stores {
            s.stop.clone_from(stop);
        }
    }

    /// Whether the last build or update of either player's connections was cut short by the
    /// stop of [`VcBuilder::set_stop`].
    pub fn interrupted(&self) -> bool {
        self.stores.iter().any(|s| s.interrupted)
    }

    /// The side to move in the position the connections describe.
    pub fn to_move(&self) -> Color {
        self.to_move
    }

    /// The stones of a colour in the position the connections describe.
    pub fn stones(&self, color: Color) -> B {
        self.stones[color.index()]
    }

    /// The board, once a position has been given (built or derived).
    pub fn geometry(&self) -> Option<&'static Geometry<B>> {
        self.given.then_some(self.geom)
    }

    /// Counters of the last build or update of one player's connections.
    pub fn stats(&self, color: Color) -> HSearchStats {
        self.stores[color.index()].stats
    }

    /// Full H-search of both players' connections in `pos`, from scratch.
    pub fn build(&mut self, pos: &Position<B>) {
        self.geom = pos.geometry();
        self.given = true;
        self.stones = [pos.black(), pos.white()];
        self.to_move = pos.to_move();
        for color in Color::ALL {
            self.rebuild(color);
        }
    }

    /// The connections of `pos` computed from those of `parent`, a position with a subset of
    /// its stones (typically the position one move up the search tree). A player who has no
    /// new stone keeps the parent's connections that the opponent's new stones leave intact
    /// (Chen 2025 s.5.4.2); a player with at most `MAX_NEW_STONES` (8) new stones (a move, and
    /// the cells fill-in gave them) gets the parent's connections updated with all of them at
    /// once, as [`VcBuilder::put`] does with one, and one with more is built from scratch.
    /// Every connection is valid; with capped lists the set can differ from what a rebuild finds, which only changes the knowledge.
    /// Falls back to [`VcBuilder::build`] when `parent` is not a position of the same board with
    /// a subset of the stones, or the area limit is on.
    pub fn build_from(&mut self, parent: &VcBuilder<B>, pos: &Position<B>) {
        for color in Color::ALL {
            self.build_side(Some(parent), pos, color);
        }
    }

    /// The connections of one player in `pos`, derived from `parent` as
    /// [`VcBuilder::build_from`] does when it can, built from scratch otherwise. The other
    /// player's connections are left as they were: until they are built for `pos` too, only
    /// `color`'s connections may be read (a solver reads the mover's first, and when they
    /// already win it needs nothing else).
    pub fn build_side(&mut self, parent: Option<&VcBuilder<B>>, pos: &Position<B>, color: Color) {
        let geom = pos.geometry();
        self.geom = geom;
        self.given = true;
        self.stones = [pos.black(), pos.white()];
        self.to_move = pos.to_move();
        let (i, j) = (color.index(), (!color).index());
        let now = self.stones;
        // What the parent's set for `color` describes is read from that set itself: the
        // builder's stones are those of the last position either set was built for, and a
        // solver that built only one side (the mover's, which already won) leaves the other
        // describing an older position.
        let derivable = parent
            .filter(|p| p.config == self.config)
            .and_then(|p| p.new_stones(pos, color).map(|new| (p, new)))
            .filter(|(_, new)| new.len() <= MAX_NEW_STONES);
        match derivable {
            Some((p, new)) => {
                let theirs = geom.cells() - p.stores[i].own - p.stores[i].empty;
                let store = &mut self.stores[i];
                store.derive_from(&p.stores[i], now[j] - theirs);
                // The player's new stones, all in one update. On the 49 7x7 openings a
                // single new stone this way took about 7% less time than building the
                // player's set again (docs/vc.md).
                if !new.is_empty() && !store.stopped {
                    store.own_stones(geom, new, color == self.to_move);
                }
            }
            None => self.rebuild(color),
        }
    }

    /// The stones of `color` in `pos` that this builder's set for `color` lacks, when that set
    /// can be carried over to `pos` (a position given, the same board, a set closed under the
    /// rules, no area limit, and a position with all its stones and empty cells: `color`'s
    /// stones a subset of those of `pos`, the opponent's too); `None` otherwise.
    fn new_stones(&self, pos: &Position<B>, color: Color) -> Option<B> {
        let geom = pos.geometry();
        let store = &self.stores[color.index()];
        let derivable = self.given
            && std::ptr::eq(self.geom, geom)
            && !self.config.area_limit
            && !store.stopped;
        if !derivable {
            return None;
        }
        let (mine, other) = (pos.stones(color), pos.stones(!color));
        let theirs = geom.cells() - store.own - store.empty;
        (store.own.is_subset(mine) && theirs.is_subset(other)).then(|| mine - store.own)
    }

    /// How many stones [`VcBuilder::build_from`] would add to this builder's connections to
    /// get those of `pos` (both players' new stones), or `None` if it would build a player's
    /// set from scratch. A solver whose builder for the parent position is gone picks the
    /// builder of least cost among those it keeps.
    pub fn derivation_cost(&self, pos: &Position<B>) -> Option<usize> {
        let mut cost = 0;
        for color in Color::ALL {
            let new = self.new_stones(pos, color)?;
            if new.len() > MAX_NEW_STONES {
                return None;
            }
            cost += new.len();
        }
        Some(cost)
    }

    /// Builds the set of `color` from scratch for the position the builder describes.
    fn rebuild(&mut self, color: Color) {
        let geom = self.geom;
        let own = self.stones[color.index()];
        let empty = geom.cells() - self.stones[0] - self.stones[1];
        let area = if self.config.area_limit {
            search_area(geom, color, own, empty, &mut self.layers)
        } else {
            empty
        };
        let to_move = color == self.to_move;
        self.stores[color.index()].build(geom, (own, area), self.config, to_move);
    }

    /// The ladder connections of `color` in `pos`, with at most `max_gap` cells between the
    /// ends (docs/vc.md, "Ladder connections"): the full connections that a build with
    /// [`HSearchConfig::ladders`] adds before the rules run, without the rules' closure.
    pub fn ladder_connections(pos: &Position<B>, color: Color, max_gap: u8) -> Vec<Connection<B>> {
        let geom = pos.geometry();
        let mut vc =
            VcBuilder::new(HSearchConfig { ladders: Some(max_gap), ..HSearchConfig::default() });
        vc.geom = geom;
        vc.given = true;
        vc.stones = [pos.black(), pos.white()];
        let own = pos.stones(color);
        let empty = geom.cells() - pos.black() - pos.white();
        vc.stores[color.index()].build_ladders(geom, own, empty, vc.config);
        vc.all_connections(color)
    }

    /// Incremental update (Chen 2025 s.5.4.2): the side to move plays `cell`, which must be an
    /// empty cell of the board, and the other side is to move next.
    pub fn play(&mut self, cell: Cell) {
        let color = self.to_move;
        // The side to move flips first, so that a set rebuilt by the update stops early by the
        // rule of the position after the move: the mover's only at a full edge-to-edge
        // connection, keeping every semi that narrows the opponent's mustplay.
        self.flip_to_move(!color);
        self.put(color, cell);
    }

    /// Incremental update for a stone of `color` on the empty cell `cell` without changing the
    /// side to move, as fill-in does.
    pub fn put(&mut self, color: Color, cell: Cell) {
        let geom = self.geom;
        let bit = B::bit_of(cell);
        debug_assert!(geom.is_on_board(cell));
        debug_assert!(!(self.stones[0] | self.stones[1]).has_bit(bit), "cell {cell} is occupied");
        self.stones[color.index()] |= B::from_bit(bit);
        for c in Color::ALL {
            let store = &self.stores[c.index()];
            if self.config.area_limit || store.stopped {
                // Not a closed set (or an area that moves with the stones): build again.
                self.rebuild(c);
                continue;
            }
            let store = &mut self.stores[c.index()];
            store.stats = HSearchStats::default();
            if c == color {
                store.own_stone(geom, bit, c == self.to_move);
            } else {
                store.opponent_stone(bit);
            }
        }
    }

    /// Incremental update for stones of `color` on every empty cell of `set` (fill-in), without
    /// changing the side to move.
    pub fn fill(&mut self, color: Color, set: B) {
        let free = set & (self.geom.cells() - self.stones[0] - self.stones[1]);
        for cell in free {
            self.put(color, cell);
        }
    }

    /// Changes the side to move. The connection sets stay; only the early-stop rule depends on
    /// the side to move, so a set that was stopped early is built again.
    pub fn set_to_move(&mut self, color: Color) {
        if color == self.to_move {
            return;
        }
        self.flip_to_move(color);
        // The player no longer to move may have been stopped at its first edge-to-edge semi,
        // leaving out semis that narrow the opponent's mustplay; a player stopped at a full
        // one is built again too (it stops as soon). An unstopped set is closed under the
        // rules whoever moves: the new mover's edge-to-edge semis are all there.
        for c in Color::ALL {
            if self.stores[c.index()].stopped {
                self.rebuild(c);
            }
        }
    }

    /// Sets the side to move, without rebuilding anything.
    fn flip_to_move(&mut self, color: Color) {
        self.to_move = color;
    }
}
