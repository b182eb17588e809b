//! Solving through a database: stored answers first, and every new answer stored at once.

use std::sync::Mutex;

use nash_board::{BitSet, Position};
use nash_search::{SolveResult, SolverConfig, Stats, WinningMoves};

use crate::db::{Db, DbError};

/// Where an answer came from.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Source {
    /// Found in the database: nothing was solved.
    Db,
    /// Solved now (and stored, if decided).
    Solved,
}

/// The stored answer of `pos` as a solver's result (no nodes spent), if the database has a
/// complete one (a loss, or a win with its move).
pub fn lookup<B: BitSet>(db: &Db, pos: &Position<B>) -> Option<SolveResult<B>> {
    let s = db.get(pos).filter(|s| s.is_complete())?;
    Some(SolveResult { outcome: s.outcome(pos), stats: Stats::default() })
}

/// Solves `pos` unless the database answers it, and stores a new answer.
pub fn solve<B: BitSet>(
    db: &mut Db,
    pos: &Position<B>,
    cfg: &SolverConfig,
) -> Result<(SolveResult<B>, Source), DbError> {
    if let Some(r) = lookup(db, pos) {
        return Ok((r, Source::Db));
    }
    let r = nash_search::solve(pos, cfg);
    db.put(pos, &r.outcome, r.stats.nodes)?;
    Ok((r, Source::Solved))
}

/// Solves every position the database does not answer, side by side as
/// [`nash_search::solve_many`] does, storing each answer the moment its solve ends (a kill
/// loses only the solves then running). Results come in the order of `positions`.
pub fn solve_many<B: BitSet>(
    db: &mut Db,
    positions: &[Position<B>],
    cfg: &SolverConfig,
) -> Result<Vec<(SolveResult<B>, Source)>, DbError> {
    let mut out: Vec<Option<(SolveResult<B>, Source)>> =
        positions.iter().map(|p| lookup(db, p).map(|r| (r, Source::Db))).collect();
    let todo: Vec<usize> = (0..positions.len()).filter(|&i| out[i].is_none()).collect();
    let to_solve: Vec<Position<B>> = todo.iter().map(|&i| positions[i].clone()).collect();
    let shared = Mutex::new((db, None::<DbError>));
    let store = |i: usize, r: &SolveResult<B>| {
        let mut guard = shared.lock().unwrap_or_else(|e| e.into_inner());
        let (db, failed) = &mut *guard;
        if failed.is_none() {
            if let Err(e) = db.put(&to_solve[i], &r.outcome, r.stats.nodes) {
                *failed = Some(e);
            }
        }
    };
    let solved = nash_search::solve_many_each(&to_solve, cfg, &store);
    if let (_, Some(e)) = shared.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(e);
    }
    for (i, r) in todo.into_iter().zip(solved) {
        out[i] = Some((r, Source::Solved));
    }
    Ok(out.into_iter().flatten().collect())
}

/// The exact set of winning moves of `pos`, from the database if it has it, otherwise
/// decided (each move looked up first) and stored.
pub fn winning_moves<B: BitSet>(
    db: &mut Db,
    pos: &Position<B>,
    cfg: &SolverConfig,
) -> Result<(WinningMoves<B>, Source), DbError> {
    if let Some(set) = db.get(pos).and_then(|s| s.winning_set) {
        let legal = pos.legal_moves();
        let w = WinningMoves {
            winning: set,
            losing: legal - set,
            unknown: B::EMPTY,
            stats: Stats::default(),
        };
        return Ok((w, Source::Db));
    }
    let w = nash_search::winning_moves(pos, cfg);
    db.put_winning(pos, &w)?;
    Ok((w, Source::Solved))
}
