//! An exact game solver for small boards, the judge of every claim the H-search makes.
//!
//! The game: `owner` tries to join two ends using its stones and the cells of `avail`; the
//! opponent blocks by taking cells of `avail`. Every other empty cell counts as the opponent's.
//! The owner's edges count as the owner's stones (a chain may run along one), as they do in
//! H-search with the border as a midpoint. With the owner's two edges as ends and every empty
//! cell available, this is Hex itself.

use std::collections::HashMap;

use nash_board::{BitSet, Bitboard, Cell, Color, Geometry};

/// The solver, with its memo of decided states.
pub struct Oracle {
    a: Cell,
    b: Cell,
    edges: [Bitboard; 2],
    edge_cells: [Cell; 2],
    memo: HashMap<(u128, u128, bool), bool>,
}

impl Oracle {
    pub fn new(geom: &'static Geometry<Bitboard>, owner: Color, a: Cell, b: Cell) -> Oracle {
        let [e1, e2] = owner.edges();
        Oracle {
            a,
            b,
            edges: [geom.edge_cells(e1), geom.edge_cells(e2)],
            edge_cells: [Cell::edge(e1), Cell::edge(e2)],
            memo: HashMap::new(),
        }
    }

    /// The owner's stones and edges reachable from end `a` through the owner's stones and edges:
    /// the stones, and per edge whether it is reached.
    fn reach(&self, own: Bitboard) -> (Bitboard, [bool; 2]) {
        let mut r = if self.a.is_edge() { Bitboard::EMPTY } else { Bitboard::single(self.a) & own };
        let mut reached = [self.a == self.edge_cells[0], self.a == self.edge_cells[1]];
        loop {
            let mut n = (r | r.dilate()) & own;
            for (seen, edge) in reached.iter_mut().zip(self.edges) {
                *seen |= n.intersects(edge);
                if *seen {
                    n |= edge & own;
                }
            }
            if n == r {
                return (r, reached);
            }
            r = n;
        }
    }

    /// Whether the owner's stones join the ends.
    pub fn joined(&self, own: Bitboard) -> bool {
        let (r, reached) = self.reach(own);
        match self.b.as_edge() {
            Some(_) => (0..2).any(|i| reached[i] && self.b == self.edge_cells[i]),
            None => r.contains(self.b),
        }
    }

    /// Whether the owner joins the ends, with `own` its stones (ends that are cells included)
    /// and `avail` the cells still open; `owner_next` says who moves.
    pub fn owner_wins(&mut self, own: Bitboard, avail: Bitboard, owner_next: bool) -> bool {
        if self.joined(own) {
            return true;
        }
        if avail.is_empty() || !self.joined(own | avail) {
            return false;
        }
        let key = (own.0, avail.0, owner_next);
        if let Some(&v) = self.memo.get(&key) {
            return v;
        }
        let v = if owner_next {
            avail.iter().any(|c| self.owner_wins(own.with(c), avail.without(c), false))
        } else {
            avail.iter().all(|c| self.owner_wins(own, avail.without(c), true))
        };
        self.memo.insert(key, v);
        v
    }
}
