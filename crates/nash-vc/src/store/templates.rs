//! Edge templates with helper stones (crate::templates), added as base full connections before
//! the rules run: at a build every template that holds, after new own stones those with a
//! helper among them (opponent stones only remove templates, as they remove any connection).

use nash_board::{BitSet, Geometry};

use super::Store;
use crate::templates::{edge_templates, placements};

impl<B: BitSet> Store<B> {
    /// Places the table on this board once per board shape, indexed by helper stone.
    fn place_templates(&mut self, geom: &Geometry<B>) {
        let shape = (geom.cols(), geom.rows());
        if self.tpl_shape == shape {
            return;
        }
        self.tpl_shape = shape;
        self.tpl.clear();
        for edge in self.color.edges() {
            self.tpl.extend(placements(geom, edge, edge_templates()));
        }
        let bits = B::EDGE_BASE;
        let mut count = vec![0u32; bits + 1];
        for p in &self.tpl {
            for h in p.helpers.bits() {
                count[h + 1] += 1;
            }
        }
        for i in 0..bits {
            count[i + 1] += count[i];
        }
        self.tpl_start = count.clone();
        self.tpl_items = vec![0; count[bits] as usize];
        for (i, p) in self.tpl.iter().enumerate() {
            for h in p.helpers.bits() {
                self.tpl_items[count[h] as usize] = i as u32;
                count[h] += 1;
            }
        }
    }

    /// Adds the templates that hold and have a helper among `stones` (own stones).
    pub(super) fn add_templates(&mut self, geom: &Geometry<B>, stones: B) {
        if !self.config.templates || self.recorder.is_some() {
            return;
        }
        self.place_templates(geom);
        let open = self.empty | self.own;
        for s in stones.bits() {
            let (from, to) = (self.tpl_start[s] as usize, self.tpl_start[s + 1] as usize);
            for k in from..to {
                let p = self.tpl[self.tpl_items[k] as usize];
                // Each placement once: at the lowest of its helpers among `stones`.
                if (p.helpers & stones).lowest_bit() != Some(s)
                    || !p.helpers.is_subset(self.own)
                    || !p.carrier.is_subset(open)
                    || !open.has_bit(p.end)
                {
                    continue;
                }
                let a = self.end_of(p.end);
                let e = usize::from(p.edge == self.color.edges()[1]);
                let b = self.edge_bits[e];
                if a != b {
                    self.add_full(a, b, p.carrier & self.empty);
                }
            }
        }
    }
}
