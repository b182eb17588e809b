//! The checker: replays a certificate's strategy by the rules of Hex and trusts nothing else.
//!
//! The argument, node by node (docs/proofs.md has it in full). A node stands for a position
//! and claims that the winner wins it against every defence.
//!
//! - `Won`: the winner's stones connect their two edges.
//! - `Play`: the winner is to move; after the move, the next node's claim holds.
//! - `Replies`: the loser is to move; every empty cell has an answer, so every move the loser
//!   can make reaches a position whose claim holds.
//! - `Cover`: the loser is to move, and each option is a strategy that wins, the winner to
//!   move, when the loser owns every empty cell outside the option's carrier. No cell is in
//!   every carrier, so whatever the loser plays lies outside some option's carrier, and that
//!   option's position is the one after the loser's move, restricted to the carrier.
//! - `Restrict`: the loser gets every empty cell outside `keep`. Hex is monotone: a stone of
//!   one's own never hurts, so a position the winner wins with more loser stones is won with
//!   fewer. A strategy for the restricted position is one for the real position (the winner
//!   treats a loser stone played outside `keep` as already there and answers what it would
//!   have answered had the loser played inside; a move of its own on such a cell is an extra
//!   stone).
//! - `Vc`: the winner has a virtual connection between their edges, re-derived step by step
//!   by the rules of H-search (`vc.rs`): full, or semi with the winner to move.
//! - `Search`: the checker plays out every line from the position, which has few empty cells.
//!
//! Every claim is checked below the root until `Won` or `Search` closes it, and a move is
//! never checked out of turn, so the root's claim, the certificate's result, holds.
//!
//! The check's work is bounded by the certificate's size ([`budget`]): a node reached in many
//! positions is checked in each, and a `Search` leaf may cost millions of positions, so a
//! certificate of a few bytes could otherwise make the checker search for minutes. Past its
//! budget a certificate is refused as too costly to check, never accepted.

use std::collections::{HashMap, HashSet};
use std::fmt;

use nash_board::{fits_small, BitSet, Bitboard, Cell, Color, Position, WideBitboard};

use crate::format::{At, Certificate, Lazy, Node, Nodes};

/// The most empty cells a [`Node::Search`] may leave to the checker's exhaustive search.
pub const SEARCH_LIMIT: usize = 16;

/// The work any certificate may cost the checker, in steps (see [`budget`]): enough for a
/// `Search` leaf of 14 empty cells (whose search decides at most 1.2 million positions), about
/// a second and 200 MB.
pub const BUDGET_BASE: u64 = 1 << 21;

/// The work each entry of a certificate ([`Node::entries`]) adds to its budget, in steps: the
/// 6x6 opening b5's certificate with searches of up to 16 empty cells (7,495 entries) decides
/// 3.3 million positions, within its 4 million.
pub const BUDGET_PER_ENTRY: u64 = 256;

/// The most steps of work the checker spends on a certificate of `entries` entries (the sum
/// of [`Node::entries`] over its nodes) before refusing it as too costly to check: a step is
/// a node's entries checked once in one position, or a position the exhaustive search
/// decides, so memory grows with the steps too.
pub fn budget(entries: u64) -> u64 {
    BUDGET_BASE.saturating_add(entries.saturating_mul(BUDGET_PER_ENTRY))
}

/// What a check of a valid certificate found.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Checked {
    /// The winner the certificate proves.
    pub winner: Color,
    /// Node checks made (a node reached in two positions counts twice).
    pub visits: u64,
    /// Positions the exhaustive search decided.
    pub searched: u64,
}

/// Why a certificate is invalid: the first bad node in the checker's order, the moves that
/// lead to it from the certificate's position, and what is wrong there.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Invalid {
    /// The bad node's index in `nodes`, if the fault is in a node (not the position).
    pub node: Option<u32>,
    /// The moves from the certificate's position to the bad node.
    pub line: Vec<Cell>,
    /// What is wrong.
    pub reason: String,
    /// Whether the certificate was refused for needing more work than its [`budget`] (it may
    /// hold, but is not accepted), not for a claim found false.
    pub too_costly: bool,
}

impl fmt::Display for Invalid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.node {
            None => write!(f, "{}", self.reason),
            Some(n) if self.line.is_empty() => write!(f, "node {n} (the root): {}", self.reason),
            Some(n) => {
                let line: Vec<String> = self.line.iter().map(Cell::to_string).collect();
                write!(f, "node {n} (after {}): {}", line.join(" "), self.reason)
            }
        }
    }
}

impl std::error::Error for Invalid {}

/// Checks a certificate: `Ok` when its strategy wins for its winner from its position.
pub fn check(cert: &Certificate) -> Result<Checked, Invalid> {
    check_nodes(cert, cert.nodes.as_slice())
}

/// [`check`] of a binary certificate whose nodes are decoded as the check reaches them (each
/// time it does), for certificates too large to hold in memory.
pub fn check_lazy(cert: &Lazy<'_>) -> Result<Checked, Invalid> {
    check_nodes(&cert.head, cert)
}

/// [`check`] of the position and winner of `cert` with the strategy `nodes`.
fn check_nodes<N: Nodes + ?Sized>(cert: &Certificate, nodes: &N) -> Result<Checked, Invalid> {
    let (cols, rows) = (cert.cols as usize, cert.rows as usize);
    if fits_small(cols, rows) {
        check_in::<Bitboard, N>(cert, nodes)
    } else {
        check_in::<WideBitboard, N>(cert, nodes)
    }
}

fn check_in<B: BitSet, N: Nodes + ?Sized>(
    cert: &Certificate,
    nodes: &N,
) -> Result<Checked, Invalid> {
    let setup =
        |reason: String| Invalid { node: None, line: Vec::new(), reason, too_costly: false };
    let mut pos = Position::<B>::new(cert.cols as usize, cert.rows as usize)
        .map_err(|e| setup(e.to_string()))?;
    for (color, stones) in [(Color::Black, &cert.black), (Color::White, &cert.white)] {
        for &At(cell) in stones {
            if !pos.geometry().is_on_board(cell) {
                return Err(setup(format!("stone {cell} is off the board")));
            }
            if pos.color_at(cell).is_some() {
                return Err(setup(format!("two stones on {cell}")));
            }
            pos.setup(color, B::EMPTY.with(cell));
        }
    }
    pos.set_to_move(cert.to_move.into());
    let Some(root) = nodes.count().checked_sub(1) else {
        return Err(setup("the certificate has no nodes".into()));
    };
    let entries = nodes.entries();
    let mut checker = Checker {
        nodes,
        winner: cert.winner.into(),
        seen: HashSet::new(),
        search: HashMap::new(),
        line: Vec::new(),
        visits: 0,
        left: budget(entries),
        entries,
    };
    checker.node(root as u32, &mut pos)?;
    Ok(Checked {
        winner: checker.winner,
        visits: checker.visits,
        searched: checker.search.len() as u64,
    })
}

/// One check's state: the nodes already proved in a position, the exhaustive search's memory
/// and the line from the root.
struct Checker<'c, B: BitSet, N: ?Sized> {
    nodes: &'c N,
    winner: Color,
    /// Nodes proved, with the position (stones and side to move) they were proved in.
    seen: HashSet<(u32, B, B, Color)>,
    /// Positions decided by the exhaustive search: whether the winner wins.
    search: HashMap<(B, B, Color), bool>,
    line: Vec<Cell>,
    visits: u64,
    /// The steps of work the [`budget`] has left.
    left: u64,
    /// The certificate's entries, for the message of a check over budget.
    entries: u64,
}

/// A check stopped at its budget.
struct Spent;

impl<B: BitSet, N: Nodes + ?Sized> Checker<'_, B, N> {
    /// Checks that node `id` wins for the winner in `pos` (which it leaves as it found it).
    fn node(&mut self, id: u32, pos: &mut Position<B>) -> Result<(), Invalid> {
        let key = (id, pos.black(), pos.white(), pos.to_move());
        if self.seen.contains(&key) {
            return Ok(());
        }
        self.visits += 1;
        let bad = |me: &Self, reason: String| Invalid {
            node: Some(id),
            line: me.line.clone(),
            reason,
            too_costly: false,
        };
        let loser = !self.winner;
        if pos.winner() == Some(loser) {
            return Err(bad(self, format!("{loser} has already connected")));
        }
        let nodes = self.nodes;
        let node = nodes.get(id).ok_or_else(|| bad(self, "no such node".into()))?;
        self.spend(node.entries()).map_err(|Spent| self.too_costly(id))?;
        let child = |next: u32| {
            if next < id {
                Ok(next)
            } else {
                Err(format!("refers to node {next}, not to an earlier one"))
            }
        };
        match &*node {
            Node::Won => {
                if pos.winner() != Some(self.winner) {
                    return Err(bad(self, format!("{} has not connected", self.winner)));
                }
            }
            Node::Search => {
                let empty = pos.empty_cells().len();
                if empty > SEARCH_LIMIT {
                    let reason = format!("{empty} empty cells to search, at most {SEARCH_LIMIT}");
                    return Err(bad(self, reason));
                }
                match self.wins(pos) {
                    Err(Spent) => return Err(self.too_costly(id)),
                    Ok(false) => {
                        return Err(bad(self, format!("the search finds that {loser} holds")))
                    }
                    Ok(true) => {}
                }
            }
            &Node::Play { at: At(cell), next } => {
                let next = child(next).map_err(|r| bad(self, r))?;
                if pos.to_move() != self.winner {
                    return Err(bad(self, format!("plays {cell} for {} out of turn", self.winner)));
                }
                self.playing(id, cell, next, pos)?;
            }
            Node::Restrict { keep, next } => {
                let next = child(*next).map_err(|r| bad(self, r))?;
                let empty = pos.empty_cells();
                let kept = new_empty_cells(pos, keep.iter().map(|a| a.0)).map_err(|cell| {
                    bad(self, format!("keeps {cell}, which is not a new empty cell"))
                })?;
                if kept == empty {
                    return Err(bad(self, "a restriction that keeps every empty cell".into()));
                }
                pos.fill(loser, empty - kept);
                let r = self.node(next, pos);
                pos.undo();
                r?;
            }
            Node::Vc { steps } => {
                let conn = crate::vc::derive(steps, pos, self.winner).map_err(|r| bad(self, r))?;
                let edges = self.winner.edges().map(Cell::edge);
                if conn.ends != edges && conn.ends != [edges[1], edges[0]] {
                    return Err(bad(
                        self,
                        format!("the connection does not join {}'s edges", self.winner),
                    ));
                }
                if !conn.full && pos.to_move() != self.winner {
                    return Err(bad(self, format!("a semi connection with {loser} to move")));
                }
            }
            Node::Cover { options } => {
                if pos.to_move() != loser {
                    return Err(bad(self, format!("covers {loser}'s moves out of turn")));
                }
                let empty = pos.empty_cells();
                let mut common = empty;
                let mut carriers = Vec::with_capacity(options.len());
                for (keep, _) in options {
                    let kept = new_empty_cells(pos, keep.iter().map(|a| a.0)).map_err(|cell| {
                        bad(self, format!("an option keeps {cell}, which is not a new empty cell"))
                    })?;
                    if kept == empty {
                        return Err(bad(self, "an option that answers no move".into()));
                    }
                    common &= kept;
                    carriers.push(kept);
                }
                if empty.is_empty() || options.is_empty() {
                    return Err(bad(self, "no options".into()));
                }
                if let Some(cell) = common.iter().next() {
                    return Err(bad(self, format!("no option answers {loser}'s move {cell}")));
                }
                for (kept, &(_, next)) in carriers.into_iter().zip(options) {
                    let next = child(next).map_err(|r| bad(self, r))?;
                    let moved = (empty - kept).iter().next().expect("an option answers a move");
                    pos.fill(loser, empty - kept);
                    pos.pass();
                    self.line.push(moved);
                    let r = self.node(next, pos);
                    self.line.pop();
                    pos.undo();
                    pos.undo();
                    r?;
                }
            }
            Node::Replies { replies } => {
                if pos.to_move() != loser {
                    return Err(bad(self, format!("replies for {loser} out of turn")));
                }
                let empty = pos.empty_cells();
                if empty.is_empty() {
                    return Err(bad(self, "replies on a full board".into()));
                }
                let answered =
                    new_empty_cells(pos, replies.iter().map(|r| r.0 .0)).map_err(|cell| {
                        bad(self, format!("a reply to {cell}, which is not a new empty cell"))
                    })?;
                if let Some(missing) = (empty - answered).iter().next() {
                    return Err(bad(self, format!("no reply to {loser}'s move {missing}")));
                }
                for &(At(cell), next) in replies {
                    let next = child(next).map_err(|r| bad(self, r))?;
                    self.playing(id, cell, next, pos)?;
                }
            }
        }
        self.seen.insert(key);
        Ok(())
    }

    /// Plays `cell` for the side to move (node `id`'s move) and checks node `next` after it.
    fn playing(
        &mut self,
        id: u32,
        cell: Cell,
        next: u32,
        pos: &mut Position<B>,
    ) -> Result<(), Invalid> {
        if let Err(e) = pos.play(cell) {
            let reason = e.to_string();
            return Err(Invalid {
                node: Some(id),
                line: self.line.clone(),
                reason,
                too_costly: false,
            });
        }
        self.line.push(cell);
        let r = self.node(next, pos);
        self.line.pop();
        pos.undo();
        r
    }

    /// Takes `steps` from the budget.
    fn spend(&mut self, steps: u64) -> Result<(), Spent> {
        self.left = self.left.checked_sub(steps).ok_or(Spent)?;
        Ok(())
    }

    /// The refusal of a check that ran out of its budget at node `id`.
    fn too_costly(&self, id: u32) -> Invalid {
        let reason = format!(
            "too costly to check: more than {} steps of work, the budget of a certificate of \
             {} entries ({BUDGET_BASE} and {BUDGET_PER_ENTRY} an entry)",
            budget(self.entries),
            self.entries
        );
        Invalid { node: Some(id), line: self.line.clone(), reason, too_costly: true }
    }

    /// Whether the winner wins `pos` against every defence: every line played out, each
    /// position decided once (a step of the budget each).
    fn wins(&mut self, pos: &mut Position<B>) -> Result<bool, Spent> {
        if let Some(c) = pos.winner() {
            return Ok(c == self.winner);
        }
        let key = (pos.black(), pos.white(), pos.to_move());
        if let Some(&w) = self.search.get(&key) {
            return Ok(w);
        }
        self.spend(1)?;
        // The winner to move needs one winning move; the loser to move needs one refutation.
        // A full board with no winner cannot happen (Hex has no draws); it would count as not
        // won.
        let winner_moves = pos.to_move() == self.winner;
        let mut won = !winner_moves && !pos.empty_cells().is_empty();
        for cell in pos.empty_cells().iter() {
            pos.play_unchecked(cell);
            let w = self.wins(pos);
            pos.undo();
            if w? == winner_moves {
                won = winner_moves;
                break;
            }
        }
        self.search.insert(key, won);
        Ok(won)
    }
}

/// The set of `cells` when each is an empty cell of `pos`, named once; else the first that is
/// not (off the board, occupied, or named twice).
fn new_empty_cells<B: BitSet>(
    pos: &Position<B>,
    cells: impl Iterator<Item = Cell>,
) -> Result<B, Cell> {
    let empty = pos.empty_cells();
    let mut set = B::EMPTY;
    for cell in cells {
        if !pos.geometry().is_on_board(cell) || !empty.contains(cell) || set.contains(cell) {
            return Err(cell);
        }
        set = set.with(cell);
    }
    Ok(set)
}
