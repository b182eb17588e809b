//! Budget checks shared by every solver: node limit, deadline and cancellation, and the
//! batched node counts that go to a [`Progress`].

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use crate::config::{Budget, SolverConfig};
use crate::outcome::StopReason;
use crate::progress::Progress;

/// How often (in checks) the clock and the cancellation flag are read.
const CLOCK_EVERY: u32 = 256;

/// A running budget. `exceeded` is called once per node; it is a counter compare except every
/// [`CLOCK_EVERY`] calls, when the clock and the cancellation flag are read and the nodes since
/// the last batch go to the progress counters (the rest go when the limits are dropped).
#[derive(Debug)]
pub(crate) struct Limits {
    nodes: Option<u64>,
    deadline: Option<Instant>,
    cancel: Option<Arc<AtomicBool>>,
    /// Raised by a sibling worker that finished the solve (or the part of it this worker
    /// searches).
    done: [Option<Arc<AtomicBool>>; 2],
    pub(crate) start: Instant,
    tick: u32,
    stopped: Option<StopReason>,
    progress: Option<Arc<Progress>>,
    /// The node count of the last check, and how much of it the progress has.
    seen: u64,
    reported: u64,
}

impl Limits {
    /// The limits of `cfg`'s budget from now on, reporting to its progress.
    pub(crate) fn new(cfg: &SolverConfig) -> Limits {
        Limits::started_at(cfg, &cfg.budget, Instant::now())
    }

    /// The limits of `budget` for a solve (with `cfg`'s progress) that began at `start`: a
    /// worker that joins a solve later gets what is left of its time. A time too long to add
    /// to an instant is no limit.
    pub(crate) fn started_at(cfg: &SolverConfig, budget: &Budget, start: Instant) -> Limits {
        Limits {
            nodes: budget.nodes,
            deadline: budget.time.and_then(|t| start.checked_add(t)),
            cancel: budget.cancel.clone(),
            done: [None, None],
            start,
            // The first check reads the clock: a worker that joins a solve after its deadline
            // stops at once.
            tick: CLOCK_EVERY - 1,
            stopped: None,
            progress: cfg.progress.clone(),
            seen: 0,
            reported: 0,
        }
    }

    /// Whether the solve must stop, given the nodes expanded so far.
    #[inline]
    pub(crate) fn exceeded(&mut self, nodes: u64) -> bool {
        self.seen = nodes;
        if self.stopped.is_some() {
            return true;
        }
        if let Some(n) = self.nodes {
            if nodes >= n {
                self.stopped = Some(StopReason::NodeLimit);
                return true;
            }
        }
        self.tick += 1;
        if self.tick >= CLOCK_EVERY {
            self.tick = 0;
            self.report();
            return self.poll();
        }
        false
    }

    /// Reads the clock and the cancellation flag now.
    pub(crate) fn poll(&mut self) -> bool {
        if self.stopped.is_some() {
            return true;
        }
        if let Some(c) = &self.cancel {
            if c.load(Ordering::Relaxed) {
                self.stopped = Some(StopReason::Cancelled);
                return true;
            }
        }
        if self.done.iter().flatten().any(|d| d.load(Ordering::Relaxed)) {
            self.stopped = Some(StopReason::Cancelled);
            return true;
        }
        if let Some(d) = self.deadline {
            if Instant::now() >= d {
                self.stopped = Some(StopReason::TimeLimit);
                return true;
            }
        }
        false
    }

    /// Also stop when `done` is raised (parallel workers sharing a solve); at most two flags.
    pub(crate) fn with_done(mut self, done: Arc<AtomicBool>) -> Limits {
        let i = usize::from(self.done[0].is_some());
        debug_assert!(self.done[i].is_none(), "a third flag to watch");
        self.done[i] = Some(done);
        self
    }

    /// The progress to publish the searched line to, right after a batch of nodes was
    /// reported (every few hundred nodes), when it asks for the line.
    pub(crate) fn line_due(&self) -> Option<&crate::Progress> {
        let p = self.progress.as_deref()?;
        (self.tick == 0 && p.wants_line()).then_some(p)
    }

    /// Why the solve stopped, if it did.
    pub(crate) fn reason(&self) -> Option<StopReason> {
        self.stopped
    }

    /// Adds the nodes counted since the last report to the progress.
    fn report(&mut self) {
        if let Some(p) = &self.progress {
            p.add_nodes(self.seen.saturating_sub(self.reported));
            self.reported = self.reported.max(self.seen);
        }
    }
}

impl Drop for Limits {
    fn drop(&mut self) {
        self.report();
    }
}
