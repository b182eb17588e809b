//! Board shapes: which cells exist, who neighbours whom, and the board's symmetries.

use std::any::{Any, TypeId};
use std::fmt;
use std::sync::{Mutex, OnceLock};

use crate::bitboard::BitSet;
use crate::cell::{Cell, Edge};
use crate::color::Color;
use crate::index::OptIndex;
use crate::zobrist;

/// A board size that this bitboard width cannot hold, or that is not a board at all.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
#[error("invalid board size {cols}x{rows}: columns and rows must be 1 to {max}")]
pub struct BoardSizeError {
    /// Requested columns.
    pub cols: usize,
    /// Requested rows.
    pub rows: usize,
    /// The largest side this width supports.
    pub max: usize,
}

/// A symmetry of the Hex board that maps a position to an equivalent one.
///
/// Every board has the 180° rotation. Square boards also have the two reflections in the
/// diagonals; those exchange the roles of the players, so they swap stone colours and the side
/// to move.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Symmetry {
    /// Leaves everything in place.
    Identity = 0,
    /// Rotation by 180°: column `c`, row `r` goes to `cols-1-c`, `rows-1-r`.
    Rotate180 = 1,
    /// Reflection in the long diagonal (`a1`–`n n`): `(c, r)` goes to `(r, c)`, colours swap.
    Transpose = 2,
    /// Reflection in the short diagonal: `(c, r)` goes to `(n-1-r, n-1-c)`, colours swap.
    AntiTranspose = 3,
}

impl Symmetry {
    /// The image of a cell or edge on a `cols` x `rows` board, without building its
    /// geometry ([`Geometry::map_cell`] checks that the board has the symmetry; this does not).
    pub fn map_cell_on(self, cols: u8, rows: u8, cell: Cell) -> Cell {
        map_cell(cols, rows, self, cell)
    }

    /// All four symmetries; the last two exist only on square boards.
    pub const ALL: [Symmetry; 4] =
        [Symmetry::Identity, Symmetry::Rotate180, Symmetry::Transpose, Symmetry::AntiTranspose];

    /// Whether the symmetry exchanges Black and White.
    pub const fn swaps_colors(self) -> bool {
        matches!(self, Symmetry::Transpose | Symmetry::AntiTranspose)
    }

    /// The colour a stone of `color` has after the symmetry.
    pub const fn map_color(self, color: Color) -> Color {
        if self.swaps_colors() {
            color.other()
        } else {
            color
        }
    }

    /// The symmetry that undoes this one (each is its own inverse).
    pub const fn inverse(self) -> Symmetry {
        self
    }

    const fn map_edge(self, e: Edge) -> Edge {
        match self {
            Symmetry::Identity => e,
            Symmetry::Rotate180 => e.opposite(),
            Symmetry::Transpose => match e {
                Edge::North => Edge::West,
                Edge::West => Edge::North,
                Edge::South => Edge::East,
                Edge::East => Edge::South,
            },
            Symmetry::AntiTranspose => match e {
                Edge::North => Edge::East,
                Edge::East => Edge::North,
                Edge::South => Edge::West,
                Edge::West => Edge::South,
            },
        }
    }
}

/// The fixed facts of one board size: its cells, neighbourhoods and symmetries.
///
/// Geometries are built once per size and shared (`&'static`), so positions stay small and
/// cheap to copy.
pub struct Geometry<B> {
    cols: u8,
    rows: u8,
    cells: B,
    edge_cells: [B; 4],
    neighbours: Box<[B]>,
    /// Per colour, the neighbours of each cell without the other colour's edges: the cells and
    /// edges a stone of that colour joins up with.
    own_neighbours: [Box<[B]>; 2],
    /// Per symmetry, the image of each bit index (as a bit index), for bits on this board.
    sym_bits: [Box<[OptIndex]>; 4],
    /// Per `bit * 2 + colour`, the Zobrist key of that stone as seen through each symmetry
    /// (zero for the symmetries the board lacks), so that hashing a stone is four xors.
    stone_keys: Box<[[u64; 4]]>,
}

impl<B: BitSet> fmt::Debug for Geometry<B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Geometry({}x{})", self.cols, self.rows)
    }
}

/// One value of [`Geometry::shared`]: the geometry's address, the bitboard width, the key and
/// the value.
type SharedEntry = (usize, TypeId, Box<dyn Any + Send + Sync>, &'static (dyn Any + Send + Sync));

impl<B: BitSet> Geometry<B> {
    /// A value derived from this board, built by `build` the first time a geometry, bitboard
    /// width and `key` (its type and value) ask for it, and shared by the whole process from
    /// then on: compiled tables (pattern placements, edge templates) that cost more than a
    /// small solve to build. One value per board size and key lives for the whole process, a
    /// bounded leak. Callers on a hot path keep the reference instead of asking again (the
    /// lookup takes a lock).
    pub fn shared<K, T>(
        &'static self,
        key: K,
        build: impl FnOnce(&'static Geometry<B>) -> T,
    ) -> &'static T
    where
        K: PartialEq + Send + Sync + 'static,
        T: Send + Sync + 'static,
    {
        static VALUES: OnceLock<Mutex<Vec<SharedEntry>>> = OnceLock::new();
        let (g, t) = (self as *const Geometry<B> as usize, TypeId::of::<B>());
        // A panic while building leaves the list as it was, so a poisoned lock is still sound.
        let mut values =
            VALUES.get_or_init(Mutex::default).lock().unwrap_or_else(|e| e.into_inner());
        let known = values
            .iter()
            .filter(|(vg, vt, k, _)| (*vg, *vt) == (g, t) && k.downcast_ref::<K>() == Some(&key))
            .find_map(|(_, _, _, v)| v.downcast_ref::<T>());
        if let Some(v) = known {
            return v;
        }
        let v: &'static T = Box::leak(Box::new(build(self)));
        values.push((g, t, Box::new(key), v));
        v
    }

    /// The geometry of a board with `cols` columns and `rows` rows, built on first use.
    pub fn get(cols: usize, rows: usize) -> Result<&'static Geometry<B>, BoardSizeError> {
        if cols == 0 || rows == 0 || cols > B::STRIDE || rows > B::STRIDE {
            return Err(BoardSizeError { cols, rows, max: B::STRIDE });
        }
        let slot = &B::geometries()[(rows - 1) * B::STRIDE + (cols - 1)];
        Ok(slot.get_or_init(|| Geometry::build(cols as u8, rows as u8)))
    }

    /// The geometry of the board of one cell, which every width has: a start for state that
    /// always needs a board before it is given one.
    pub fn smallest() -> &'static Geometry<B> {
        B::geometries()[0].get_or_init(|| Geometry::build(1, 1))
    }

    fn build(cols: u8, rows: u8) -> Geometry<B> {
        let mut cells = B::EMPTY;
        for r in 0..rows {
            for c in 0..cols {
                cells.insert(Cell::at(c, r));
            }
        }
        let mut edge_cells = [B::EMPTY; 4];
        for c in cells {
            if c.row() == 0 {
                edge_cells[Edge::North as usize].insert(c);
            }
            if c.row() == rows - 1 {
                edge_cells[Edge::South as usize].insert(c);
            }
            if c.col() == 0 {
                edge_cells[Edge::West as usize].insert(c);
            }
            if c.col() == cols - 1 {
                edge_cells[Edge::East as usize].insert(c);
            }
        }
        let mut neighbours = vec![B::EMPTY; B::CAPACITY].into_boxed_slice();
        for c in cells {
            let mut n = B::single(c).dilate() & cells;
            n.remove(c);
            for e in Edge::ALL {
                if edge_cells[e as usize].contains(c) {
                    n.insert(Cell::edge(e));
                }
            }
            neighbours[B::bit_of(c)] = n;
        }
        for e in Edge::ALL {
            neighbours[B::bit_of(Cell::edge(e))] = edge_cells[e as usize];
        }
        let own_neighbours = Color::ALL.map(|color| {
            let [e1, e2] = color.other().edges();
            let foreign = B::single(Cell::edge(e1)) | B::single(Cell::edge(e2));
            neighbours.iter().map(|&n| n - foreign).collect::<Box<[B]>>()
        });
        let square = cols == rows;
        let sym_bits = Symmetry::ALL.map(|s| {
            let mut map = vec![OptIndex::NONE; B::CAPACITY].into_boxed_slice();
            if square || !s.swaps_colors() {
                for c in cells | B::EDGES {
                    map[B::bit_of(c)] =
                        OptIndex::some(B::bit_of(map_cell(cols, rows, s, c)) as u16);
                }
            }
            map
        });
        // Cells are hashed by their number in a 19-column numbering, the same for every width.
        let mut hash_index = vec![0u16; B::CAPACITY].into_boxed_slice();
        for c in cells {
            hash_index[B::bit_of(c)] = c.row() as u16 * 19 + c.col() as u16;
        }
        let mut stone_keys = vec![[0u64; 4]; B::CAPACITY * 2].into_boxed_slice();
        let n = if square { 4 } else { 2 };
        for c in cells {
            let bit = B::bit_of(c);
            for color in Color::ALL {
                for (i, sym) in Symmetry::ALL[..n].iter().enumerate() {
                    let Some(image) = sym_bits[*sym as usize][bit].index() else { continue };
                    let key =
                        zobrist::STONE[sym.map_color(color).index()][hash_index[image] as usize];
                    stone_keys[bit * 2 + color.index()][i] = key;
                }
            }
        }
        Geometry { cols, rows, cells, edge_cells, neighbours, own_neighbours, sym_bits, stone_keys }
    }

    /// Number of columns (the width, between White's edges).
    #[inline]
    pub fn cols(&self) -> usize {
        self.cols as usize
    }

    /// Number of rows (the height, between Black's edges).
    #[inline]
    pub fn rows(&self) -> usize {
        self.rows as usize
    }

    /// Whether the board has as many columns as rows.
    #[inline]
    pub fn is_square(&self) -> bool {
        self.cols == self.rows
    }

    /// Every cell of the board (no edges).
    #[inline]
    pub fn cells(&self) -> B {
        self.cells
    }

    /// Whether `cell` is a cell of this board (edges are not).
    #[inline]
    pub fn is_on_board(&self, cell: Cell) -> bool {
        !cell.is_edge() && cell.col() < self.cols && cell.row() < self.rows
    }

    /// The cells touching an edge.
    #[inline]
    pub fn edge_cells(&self, edge: Edge) -> B {
        self.edge_cells[edge as usize]
    }

    /// The neighbours of a cell or edge: adjacent cells, and the edges a border cell touches.
    #[inline]
    pub fn neighbours(&self, cell: Cell) -> B {
        self.neighbours[B::bit_of(cell)]
    }

    /// Neighbours by bit index (see [`BitSet::bit_of`]).
    #[inline]
    pub fn neighbours_of_bit(&self, bit: usize) -> B {
        self.neighbours[bit]
    }

    /// Whether `stones` connect `color`'s two edges: one flood fill ([`BitSet::flood`]), for
    /// full boards and reference checks (a [`Position`](crate::Position) tracks this
    /// incrementally).
    #[inline]
    pub fn connects(&self, stones: B, color: Color) -> bool {
        let [a, b] = color.edges();
        let within = stones & self.cells;
        (self.edge_cells(a) & within).flood(within).intersects(self.edge_cells(b))
    }

    /// The winner of a completely filled board given Black's stones: Black if they connect
    /// north and south, White otherwise (a full Hex board always has exactly one winner: the
    /// no-draw theorem, Gale 1979).
    #[inline]
    pub fn full_board_winner(&self, black: B) -> Color {
        if self.connects(black, Color::Black) {
            Color::Black
        } else {
            Color::White
        }
    }

    /// The neighbours of bit `bit` that a stone of `color` there connects with: cells and the
    /// edges of `color` (the opponent's edges left out).
    #[inline]
    pub fn own_neighbours_of_bit(&self, color: Color, bit: usize) -> B {
        self.own_neighbours[color.index()][bit]
    }

    /// The symmetries this board has: two on rectangles, four on squares.
    pub fn symmetries(&self) -> &'static [Symmetry] {
        if self.is_square() {
            &Symmetry::ALL
        } else {
            &Symmetry::ALL[..2]
        }
    }

    /// The image of a cell or edge under a symmetry of this board.
    ///
    /// # Panics
    /// For a colour-swapping symmetry on a rectangular board, which has none.
    pub fn map_cell(&self, sym: Symmetry, cell: Cell) -> Cell {
        assert!(self.is_square() || !sym.swaps_colors(), "a rectangular board has no {sym:?}");
        map_cell(self.cols, self.rows, sym, cell)
    }

    /// The image of bit index `bit` (a cell or edge of this board) under a symmetry of this
    /// board, as a bit index: [`Geometry::map_cell`] for searches that keep moves as bits.
    ///
    /// # Panics
    /// For a bit that is no cell or edge of this board, or a colour-swapping symmetry on a
    /// rectangular board.
    #[inline]
    pub fn map_bit(&self, sym: Symmetry, bit: usize) -> usize {
        let image = self.sym_bits[sym as usize][bit].index();
        image.unwrap_or_else(|| panic!("bit {bit} has no image under {sym:?} on this board"))
    }

    /// The image of a set under a symmetry of this board.
    ///
    /// Members that are not cells of this board are dropped. For a colour-swapping symmetry on
    /// a rectangular board, which has none, the result is empty.
    pub fn map_set(&self, sym: Symmetry, set: B) -> B {
        let map = &self.sym_bits[sym as usize];
        let mut out = B::EMPTY;
        for bit in (set & (self.cells | B::EDGES)).bits() {
            if let Some(image) = map.get(bit).and_then(|i| i.index()) {
                out.set_bit(image);
            }
        }
        out
    }

    /// The Zobrist key of a stone of `color` on bit `bit`, as [`Position::hash`] uses it.
    ///
    /// [`Position::hash`]: crate::Position::hash
    #[inline]
    pub fn stone_key(&self, color: Color, bit: usize) -> u64 {
        self.stone_keys(bit, color)[0]
    }

    /// The XOR of the keys of stones of `color` on every cell of `set`: what placing (or
    /// removing) those stones changes in [`Position::hash`], side to move apart. A searcher
    /// that keeps its own running hash folds fill-in into it with this.
    ///
    /// [`Position::hash`]: crate::Position::hash
    #[inline]
    pub fn stones_hash(&self, color: Color, set: B) -> u64 {
        (set & self.cells).bits().fold(0, |h, bit| h ^ self.stone_key(color, bit))
    }

    /// The hash after `mover`, to move in a position whose hash is `hash`, plays on bit `bit`
    /// (an empty cell of this board): the stone's key and the side-to-move key, without
    /// playing the move. [`Position::hash_after`] is the same for a position's own hash.
    ///
    /// [`Position::hash_after`]: crate::Position::hash_after
    #[inline]
    pub fn child_hash(&self, hash: u64, mover: Color, bit: usize) -> u64 {
        hash ^ self.stone_key(mover, bit) ^ zobrist::WHITE_TO_MOVE
    }

    /// The keys of a stone of `color` on `bit` under each symmetry.
    #[inline]
    pub(crate) fn stone_keys(&self, bit: usize, color: Color) -> &[u64; 4] {
        &self.stone_keys[bit * 2 + color.index()]
    }
}

pub(crate) fn map_cell(cols: u8, rows: u8, sym: Symmetry, cell: Cell) -> Cell {
    if let Some(e) = cell.as_edge() {
        return Cell::edge(sym.map_edge(e));
    }
    let (c, r) = (cell.col(), cell.row());
    match sym {
        Symmetry::Identity => cell,
        Symmetry::Rotate180 => Cell::at(cols - 1 - c, rows - 1 - r),
        Symmetry::Transpose => Cell::at(r, c),
        Symmetry::AntiTranspose => Cell::at(rows - 1 - r, cols - 1 - c),
    }
}
