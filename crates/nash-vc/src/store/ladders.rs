//! Ladder connections along an own edge, added as base full connections before the rules run
//! (docs/vc.md, "Ladder connections").
//!
//! Two cells `x` and `y` on the second row of one of the player's edges, with every cell
//! between them on the first two rows open (empty or the player's), are joined by way of the
//! edge: `y` has its bridge to the edge (its two first-row cells) and `x` reaches either `y`
//! along the second row or the edge in front of it. An intrusion on the second row is answered
//! on the first row in front of the ladder's head (the head then touches the edge); one on the
//! first row is answered by extending the head along the second row. The rules cannot find
//! these: no single move gives `x` two disjoint ways to the edge, and an edge as the AND rule's
//! midpoint joins every two cells near it at a far greater cost. With the edge counted as the
//! player's (as everywhere in H-search), joining `x` to the edge and `y` to the edge joins them.
//!
//! Three shapes, each from either end:
//! - `x`'s inner first-row cell (the one towards `y`), the cells between on the first two rows,
//!   and `y`'s two first-row cells;
//! - `x`'s outer first-row cell instead of its inner one: an intrusion on the first cell after
//!   `x` is answered there, one on the outer cell by that first cell, which leaves the first
//!   shape (or `y`'s neighbour);
//! - `x` on the third row over its template to the edge (its two second-row neighbours and the
//!   three first-row cells below them), and the first shape from the neighbour nearer `y`,
//!   which `y` may touch.
//!
//! Every shape on empty boards to 8×8 is checked against the exact solver in the tests.

use nash_board::{BitSet, Geometry};

use super::Store;

/// The first two rows of one own edge, and the cells a ladder may use (empty or own).
#[derive(Clone, Copy, Debug)]
struct EdgeRows<B> {
    first: B,
    second: B,
    open: B,
}

/// Where the ladders of end `x` start: their run along the second row starts at `s` (`x`
/// itself, or a second-row cell below it) towards its first-row neighbour `q`; `p` is the
/// other first-row neighbour, if any, for the shape that takes it instead of `q`, and `prefix`
/// holds the cells that join `x` to `s` when they differ (the far end may then be next to `s`).
#[derive(Clone, Copy, Debug)]
struct LadderStart<B> {
    x: usize,
    s: usize,
    q: usize,
    p: B,
    prefix: B,
}

impl<B: BitSet> Store<B> {
    /// Adds the ladder connections of both own edges, at most `config.ladders` cells between
    /// the ends (none when off or when a recorder is on: a certificate's checker knows only
    /// the AND and OR rules).
    pub(super) fn add_ladders(&mut self, geom: &Geometry<B>) {
        let Some(max_gap) = self.config.ladders else {
            return;
        };
        if self.recorder.is_some() {
            return;
        }
        let open = self.empty | self.own;
        let cells = geom.cells();
        for e in 0..2 {
            let first = self.first_rows[e];
            let second = (first.dilate() & cells) - first;
            let rows = EdgeRows { first, second, open };
            for x in (second & open).bits() {
                let fx = geom.neighbours_of_bit(x) & first;
                for q in fx.bits() {
                    let p = fx - B::from_bit(q);
                    let start = LadderStart { x, s: x, q, p, prefix: B::EMPTY };
                    self.ladders_from(geom, rows, start, max_gap);
                }
            }
            // A third-row cell whose two second-row neighbours u and v are open, with the
            // three first-row cells below them (its template to the edge): a ladder from v on,
            // away from u.
            let third = (second.dilate() & cells) - second - first;
            for x in (third & open).bits() {
                let below = geom.neighbours_of_bit(x) & second;
                if below.len() != 2 || !below.is_subset(open) {
                    continue;
                }
                for v in below.bits() {
                    let u = (below - B::from_bit(v)).lowest_bit().unwrap_or(v);
                    let (fu, fv) =
                        (geom.neighbours_of_bit(u) & first, geom.neighbours_of_bit(v) & first);
                    if fu.len() != 2 || fv.len() != 2 || !(fu | fv).is_subset(open) {
                        continue;
                    }
                    let Some(q) = (fv - fu).lowest_bit() else { continue };
                    let prefix = below | fu;
                    let start = LadderStart { x, s: v, q, p: B::EMPTY, prefix };
                    self.ladders_from(geom, rows, start, max_gap);
                }
            }
        }
    }

    /// The ladders from `start` along the edge of `rows`, at most `max_gap` cells between the
    /// ends.
    fn ladders_from(
        &mut self,
        geom: &Geometry<B>,
        rows: EdgeRows<B>,
        start: LadderStart<B>,
        max_gap: u8,
    ) {
        let EdgeRows { first, second, open } = rows;
        let LadderStart { x, s, q, p, prefix } = start;
        let qb = B::from_bit(q);
        // Cells every ladder past the current head needs, besides x's first-row cell.
        let mut rest = B::EMPTY;
        let (mut prev, mut prev_q) = (s, q);
        let mut gap = 0usize;
        let min_gap = usize::from(x == s);
        loop {
            let Some(cur) =
                ((geom.neighbours_of_bit(prev_q) & second) - B::from_bit(prev)).lowest_bit()
            else {
                return;
            };
            if !open.has_bit(cur) {
                return;
            }
            let f = geom.neighbours_of_bit(cur) & first;
            if f.len() != 2 || !f.has_bit(prev_q) {
                return;
            }
            // `rest` is open (checked as it grew).
            if gap >= min_gap && f.is_subset(open) {
                let body = rest | f | prefix;
                if open.has_bit(q) {
                    self.add_ladder(x, cur, body | qb);
                }
                if !p.is_empty() && p.is_subset(open) {
                    self.add_ladder(x, cur, (body - qb) | p);
                }
            }
            if gap >= max_gap as usize {
                return;
            }
            rest |= B::from_bit(cur) | (f - qb);
            if !rest.is_subset(open) {
                return;
            }
            gap += 1;
            prev_q = (f - B::from_bit(prev_q)).lowest_bit().unwrap_or(prev_q);
            prev = cur;
        }
    }

    /// One ladder between the cells `x` and `y` over `cells` (open cells).
    fn add_ladder(&mut self, x: usize, y: usize, cells: B) {
        let (a, b) = (self.end_of(x), self.end_of(y));
        if a != b {
            self.add_full(a, b, cells & self.empty);
        }
    }
}
