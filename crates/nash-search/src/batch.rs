//! Solving many positions at once: the threads take whole positions, one each, rather than
//! sharing the search of one (job-level parallelism).
//!
//! Splitting one df-pn search between threads costs work the single thread would not do: a
//! helper refutes a root move that the proof does not need, or two workers overlap below one
//! move. On the 49 one-move 7×7 openings two threads per position took 81 to 88 s, and the same
//! positions solved two at a time on one thread each took 66 s (docs/solving.md). A set of
//! positions (an opening map, a regression suite) is solved fastest this way.

use std::sync::atomic::{AtomicUsize, Ordering};

use nash_board::{BitSet, Position};

use crate::config::SolverConfig;
use crate::outcome::SolveResult;
use crate::solve;

/// Solves every position of `positions` and returns the results in the same order.
///
/// `cfg.threads` threads each take the next unsolved position and solve it alone, so the
/// positions run side by side; when there are fewer positions than threads, each solve gets an
/// equal share of the threads. The memory limit `cfg.tt_mib` holds for the whole batch: each
/// running solve gets its share. The budget applies to each solve (a time limit counts from
/// that solve's start), and cancelling it stops them all.
pub fn solve_many<B: BitSet>(positions: &[Position<B>], cfg: &SolverConfig) -> Vec<SolveResult<B>> {
    let running = cfg.threads.max(1).min(positions.len()).max(1);
    let each = SolverConfig {
        threads: (cfg.threads / running).max(1),
        tt_mib: (cfg.tt_mib / running).max(1),
        ..cfg.clone()
    };
    if running == 1 {
        return positions.iter().map(|p| solve(p, &each)).collect();
    }
    let next = AtomicUsize::new(0);
    let solved: Vec<Vec<(usize, SolveResult<B>)>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..running)
            .map(|_| {
                s.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(pos) = positions.get(i) else { break mine };
                        mine.push((i, solve(pos, &each)));
                    }
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    });
    let mut all: Vec<_> = solved.into_iter().flatten().collect();
    all.sort_by_key(|&(i, _)| i);
    all.into_iter().map(|(_, r)| r).collect()
}

#[cfg(test)]
mod tests {
    use nash_board::{Bitboard, Cell, MoveList, Position};

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

    /// Side by side, each position gets what it gets alone: the same value and the same search
    /// (one thread each, so the node counts are deterministic).
    #[test]
    fn a_batch_solves_each_position_as_alone() {
        let positions = openings(5);
        let one = SolverConfig::default();
        let two = SolverConfig { threads: 2, ..SolverConfig::default() };
        let batch = solve_many(&positions, &two);
        assert_eq!(batch.len(), positions.len());
        for (pos, r) in positions.iter().zip(&batch) {
            let alone = solve(pos, &one);
            assert_eq!(r.outcome, alone.outcome, "{pos:?}");
            assert_eq!(r.stats.nodes, alone.stats.nodes, "{pos:?}");
        }
    }

    /// One position and two threads: the solve gets both threads.
    #[test]
    fn fewer_positions_than_threads_share_the_threads() {
        let mut pos = Position::<Bitboard>::square(5).expect("board size");
        "c3".parse::<MoveList>().expect("moves").play_on(&mut pos).expect("legal");
        let two = SolverConfig { threads: 2, ..SolverConfig::default() };
        let batch = solve_many(std::slice::from_ref(&pos), &two);
        assert_eq!(batch.len(), 1);
        assert_eq!(
            batch[0].outcome.winner(pos.to_move()),
            solve(&pos, &two).outcome.winner(pos.to_move())
        );
        assert!(solve_many::<Bitboard>(&[], &two).is_empty());
    }
}
