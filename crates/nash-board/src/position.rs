//! Positions: stones of both colours, the side to move, and undoable play with incremental
//! winner detection and hashing.

use std::fmt;

use crate::bitboard::BitSet;
use crate::cell::{Cell, Edge};
use crate::color::Color;
use crate::geometry::{BoardSizeError, Geometry, Symmetry};
use crate::moves::Move;
use crate::zobrist;

/// A move that cannot be played in this position.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum PlayError {
    /// The cell is not on the board.
    #[error("cell {cell} is not on the {cols}x{rows} board")]
    OffBoard { cell: Cell, cols: usize, rows: usize },
    /// The cell already holds a stone.
    #[error("cell {0} is already occupied")]
    Occupied(Cell),
    /// Swaps are only allowed as the second move of a game.
    #[error("{0} is only allowed as the second move, after a single black stone")]
    SwapNotAllowed(Move),
    /// `swap-pieces` mirrors the stone in the long diagonal, which needs a square board.
    #[error("swap-pieces needs a square board")]
    SwapPiecesNeedsSquare,
    /// Resigning ends a game but does not change a position.
    #[error("resign does not change the position")]
    Resign,
    /// A move of a game record after this player connected their edges.
    #[error("the game is over: {0} has won")]
    GameOver(Color),
    /// A move of a game record after this player resigned.
    #[error("the game is over: {0} resigned")]
    AfterResign(Color),
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum StepKind {
    Play(Color, Cell),
    Fill,
    Pass(Color),
    SwapPieces(Cell),
    SwapSides,
}

/// What one undoable step changed.
#[derive(Clone, Copy, Debug)]
struct Step {
    kind: StepKind,
    prev_to_move: Color,
    prev_winner: Option<Color>,
    /// The hashes before the step: undo restores them instead of recomputing.
    prev_hashes: [u64; 4],
    stones: u16,
    unions: u16,
}

/// A Hex position on a board whose cells fit the bitboard width `B`.
///
/// Play and undo are cheap: stones are bitboards, the hash is updated incrementally under each of
/// the board's symmetries, and connections to the edges are tracked by a union-find over cells
/// and edges (union by size, no path compression, so that it can be undone). Deciding whether a
/// move won costs a few `find`s, never a flood fill.
#[derive(Clone)]
pub struct Position<B: BitSet> {
    geom: &'static Geometry<B>,
    stones: [B; 2],
    to_move: Color,
    winner: Option<Color>,
    /// The hash of the position seen through each symmetry (only the board's own are kept).
    hashes: [u64; 4],
    parent: B::Table,
    size: B::Table,
    steps: Vec<Step>,
    /// Bit index of each stone placed by an undoable step, colour in bit 15.
    placed: Vec<u16>,
    /// Each union-find link made, by its child root.
    unions: Vec<u16>,
    /// Steps below this index are the setup and cannot be undone.
    base: usize,
}

impl<B: BitSet> Position<B> {
    /// The empty board with `cols` columns and `rows` rows, Black to move.
    pub fn new(cols: usize, rows: usize) -> Result<Position<B>, BoardSizeError> {
        Ok(Position::empty(Geometry::get(cols, rows)?))
    }

    /// The empty square board of side `n`.
    pub fn square(n: usize) -> Result<Position<B>, BoardSizeError> {
        Position::new(n, n)
    }

    /// The empty board of a geometry, Black to move.
    pub fn empty(geom: &'static Geometry<B>) -> Position<B> {
        let mut parent = B::ZERO_TABLE;
        let mut size = B::ZERO_TABLE;
        for (i, p) in parent.as_mut().iter_mut().enumerate() {
            *p = i as u16;
        }
        size.as_mut().fill(1);
        let base = zobrist::size_key(geom.cols(), geom.rows());
        let mut hashes = [base; 4];
        for s in Symmetry::ALL {
            if s.swaps_colors() {
                hashes[s as usize] ^= zobrist::WHITE_TO_MOVE;
            }
        }
        Position {
            geom,
            stones: [B::EMPTY; 2],
            to_move: Color::Black,
            winner: None,
            hashes,
            parent,
            size,
            steps: Vec::with_capacity(geom.cols() * geom.rows() + 4),
            placed: Vec::with_capacity(geom.cols() * geom.rows()),
            unions: Vec::with_capacity(geom.cols() * geom.rows() * 2),
            base: 0,
        }
    }

    /// The board's geometry.
    #[inline]
    pub fn geometry(&self) -> &'static Geometry<B> {
        self.geom
    }

    /// Number of columns.
    #[inline]
    pub fn cols(&self) -> usize {
        self.geom.cols()
    }

    /// Number of rows.
    #[inline]
    pub fn rows(&self) -> usize {
        self.geom.rows()
    }

    /// The side to move.
    #[inline]
    pub fn to_move(&self) -> Color {
        self.to_move
    }

    /// Sets the side to move, as HTP's `play` with an explicit colour or an analysis does.
    pub fn set_to_move(&mut self, color: Color) {
        if color != self.to_move {
            self.toggle_to_move();
        }
    }

    /// The stones of one colour.
    #[inline]
    pub fn stones(&self, color: Color) -> B {
        self.stones[color.index()]
    }

    /// Black's stones.
    #[inline]
    pub fn black(&self) -> B {
        self.stones[0]
    }

    /// White's stones.
    #[inline]
    pub fn white(&self) -> B {
        self.stones[1]
    }

    /// Every stone on the board.
    #[inline]
    pub fn occupied(&self) -> B {
        self.stones[0] | self.stones[1]
    }

    /// The empty cells; every one of them is a legal move.
    #[inline]
    pub fn empty_cells(&self) -> B {
        self.geom.cells() - self.occupied()
    }

    /// The legal cell moves: the empty cells, also after the game has been won (analysis tools
    /// look past the end; a game loop checks [`Position::winner`]).
    #[inline]
    pub fn legal_moves(&self) -> B {
        self.empty_cells()
    }

    /// The colour of the stone on `cell`, if any.
    #[inline]
    pub fn color_at(&self, cell: Cell) -> Option<Color> {
        if !self.geom.is_on_board(cell) {
            None
        } else if self.stones[0].contains(cell) {
            Some(Color::Black)
        } else if self.stones[1].contains(cell) {
            Some(Color::White)
        } else {
            None
        }
    }

    /// The player whose stones connect their two edges, if any.
    #[inline]
    pub fn winner(&self) -> Option<Color> {
        self.winner
    }

    /// The Zobrist hash of stones, side to move and board size.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hashes[0]
    }

    /// The [`hash`](Position::hash) the position would have after the side to move plays on
    /// `cell`, an empty cell of the board (checked in debug builds), without playing it: a
    /// child's transposition-table key.
    #[inline]
    pub fn hash_after(&self, cell: Cell) -> u64 {
        debug_assert!(self.check_cell(cell).is_ok(), "illegal move {cell}");
        self.geom.child_hash(self.hashes[0], self.to_move, B::bit_of(cell))
    }

    /// The smallest hash over the board's symmetries: equal for positions that are images of each
    /// other, and so a transposition-table key that shares results between them.
    #[inline]
    pub fn canonical_hash(&self) -> u64 {
        let n = self.geom.symmetries().len();
        let mut h = self.hashes[0];
        for &x in &self.hashes[1..n] {
            h = h.min(x);
        }
        h
    }

    /// The [`canonical_hash`](Position::canonical_hash) together with a symmetry that maps
    /// this position to the image it is the hash of: a transposition-table key, and how to
    /// carry a stored answer (cells, carriers) between this position and that image.
    #[inline]
    pub fn canonical_key(&self) -> (u64, Symmetry) {
        canonical_of(&self.hashes, self.geom.symmetries().len())
    }

    /// The [`canonical_key`](Position::canonical_key) the position would have after the side
    /// to move plays on `cell`, an empty cell of the board (checked in debug builds), without
    /// playing it: a child's key under every symmetry at the cost of a few xors.
    #[inline]
    pub fn canonical_key_after(&self, cell: Cell) -> (u64, Symmetry) {
        debug_assert!(self.check_cell(cell).is_ok(), "illegal move {cell}");
        let keys = self.geom.stone_keys(B::bit_of(cell), self.to_move);
        let mut hashes = self.hashes;
        for (h, k) in hashes.iter_mut().zip(keys) {
            *h ^= k ^ zobrist::WHITE_TO_MOVE;
        }
        canonical_of(&hashes, self.geom.symmetries().len())
    }

    /// The symmetry that maps this position to its canonical form (smallest hash).
    pub fn canonical_symmetry(&self) -> Symmetry {
        let syms = self.geom.symmetries();
        *syms.iter().min_by_key(|s| self.hashes[**s as usize]).unwrap_or(&Symmetry::Identity)
    }

    /// The position's image under a symmetry of its board, as a fresh position with no history.
    ///
    /// # Panics
    /// For a colour-swapping symmetry on a rectangular board.
    pub fn transformed(&self, sym: Symmetry) -> Position<B> {
        assert!(self.geom.is_square() || !sym.swaps_colors(), "rectangular board has no {sym:?}");
        let mut p = Position::empty(self.geom);
        for color in Color::ALL {
            p.setup(sym.map_color(color), self.geom.map_set(sym, self.stones(color)));
        }
        p.set_to_move(sym.map_color(self.to_move));
        p.base = p.steps.len();
        p
    }

    /// The canonical image of the position and the symmetry that produced it.
    pub fn canonical(&self) -> (Position<B>, Symmetry) {
        let sym = self.canonical_symmetry();
        (self.transformed(sym), sym)
    }

    /// Number of undoable steps played since the setup: how many times [`Position::undo`]
    /// succeeds from here.
    #[inline]
    pub fn num_steps(&self) -> usize {
        // A swap-pieces step stands for the opening move too (it replaced it), and its undo
        // brings the opening back: it counts twice. It can only be the first step.
        let swapped =
            matches!(self.steps.get(self.base).map(|s| s.kind), Some(StepKind::SwapPieces(_)));
        self.steps.len() - self.base + usize::from(swapped)
    }

    /// The moves played since the setup, with their colours (fill-in steps are left out).
    pub fn history(&self) -> Vec<(Color, Move)> {
        let mut out = Vec::with_capacity(self.steps.len() - self.base + 1);
        for s in &self.steps[self.base..] {
            match s.kind {
                StepKind::Play(c, cell) => out.push((c, Move::Cell(cell))),
                StepKind::Pass(c) => out.push((c, Move::Pass)),
                StepKind::SwapPieces(opening) => {
                    out.push((Color::Black, Move::Cell(opening)));
                    out.push((Color::White, Move::SwapPieces));
                }
                StepKind::SwapSides => out.push((Color::White, Move::SwapSides)),
                StepKind::Fill => {}
            }
        }
        out
    }

    fn check_cell(&self, cell: Cell) -> Result<(), PlayError> {
        if !self.geom.is_on_board(cell) {
            Err(PlayError::OffBoard { cell, cols: self.cols(), rows: self.rows() })
        } else if self.occupied().contains(cell) {
            Err(PlayError::Occupied(cell))
        } else {
            Ok(())
        }
    }

    /// Plays a stone of the side to move on `cell`.
    pub fn play(&mut self, cell: Cell) -> Result<(), PlayError> {
        self.check_cell(cell)?;
        self.play_unchecked(cell);
        Ok(())
    }

    /// Plays a stone of `color` on `cell`; the opponent of `color` moves next.
    pub fn play_as(&mut self, color: Color, cell: Cell) -> Result<(), PlayError> {
        self.check_cell(cell)?;
        let prev = self.to_move;
        self.set_to_move(color);
        self.play_unchecked(cell);
        self.record_prev_to_move(prev);
        Ok(())
    }

    /// Makes the last step's undo restore `prev` as the side to move (and the hashes that go
    /// with it), for moves made out of turn.
    fn record_prev_to_move(&mut self, prev: Color) {
        if let Some(s) = self.steps.last_mut() {
            if s.prev_to_move != prev {
                s.prev_to_move = prev;
                for h in &mut s.prev_hashes {
                    *h ^= zobrist::WHITE_TO_MOVE;
                }
            }
        }
    }

    /// Plays the side to move on `cell`, which the caller knows to be an empty cell of the board
    /// (checked in debug builds). The search's hot path.
    #[inline]
    pub fn play_unchecked(&mut self, cell: Cell) {
        debug_assert!(self.check_cell(cell).is_ok(), "illegal move {cell}");
        let color = self.to_move;
        let mut step = self.begin(StepKind::Play(color, cell));
        self.put(color, B::bit_of(cell), &mut step);
        self.steps.push(step);
        self.toggle_to_move();
    }

    /// Places stones of `color` on the cells of `set` without changing the side to move, as
    /// fill-in does; one step for [`Position::undo`]. Cells already occupied are skipped.
    pub fn fill(&mut self, color: Color, set: B) {
        let mut step = self.begin(StepKind::Fill);
        for bit in (set & self.empty_cells()).bits() {
            self.put(color, bit, &mut step);
        }
        self.steps.push(step);
    }

    /// Places setup stones (as SGF's `AB` and `AW`) that [`Position::undo`] will not remove.
    pub fn setup(&mut self, color: Color, set: B) {
        self.fill(color, set);
        self.base = self.steps.len();
    }

    /// Removes the stone on `cell` (as SGF's `AE`), clearing the undo history; a rebuild from
    /// the remaining stones.
    pub fn clear_cell(&mut self, cell: Cell) {
        if self.color_at(cell).is_none() {
            return;
        }
        let stones = self.stones.map(|s| s.without(cell));
        let to_move = self.to_move;
        *self = Position::empty(self.geom);
        self.setup(Color::Black, stones[0]);
        self.setup(Color::White, stones[1]);
        self.set_to_move(to_move);
    }

    /// Passes: the side to move changes.
    pub fn pass(&mut self) {
        let step = self.begin(StepKind::Pass(self.to_move));
        self.steps.push(step);
        self.toggle_to_move();
    }

    /// Plays any move for the side to move.
    pub fn apply(&mut self, mv: Move) -> Result<(), PlayError> {
        match mv {
            Move::Cell(cell) => self.play(cell),
            Move::Pass => {
                self.pass();
                Ok(())
            }
            Move::Resign => Err(PlayError::Resign),
            Move::SwapPieces => self.swap_pieces(),
            Move::SwapSides => self.swap_sides(),
        }
    }

    /// Plays any move for `color` (HTP's `play color move`).
    pub fn apply_as(&mut self, color: Color, mv: Move) -> Result<(), PlayError> {
        match mv {
            Move::Cell(cell) => self.play_as(color, cell),
            _ => {
                let prev = self.to_move;
                self.set_to_move(color);
                let r = self.apply(mv);
                match r {
                    Ok(()) => self.record_prev_to_move(prev),
                    Err(_) => self.set_to_move(prev),
                }
                r
            }
        }
    }

    /// The single black stone a swap would take over, if a swap is allowed now: exactly one
    /// move has been played, and it was Black's stone.
    fn swap_candidate(&self) -> Option<Cell> {
        if self.num_steps() != 1 || !self.stones[1].is_empty() || self.stones[0].len() != 1 {
            return None;
        }
        match self.steps.last()?.kind {
            StepKind::Play(Color::Black, cell) => Some(cell),
            _ => None,
        }
    }

    /// `swap-pieces`: the black stone is replaced by a white stone on its mirror image in the
    /// long diagonal, and Black moves next. The board then looks as if White had opened there.
    pub fn swap_pieces(&mut self) -> Result<(), PlayError> {
        if !self.geom.is_square() {
            return Err(PlayError::SwapPiecesNeedsSquare);
        }
        let cell = self.swap_candidate().ok_or(PlayError::SwapNotAllowed(Move::SwapPieces))?;
        self.undo();
        let mirror = self.geom.map_cell(Symmetry::Transpose, cell);
        let mut step = self.begin(StepKind::SwapPieces(cell));
        self.put(Color::White, B::bit_of(mirror), &mut step);
        self.steps.push(step);
        self.set_to_move(Color::Black);
        Ok(())
    }

    /// `swap-sides`: the players exchange colours and the stone stays where it is. The second
    /// player now owns the black stone, and the first player moves next with White: in terms
    /// of colours the position is unchanged and White is still to move.
    pub fn swap_sides(&mut self) -> Result<(), PlayError> {
        self.swap_candidate().ok_or(PlayError::SwapNotAllowed(Move::SwapSides))?;
        let step = self.begin(StepKind::SwapSides);
        self.steps.push(step);
        self.set_to_move(Color::White);
        Ok(())
    }

    /// Takes back the last step; `false` when only the setup is left.
    pub fn undo(&mut self) -> bool {
        if self.steps.len() <= self.base {
            return false;
        }
        let Some(step) = self.steps.pop() else { return false };
        for _ in 0..step.unions {
            let child = self.unions.pop().expect("union log matches steps") as usize;
            let p = self.parent.as_ref()[child] as usize;
            self.size.as_mut()[p] -= self.size.as_ref()[child];
            self.parent.as_mut()[child] = child as u16;
        }
        for _ in 0..step.stones {
            let entry = self.placed.pop().expect("stone log matches steps");
            let bit = (entry & 0x7fff) as usize;
            let color = if entry & 0x8000 != 0 { Color::White } else { Color::Black };
            self.stones[color.index()].toggle_bit(bit);
        }
        self.hashes = step.prev_hashes;
        self.to_move = step.prev_to_move;
        self.winner = step.prev_winner;
        if let StepKind::SwapPieces(cell) = step.kind {
            // Restore the black opening that the swap took over.
            self.set_to_move(Color::Black);
            self.play_unchecked(cell);
        }
        true
    }

    /// The stones of the group on `cell` (empty if the cell is empty).
    pub fn group(&self, cell: Cell) -> B {
        let Some(color) = self.color_at(cell) else { return B::EMPTY };
        B::single(cell).flood(self.stones(color))
    }

    /// The groups of one colour, each as the set of its stones.
    pub fn groups(&self, color: Color) -> Vec<B> {
        let mut rest = self.stones(color);
        let mut out = Vec::new();
        while let Some(c) = rest.first() {
            let g = self.group(c);
            rest -= g;
            out.push(g);
        }
        out
    }

    /// Whether the group on `cell` (or the edge) is connected by stones to `edge`.
    pub fn connected_to(&self, cell: Cell, edge: Edge) -> bool {
        let a = B::bit_of(cell);
        let b = B::bit_of(Cell::edge(edge));
        self.find(a) == self.find(b)
    }

    fn begin(&self, kind: StepKind) -> Step {
        Step {
            kind,
            prev_to_move: self.to_move,
            prev_winner: self.winner,
            prev_hashes: self.hashes,
            stones: 0,
            unions: 0,
        }
    }

    #[inline]
    fn toggle_to_move(&mut self) {
        self.to_move = !self.to_move;
        for h in &mut self.hashes {
            *h ^= zobrist::WHITE_TO_MOVE;
        }
    }

    #[inline]
    fn hash_stone(&mut self, color: Color, bit: usize) {
        let keys = self.geom.stone_keys(bit, color);
        for (h, k) in self.hashes.iter_mut().zip(keys) {
            *h ^= k;
        }
    }

    #[inline]
    fn find(&self, mut x: usize) -> usize {
        let parent = self.parent.as_ref();
        while parent[x] as usize != x {
            x = parent[x] as usize;
        }
        x
    }

    #[inline]
    fn put(&mut self, color: Color, bit: usize, step: &mut Step) {
        self.stones[color.index()].set_bit(bit);
        self.hash_stone(color, bit);
        self.placed.push(bit as u16 | if color == Color::White { 0x8000 } else { 0 });
        step.stones += 1;
        // Union with each neighbouring stone of the same colour and each own edge touched. The
        // new stone starts as its own root; `root` follows the merged set's root.
        let friends =
            self.geom.own_neighbours_of_bit(color, bit) & (self.stones[color.index()] | B::EDGES);
        let mut root = bit;
        for f in friends.bits() {
            let other = self.find(f);
            if other != root {
                let (child, parent) = if self.size.as_ref()[root] < self.size.as_ref()[other] {
                    (root, other)
                } else {
                    (other, root)
                };
                self.parent.as_mut()[child] = parent as u16;
                self.size.as_mut()[parent] += self.size.as_ref()[child];
                self.unions.push(child as u16);
                step.unions += 1;
                root = parent;
            }
        }
        // Only the stone's group changed, so a new win connects both edges through it.
        if self.winner.is_none() {
            let [e1, e2] = color.edges();
            if self.find(B::EDGE_BASE + e1 as usize) == root
                && self.find(B::EDGE_BASE + e2 as usize) == root
            {
                self.winner = Some(color);
            }
        }
    }
}

impl<B: BitSet> PartialEq for Position<B> {
    /// Positions are equal when they have the same board, stones and side to move; history is
    /// not compared.
    fn eq(&self, other: &Position<B>) -> bool {
        std::ptr::eq(self.geom, other.geom)
            && self.stones == other.stones
            && self.to_move == other.to_move
    }
}

impl<B: BitSet> Eq for Position<B> {}

impl<B: BitSet> fmt::Debug for Position<B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")
    }
}

/// The smallest of the first `n` hashes (one per symmetry, in [`Symmetry::ALL`]'s order) and
/// the symmetry it belongs to; the first wins a tie.
#[inline]
fn canonical_of(hashes: &[u64; 4], n: usize) -> (u64, Symmetry) {
    let mut best = (hashes[0], Symmetry::Identity);
    for (&h, &s) in hashes[1..n].iter().zip(&Symmetry::ALL[1..n]) {
        if h < best.0 {
            best = (h, s);
        }
    }
    best
}
