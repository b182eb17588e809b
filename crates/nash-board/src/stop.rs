//! A cheap stop signal for long loops: an optional deadline and up to three cancel flags,
//! checked by [`Stop::should_stop`], which reads the clock only every few calls.
//!
//! Every analysis that can take long on a large board (H-search, inferior-cell analysis, the
//! solvers' node loops) polls one, so that a time limit or an interrupt is honoured within a
//! bounded delay rather than at the end of the analysis. A `Stop` is per thread (it counts
//! its calls in a [`Cell`]); clone it for each worker. Once it has fired it stays fired.

use crate::clock::Instant;
use std::cell::Cell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// How many calls of [`Stop::should_stop`] share one reading of the clock and the flags.
/// `Instant::now` costs about 25 ns; the loops that poll do far more than that per call.
const POLL_EVERY: u32 = 8;

/// Why a [`Stop`] fired.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum StopCause {
    /// The deadline passed.
    Deadline,
    /// The cancel flag at this index ([`Stop::with_flag`] order) was raised.
    Flag(u8),
    /// The readings given to [`Stop::after_checks`] were used up.
    Checks,
}

/// An optional deadline and up to three cancel flags; see the module documentation.
#[derive(Debug, Default)]
pub struct Stop {
    deadline: Option<Instant>,
    flags: [Option<Arc<AtomicBool>>; 3],
    /// Calls since the clock was last read.
    tick: Cell<u32>,
    fired: Cell<Option<StopCause>>,
    /// Readings left before the stop fires by itself ([`Stop::after_checks`]).
    checks_left: Cell<Option<u32>>,
}

impl Clone for Stop {
    fn clone(&self) -> Stop {
        Stop {
            deadline: self.deadline,
            flags: self.flags.clone(),
            tick: Cell::new(self.tick.get()),
            fired: Cell::new(self.fired.get()),
            checks_left: Cell::new(self.checks_left.get()),
        }
    }

    /// Copies `src`, touching the flags' reference counts only where they differ (a search
    /// copies builders often, all with the same stop).
    fn clone_from(&mut self, src: &Stop) {
        self.deadline = src.deadline;
        for (f, g) in self.flags.iter_mut().zip(&src.flags) {
            let same = match (&*f, g) {
                (Some(a), Some(b)) => Arc::ptr_eq(a, b),
                (None, None) => true,
                _ => false,
            };
            if !same {
                f.clone_from(g);
            }
        }
        self.tick.set(src.tick.get());
        self.fired.set(src.fired.get());
        self.checks_left.set(src.checks_left.get());
    }
}

impl Stop {
    /// A stop that never fires.
    pub fn never() -> Stop {
        Stop::default()
    }

    /// A stop that fires once `deadline` has passed (never when `None`).
    pub fn at(deadline: Option<Instant>) -> Stop {
        Stop { deadline, ..Stop::default() }
    }

    /// A stop that fires at its `n`-th reading of the clock (the first when `n` is 0 or 1),
    /// whatever the time: it cuts an analysis short at a chosen point, the same on every run,
    /// which is how tests check that what a cut-short analysis returns is sound.
    pub fn after_checks(n: u32) -> Stop {
        Stop { checks_left: Cell::new(Some(n.saturating_sub(1))), ..Stop::default() }
    }

    /// Also fires when `flag` is raised. At most three flags are watched; a fourth replaces
    /// the third.
    pub fn with_flag(mut self, flag: Arc<AtomicBool>) -> Stop {
        let i = self.flags.iter().position(Option::is_none).unwrap_or(self.flags.len() - 1);
        self.flags[i] = Some(flag);
        self
    }

    /// The deadline, if any.
    pub fn deadline(&self) -> Option<Instant> {
        self.deadline
    }

    /// Whether this stop can ever fire.
    pub fn is_never(&self) -> bool {
        self.deadline.is_none()
            && self.flags.iter().all(Option::is_none)
            && self.checks_left.get().is_none()
    }

    /// Whether the loop must stop. Reads the clock and the flags on the first call and then
    /// every few calls; once fired, always true.
    #[inline]
    pub fn should_stop(&self) -> bool {
        if self.fired.get().is_some() {
            return true;
        }
        let t = self.tick.get();
        if t > 0 {
            self.tick.set(t - 1);
            return false;
        }
        self.tick.set(POLL_EVERY - 1);
        self.check_now().is_some()
    }

    /// Reads the flags and the clock now; the cause when the stop has fired.
    pub fn check_now(&self) -> Option<StopCause> {
        if let Some(c) = self.fired.get() {
            return Some(c);
        }
        let raised =
            |f: &Option<Arc<AtomicBool>>| f.as_ref().is_some_and(|f| f.load(Ordering::Relaxed));
        let cause = if let Some(i) = self.flags.iter().position(raised) {
            Some(StopCause::Flag(i as u8))
        } else if let Some(n) = self.checks_left.get() {
            self.checks_left.set(n.checked_sub(1));
            (n == 0).then_some(StopCause::Checks)
        } else {
            self.deadline.filter(|&d| Instant::now() >= d).map(|_| StopCause::Deadline)
        };
        self.fired.set(cause);
        cause
    }

    /// Why the stop fired, if it has (as last seen; no clock reading).
    pub fn fired(&self) -> Option<StopCause> {
        self.fired.get()
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn never_fires_without_a_limit() {
        let s = Stop::never();
        assert!(s.is_never());
        assert!((0..100).all(|_| !s.should_stop()));
    }

    #[test]
    fn a_past_deadline_fires_at_the_first_call_and_stays() {
        let past = Instant::now().checked_sub(Duration::from_secs(1));
        let s = Stop::at(past.or(Some(Instant::now())));
        assert!(s.should_stop());
        assert_eq!(s.fired(), Some(StopCause::Deadline));
        assert!(s.should_stop());
    }

    #[test]
    fn a_raised_flag_fires_within_a_few_calls() {
        let flag = Arc::new(AtomicBool::new(false));
        let far = Instant::now().checked_add(Duration::from_secs(3600));
        let s = Stop::at(far).with_flag(Arc::clone(&flag));
        assert!(!s.should_stop());
        flag.store(true, Ordering::Relaxed);
        assert!((0..=POLL_EVERY).any(|_| s.should_stop()));
        assert_eq!(s.fired(), Some(StopCause::Flag(0)));
        // A clone keeps what it saw.
        assert!(s.clone().should_stop());
    }

    #[test]
    fn a_counted_stop_fires_at_its_reading() {
        for n in [1, 2, 5] {
            let s = Stop::after_checks(n);
            let fired_at = (1..=10).find(|_| s.check_now().is_some());
            assert_eq!(fired_at, Some(n), "after_checks({n})");
            assert_eq!(s.fired(), Some(StopCause::Checks));
        }
        assert!(Stop::after_checks(0).should_stop());
    }
}
