//! What the solver and the command line read from a built connection set: immediate wins,
//! lost positions, the mustplay, H-scores for move ordering, and the connections themselves.

use std::fmt;

use nash_board::{BitSet, Cell, Color, Geometry};

use crate::hsearch::VcBuilder;
use crate::store::SemiEntry;

/// Whether a connection holds with the opponent moving first (full) or needs its owner to move
/// first, at the key (semi).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum ConnectionKind {
    /// A full (second-player) connection: a virtual connection, or safe-join.
    Full,
    /// A semi (first-player) connection, or weak-join: playing `key` makes it full.
    Semi {
        /// The cell that turns it into a full connection; it is in the carrier.
        key: Cell,
    },
}

/// A virtual connection between two ends.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Connection<B> {
    /// The owner.
    pub color: Color,
    /// The ends: empty cells, edges, or groups (named by the group's first stone in board order).
    pub ends: [Cell; 2],
    /// Full or semi, with the key.
    pub kind: ConnectionKind,
    /// The empty cells the owner's strategy uses (a semi's key included).
    pub carrier: B,
}

impl<B: BitSet> fmt::Display for Connection<B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [a, b] = self.ends;
        match self.kind {
            ConnectionKind::Full => write!(f, "full {a}-{b} [")?,
            ConnectionKind::Semi { key } => write!(f, "semi {a}-{b} key {key} [")?,
        }
        for (i, c) in self.carrier.iter().enumerate() {
            if i > 0 {
                write!(f, " ")?;
            }
            write!(f, "{c}")?;
        }
        write!(f, "]")
    }
}

/// A win for the player to move that the connections prove.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct VcWin<B> {
    /// The move to play for a semi connection; `None` when a full connection (or a finished
    /// chain) already wins whatever the opponent does.
    pub key: Option<Cell>,
    /// The cells the win depends on (the key included).
    pub carrier: B,
}

impl<B: BitSet> VcBuilder<B> {
    fn ends(&self, color: Color) -> (usize, usize) {
        self.stores[color.index()].edge_pair()
    }

    /// The player to move wins now: an edge-to-edge full connection (no key), or a semi one (play
    /// its key). The smallest carrier found is returned.
    pub fn win_now(&self) -> Option<VcWin<B>> {
        let c = self.to_move;
        let store = &self.stores[c.index()];
        let (a, b) = self.ends(c);
        if let Some(full) = store.fulls(a, b).iter().min_by_key(|x| x.len()) {
            return Some(VcWin { key: None, carrier: *full });
        }
        store
            .semis(a, b)
            .iter()
            .min_by_key(|s| s.carrier.len())
            .map(|s| VcWin { key: Some(B::cell_of(s.key.bit())), carrier: s.carrier })
    }

    /// The opponent of the player to move has already won virtually: the carrier of an
    /// edge-to-edge full connection of theirs (the smallest found).
    pub fn opponent_won(&self) -> Option<B> {
        let c = !self.to_move;
        let (a, b) = self.ends(c);
        self.stores[c.index()].fulls(a, b).iter().min_by_key(|x| x.len()).copied()
    }

    /// The mustplay of the player to move (Chen 2025 Definition 7): the intersection of the
    /// carriers of the opponent's edge-to-edge connections, semi (keys included) and full; every
    /// empty cell if there are none. A move outside it loses.
    pub fn mustplay(&self) -> B {
        let Some(geom) = self.geometry() else { return B::EMPTY };
        let c = !self.to_move;
        let store = &self.stores[c.index()];
        let (a, b) = self.ends(c);
        let mut m = geom.cells() - self.stones[0] - self.stones[1];
        for s in store.semis(a, b).iter() {
            m &= s.carrier;
        }
        for f in store.fulls(a, b) {
            m &= *f;
        }
        m
    }

    /// The moves that may still save the player to move, as `nash vc` and HTP's
    /// `vc-get-mustplay` show them: none when the opponent has already won virtually (every move
    /// loses; the intersection of the opponent's carriers would then depend on how far the
    /// H-search ran before it stopped at the first full connection), the [`mustplay`] otherwise.
    ///
    /// [`mustplay`]: VcBuilder::mustplay
    pub fn saving_moves(&self) -> B {
        if self.opponent_won().is_some() {
            B::EMPTY
        } else {
            self.mustplay()
        }
    }

    /// The end that `cell` stands for in `color`'s connections: its group's name for a stone of
    /// `color`, the cell or edge itself otherwise.
    pub fn end_of(&self, color: Color, cell: Cell) -> Cell {
        B::cell_of(self.stores[color.index()].end_of(B::bit_of(cell)))
    }

    /// `color`'s connections between the ends that `x` and `y` stand for (see
    /// [`VcBuilder::end_of`]): full ones first.
    pub fn connections(
        &self,
        color: Color,
        x: Cell,
        y: Cell,
    ) -> impl Iterator<Item = Connection<B>> + '_ {
        let store = &self.stores[color.index()];
        let (a, b) = (store.end_of(B::bit_of(x)), store.end_of(B::bit_of(y)));
        let ends = [B::cell_of(a), B::cell_of(b)];
        let fulls = store.fulls(a, b).iter().map(move |c| Connection {
            color,
            ends,
            kind: ConnectionKind::Full,
            carrier: *c,
        });
        let semis = store.semis(a, b).iter().map(move |s: SemiEntry<B>| Connection {
            color,
            ends,
            kind: ConnectionKind::Semi { key: B::cell_of(s.key.bit()) },
            carrier: s.carrier,
        });
        fulls.chain(semis)
    }

    /// Every connection of `color`, in no particular order.
    pub fn all_connections(&self, color: Color) -> Vec<Connection<B>> {
        let mut out = Vec::new();
        self.stores[color.index()].for_each(|a, b, carrier, key| {
            let kind = match key {
                None => ConnectionKind::Full,
                Some(key) => ConnectionKind::Semi { key: B::cell_of(key.bit()) },
            };
            out.push(Connection { color, ends: [B::cell_of(a), B::cell_of(b)], kind, carrier });
        });
        out
    }

    /// The number of full and semi connections of `color`.
    pub fn counts(&self, color: Color) -> (usize, usize) {
        self.stores[color.index()].counts()
    }

    /// The H-score of an empty cell for `color` (Chen 2025 s.5.7): for each of the player's edges
    /// that the cell has a full connection to, the cell's distance from that edge (in rows or
    /// columns, 1 next to it) plus half the number of semi connections from the cell to the other
    /// edge; the larger of the two, plus the centre weight. Higher is better.
    pub fn h_score(&self, color: Color, cell: Cell) -> f32 {
        let Some(geom) = self.geometry() else { return 0.0 };
        let store = &self.stores[color.index()];
        let x = B::bit_of(cell);
        let (e1, e2) = store.edge_pair();
        let (d1, d2) = edge_distances(geom, color, cell);
        let mut best = 0.0f32;
        for (near, far, d) in [(e1, e2, d1), (e2, e1, d2)] {
            if !store.fulls(x, near).is_empty() {
                let s = d as f32 + 0.5 * store.semis(x, far).len() as f32;
                best = best.max(s);
            }
        }
        best + centre_weight(geom, cell)
    }

    /// H-scores of every empty cell for the player to move, in board order.
    pub fn h_scores(&self) -> impl Iterator<Item = (Cell, f32)> + '_ {
        let empty =
            self.geometry().map_or(B::EMPTY, |g| g.cells() - self.stones[0] - self.stones[1]);
        let color = self.to_move;
        empty.iter().map(move |c| (c, self.h_score(color, c)))
    }
}

/// Distances (1 for a cell next to the edge) from a cell to the first and second edge of `color`.
fn edge_distances<B: BitSet>(geom: &Geometry<B>, color: Color, cell: Cell) -> (u32, u32) {
    let (pos, len) = match color {
        Color::Black => (cell.row() as u32, geom.rows() as u32),
        Color::White => (cell.col() as u32, geom.cols() as u32),
    };
    (pos + 1, len - pos)
}

/// The centre weight of Chen 2025 s.5.7: the sum of the distances to the nearer border in rows
/// and columns over 10, plus 1 on the short diagonal between the obtuse corners.
pub fn centre_weight<B: BitSet>(geom: &Geometry<B>, cell: Cell) -> f32 {
    let (r, c) = (cell.row() as usize, cell.col() as usize);
    let (rows, cols) = (geom.rows(), geom.cols());
    let w = (r.min(rows - 1 - r) + c.min(cols - 1 - c)) as f32 / 10.0;
    let diagonal = geom.is_square() && r + c + 1 == cols;
    w + if diagonal { 1.0 } else { 0.0 }
}

impl<B: BitSet> VcBuilder<B> {
    /// Calls `f(a, b, fulls)` for every pair of ends of `color` with a full connection: the ends
    /// as bit indices (empty cells, group names, edges) and the pair's minimal full carriers.
    pub(crate) fn for_each_full_pair(&self, color: Color, f: impl FnMut(usize, usize, &[B])) {
        self.stores[color.index()].for_each_full_pair(f);
    }
}
