//! Parallel df-pn on one shared tree ([`Parallel::SharedTree`]).

use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::Arc;

use nash_board::{BitSet, Position};

use super::{Dfpn, BUSY};
use crate::budget::Limits;
#[cfg(doc)]
use crate::config::Parallel;
use crate::context::Ctx;
use crate::outcome::{Outcome, SolveResult, Stats, StopReason};

/// Parallel df-pn in the spirit of Pawlewicz and Hayward 2013 ([`Parallel::SharedTree`]):
/// workers run df-pn from the root on one shared table. They all follow the root's choice of
/// move; below the root, a child another worker is searching looks more expensive (its
/// disproof number is scaled by the number of workers inside it), so the workers spread over
/// that move's subtree. The first worker to solve the root stops the others. Solves with a node
/// limit use it: its workers count nodes against the limit the way one df-pn does.
///
/// Scaling at the root too sent the second worker to another root move: the empty 8x8 board
/// took 109 s with two threads, against 70 to 87 s when both follow the root's choice.
pub(super) fn solve_parallel<B: BitSet>(pos: &Position<B>, ctx: &Ctx<'_, B>) -> SolveResult<B> {
    let (cfg, table, plan) = (ctx.cfg, ctx.table, ctx.plan);
    let start = nash_board::clock::Instant::now();
    let busy: Vec<AtomicU32> = (0..BUSY).map(|_| AtomicU32::new(0)).collect();
    let done = Arc::new(AtomicBool::new(false));
    let results: Vec<(Outcome<B>, Stats)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..cfg.threads)
            .map(|_| {
                let done = done.clone();
                let busy = &busy[..];
                s.spawn(move || {
                    // Every worker's budget runs from the solve's start, and one that starts
                    // after the deadline (or after another worker solved the root) leaves
                    // before it sets up its caches: spawning many workers costs no more time
                    // than the limit.
                    let mut limits =
                        Limits::started_at(cfg, &cfg.budget, start).with_done(done.clone());
                    if limits.poll() {
                        let reason = limits.reason().unwrap_or(StopReason::Cancelled);
                        return (Outcome::Unknown { reason }, Stats::default());
                    }
                    let mut w = Dfpn::new(pos, cfg, table, plan);
                    w.set_limits(limits);
                    w.busy = Some(busy);
                    let o = w.run();
                    if !matches!(o, Outcome::Unknown { .. }) {
                        done.store(true, Ordering::Relaxed);
                    }
                    (o, w.stats)
                })
            })
            .collect();
        handles.into_iter().filter_map(|h| h.join().ok()).collect()
    });
    let mut stats = Stats::default();
    let mut outcome = None;
    for (o, st) in results {
        stats.merge(&st);
        match (&outcome, &o) {
            (None, _)
            | (Some(Outcome::Unknown { .. }), Outcome::Win { .. } | Outcome::Loss { .. }) => {
                outcome = Some(o)
            }
            _ => {}
        }
    }
    stats.time = start.elapsed();
    let outcome = outcome.unwrap_or(Outcome::Unknown { reason: StopReason::Cancelled });
    SolveResult { outcome, stats }
}
