//! The negamax alpha-beta search of one board type: iterative deepening, a transposition
//! table, killer and history move ordering, the N-best move filter and the knowledge
//! pipeline's verdicts, with the threat patterns of van Rijswijck 2002 (Appendix B Table 2)
//! carried along every proven value.
//!
//! Values are for the side to move. A proven value lies beyond [`PROVEN`]: a win at ply `p`
//! below the root is worth `WIN - p` (less the carrier's size when knowledge decided it, so a
//! won connection still to be completed ranks after an immediate win), a loss the negation.
//! Every value beyond `PROVEN` is a proof: windows never lie beyond it (a proven win returns at
//! once) and a node whose searched moves all lose goes on past the width filter, so a loss is
//! only claimed when every move that knowledge left was refuted. Knowledge decides interior
//! nodes; a leaf is proven only when the game is over there.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use nash_board::clock::Instant;

use nash_board::{BitSet, Cell, Geometry, Position};
use nash_search::{Analyser, Knowledge, MoveOrdering, Verdict};

use super::table::{Bound, Entry, Table};
use super::Config;
pub(crate) use crate::eval::PROVEN;
use crate::eval::{Evaluator, WIN};
use crate::player::MoveBudget;

/// The value for the side to move of a position won `ply` moves below the root, less `extra`.
fn won(ply: usize, extra: usize) -> f64 {
    WIN - ply as f64 - extra as f64
}

/// A proven value as the table stores it: relative to the node, so that a position reached at
/// another depth reads the same distance to the end.
fn to_table(v: f64, ply: usize) -> f64 {
    if v >= PROVEN {
        v + ply as f64
    } else if v <= -PROVEN {
        v - ply as f64
    } else {
        v
    }
}

fn from_table(v: f64, ply: usize) -> f64 {
    if v >= PROVEN {
        v - ply as f64
    } else if v <= -PROVEN {
        v + ply as f64
    } else {
        v
    }
}

/// The budget of one move: a deadline, a node limit and a cancel flag.
#[derive(Debug)]
struct Limits {
    start: Instant,
    deadline: Option<Instant>,
    time: Option<Duration>,
    nodes: Option<u64>,
    cancel: Option<Arc<AtomicBool>>,
}

impl Limits {
    fn new(budget: &MoveBudget) -> Limits {
        let start = Instant::now();
        Limits {
            start,
            deadline: budget.time.and_then(|t| start.checked_add(t)),
            time: budget.time,
            nodes: budget.nodes,
            cancel: budget.cancel.clone(),
        }
    }

    fn exceeded(&self, nodes: u64) -> bool {
        self.nodes.is_some_and(|n| nodes >= n)
            || self.cancel.as_ref().is_some_and(|c| c.load(Ordering::Relaxed))
            || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

/// Buffers of one ply, reused by every node at that ply.
#[derive(Debug, Default)]
struct Ply {
    /// The evaluation's move scores.
    scores: Vec<(Cell, f64)>,
    /// The moves in search order with their ordering keys.
    list: Vec<(Cell, f64)>,
    /// The knowledge pipeline's order.
    order: Vec<Cell>,
}

/// What one search returns.
#[derive(Debug)]
pub(crate) struct Found {
    pub(crate) mv: Option<Cell>,
    pub(crate) value: f64,
    pub(crate) pv: Vec<Cell>,
    pub(crate) scores: Vec<(Cell, f64)>,
    pub(crate) depth: u32,
    pub(crate) nodes: u64,
    pub(crate) elapsed: Duration,
}

/// A searcher for positions of one board: evaluator, knowledge, table and ordering state,
/// kept from move to move.
#[derive(Debug)]
pub(crate) struct Searcher<B: BitSet> {
    geom: &'static Geometry<B>,
    cfg: Config,
    eval: Evaluator<B>,
    analyser: Option<Analyser<B>>,
    table: Table<B>,
    killers: Vec<[Option<Cell>; 2]>,
    history: Vec<f64>,
    plies: Vec<Ply>,
    /// The triangular principal-variation table: row `p` holds the line from ply `p`.
    pv: Vec<Vec<Cell>>,
    pv_len: Vec<usize>,
    /// The root moves searched in the current iteration with their values.
    root: Vec<(Cell, f64)>,
    nodes: u64,
    stopped: bool,
    limits: Limits,
}

impl<B: BitSet> Searcher<B> {
    /// A searcher for the board `geom`.
    pub(crate) fn new(geom: &'static Geometry<B>, cfg: &Config) -> Searcher<B> {
        let n = geom.cells().len() + 2;
        let knowledge = cfg.knowledge().then(|| {
            let vc = cfg.vc || cfg.mustplay;
            Knowledge {
                threats: cfg.threats,
                fill_in: cfg.fill_in,
                vc: cfg.vc,
                mustplay: cfg.mustplay,
                // The circuit order is free once the connections are built for the verdicts.
                ordering: if vc { MoveOrdering::Resistance } else { MoveOrdering::Centre },
                hsearch: Knowledge::or5_hsearch(),
                ..Knowledge::default()
            }
        });
        Searcher {
            geom,
            cfg: cfg.clone(),
            eval: Evaluator::new(cfg.eval),
            analyser: knowledge.map(|k| Analyser::new(&k, geom, cfg.tt_mib.max(8))),
            table: Table::new(cfg.tt_mib),
            killers: vec![[None; 2]; n + 1],
            history: vec![0.0; B::CAPACITY],
            plies: (0..n + 1)
                .map(|_| Ply {
                    scores: Vec::with_capacity(n),
                    list: Vec::with_capacity(n),
                    order: Vec::with_capacity(n),
                })
                .collect(),
            pv: (0..n + 1).map(|_| vec![Cell::NORTH; n + 1]).collect(),
            pv_len: vec![0; n + 1],
            root: Vec::with_capacity(n),
            nodes: 0,
            stopped: false,
            limits: Limits::new(&MoveBudget::default()),
        }
    }

    /// The board this searcher is for.
    pub(crate) fn geometry(&self) -> &'static Geometry<B> {
        self.geom
    }

    /// Searches `pos` (open, on this searcher's board) by iterative deepening up to
    /// `max_depth` within `budget`.
    pub(crate) fn search(
        &mut self,
        pos: &Position<B>,
        max_depth: u32,
        budget: &MoveBudget,
    ) -> Found {
        self.limits = Limits::new(budget);
        self.nodes = 0;
        self.stopped = false;
        self.killers.iter_mut().for_each(|k| *k = [None; 2]);
        // History from the previous move is still a fair guide; halve it so this move's
        // cut-offs soon dominate.
        self.history.iter_mut().for_each(|h| *h *= 0.5);
        let mut pos = pos.clone();
        let mut found = Found {
            mv: None,
            value: 0.0,
            pv: Vec::new(),
            scores: Vec::new(),
            depth: 0,
            nodes: 0,
            elapsed: Duration::ZERO,
        };
        let max_depth = max_depth.clamp(1, pos.empty_cells().len() as u32);
        for depth in 1..=max_depth {
            self.root.clear();
            let (value, _) = self.node(&mut pos, depth, 0, f64::NEG_INFINITY, f64::INFINITY);
            if self.stopped {
                // A partial iteration searched the previous best move first; a move it found
                // better than that is better (the usual rule of iterative deepening).
                if let Some(&(m, v)) =
                    self.root.iter().max_by(|a, b| a.1.total_cmp(&b.1).then(b.0.cmp(&a.0)))
                {
                    let improves = found.mv.is_none()
                        || self.root.first().is_some_and(|&(first, fv)| first != m && v > fv);
                    if improves {
                        found.mv = Some(m);
                        found.value = v;
                        found.pv = vec![m];
                    }
                }
                break;
            }
            found.value = value;
            found.depth = depth;
            found.pv = self.pv[0][..self.pv_len[0]].to_vec();
            found.mv = found.pv.first().copied();
            found.scores = self.root.clone();
            if value.abs() >= PROVEN || found.mv.is_none() {
                break;
            }
            // Another iteration costs several times this one: do not start what cannot end.
            if let Some(t) = self.limits.time {
                if self.limits.start.elapsed() * 2 > t {
                    break;
                }
            }
        }
        found.scores.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        if found.mv.is_none() {
            // Stopped before the first root move was searched: the best by the static order.
            found.mv = self.plies[0].list.first().map(|&(c, _)| c).or(pos.empty_cells().first());
            found.pv = found.mv.into_iter().collect();
        }
        found.nodes = self.nodes;
        found.elapsed = self.limits.start.elapsed();
        found
    }

    /// The negamax value of `pos` searched `depth` plies deep, `ply` plies below the root,
    /// within the window (`alpha`, `beta`), and the threat pattern proving it when it is
    /// proven (the empty set otherwise).
    fn node(
        &mut self,
        pos: &mut Position<B>,
        depth: u32,
        ply: usize,
        alpha: f64,
        beta: f64,
    ) -> (f64, B) {
        self.pv_len[ply] = ply;
        self.nodes += 1;
        if self.stopped || self.limits.exceeded(self.nodes) {
            self.stopped = true;
            return (0.0, B::EMPTY);
        }
        if let Some(w) = pos.winner() {
            // Only the player who just moved can have connected.
            let v = won(ply, 0);
            return (if w == pos.to_move() { v } else { -v }, B::EMPTY);
        }
        let key = pos.hash();
        let mut tt_move = None;
        if let Some(e) = self.table.get(key) {
            tt_move = e.best_move();
            let v = from_table(e.value, ply);
            if ply > 0 && (u32::from(e.depth) >= depth || v.abs() >= PROVEN) {
                let hit = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => v >= beta,
                    Bound::Upper => v <= alpha,
                };
                if hit {
                    return (v, e.carrier);
                }
            }
        }

        // Knowledge: a decided node is scored as won or lost; an open one gets its moves.
        let me = pos.to_move();
        let mut moves = pos.empty_cells();
        let mut support = B::EMPTY;
        let mut analysis = None;
        let mut root_loss = None;
        // The leaves get the evaluation alone, as in Hexy and van Rijswijck's Table 2: the
        // knowledge pipeline costs as much as an evaluation, and an evaluation that sees the
        // connections (resistance) already rates a connected player highly.
        if let Some(a) = self.analyser.as_mut().filter(|_| depth > 0) {
            let an = a.analyse(pos, ply);
            match an.verdict() {
                Verdict::Win { mv, carrier } => {
                    a.undo(pos, &an);
                    if ply > 0 || mv.is_some() {
                        if ply == 0 {
                            self.pv[0][0] = mv.expect("checked");
                            self.pv_len[0] = 1;
                            self.root.push((self.pv[0][0], won(1, carrier.len())));
                        }
                        return (won(ply + 1, carrier.len()), carrier);
                    }
                }
                Verdict::Loss { carrier } if ply > 0 => {
                    a.undo(pos, &an);
                    return (-won(ply + 1, carrier.len()), carrier);
                }
                // At the root a lost position is still played: every move is searched, so
                // the one the opponent's proof finds hardest is chosen, and the value stays
                // the proven loss.
                Verdict::Loss { carrier } => {
                    a.undo(pos, &an);
                    root_loss = Some(carrier);
                }
                Verdict::Open => {
                    moves = an.moves();
                    support = an.support();
                    analysis = Some(an);
                }
            }
        }

        let r = if depth == 0 || moves.is_empty() {
            let v = self.eval.value(pos).clamp(1.0 - PROVEN, PROVEN - 1.0);
            (v, B::EMPTY)
        } else {
            let node = Candidates { moves, support, tt_move };
            self.children(pos, depth, ply, alpha, beta, node)
        };
        let (mut value, mut carrier) = r;
        if let Some(c) = root_loss.filter(|_| value > -PROVEN) {
            (value, carrier) = (-won(1, c.len()), c);
        }
        if let (Some(an), Some(a)) = (analysis, &self.analyser) {
            if value >= PROVEN {
                carrier |= an.fill_carrier(me);
            } else if value <= -PROVEN {
                carrier |= an.fill_carrier(!me);
            }
            a.undo(pos, &an);
        }
        if self.stopped {
            return (0.0, B::EMPTY);
        }
        if depth > 0 {
            let bound = if value <= alpha {
                Bound::Upper
            } else if value >= beta {
                Bound::Lower
            } else {
                Bound::Exact
            };
            let best =
                if self.pv_len[ply] > ply { B::bit_of(self.pv[ply][ply]) as u16 } else { u16::MAX };
            let proven = value.abs() >= PROVEN;
            self.table.put(Entry {
                key,
                value: to_table(value, ply),
                carrier: if proven { carrier } else { B::EMPTY },
                best,
                depth: depth.min(u32::from(u8::MAX)) as u8,
                bound,
            });
        }
        (value, carrier)
    }

    /// Orders `moves` into this ply's list, best first, and returns how many of them the
    /// width filter admits before widening.
    fn order(&mut self, pos: &Position<B>, ply: usize, moves: B, tt_move: Option<Cell>) -> usize {
        let mut p = std::mem::take(&mut self.plies[ply]);
        p.list.clear();
        let width = self.cfg.width as usize;
        let n = moves.len();
        let by_score = width > 0 && n > width;
        if by_score {
            // Hexy's width (Anshelevich 2000 s.6): only the N moves the evaluation scores best
            // are searched.
            self.eval.move_scores(pos, &mut p.scores);
            p.list.extend(p.scores.iter().filter(|(c, _)| moves.contains(*c)).copied());
            p.list.sort_unstable_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        } else {
            match &mut self.analyser {
                Some(a) => a.order(pos, moves, &mut p.order),
                None => centre_order(pos, moves, &mut p.order),
            }
            // History first (cut-offs elsewhere in the tree), the static order breaking ties.
            let count = p.order.len() as f64;
            p.list.extend(
                p.order
                    .iter()
                    .enumerate()
                    .map(|(i, &c)| (c, self.history[B::bit_of(c)] * count + (count - i as f64))),
            );
            p.list.sort_unstable_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        }
        let admitted = if by_score { width } else { p.list.len() };
        // The table's move, then the killers, go first among the admitted moves.
        let [k0, k1] = self.killers[ply];
        let class = |c: Cell| {
            if Some(c) == tt_move {
                3
            } else if Some(c) == k0 {
                2
            } else if Some(c) == k1 {
                1
            } else {
                0
            }
        };
        let mut front = 0;
        for rank in [3, 2, 1] {
            if let Some(i) = p.list[front..admitted].iter().position(|&(c, _)| class(c) == rank) {
                p.list[front..=front + i].rotate_right(1);
                front += 1;
            }
        }
        self.plies[ply] = p;
        admitted
    }

    /// Searches the children of a node among `node.moves`, best first, in the window
    /// `alpha..beta`: the value and, for a proven loss, the carrier that proves it.
    fn children(
        &mut self,
        pos: &mut Position<B>,
        depth: u32,
        ply: usize,
        mut alpha: f64,
        beta: f64,
        node: Candidates<B>,
    ) -> (f64, B) {
        let Candidates { moves, support, tt_move } = node;
        let admitted = self.order(pos, ply, moves, tt_move);
        let list = std::mem::take(&mut self.plies[ply].list);
        let mut best = f64::NEG_INFINITY;
        let mut loss_carrier = support;
        let mut allowed = moves;
        let mut result = None;
        for (i, &(m, _)) in list.iter().enumerate() {
            if i >= admitted && best > -PROVEN {
                // Past the width only while every move searched loses: a loss is claimed only
                // when no move escapes it.
                break;
            }
            if self.cfg.patterns && !allowed.contains(m) {
                // Outside the threat pattern of a refuted move: it loses too (van Rijswijck
                // 2002 s.2.3).
                continue;
            }
            pos.play_unchecked(m);
            let (v, c) = self.node(pos, depth - 1, ply + 1, -beta, -alpha);
            pos.undo();
            if self.stopped {
                break;
            }
            let v = -v;
            if ply == 0 {
                self.root.push((m, v));
            }
            if v > best {
                best = v;
                self.pv[ply][ply] = m;
                let (head, tail) = self.pv.split_at_mut(ply + 1);
                let from = self.pv_len[ply + 1].max(ply + 1);
                head[ply][ply + 1..from].copy_from_slice(&tail[0][ply + 1..from]);
                self.pv_len[ply] = from;
            }
            if v >= PROVEN {
                // A proven win needs no better move (Table 2 returns at once).
                result = Some((v, c.with(m)));
                self.cut(ply, m, depth);
                break;
            }
            if v <= -PROVEN {
                loss_carrier |= c;
                allowed &= c;
            }
            if v > alpha {
                alpha = v;
            }
            if alpha >= beta {
                self.cut(ply, m, depth);
                break;
            }
        }
        self.plies[ply].list = list;
        if let Some(r) = result {
            return r;
        }
        if best == f64::NEG_INFINITY {
            // Every move was outside the pattern: impossible for a sound pattern, but a value
            // must be returned; the evaluation is one.
            return (self.eval.value(pos).clamp(1.0 - PROVEN, PROVEN - 1.0), B::EMPTY);
        }
        (best, if best <= -PROVEN { loss_carrier } else { B::EMPTY })
    }

    /// Records a cut-off by `m`: a killer at this ply and history weighted by depth.
    fn cut(&mut self, ply: usize, m: Cell, depth: u32) {
        let k = &mut self.killers[ply];
        if k[0] != Some(m) {
            k[1] = k[0];
            k[0] = Some(m);
        }
        self.history[B::bit_of(m)] += f64::from(depth * depth);
    }
}

/// The moves a node searches and what it knows of them before searching.
#[derive(Clone, Copy, Debug)]
struct Candidates<B> {
    /// The moves to search.
    moves: B,
    /// The cells the node's knowledge (fill-in, connections) used: part of any loss carrier.
    support: B,
    /// The table's best move, searched first.
    tt_move: Option<Cell>,
}

/// `moves` nearest the centre first, board order breaking ties (the fallback order without
/// knowledge).
fn centre_order<B: BitSet>(pos: &Position<B>, moves: B, out: &mut Vec<Cell>) {
    out.clear();
    out.extend(moves.iter());
    let (cols, rows) = (pos.cols() as i32, pos.rows() as i32);
    out.sort_unstable_by_key(|c| {
        let dc = 2 * i32::from(c.col()) - (cols - 1);
        let dr = 2 * i32::from(c.row()) - (rows - 1);
        ((dc.abs() + dr.abs() + (dc + dr).abs()) / 2, B::bit_of(*c))
    });
}
