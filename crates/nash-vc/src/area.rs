//! The area of an area-limited H-search (Chen 2025 s.5.4.6, Figure 5.1): the empty cells next to
//! a player's stones, and the empty cells on shortest paths from those to the player's edges.

use nash_board::{BitSet, Color, Geometry};

/// The empty cells an area-limited H-search for `color` uses. `layers` is scratch space.
pub(crate) fn search_area<B: BitSet>(
    geom: &Geometry<B>,
    color: Color,
    own: B,
    empty: B,
    layers: &mut Vec<B>,
) -> B {
    let seeds = own.dilate() & empty;
    let mut area = seeds;
    for edge in color.edges() {
        // Distance layers from the edge: a layer's empty cells are one more empty cell away
        // than the previous layer's; stones cost nothing and join the layer that reaches them.
        let edge_adj = geom.edge_cells(edge);
        layers.clear();
        let mut visited = (edge_adj & own).flood(own) & own;
        layers.push(visited);
        let mut source = visited;
        let mut first = true;
        loop {
            let mut next = (source.dilate() & empty) - visited;
            if first {
                next |= (edge_adj & empty) - visited;
                first = false;
            }
            if next.is_empty() {
                break;
            }
            let stones = (next.flood(own | next) & own) - visited;
            let layer = next | stones;
            visited |= layer;
            layers.push(layer);
            source = layer;
        }
        // Walk down from the seeds: a cell is on a shortest path if it lies one layer nearer
        // the edge and next to a cell that is.
        let mut on_path = B::EMPTY;
        for &layer in layers.iter().rev() {
            let mut x = (seeds & layer) | (on_path.dilate() & layer);
            loop {
                let y = x | ((x & own).dilate() & layer) | ((x & own).flood(own) & layer);
                if y == x {
                    break;
                }
                x = y;
            }
            area |= x & empty;
            on_path = x;
        }
    }
    area
}
