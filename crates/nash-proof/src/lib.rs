//! Proof certificates for Hex results, and a checker that trusts nothing but the rules.
//!
//! A [`Certificate`] is a position, the player it claims wins, and that player's strategy as
//! a graph of [`Node`]s: the winner's move where the winner is to move, an answer to every
//! empty cell where the loser is, restrictions to a carrier (the loser is given every other
//! empty cell, which cannot hurt it), and leaves that are won boards or small enough for the
//! checker's own exhaustive search. [`check`] replays it with nash-board's rules alone; this
//! crate depends on no solver. The file forms (postcard binary, JSON) and the checker's
//! argument are in docs/proofs.md.
//!
//! ```
//! use nash_board::{Cell, Color};
//! use nash_proof::{check, At, Certificate, Node, Side};
//!
//! let at = |s: &str| At(s.parse::<Cell>().unwrap());
//! // The empty 2x2 board: Black plays b1, which touches the top and has two ways down.
//! let cert = Certificate {
//!     cols: 2,
//!     rows: 2,
//!     black: vec![],
//!     white: vec![],
//!     to_move: Side::Black,
//!     winner: Side::Black,
//!     nodes: vec![
//!         Node::Won,                                  // 0
//!         Node::Play { at: at("b2"), next: 0 },       // 1
//!         Node::Play { at: at("a2"), next: 0 },       // 2
//!         // White's a1 cannot hurt: restricted away, only a2 and b2 need answers.
//!         Node::Replies { replies: vec![(at("a2"), 1), (at("b2"), 2)] }, // 3
//!         Node::Restrict { keep: vec![at("a2"), at("b2")], next: 3 },   // 4
//!         Node::Play { at: at("b1"), next: 4 },       // 5: the root
//!     ],
//! };
//! assert_eq!(check(&cert).unwrap().winner, Color::Black);
//!
//! // Both file forms read back; a certificate missing a reply is refused.
//! assert_eq!(Certificate::from_bytes(&cert.to_bytes()).unwrap(), cert);
//! assert_eq!(Certificate::from_bytes(cert.to_json().as_bytes()).unwrap(), cert);
//! let mut bad = cert.clone();
//! bad.nodes[3] = Node::Replies { replies: vec![(at("a2"), 1)] };
//! assert_eq!(check(&bad).unwrap_err().to_string(), "node 3 (after b1): no reply to white's move b2");
//! ```

mod check;
mod format;
mod vc;

pub use check::{
    budget, check, check_lazy, Checked, Invalid, BUDGET_BASE, BUDGET_PER_ENTRY, SEARCH_LIMIT,
};
pub use format::{
    At, Certificate, End, FormatError, Lazy, Node, Nodes, Side, Spool, Step, VERSION,
};
