//! Proof-number search (Allis, van der Meulen and van den Herik 1994; Chen 2025 s.2.2): a
//! best-first search over an explicit tree that always expands a most-proving leaf.
//!
//! Negamax form, as in [`crate::dfpn`]: `pn = min dn(child)`, `dn = Σ pn(child)`. The tree,
//! its expansion through knowledge and its carriers are the driver's in [`crate::bestfirst`];
//! this file gives the proof and disproof numbers and the most-proving child.

use nash_board::{BitSet, Cell, Position};

use crate::bestfirst::{self, Node, Policy, Value};
use crate::context::Ctx;
use crate::outcome::SolveResult;
use crate::table::INF;

/// A node's proof number (the cost to prove its player to move wins) and disproof number.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Numbers {
    pn: u32,
    dn: u32,
}

/// Proof-number search's policy: the most-proving child, numbers by min and sum.
struct ProofNumbers;

impl<B: BitSet> Policy<B> for ProofNumbers {
    type Data = Numbers;

    fn leaf(&self) -> Numbers {
        Numbers { pn: 1, dn: 1 }
    }

    fn proven(data: &mut Numbers, value: Value) {
        *data = match value {
            Value::Win => Numbers { pn: 0, dn: INF },
            Value::Loss => Numbers { pn: INF, dn: 0 },
            Value::Open => *data,
        };
    }

    /// The child whose disproof number is the node's proof number: proving it lost proves the
    /// node won.
    fn select(&self, node: &Numbers, children: &[Node<Numbers>]) -> usize {
        children
            .iter()
            .position(|c| c.value == Value::Open && c.data.dn == node.pn)
            .or_else(|| children.iter().position(|c| c.value == Value::Open))
            .unwrap_or(0)
    }

    fn child(&mut self, _: &Position<B>, _: Cell, _: bool, _: &mut Numbers) {}

    fn combine(&self, node: &mut Numbers, children: &[Node<Numbers>]) {
        let mut pn = INF;
        let mut dn = 0u32;
        for c in children {
            pn = pn.min(c.data.dn);
            dn = dn.saturating_add(c.data.pn).min(INF);
        }
        *node = Numbers { pn, dn };
    }
}

/// Solves `pos` (nobody has won yet) by proof-number search.
pub(crate) fn solve<B: BitSet>(pos: &Position<B>, ctx: &Ctx<'_, B>) -> SolveResult<B> {
    bestfirst::solve(pos, ctx, &mut ProofNumbers)
}
