//! Connection facts that need no search: the stones joined to an edge, and the empty cells that
//! win at once for a player (a 2-ply threat check used as the cheapest knowledge).

use nash_board::{BitSet, Color, Edge, Position};

/// The stones of `color` joined to `edge` by a chain of stones.
#[inline]
pub(crate) fn reach<B: BitSet>(pos: &Position<B>, color: Color, edge: Edge) -> B {
    let own = pos.stones(color);
    (pos.geometry().edge_cells(edge) & own).flood(own)
}

/// The empty cells where `color` would connect its two edges at once.
#[inline]
pub(crate) fn winning_cells<B: BitSet>(pos: &Position<B>, color: Color) -> B {
    let geom = pos.geometry();
    let [e1, e2] = color.edges();
    let near1 = reach(pos, color, e1).dilate() | geom.edge_cells(e1);
    let near2 = reach(pos, color, e2).dilate() | geom.edge_cells(e2);
    near1 & near2 & pos.empty_cells()
}
