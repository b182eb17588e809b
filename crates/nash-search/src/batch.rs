//! Solving a set of positions: the threads take whole positions, one each, rather than sharing
//! the search of one (job-level parallelism), and the solves share one transposition table.
//!
//! Splitting one df-pn search between threads costs work that one thread would not do: a
//! second worker refutes a root move that the proof does not need, or two workers overlap
//! below one move. Two positions solved side by side on one thread each cost what they cost
//! alone (node for node), less what the other's proofs in the shared table save. On the 49
//! one-move 7×7 openings this is the fastest use of two cores (docs/solving.md). [`solve_many`]
//! and [`crate::winning_moves`] (whose solves are the positions after each move) run this way.

use std::sync::atomic::{AtomicUsize, Ordering};

use nash_board::{BitSet, Position};

use crate::config::SolverConfig;
use crate::context::Setup;
use crate::entry::solve_in;
use crate::outcome::{SolveResult, Stats};
use crate::progress;

/// Solves every position of `positions` and returns the results in the same order.
///
/// With `cfg.threads` threads the positions are solved side by side, each on one thread (a
/// single position gets them all, through [`crate::solve`]'s parallel df-pn); all the solves of
/// positions on one board share a transposition table (solved entries are facts about
/// positions, so sharing never changes a value, and one solve's proofs shorten another's).
/// The memory limit `cfg.tt_mib` holds for the whole set: every running solve's caches get a
/// share, and the shared table the rest. The budget applies to each solve (a time limit counts
/// from that solve's start); cancelling it stops them all.
pub fn solve_many<B: BitSet>(positions: &[Position<B>], cfg: &SolverConfig) -> Vec<SolveResult<B>> {
    solve_many_each(positions, cfg, &|_, _| {})
}

/// [`solve_many`], calling `each(i, result)` as soon as position `i` is solved (from the thread
/// that solved it), so that a caller can keep every result the moment it exists: a process
/// killed part way loses only the solves still running.
pub fn solve_many_each<B: BitSet>(
    positions: &[Position<B>],
    cfg: &SolverConfig,
    each: &(dyn Fn(usize, &SolveResult<B>) + Sync),
) -> Vec<SolveResult<B>> {
    progress::announce(cfg, positions.len());
    let _span = tracing::debug_span!("solve_many", positions = positions.len()).entered();
    many(positions, cfg, each)
}

/// [`solve_many_each`] without announcing the positions to the progress (each is counted as
/// it is finished).
fn many<B: BitSet>(
    positions: &[Position<B>],
    cfg: &SolverConfig,
    each: &(dyn Fn(usize, &SolveResult<B>) + Sync),
) -> Vec<SolveResult<B>> {
    let Some(first) = positions.first() else { return Vec::new() };
    let counted = |i: usize, r: SolveResult<B>| {
        each(i, &r);
        progress::finished(cfg);
        r
    };
    if positions.len() == 1 {
        // Nothing to put beside it: the solve gets every thread.
        return vec![counted(0, crate::entry::solve_alone(first, cfg))];
    }
    if positions.iter().any(|p| !std::ptr::eq(p.geometry(), first.geometry())) {
        // Boards of several sizes: a table per solve.
        let one = crate::context::one_thread(cfg);
        return side_by_side(positions.len(), cfg.threads, |i| {
            counted(i, crate::entry::solve_alone(&positions[i], &one))
        });
    }
    if let Some(tiny) = positions.iter().map(crate::narrowed).collect::<Option<Vec<_>>>() {
        let wide = |i: usize, r: &SolveResult<_>| each(i, &r.clone().convert());
        return many(&tiny, cfg, &wide).into_iter().map(SolveResult::convert).collect();
    }
    let setup = Setup::set(cfg, first.geometry());
    let table = match setup.table() {
        Ok(t) => t,
        Err(outcome) => {
            let failed = SolveResult { outcome, stats: Stats::default() };
            return (0..positions.len()).map(|i| counted(i, failed.clone())).collect();
        }
    };
    let ctx = setup.ctx(&table);
    side_by_side(positions.len(), cfg.threads, |i| counted(i, solve_in(&positions[i], &ctx)))
}

/// Runs `job(0..count)` on `threads` threads ([`crate::context::at_once`] of them at most),
/// each taking whole jobs, and returns the results in index order.
///
/// The jobs start in index order: each thread that falls idle takes the lowest job not yet
/// started, so a caller that puts the longest jobs first keeps both threads busy to the end.
pub(crate) fn side_by_side<R: Send>(
    count: usize,
    threads: usize,
    job: impl Fn(usize) -> R + Sync + Send,
) -> Vec<R> {
    let threads = crate::context::at_once(threads);
    if threads > 1 && count > 1 {
        if let Ok(pool) = rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
            let next = AtomicUsize::new(0);
            // Every thread of the pool takes the next job until none is left, keeping its own.
            let taken: Vec<Vec<(usize, R)>> = pool.broadcast(|_| {
                let mut mine = Vec::new();
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= count {
                        break mine;
                    }
                    mine.push((i, job(i)));
                }
            });
            let mut out: Vec<Option<R>> = (0..count).map(|_| None).collect();
            for (i, r) in taken.into_iter().flatten() {
                out[i] = Some(r);
            }
            return out.into_iter().map(|r| r.expect("every job ran to its end")).collect();
        }
    }
    (0..count).map(job).collect()
}

#[cfg(test)]
mod tests {
    use nash_board::{Bitboard, Cell, Position};

    use super::*;

    fn openings(size: usize) -> Vec<Position<Bitboard>> {
        let empty = Position::<Bitboard>::square(size).expect("board size");
        empty
            .empty_cells()
            .iter()
            .map(|c: Cell| {
                let mut p = empty.clone();
                p.play(c).expect("empty cell");
                p
            })
            .collect()
    }

    /// Side by side or one after another, every position gets the value it gets alone.
    #[test]
    fn a_set_gets_the_values_of_its_positions() {
        let one = SolverConfig::default();
        let mut mixed = openings(5);
        mixed.extend(openings(4));
        for (positions, threads) in [(openings(5), 1), (openings(5), 2), (mixed, 2)] {
            let batch = solve_many(&positions, &SolverConfig { threads, ..one.clone() });
            assert_eq!(batch.len(), positions.len());
            for (pos, r) in positions.iter().zip(&batch) {
                let alone = crate::solve(pos, &one);
                assert_eq!(r.outcome.winner(pos.to_move()), alone.outcome.winner(pos.to_move()));
                assert!(r.outcome.wins().is_some(), "{pos:?}");
            }
        }
        assert!(solve_many::<Bitboard>(&[], &one).is_empty());
        let alone = &openings(5)[12..13];
        let two = SolverConfig { threads: 2, ..one.clone() };
        let to_move = alone[0].to_move();
        let r = &solve_many(alone, &two)[0];
        assert_eq!(
            r.outcome.winner(to_move),
            crate::solve(&alone[0], &one).outcome.winner(to_move)
        );
    }

    #[test]
    fn results_come_in_the_order_of_the_jobs() {
        for threads in [1, 2, 3] {
            let out = side_by_side(50, threads, |i| i * i);
            assert_eq!(out, (0..50).map(|i| i * i).collect::<Vec<_>>());
        }
    }

    #[test]
    fn jobs_start_in_index_order() {
        // The two long jobs first: two threads start them both before any other.
        let started = std::sync::Mutex::new(Vec::new());
        side_by_side(12, 2, |i| {
            started.lock().expect("no panic").push(i);
            if i < 2 {
                std::thread::sleep(std::time::Duration::from_millis(100));
            }
        });
        let mut first = started.into_inner().expect("no panic")[..2].to_vec();
        first.sort_unstable();
        assert_eq!(first, [0, 1]);
    }
}
