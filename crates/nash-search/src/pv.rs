//! The principal variation of a solved position: the winner's winning moves, each answered by
//! the loser's most stubborn defence, played out until the game is over.
//!
//! Each position of the line is solved again by one df-pn worker in one transposition table, so
//! after the first solve most of the line's proofs are already there, the worker's knowledge
//! caches stay warm, and the re-solves are short. The winner plays its quickest proven win:
//! a move that connects at once, else a proven winning move that leaves it nearest its
//! connection (the fewest empty cells still to fill), of the few nearer than the solver's own
//! move that are tried, else the solver's move; where the solver wins without naming a move (fill-in
//! decided the position), the first move inside the proof's carrier that keeps the win is
//! played. The loser picks, among the moves inside the opponent's proof carrier (every move
//! outside it loses to the same strategy, van Rijswijck 2002 s.2.3), the one whose refutation
//! cost the most nodes, as the table's work counts or a re-solve reports it; the larger
//! refutation carrier breaks ties. That is the reply that resists longest by the search's own
//! measure, not a guarantee of the longest game.

use nash_board::clock::Instant;

use nash_board::{BitSet, Cell, Color, Position};

use crate::config::SolverConfig;
use crate::outcome::{Outcome, SolveResult};
use crate::table::Table;
use crate::warm::{SharedTable, Worker};

/// The principal variation of `pos`: the moves of both players from `pos` until someone has
/// won, the winner playing winning moves and the loser its most stubborn defence.
///
/// The line is empty when the game is already over or the first solve runs out of budget, and
/// it stops early where a position of it cannot be solved within what is left of the budget
/// (`cfg.budget` bounds the whole line: the time from the call, the nodes summed over its
/// solves). It never has more moves than `pos` has empty cells. Every move is legal, and after
/// each of the winner's moves the position stays won for the winner. Whatever `cfg.kind`, the
/// line is found by one-thread df-pn, which finds the same values as every solver.
///
/// ```
/// use nash_board::{Bitboard, Position};
/// use nash_search::{principal_variation, SolverConfig};
///
/// let pos = Position::<Bitboard>::square(3).unwrap();
/// let line = principal_variation(&pos, &SolverConfig::default());
/// let mut end = pos.clone();
/// for &m in &line {
///     end.play(m).unwrap();
/// }
/// // The first player wins 3x3 Hex.
/// assert_eq!(end.winner(), Some(pos.to_move()));
/// ```
pub fn principal_variation<B: BitSet>(pos: &Position<B>, cfg: &SolverConfig) -> Vec<Cell> {
    if let Some(tiny) = crate::narrowed(pos) {
        return principal_variation(&tiny, cfg);
    }
    let _span = tracing::debug_span!("principal_variation").entered();
    match SharedTable::new(cfg, pos.geometry()) {
        Ok(table) => line_in(pos, cfg, &table, None),
        Err(_) => Vec::new(),
    }
}

/// [`principal_variation`] in a table the caller owns (a [`crate::SolverTable`]'s, which may
/// hold the proofs of the solve before it). With `first`, the winning move a solve of `pos`
/// named, the line starts with it when the position after it is proven lost for the opponent,
/// so that the line and the solve's answer agree.
pub(crate) fn line_in<B: BitSet>(
    pos: &Position<B>,
    cfg: &SolverConfig,
    table: &SharedTable<B>,
    mut first: Option<Cell>,
) -> Vec<Cell> {
    let start = Instant::now();
    // One df-pn worker for the whole line, whatever the solver: the values are the same, and
    // its caches stay warm from one position of the line to the next.
    let mut worker = Worker::new(pos, cfg, table);
    let mut line = Vec::new();
    let mut used = 0u64;
    let mut p = pos.clone();
    while p.winner().is_none() && !p.empty_cells().is_empty() {
        let Some(budget) = cfg.budget.left(start, used) else { break };
        let mut solve = |q: &Position<B>| {
            let r = worker.solve(q, &budget);
            used += r.stats.nodes;
            r
        };
        let named = first.take().filter(|&m| p.legal_moves().contains(m)).filter(|&m| {
            let mut c = p.clone();
            c.play_unchecked(m);
            c.winner() == Some(p.to_move()) || matches!(solve(&c).outcome, Outcome::Loss { .. })
        });
        let mv = named.or_else(|| match solve(&p).outcome {
            Outcome::Win { winning_move: Some(m), .. } => {
                Some(quickest_win(&p, m, &table.table, cfg.canonical_keys, &mut solve))
            }
            Outcome::Win { winning_move: None, carrier } => keep_win(&p, carrier, &mut solve),
            Outcome::Loss { carrier } => {
                defence(&p, carrier, &table.table, cfg.canonical_keys, &mut solve)
            }
            Outcome::Unknown { .. } => None,
        });
        let Some(mv) = mv else { break };
        p.play_unchecked(mv);
        line.push(mv);
    }
    line
}

/// Moves tried for a shorter win than the solver's, at most, per move of the winner.
const SHORTER_TRIES: usize = 6;

/// The winner's quickest proven win in the won position `p`, whose solve named the winning
/// move `named`: a move that connects at once, else the first of the moves that leave the
/// winner nearer its connection than `named` does ([`distance`], nearest first, then in board
/// order, at most [`SHORTER_TRIES`] of them) whose position is proven lost for the opponent
/// (by the table, or solved again), else `named`.
fn quickest_win<B: BitSet>(
    p: &Position<B>,
    named: Cell,
    table: &Table<B>,
    canonical: bool,
    solve: &mut impl FnMut(&Position<B>) -> SolveResult<B>,
) -> Cell {
    let me = p.to_move();
    let after = |m: Cell| {
        let mut c = p.clone();
        c.play_unchecked(m);
        c
    };
    let to_beat = distance(&after(named), me);
    let mut nearer: Vec<(usize, Cell)> = Vec::new();
    for m in p.legal_moves().iter() {
        let c = after(m);
        if c.winner() == Some(me) {
            return m;
        }
        let d = distance(&c, me);
        if d < to_beat {
            nearer.push((d, m));
        }
    }
    nearer.sort_unstable_by_key(|&(d, m)| (d, B::bit_of(m)));
    for &(_, m) in nearer.iter().take(SHORTER_TRIES) {
        let c = after(m);
        let key = if canonical { c.canonical_hash() } else { c.hash() };
        // `dn == 0`: the opponent, to move there, is proven to lose.
        let proven = match table.get(key).filter(|e| e.is_solved()) {
            Some(e) => e.dn == 0,
            None => matches!(solve(&c).outcome, Outcome::Loss { .. }),
        };
        if proven {
            return m;
        }
    }
    named
}

/// The fewest empty cells `color` must still fill to connect its two edges in `p`, its own
/// stones free and the opponent's in the way (`usize::MAX` when it cannot connect): how far the
/// winner's line has to go.
fn distance<B: BitSet>(p: &Position<B>, color: Color) -> usize {
    let g = p.geometry();
    let own = p.stones(color) & g.cells();
    let empty = p.empty_cells();
    let [from, to] = color.edges();
    let (start, goal) = (g.edge_cells(from), g.edge_cells(to));
    // The cells reached with `k` empty cells filled, layer by layer.
    let mut reached = (start & own).flood(own);
    for k in 0..=empty.len() {
        if reached.intersects(goal) {
            return k;
        }
        let add = (reached.dilate() | start) & empty & !reached;
        if add.is_empty() {
            break;
        }
        reached = (reached | add).flood(own);
    }
    usize::MAX
}

/// A move that keeps a won position `p` won when the solver named none: the first cell of the
/// proof's `carrier`, then of the board, whose position is lost for the opponent.
fn keep_win<B: BitSet>(
    p: &Position<B>,
    carrier: B,
    solve: &mut impl FnMut(&Position<B>) -> SolveResult<B>,
) -> Option<Cell> {
    let legal = p.legal_moves();
    let inside = legal & carrier;
    for m in inside.iter().chain((legal & !carrier).iter()) {
        let mut c = p.clone();
        c.play_unchecked(m);
        if c.winner() == Some(p.to_move()) {
            return Some(m);
        }
        match solve(&c).outcome {
            Outcome::Loss { .. } => return Some(m),
            Outcome::Win { .. } => {}
            Outcome::Unknown { .. } => return None,
        }
    }
    None
}

/// The loser's most stubborn move in the lost position `p`, whose opponent's proof has
/// `carrier`: among the legal moves inside it (all of them if none is), the one whose
/// refutation took the most nodes, then has the larger carrier, then comes first.
fn defence<B: BitSet>(
    p: &Position<B>,
    carrier: B,
    table: &Table<B>,
    canonical: bool,
    solve: &mut impl FnMut(&Position<B>) -> SolveResult<B>,
) -> Option<Cell> {
    let legal = p.legal_moves();
    let inside = legal & carrier;
    let candidates = if inside.is_empty() { legal } else { inside };
    let mut best: Option<((u64, usize), Cell)> = None;
    for m in candidates.iter() {
        let mut c = p.clone();
        c.play_unchecked(m);
        if c.winner().is_some() {
            // Only the winner can connect here; a move that hands them the game resists least.
            best = best.or(Some(((0, 0), m)));
            continue;
        }
        // A refutation the table holds (the solve of `p` just searched its children) is read
        // from it; another is solved again.
        // Its work and its carrier's size are the same in every frame.
        let key = if canonical { c.canonical_hash() } else { c.hash() };
        if let Some(e) = table.get(key).filter(|e| e.pn == 0) {
            let score = (u64::from(e.work), e.carrier.len());
            if !matches!(best, Some((s, _)) if s >= score) {
                best = Some((score, m));
            }
            continue;
        }
        let r = solve(&c);
        let score = match r.outcome {
            Outcome::Win { carrier, .. } => (r.stats.nodes, carrier.len()),
            // The position was not lost after all (impossible for a correct solver): the move
            // that wins is the best defence there is.
            Outcome::Loss { .. } => return Some(m),
            // Too hard to refute within the budget: as stubborn as a defence gets.
            Outcome::Unknown { .. } => (u64::MAX, usize::MAX),
        };
        if !matches!(best, Some((s, _)) if s >= score) {
            best = Some((score, m));
        }
    }
    best.map(|(_, m)| m)
}
