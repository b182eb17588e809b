//! Budget checks shared by every solver: node limit, deadline and cancellation, and the
//! batched node counts that go to a [`Progress`].
//!
//! The deadline and the cancel flags are a [`Stop`], checked at every node (it reads the clock
//! every few calls); the solver hands the same stop to the knowledge pipeline, whose H-search
//! and inferior-cell analysis poll it inside their loops, so that one node's cost is bounded
//! too (docs/solving.md, "Time limits and interrupts").

use nash_board::clock::Instant;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use nash_board::{Stop, StopCause};

use crate::config::{Budget, SolverConfig};
use crate::outcome::StopReason;
use crate::progress::Progress;

/// How often (in checks) the nodes since the last batch go to the progress counters.
const REPORT_EVERY: u32 = 256;

/// A running budget. `exceeded` is called once per node; it compares the node count and asks
/// the [`Stop`] (a counter compare, and a reading of the clock and the flags every few calls).
/// Every [`REPORT_EVERY`] calls the nodes since the last batch go to the progress counters
/// (the rest go when the limits are dropped).
#[derive(Debug)]
pub(crate) struct Limits {
    nodes: Option<u64>,
    /// The deadline, the cancel flag (flag 0 when there is one), and the flags a sibling
    /// worker raises when it finished the solve (or the part of it this worker searches).
    stop: Stop,
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
        let mut stop = Stop::at(budget.time.and_then(|t| start.checked_add(t)));
        if let Some(c) = &budget.cancel {
            stop = stop.with_flag(Arc::clone(c));
        }
        Limits {
            nodes: budget.nodes,
            // The first check reads the clock: a worker that joins a solve after its deadline
            // stops at once.
            stop,
            start,
            tick: REPORT_EVERY - 1,
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
        if self.tick >= REPORT_EVERY {
            self.tick = 0;
            self.report();
        }
        if self.stop.should_stop() {
            return self.poll();
        }
        false
    }

    /// Reads the clock and the cancellation flags now.
    pub(crate) fn poll(&mut self) -> bool {
        if self.stopped.is_some() {
            return true;
        }
        self.stopped = self.stop.check_now().map(|cause| match cause {
            StopCause::Deadline => StopReason::TimeLimit,
            StopCause::Flag(_) | StopCause::Checks => StopReason::Cancelled,
        });
        self.stopped.is_some()
    }

    /// Also stop when `done` is raised (parallel workers sharing a solve); at most two flags.
    pub(crate) fn with_done(mut self, done: Arc<AtomicBool>) -> Limits {
        self.stop = std::mem::take(&mut self.stop).with_flag(done);
        self
    }

    /// The deadline and flags of these limits, for the analyses of a node to poll.
    pub(crate) fn stop(&self) -> &Stop {
        &self.stop
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
