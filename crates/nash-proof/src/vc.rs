//! Virtual connections re-derived: the checker's side of [`Node::Vc`](crate::Node::Vc).
//!
//! Each step's connection is recomputed from the board and the steps it names, by the rules of
//! H-search (Anshelevich 2000 s.5). Why each rule is sound, with the winner's
//! strategy it gives:
//! - `Touch`: two ends whose groups are adjacent or one are connected already.
//! - `And` through a winner's stone or edge `z`: answer each loser move in the carrier it hits;
//!   the carriers are disjoint, so both connections hold and join at `z`. Through an empty `z`:
//!   the winner plays `z` first, then as before (a semi connection, `z` in its carrier).
//! - `Or`: whatever the loser plays misses the carrier of one of the connections; the winner,
//!   now to move, follows that one (a semi's first move is the winner's).
//!
//! Carriers never hold their ends or a stone: they are made of empty midpoints only.

use nash_board::{BitSet, Cell, Color, Position};

use crate::format::{End, Step};

/// A connection between two ends through a carrier of empty cells.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Conn<B> {
    pub ends: [Cell; 2],
    pub carrier: B,
    /// Holds with the loser to move (else the winner must move first).
    pub full: bool,
}

/// The connection the last of `steps` derives in `pos` for `winner`, or why a step is wrong.
pub(crate) fn derive<B: BitSet>(
    steps: &[Step],
    pos: &Position<B>,
    winner: Color,
) -> Result<Conn<B>, String> {
    let mut made: Vec<Conn<B>> = Vec::with_capacity(steps.len());
    for (i, step) in steps.iter().enumerate() {
        let earlier = |j: u32| {
            made.get(j as usize)
                .copied()
                .ok_or(format!("step {i} names step {j}, not an earlier one"))
        };
        let conn = match step {
            &Step::Touch(End(x), End(y)) => {
                let (bx, by) = (body(pos, winner, x)?, body(pos, winner, y)?);
                let geom = pos.geometry();
                let touch =
                    bx.intersects(by) || bx.iter().any(|c| geom.neighbours(c).intersects(by));
                if x == y || !touch {
                    return Err(format!("step {i}: {x} and {y} do not touch"));
                }
                Conn { ends: [x, y], carrier: B::EMPTY, full: true }
            }
            &Step::And(l, r) => {
                let (l, r) = (earlier(l)?, earlier(r)?);
                if !l.full || !r.full {
                    return Err(format!("step {i}: the AND rule takes two full connections"));
                }
                let Some(z) = l.ends.into_iter().find(|e| r.ends.contains(e)) else {
                    return Err(format!("step {i}: the connections have no common end"));
                };
                let x = if l.ends[0] == z { l.ends[1] } else { l.ends[0] };
                let y = if r.ends[0] == z { r.ends[1] } else { r.ends[0] };
                if x == y
                    || l.carrier.intersects(r.carrier)
                    || r.carrier.contains(x)
                    || l.carrier.contains(y)
                {
                    return Err(format!("step {i}: the connections overlap"));
                }
                let carrier = l.carrier | r.carrier;
                if pos.color_at(z).is_none() && !z.is_edge() {
                    Conn { ends: [x, y], carrier: carrier.with(z), full: false }
                } else {
                    Conn { ends: [x, y], carrier, full: true }
                }
            }
            Step::Or(list) => {
                let mut conns = list.iter().map(|&j| earlier(j));
                let Some(first) = conns.next().transpose()? else {
                    return Err(format!("step {i}: the OR rule needs connections"));
                };
                let (mut common, mut union) = (first.carrier, first.carrier);
                for c in conns {
                    let c = c?;
                    let same = c.ends == first.ends || c.ends == [first.ends[1], first.ends[0]];
                    if !same {
                        return Err(format!(
                            "step {i}: the OR rule joins connections of other ends"
                        ));
                    }
                    common &= c.carrier;
                    union |= c.carrier;
                }
                if let Some(cell) = common.iter().next() {
                    return Err(format!("step {i}: {cell} is in every carrier"));
                }
                Conn { ends: first.ends, carrier: union, full: true }
            }
        };
        made.push(conn);
    }
    made.pop().ok_or_else(|| "no steps".to_owned())
}

/// The cells an end stands for: a winner's stone or edge with its whole group (edges
/// included), or an empty cell alone.
fn body<B: BitSet>(pos: &Position<B>, winner: Color, end: Cell) -> Result<B, String> {
    let own_edges = winner.edges().map(Cell::edge);
    let owned = if end.is_edge() {
        if !own_edges.contains(&end) {
            return Err(format!("{end} is not {winner}'s edge"));
        }
        true
    } else if !pos.geometry().is_on_board(end) {
        return Err(format!("{end} is off the board"));
    } else {
        match pos.color_at(end) {
            None => false,
            Some(c) if c == winner => true,
            Some(_) => return Err(format!("{end} is {}'s", !winner)),
        }
    };
    if !owned {
        return Ok(B::single(end));
    }
    let own = own_edges.iter().fold(pos.stones(winner), |s, &e| s.with(e));
    let geom = pos.geometry();
    let mut group = B::single(end);
    loop {
        let grown = group.iter().fold(group, |g, c| g | (geom.neighbours(c) & own));
        if grown == group {
            return Ok(group);
        }
        group = grown;
    }
}
