//! Edge templates with helper stones (crate::templates), added as base full connections before
//! the rules run: at a build every template that holds, after new own stones those with a
//! helper among them (opponent stones only remove templates, as they remove any connection).

use nash_board::{BitSet, Geometry};

use super::Store;
use crate::templates::TemplateIndex;

impl<B: BitSet> Store<B> {
    /// Adds the templates that hold and have a helper among `stones` (own stones).
    pub(super) fn add_templates(&mut self, geom: &Geometry<B>, stones: B) {
        if !self.config.templates || self.recorder.is_some() {
            return;
        }
        // The process-wide index of this board, asked for once per store and board.
        let index = match self.templates {
            Some(t) if std::ptr::eq(t.geom, geom) => t,
            _ => {
                let g = Geometry::get(geom.cols(), geom.rows()).expect("a board's own size");
                let t = TemplateIndex::shared(g, self.color);
                self.templates = Some(t);
                t
            }
        };
        let open = self.empty | self.own;
        for s in stones.bits() {
            for (p, e) in index.with_helper(s) {
                // Each placement once: at the lowest of its helpers among `stones`.
                if (p.helpers & stones).lowest_bit() != Some(s)
                    || !p.helpers.is_subset(self.own)
                    || !p.carrier.is_subset(open)
                    || !open.has_bit(p.end)
                {
                    continue;
                }
                let (a, b) = (self.end_of(p.end), self.edge_bits[usize::from(e)]);
                if a != b {
                    self.add_full(a, b, p.carrier & self.empty);
                }
            }
        }
    }
}
