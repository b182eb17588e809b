//! The principal variation of a stored position: the line the database's answers give, with a
//! solve where they give nothing more.

use nash_board::{BitSet, Cell, Position};
use nash_search::{SolverConfig, SolverTable};

use crate::db::Db;

/// The principal variation of `pos` read from `db`, as [`SolverTable::principal_variation`]
/// gives it for a solve: the winner's winning moves, each answered by the loser's most
/// stubborn defence, until someone has won. Where the database holds a position's winning
/// move (or the value of a move's position), the line follows it; the loser plays, among the
/// moves inside the winner's stored carrier, the one whose stored refutation took the most
/// nodes. From the first position the database cannot continue, the line is solved in `table`
/// within `cfg`'s budget. With `first`, the winning move reported for `pos`, the line starts
/// with it. Every move is legal, and each of the winner's moves is a proven win.
pub fn principal_variation<B: BitSet>(
    db: &Db,
    pos: &Position<B>,
    cfg: &SolverConfig,
    table: &mut SolverTable<B>,
    first: Option<Cell>,
) -> Vec<Cell> {
    let mut line = stored_line(db, pos, first);
    let mut end = pos.clone();
    for &m in &line {
        end.play_unchecked(m);
    }
    if end.winner().is_none() && !end.empty_cells().is_empty() {
        line.extend(table.principal_variation(&end, cfg));
    }
    line
}

/// The part of [`principal_variation`] the database gives: the line from `pos` (starting with
/// `first` when it is legal) as far as the stored answers lead, without a solve.
pub fn stored_line<B: BitSet>(db: &Db, pos: &Position<B>, first: Option<Cell>) -> Vec<Cell> {
    let mut line = Vec::new();
    let mut p = pos.clone();
    let mut first = first.filter(|&m| p.legal_moves().contains(m));
    while p.winner().is_none() && !p.empty_cells().is_empty() {
        let Some(m) = first.take().or_else(|| stored_move(db, &p)) else { break };
        p.play_unchecked(m);
        line.push(m);
    }
    line
}

/// The database's next move of the line at `p`: for a win, the stored winning move, else the
/// move whose position is stored lost for the opponent with the fewest nodes; for a loss, the
/// defence whose stored refutation took the most nodes. `None` when the database does not say.
fn stored_move<B: BitSet>(db: &Db, p: &Position<B>) -> Option<Cell> {
    let legal = p.legal_moves();
    let stored = db.get(p);
    if let Some(s) = &stored {
        if s.wins {
            let named = s.winning_move.or(s.winning_set.and_then(|w| w.first()));
            if let Some(m) = named.filter(|&m| legal.contains(m)) {
                return Some(m);
            }
        }
    }
    // The values of the moves' positions, for the opponent to move there.
    let child = |m: Cell| {
        let mut c = p.clone();
        c.play_unchecked(m);
        if c.winner().is_some() {
            // Only the player who moved can have connected.
            return Some((false, 0));
        }
        db.get(&c).map(|s| (s.wins, s.nodes))
    };
    match stored {
        Some(s) if !s.wins => {
            let carrier = s.carrier.map_or(legal, |c| c & legal);
            let candidates = if carrier.is_empty() { legal } else { carrier };
            let mut best: Option<(u64, Cell)> = None;
            for m in candidates.iter() {
                if let Some((true, nodes)) = child(m) {
                    if !matches!(best, Some((n, _)) if n >= nodes) {
                        best = Some((nodes, m));
                    }
                }
            }
            best.map(|(_, m)| m)
        }
        _ => {
            let mut best: Option<(u64, Cell)> = None;
            for m in legal.iter() {
                if let Some((false, nodes)) = child(m) {
                    if !matches!(best, Some((n, _)) if n <= nodes) {
                        best = Some((nodes, m));
                    }
                }
            }
            best.map(|(_, m)| m)
        }
    }
}
