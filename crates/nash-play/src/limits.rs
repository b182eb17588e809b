//! The accepted ranges of the solver settings a user types, shared by `nash`'s options and
//! HTP's `param_dfpn` so that both front ends accept and refuse the same values.
//!
//! A value outside its range is refused with a reason; nothing is silently capped. Also the
//! deadline that makes a time limit bound a whole command rather than each of its solves.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::Duration;

use nash_search::SolverConfig;

/// The most worker threads a solve may ask for.
pub const MAX_THREADS: usize = 256;

/// The longest time limit accepted, in seconds (about 31 years): anything longer is a typing
/// slip, and deadlines beyond it are not representable on every platform.
pub const MAX_TIME_LIMIT_SECS: f64 = 1e9;

/// The memory limit accepted when the machine's memory cannot be read, in MiB (1 TiB).
pub const FALLBACK_MAX_TT_MIB: usize = 1 << 20;

/// The machine's physical memory in MiB (`MemTotal` of /proc/meminfo), when it can be read.
pub fn machine_memory_mib() -> Option<usize> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kib: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024)
}

/// The largest memory limit accepted: the machine's memory, since a table larger than that
/// cannot be allocated.
pub fn max_tt_mib() -> usize {
    machine_memory_mib().unwrap_or(FALLBACK_MAX_TT_MIB).max(1)
}

/// A setting outside its accepted range. The message says what is accepted; the front end
/// adds the value and the setting's name.
#[derive(Clone, Copy, PartialEq, Eq, Debug, thiserror::Error)]
pub enum LimitError {
    /// A thread count of 0 or more than [`MAX_THREADS`].
    #[error("expected 1 to {} threads", MAX_THREADS)]
    Threads,
    /// A memory limit of 0 MiB.
    #[error("expected 1 to {max} MiB")]
    NoMemory {
        /// The largest limit accepted.
        max: usize,
    },
    /// A memory limit beyond the machine's memory.
    #[error("more than this machine's memory; expected 1 to {max} MiB")]
    MoreThanTheMachine {
        /// The largest limit accepted.
        max: usize,
    },
    /// A time limit that is not a positive finite number up to [`MAX_TIME_LIMIT_SECS`].
    #[error("expected a positive number of seconds up to {:.0}", MAX_TIME_LIMIT_SECS)]
    TimeLimit,
}

/// Checks a worker thread count: 1 to [`MAX_THREADS`].
pub fn threads(n: usize) -> Result<usize, LimitError> {
    if (1..=MAX_THREADS).contains(&n) {
        Ok(n)
    } else {
        Err(LimitError::Threads)
    }
}

/// Checks a memory limit in MiB: at least 1, at most the machine's memory.
pub fn tt_mib(n: usize) -> Result<usize, LimitError> {
    let max = max_tt_mib();
    match n {
        0 => Err(LimitError::NoMemory { max }),
        n if n > max => Err(LimitError::MoreThanTheMachine { max }),
        n => Ok(n),
    }
}

/// Checks a time limit in seconds: a positive finite number up to [`MAX_TIME_LIMIT_SECS`].
pub fn time_limit(secs: f64) -> Result<Duration, LimitError> {
    if secs.is_finite() && secs > 0.0 && secs <= MAX_TIME_LIMIT_SECS {
        Ok(Duration::from_secs_f64(secs))
    } else {
        Err(LimitError::TimeLimit)
    }
}

/// One deadline for a whole command. A timer thread raises the solver's cancel flag once the
/// time limit has passed, so that a command made of many solves (`dfpn-solver-find-winning`
/// and `nash winning` decide every move) answers within the limit as a whole; each solve
/// still has the limit as its own budget too.
#[derive(Debug)]
pub struct CommandDeadline {
    /// Dropped to wake the timer early when the command ends first.
    done: Option<mpsc::Sender<()>>,
    fired: Option<Arc<AtomicBool>>,
    timer: Option<std::thread::JoinHandle<()>>,
}

impl CommandDeadline {
    /// Arms the deadline of `cfg.budget.time` (nothing when there is no time limit), sharing
    /// `cfg`'s cancel flag or giving it one.
    pub fn arm(cfg: &mut SolverConfig) -> CommandDeadline {
        let Some(limit) = cfg.budget.time else {
            return CommandDeadline { done: None, fired: None, timer: None };
        };
        let flag = Arc::clone(cfg.budget.cancel.get_or_insert_with(Default::default));
        let (done, wait) = mpsc::channel::<()>();
        let raise = Arc::clone(&flag);
        let timer = std::thread::spawn(move || {
            if let Err(mpsc::RecvTimeoutError::Timeout) = wait.recv_timeout(limit) {
                raise.store(true, Ordering::Relaxed);
            }
        });
        CommandDeadline { done: Some(done), fired: Some(flag), timer: Some(timer) }
    }

    /// Whether the time limit has passed.
    pub fn fired(&self) -> bool {
        self.fired.as_ref().is_some_and(|f| f.load(Ordering::Relaxed))
    }
}

impl Drop for CommandDeadline {
    fn drop(&mut self) {
        drop(self.done.take());
        if let Some(t) = self.timer.take() {
            let _ = t.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges() {
        assert_eq!(threads(1), Ok(1));
        assert_eq!(threads(256), Ok(256));
        assert!(threads(0).is_err() && threads(257).is_err());
        assert_eq!(tt_mib(1), Ok(1));
        assert!(tt_mib(0).is_err());
        assert!(tt_mib(max_tt_mib() + 1).is_err());
        assert_eq!(time_limit(2.5), Ok(Duration::from_millis(2500)));
        for bad in [0.0, -1.0, f64::NAN, f64::INFINITY, 1e19] {
            assert!(time_limit(bad).is_err(), "{bad}");
        }
    }
}
