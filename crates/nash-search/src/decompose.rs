//! Decompositions by a virtual connection (Hayward et al. 2003 "Solving 7x7 Hex: virtual
//! connections and game-state reduction"; Chen 2025 s.4.3): two groups of one player, both
//! touching two of the opponent's groups, joined by a full connection whose carrier lies in the
//! region the two groups close off from the player's other edges. That region serves only to
//! join the two groups, which the connection does whatever the opponent plays, so the carrier
//! can be filled with the player's stones like a captured set: the value stays, for either
//! player to move.
//!
//! The region of groups `g1`, `g2` of player P: the empty cells that P cannot reach from an
//! edge of P's other than `g1` and `g2` through empty cells and P's stones without passing a
//! cell next to `g1` or `g2`. Groups are paired only when they touch two common opponent groups
//! (an opponent edge counts as a group; P's edges touch both opponent edges at the corners), as
//! the region is then closed by the four groups.

use nash_board::{BitSet, Cell, Color, Position};
use nash_vc::{ConnectionKind, VcBuilder};

/// One end of the player's: a group of stones or one of its edges.
#[derive(Clone, Copy, Debug)]
struct End<B> {
    /// The cell that names it for the connections (a stone of the group, or the edge).
    name: Cell,
    /// Its stones (empty for an edge).
    stones: B,
    /// The empty cells next to it.
    around: B,
    /// The opponent's groups it touches, as bits of the opponent's group list.
    opp: u64,
}

/// The buffers of the search for decompositions, allocated once per pipeline.
#[derive(Debug)]
pub(crate) struct Decomposer<B> {
    ends: Vec<End<B>>,
    opp: Vec<B>,
}

impl<B: BitSet> Default for Decomposer<B> {
    fn default() -> Decomposer<B> {
        Decomposer { ends: Vec::with_capacity(64), opp: Vec::with_capacity(64) }
    }
}

/// Opponent groups beyond this many are not told apart (fewer pairs qualify; never unsound).
const MAX_OPP: usize = 64;

impl<B: BitSet> Decomposer<B> {
    /// The carrier of a decomposition of `color` in `pos`, whose connections `vc` describes
    /// (neither player has an edge-to-edge full connection), or `None`.
    pub(crate) fn find(&mut self, pos: &Position<B>, vc: &VcBuilder<B>, color: Color) -> Option<B> {
        let geom = pos.geometry();
        let board = geom.cells();
        let mine = pos.stones(color);
        let theirs = pos.stones(!color);
        let empty = pos.empty_cells();
        let [e1, e2] = color.edges();
        let [o1, o2] = (!color).edges();

        // The opponent's groups: its two edges first, then its stones.
        self.opp.clear();
        self.opp.push(geom.edge_cells(o1));
        self.opp.push(geom.edge_cells(o2));
        let mut rest = theirs;
        while let Some(c) = rest.first() {
            let g = B::single(c).flood(theirs);
            rest -= g;
            self.opp.push(g);
        }
        // The opponent's stones at a bridge from one of the player's across two empty cells
        // (the two sides meet there whoever plays first), by the player's stone.
        let miai = |stones: B| -> B {
            let mut out = B::EMPTY;
            for x in stones.iter() {
                let nx = B::single(x).dilate() & board;
                let gaps = nx & empty;
                for y in (gaps.dilate() & (theirs - nx)).iter() {
                    if (B::single(y).dilate() & gaps).len() == 2 {
                        out.insert(y);
                    }
                }
            }
            out
        };
        let touches = |opp: &[B], around: B, stones: B| -> u64 {
            let mut mask = 0u64;
            for (i, g) in opp.iter().enumerate().take(MAX_OPP) {
                // An opponent edge (i < 2) is touched by stones on its border row; an opponent
                // group by a neighbouring stone.
                let hit = if i < 2 { stones.intersects(*g) } else { around.intersects(*g) };
                if hit {
                    mask |= 1 << i;
                }
            }
            mask
        };

        // The player's ends: its two edges (with the groups on them), then its other groups,
        // with the opponent groups they touch.
        self.ends.clear();
        let mut rest = mine;
        for e in [e1, e2] {
            let row = geom.edge_cells(e);
            let stones = (row & mine).flood(mine);
            rest -= stones;
            let near = (stones.dilate() & board) | row;
            // Both opponent edges touch this edge at the corners.
            let opp = touches(&self.opp, near | miai(stones), stones) | 0b11;
            self.ends.push(End { name: Cell::edge(e), stones, around: near & empty, opp });
        }
        while let Some(c) = rest.first() {
            let g = B::single(c).flood(mine);
            rest -= g;
            let near = g.dilate() & board;
            let opp = touches(&self.opp, near | miai(g), g);
            self.ends.push(End { name: c, stones: g, around: near & empty, opp });
        }
        if self.ends.len() < 3 {
            return None;
        }

        for j in 1..self.ends.len() {
            for i in 0..j {
                let (a, b) = (self.ends[i], self.ends[j]);
                if (a.opp & b.opp).count_ones() < 2 || (i < 2 && j < 2) {
                    continue;
                }
                let mut fulls = vc
                    .connections(color, a.name, b.name)
                    .take_while(|c| matches!(c.kind, ConnectionKind::Full))
                    .map(|c| c.carrier)
                    .filter(|c| !c.is_empty())
                    .peekable();
                if fulls.peek().is_none() {
                    continue;
                }
                // Flood from the player's free edges through empty cells and its stones, not
                // past a cell next to either end.
                let stop = a.around | b.around;
                let within = (empty | mine) - a.stones - b.stones;
                let mut seeds = B::EMPTY;
                for (k, e) in [e1, e2].into_iter().enumerate() {
                    if i != k && j != k {
                        seeds |= geom.edge_cells(e) & within;
                    }
                }
                let mut reached = seeds;
                loop {
                    let next = reached | (((reached - stop).dilate()) & within);
                    if next == reached {
                        break;
                    }
                    reached = next;
                }
                let region = empty - reached;
                if let Some(c) = fulls.find(|c| c.is_subset(region)) {
                    return Some(c);
                }
            }
        }
        None
    }
}
