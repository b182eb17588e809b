//! Budget checks shared by every solver: node limit, deadline and cancellation.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use crate::config::Budget;
use crate::outcome::StopReason;

/// How often (in checks) the clock and the cancellation flag are read.
const CLOCK_EVERY: u32 = 256;

/// A running budget. `check` is called once per node; it is a counter compare except every
/// [`CLOCK_EVERY`] calls, when the clock and the cancellation flag are read.
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
}

impl Limits {
    pub(crate) fn new(budget: &Budget) -> Limits {
        Limits::started_at(budget, Instant::now())
    }

    /// The limits of a solve that began at `start`: a worker that joins a solve later gets
    /// what is left of its time.
    pub(crate) fn started_at(budget: &Budget, start: Instant) -> Limits {
        Limits {
            nodes: budget.nodes,
            deadline: budget.time.map(|t| start + t),
            cancel: budget.cancel.clone(),
            done: [None, None],
            start,
            // The first check reads the clock: a worker that joins a solve after its deadline
            // stops at once.
            tick: CLOCK_EVERY - 1,
            stopped: None,
        }
    }

    /// Whether the solve must stop, given the nodes expanded so far.
    #[inline]
    pub(crate) fn exceeded(&mut self, nodes: u64) -> bool {
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

    /// Why the solve stopped, if it did.
    pub(crate) fn reason(&self) -> Option<StopReason> {
        self.stopped
    }
}
