//! The re-solves of a build: the solvers of each re-solving thread ([`Workers`]), a re-solve in
//! its stages (without fill-in, then with it), and the threads that run them side by side.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use nash_board::{BitSet, Color, Position};
use nash_search::{Budget, Outcome, SolveResult, StopReason, Worker};

use crate::cpu::thread_cpu;
use crate::error::CertifyError;
use crate::plan::Planner;

/// The budget of a whole build and when it started: each re-solve gets what is left.
#[derive(Clone, Copy)]
pub(crate) struct Allowance<'b> {
    pub(crate) budget: &'b Budget,
    pub(crate) start: Instant,
}

impl Allowance<'_> {
    /// What is left after `used` nodes since the start, or why nothing is.
    pub(crate) fn left(self, used: u64) -> Result<Budget, CertifyError> {
        let (budget, start) = (self.budget, self.start);
        let Some(left) = budget.left(start, used) else {
            let out_of_time = budget.time.is_some_and(|t| start.elapsed() >= t);
            let out_of_nodes = budget.nodes.is_some_and(|n| used >= n);
            return Err(CertifyError::Unknown(match (out_of_time, out_of_nodes) {
                (true, _) => StopReason::TimeLimit,
                (_, true) => StopReason::NodeLimit,
                _ => StopReason::Cancelled,
            }));
        };
        Ok(left)
    }
}

/// The solvers of one re-solving thread: the worker, the one with fill-in that takes over
/// after [`crate::CertifyConfig::fill_in_beyond`] nodes, and with
/// [`crate::CertifyConfig::winner_fill_in`] one for each player taken as the winner; all in the
/// build's table.
pub(crate) struct Workers<'t, B: BitSet> {
    pub(crate) planner: Planner<B>,
    pub(crate) worker: Worker<'t, B>,
    pub(crate) filler: Option<(u64, Worker<'t, B>)>,
    pub(crate) for_winner: Option<[Worker<'t, B>; 2]>,
    /// The CPU time this thread spent in re-solves without fill-in that ran out of their
    /// `fill_in_beyond` nodes and were given up for the worker with fill-in.
    pub(crate) given_up: Duration,
}

impl<B: BitSet> Workers<'_, B> {
    /// Re-solves `pos` with what is left of `allowed` after `used` nodes, adding the nodes
    /// searched to `used` and setting `filled` when the worker with fill-in took over; `winner`
    /// is the player the winner's fill-in takes as the winner.
    pub(crate) fn solve(
        &mut self,
        pos: &Position<B>,
        allowed: Allowance<'_>,
        used: &mut u64,
        filled: &mut bool,
        winner: Color,
    ) -> Result<SolveResult<B>, CertifyError> {
        let Workers { worker, filler, for_winner, given_up, .. } = self;
        // The winner's fill-in is one stage: `fill_in_beyond` does not apply to it.
        let beyond = if for_winner.is_some() { None } else { filler.as_ref().map(|f| f.0) };
        in_stages(beyond, allowed, used, filled, |stage, b| {
            // The thread's CPU time of a first stage that may be given up.
            let began = (stage == Stage::First && beyond.is_some()).then(thread_cpu).flatten();
            let r = match (for_winner.as_mut(), stage, filler.as_mut()) {
                (Some(w), _, _) => w[winner.index()].solve(pos, &b),
                (None, Stage::FillIn, Some((_, f))) => f.solve(pos, &b),
                _ => worker.solve(pos, &b),
            };
            if matches!(r.outcome, Outcome::Unknown { reason: StopReason::NodeLimit }) {
                if let Some((a, b)) = began.zip(thread_cpu()) {
                    *given_up += b.saturating_sub(a);
                }
            }
            r
        })
    }

    /// After `result`, the solve of `p` (the winner to move) that found the winner's move:
    /// solves the position the builder goes on to, the loser's stones outside the carrier and
    /// then the move, so that the builder's own re-solve of it is a table hit. Nothing when
    /// that position is left to the checker's search (at most `search` empty cells).
    pub(crate) fn solve_ahead(
        &mut self,
        p: &Position<B>,
        result: &Result<SolveResult<B>, CertifyError>,
        search: usize,
        allowed: Allowance<'_>,
        used: &mut u64,
        winner: Color,
    ) {
        let Ok(SolveResult { outcome: Outcome::Win { winning_move: Some(m), carrier }, .. }) =
            result
        else {
            return;
        };
        let keep = carrier.with(*m) & p.empty_cells();
        if p.to_move() != winner || keep.len() <= search + 1 {
            return;
        }
        let mut after = p.clone();
        after.fill(!winner, p.empty_cells() - keep);
        after.play_unchecked(*m);
        if after.winner().is_none() {
            let _ = self.solve(&after, allowed, used, &mut false, winner);
        }
    }
}

/// Runs `job(worker, i)` for every `i < count` side by side, a thread per worker, each taking
/// the next index as it is free: the results in the order of `i`, and the threads' CPU time.
pub(crate) fn on_threads<'t, B: BitSet, T: Send>(
    workers: &mut [Workers<'t, B>],
    count: usize,
    job: impl Fn(&mut Workers<'t, B>, usize) -> T + Sync,
) -> (Vec<T>, Duration) {
    let next = AtomicUsize::new(0);
    let (job, next) = (&job, &next);
    let threads: Vec<_> = std::thread::scope(|scope| {
        let handles: Vec<_> = workers
            .iter_mut()
            .map(|w| {
                scope.spawn(move || {
                    let cpu = thread_cpu();
                    let mut done = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= count {
                            break;
                        }
                        done.push((i, job(w, i)));
                    }
                    let cpu = thread_cpu().zip(cpu).map(|(b, a)| b.saturating_sub(a));
                    (done, cpu.unwrap_or_default())
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().expect("a certificate thread panicked")).collect()
    });
    let mut all = Vec::with_capacity(count);
    let mut total = Duration::ZERO;
    for (done, cpu) in threads {
        total += cpu;
        all.extend(done);
    }
    all.sort_by_key(|(i, _)| *i);
    (all.into_iter().map(|(_, t)| t).collect(), total)
}

/// A stage of a re-solve ([`in_stages`]).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Stage {
    /// The solve itself, or with `fill_in_beyond` the one without fill-in within that many
    /// nodes.
    First,
    /// With `fill_in_beyond`, the solve with fill-in after the first ran out of nodes.
    FillIn,
}

/// A re-solve in its stages within what is left of `allowed` after `used` nodes:
/// `run(stage, budget)` makes each. Without `beyond`, one; with it, the first within `beyond`
/// nodes, then, if those ran out before the budget did, the second with what is left, and
/// `filled` set. The nodes searched are added to `used`.
pub(crate) fn in_stages<B: BitSet>(
    beyond: Option<u64>,
    allowed: Allowance<'_>,
    used: &mut u64,
    filled: &mut bool,
    mut run: impl FnMut(Stage, Budget) -> SolveResult<B>,
) -> Result<SolveResult<B>, CertifyError> {
    let b = allowed.left(*used)?;
    let Some(beyond) = beyond else {
        let r = run(Stage::First, b);
        *used += r.stats.nodes;
        return known(r);
    };
    let short = b.nodes.map_or(true, |n| n > beyond);
    let r =
        run(Stage::First, Budget { nodes: Some(b.nodes.map_or(beyond, |n| n.min(beyond))), ..b });
    *used += r.stats.nodes;
    if !matches!(r.outcome, Outcome::Unknown { reason: StopReason::NodeLimit } if short) {
        return known(r);
    }
    *filled = true;
    let r = run(Stage::FillIn, allowed.left(*used)?);
    *used += r.stats.nodes;
    known(r)
}

/// A solve's result as the builder takes it: an outcome of `Unknown` is an error.
fn known<B: BitSet>(r: SolveResult<B>) -> Result<SolveResult<B>, CertifyError> {
    match r.outcome {
        Outcome::Unknown { reason } => Err(CertifyError::Unknown(reason)),
        _ => Ok(r),
    }
}

/// One re-solve of a set solved side by side: the position's index, the result, the nodes
/// searched and whether the worker with fill-in took over.
pub(crate) struct Resolved<B: BitSet> {
    pub(crate) i: usize,
    pub(crate) result: Result<SolveResult<B>, CertifyError>,
    pub(crate) nodes: u64,
    pub(crate) filled: bool,
}
