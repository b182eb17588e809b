//! Pattern search (van Rijswijck 2002 s.2.3 and Appendix B Table 1; the threat search of Chen
//! 2025 Table 4.1) and its connection-utility extension (Rasmussen, Maire and Hayward 2006,
//! Algorithm 1), with an optional table of proven results (their s.6): the transposition
//! table, or their table of threat patterns (`pattern/threats.rs`).
//!
//! Both return a threat pattern (carrier) with every value: a win's carrier is the winning move
//! plus the child's loss carrier; a loss's carrier is the union of the opponent's threats, and
//! after each refuted move only the moves inside its threat remain (the mustplay region).
//! With the table of threat patterns each result also carries its support, the winner's
//! stones the pattern needs: the winning group at a terminal position, a child's support less
//! the winning move, the union of the refutations' supports (without the table it stays empty
//! below the decided positions, and nothing reads it).
//! Connection-utility search also counts, per cell, the terminal positions where the winner
//! held that cell, and re-sorts the remaining moves by that count after every refutation.

mod threats;

use nash_board::{BitSet, Cell, Color, Position};

use crate::budget::Limits;
use crate::config::ThreatTable;
use crate::context::Ctx;
use crate::knowledge::{self, Pipeline, Verdict};
use crate::movebit;
use crate::outcome::{Outcome, SolveResult, Stats, StopReason};
use crate::table::{Entry, Table};

/// Which of the two searches.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Mode {
    /// Van Rijswijck's pattern search with a static move order.
    Pattern,
    /// Connection-utility search: the move order comes from the utilities.
    Utility,
}

#[derive(Clone, Copy, Debug)]
struct Res<B> {
    win: bool,
    mv: Option<Cell>,
    carrier: B,
    /// The winner's stones the pattern needs (a superset is always sound).
    support: B,
}

struct Search<'t, B: BitSet> {
    mode: Mode,
    pos: Position<B>,
    pipe: Pipeline<B>,
    table: Option<&'t Table<B>>,
    /// The threat patterns proven so far, when the table is the paper's.
    threats: Option<threats::ThreatPatterns<B>>,
    limits: Limits,
    stats: Stats,
    key: u64,
    moves: Vec<Vec<Cell>>,
    /// Connection utilities per depth, indexed by bit (only in utility mode).
    util: Vec<Vec<u32>>,
    /// Order moves by a one-move look-ahead of knowledge (pattern mode with virtual
    /// connections).
    look_ahead: bool,
    rank: Vec<(u32, u32, Cell)>,
    /// No knowledge switch is on: the supports are exact.
    knowledge_free: bool,
}

/// Solves `pos` (nobody has won yet).
pub(crate) fn solve<B: BitSet>(pos: &Position<B>, ctx: &Ctx<'_, B>, mode: Mode) -> SolveResult<B> {
    let (cfg, table) = (ctx.cfg, ctx.table);
    let geom = pos.geometry();
    let n = geom.cells().len() + 2;
    let util_len = if mode == Mode::Utility { B::CAPACITY } else { 0 };
    let limits = Limits::new(cfg);
    let mut pipe = Pipeline::with_plan(&cfg.knowledge, geom, ctx.plan);
    pipe.set_stop(limits.stop());
    let mut s = Search {
        mode,
        pos: pos.clone(),
        pipe,
        table: (cfg.use_tt && cfg.threat_table == ThreatTable::Positions).then_some(table),
        threats: (cfg.threat_table == ThreatTable::ThreatPatterns && !cfg.knowledge.fill_in)
            .then(threats::ThreatPatterns::default),
        limits,
        stats: Stats::default(),
        key: pos.hash(),
        moves: (0..n).map(|_| Vec::with_capacity(n)).collect(),
        util: (0..n + 1).map(|_| vec![0; util_len]).collect(),
        look_ahead: cfg.knowledge.vc && cfg.knowledge.mustplay,
        rank: Vec::with_capacity(n),
        knowledge_free: {
            let k = &cfg.knowledge;
            !(k.threats || k.fill_in || k.vc || k.mustplay || k.decompositions)
        },
    };
    let r = s.search(0);
    s.stats.time = s.limits.start.elapsed();
    let outcome = match r {
        Some(Res { win: true, mv, carrier, .. }) => Outcome::Win { winning_move: mv, carrier },
        Some(Res { win: false, carrier, .. }) => Outcome::Loss { carrier },
        None => Outcome::Unknown { reason: s.limits.reason().unwrap_or(StopReason::Cancelled) },
    };
    SolveResult { outcome, stats: s.stats }
}

impl<B: BitSet> Search<'_, B> {
    /// Utilities of a terminal position: one for every stone of the winner.
    fn terminal_util(&mut self, depth: usize, winner: Color) {
        if self.mode == Mode::Utility {
            let u = &mut self.util[depth];
            u.fill(0);
            for bit_cell in self.pos.stones(winner) {
                u[B::bit_of(bit_cell)] = 1;
            }
        }
    }

    fn search(&mut self, depth: usize) -> Option<Res<B>> {
        self.stats.nodes += 1;
        if self.limits.exceeded(self.stats.nodes) {
            return None;
        }
        let key = self.key;
        if let Some(t) = self.table {
            if let Some(e) = t.get(key) {
                if e.is_solved() && (depth > 0 || e.best.is_some() || e.dn == 0) {
                    self.stats.tt_hits += 1;
                    let mv = movebit::cell::<B>(e.best);
                    let winner = if e.pn == 0 { self.pos.to_move() } else { !self.pos.to_move() };
                    let support = self.pos.stones(winner);
                    // A hit is a terminal position (Algorithm 1 lines 6-8): one on the winner's
                    // stones, and on the carrier it would play. One on the carrier alone made
                    // the table cost CUS nodes in board order (4x4: 1,299,101 against 900,792
                    // without a table; 147,140 now, with the default table size).
                    if self.mode == Mode::Utility {
                        let u = &mut self.util[depth];
                        u.fill(0);
                        for c in e.carrier | support {
                            u[B::bit_of(c)] = 1;
                        }
                    }
                    return Some(Res { win: e.pn == 0, mv, carrier: e.carrier, support });
                }
            }
        }
        // A stored threat pattern decides the position as a terminal one (s.6); the root needs
        // a winning move, which a pattern does not give.
        if let (Some(t), true) = (&self.threats, depth > 0) {
            if let Some(hit) = t.find(&self.pos) {
                self.stats.tt_hits += 1;
                if self.mode == Mode::Utility {
                    let u = &mut self.util[depth];
                    u.fill(0);
                    for c in hit.carrier | hit.support {
                        u[B::bit_of(c)] = 1;
                    }
                }
                return Some(Res {
                    win: hit.win,
                    mv: None,
                    carrier: hit.carrier,
                    support: hit.support,
                });
            }
        }
        let me = self.pos.to_move();
        let node = self.pipe.analyse(&mut self.pos, depth, &mut self.stats);
        let r = match node.verdict {
            Verdict::Win { mv, carrier } => {
                self.decided_util(depth, carrier, me);
                let support = self.pos.stones(me);
                Some(Res { win: true, mv, carrier: carrier | node.fill_carrier(me), support })
            }
            Verdict::Loss { carrier } => {
                self.decided_util(depth, carrier, !me);
                let (carrier, support) = (carrier | node.fill_carrier(!me), self.pos.stones(!me));
                Some(Res { win: false, mv: None, carrier, support })
            }
            Verdict::Open => {
                self.key ^= node.fill_key(self.pos.geometry());
                let r = self.children(depth, me, node.moves, node.support);
                self.key ^= node.fill_key(self.pos.geometry());
                r.map(|mut r| {
                    r.carrier |= node.fill_carrier(if r.win { me } else { !me });
                    r
                })
            }
        };
        knowledge::undo_fills(&mut self.pos, &node);
        self.key = key;
        let mut r = r?;
        if let Some(t) = &mut self.threats {
            let winner = if r.win { me } else { !me };
            // Only the stones of the position itself: a superset is sound, a stone the
            // position lacks is not. Knowledge's verdicts and mustplay rest on connections
            // whose stones the supports do not track: with knowledge, all the winner's stones.
            if self.knowledge_free {
                r.support &= self.pos.stones(winner);
            } else {
                r.support = self.pos.stones(winner);
            }
            t.add(winner, !r.win, r.support, r.carrier);
            self.stats.tt_stores += 1;
        }
        if let Some(t) = self.table {
            let best = movebit::of::<B>(r.mv);
            t.put(Entry::solved(key, r.win, best, r.carrier, 1));
            self.stats.tt_stores += 1;
        }
        Some(r)
    }

    /// Utilities for a position knowledge decided: the winner's stones and the carrier.
    fn decided_util(&mut self, depth: usize, carrier: B, winner: Color) {
        if self.mode == Mode::Utility {
            self.terminal_util(depth, winner);
            for c in carrier {
                self.util[depth][B::bit_of(c)] = 1;
            }
        }
    }

    /// Orders the moves by what knowledge says of the positions they lead to (their analyses
    /// are cached for the search that follows): moves after which the opponent is lost first,
    /// then by how few replies the opponent has, moves that lose last; the static order breaks
    /// ties. A depth-first search lives or dies by trying a winning move first, and a move that
    /// leaves the opponent a small mustplay is the most forcing.
    fn order_by_replies(&mut self, depth: usize, me: Color, list: &mut [Cell]) {
        let mut rank = std::mem::take(&mut self.rank);
        rank.clear();
        for (i, &m) in list.iter().enumerate() {
            // Each look-ahead is a node's analysis: the budget is checked before each (the
            // moves not ranked keep their static order, and the search stops at its next
            // node).
            if self.limits.stop().should_stop() {
                break;
            }
            self.pos.play_unchecked(m);
            let r = if self.pos.winner() == Some(me) {
                0
            } else {
                let node = self.pipe.analyse(&mut self.pos, depth + 1, &mut self.stats);
                knowledge::undo_fills(&mut self.pos, &node);
                match node.verdict {
                    Verdict::Loss { .. } => 0,
                    Verdict::Open => 1 + node.moves.len() as u32,
                    Verdict::Win { .. } => u32::MAX,
                }
            };
            self.pos.undo();
            rank.push((r, i as u32, m));
            if r == 0 {
                break;
            }
        }
        rank.sort_unstable();
        let tried = rank.len();
        for (slot, &(_, _, m)) in list[..tried].iter_mut().zip(rank.iter()) {
            *slot = m;
        }
        self.rank = rank;
    }

    /// Moves to the front the first move after which a stored threat pattern shows the
    /// opponent lost: its child is then decided by the table at once.
    fn order_by_patterns(&mut self, list: &mut [Cell]) {
        let Some(t) = &self.threats else { return };
        for i in 0..list.len() {
            self.pos.play_unchecked(list[i]);
            let won = self.pos.winner().is_some() || t.find(&self.pos).is_some_and(|h| !h.win);
            self.pos.undo();
            if won {
                list[..=i].rotate_right(1);
                return;
            }
        }
    }

    fn children(&mut self, depth: usize, me: Color, moves: B, support: B) -> Option<Res<B>> {
        let mut list = std::mem::take(&mut self.moves[depth]);
        self.pipe.order(&self.pos, moves, &mut list);
        if self.mode == Mode::Pattern && self.look_ahead {
            self.order_by_replies(depth, me, &mut list);
        }
        self.order_by_patterns(&mut list);
        if self.mode == Mode::Utility {
            self.util[depth].fill(0);
        }
        let mut allowed = moves;
        let mut threats = support;
        let mut supports = B::EMPTY;
        let mut result = None;
        let mut i = 0;
        while i < list.len() {
            let m = list[i];
            i += 1;
            if !allowed.contains(m) {
                continue;
            }
            let parent = self.key;
            self.key = self.pos.geometry().child_hash(parent, me, B::bit_of(m));
            self.pos.play_unchecked(m);
            let r = if self.pos.winner() == Some(me) {
                self.stats.nodes += 1;
                self.terminal_util(depth + 1, me);
                // Only the table of threat patterns reads supports: the chain is not
                // worked out for every terminal position of the other searches.
                let support =
                    if self.threats.is_some() { winning_chain(&self.pos, m, me) } else { B::EMPTY };
                Some(Res { win: false, mv: None, carrier: B::EMPTY, support })
            } else {
                self.search(depth + 1)
            };
            self.pos.undo();
            self.key = parent;
            let Some(r) = r else {
                self.moves[depth] = list;
                return None;
            };
            if !r.win {
                if self.mode == Mode::Utility {
                    let (lo, hi) = self.util.split_at_mut(depth + 1);
                    lo[depth].copy_from_slice(&hi[0]);
                }
                let support = r.support.without(m);
                result = Some(Res { win: true, mv: Some(m), carrier: r.carrier.with(m), support });
                break;
            }
            threats |= r.carrier;
            supports |= r.support;
            allowed &= r.carrier;
            if self.mode == Mode::Utility {
                let (lo, hi) = self.util.split_at_mut(depth + 1);
                for (a, b) in lo[depth].iter_mut().zip(&hi[0]) {
                    *a += *b;
                }
                // Re-sort the moves still to try by utility, highest first (Algorithm 1
                // line 32); earlier position breaks ties.
                let util = &lo[depth];
                let rest = &mut list[i..];
                rest.sort_by_key(|c| std::cmp::Reverse(util[B::bit_of(*c)]));
            }
        }
        self.moves[depth] = list;
        Some(result.unwrap_or(Res { win: false, mv: None, carrier: threats, support: supports }))
    }
}

/// A chain of `winner`'s stones in `pos` that joins their edges through `m` with no stone to
/// spare: the group of `m` with each stone dropped in turn while the rest still connects. The
/// smaller a terminal support, the more positions its threat pattern covers.
fn winning_chain<B: BitSet>(pos: &Position<B>, m: Cell, winner: Color) -> B {
    let geom = pos.geometry();
    let group = pos.group(m);
    let mut chain = group;
    for s in group {
        let without = chain.without(s);
        if geom.connects(without, winner) {
            chain = without;
        }
    }
    chain
}
