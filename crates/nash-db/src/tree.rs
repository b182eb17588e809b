//! A position decided from the database alone: a search of its first plies whose leaves are
//! stored answers (the root of a split solve, once its jobs are merged in).

use nash_board::{BitSet, Position};
use nash_search::Outcome;

use crate::db::Db;

/// The outcome of `pos` from stored answers alone, looking `depth` moves ahead: the player to
/// move wins when some move leads to a stored loss of the opponent (or wins at once), and
/// loses when every move leads to a stored win of the opponent. `None` when the stored
/// answers do not decide it. Every legal move is tried: no pruning, so nothing but the stored
/// values is trusted. A derived answer's carrier is every empty cell.
pub fn from_tree<B: BitSet>(db: &Db, pos: &Position<B>, depth: usize) -> Option<Outcome<B>> {
    if let Some(w) = pos.winner() {
        let carrier = B::EMPTY;
        return Some(if w == pos.to_move() {
            Outcome::Win { winning_move: None, carrier }
        } else {
            Outcome::Loss { carrier }
        });
    }
    if let Some(s) = db.get(pos).filter(|s| s.is_complete()) {
        return Some(s.outcome(pos));
    }
    if depth == 0 {
        return None;
    }
    let mut child = pos.clone();
    let mut all_lose = true;
    for m in pos.legal_moves().iter() {
        child.play_unchecked(m);
        let value = from_tree(db, &child, depth - 1).map(|o| o.wins() == Some(true));
        child.undo();
        match value {
            // The opponent loses after m: m wins.
            Some(false) => {
                return Some(Outcome::Win { winning_move: Some(m), carrier: pos.empty_cells() })
            }
            Some(true) => {}
            None => all_lose = false,
        }
    }
    all_lose.then(|| Outcome::Loss { carrier: pos.empty_cells() })
}
