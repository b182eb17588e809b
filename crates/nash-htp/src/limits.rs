//! The accepted ranges of the solver settings a user types, shared by `nash`'s options and
//! HTP's `param_dfpn` so that both front ends accept and refuse the same values.
//!
//! A value outside its range is refused with a reason; nothing is silently capped.

use std::time::Duration;

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

/// Checks a worker thread count: 1 to [`MAX_THREADS`].
pub fn threads(n: usize) -> Result<usize, String> {
    if (1..=MAX_THREADS).contains(&n) {
        Ok(n)
    } else {
        Err(format!("expected 1 to {MAX_THREADS} threads"))
    }
}

/// Checks a memory limit in MiB: at least 1, at most the machine's memory.
pub fn tt_mib(n: usize) -> Result<usize, String> {
    let max = max_tt_mib();
    match n {
        0 => Err(format!("expected 1 to {max} MiB")),
        n if n > max => Err(format!("more than this machine's memory; expected 1 to {max} MiB")),
        n => Ok(n),
    }
}

/// Checks a time limit in seconds: a positive finite number up to [`MAX_TIME_LIMIT_SECS`].
pub fn time_limit(secs: f64) -> Result<Duration, String> {
    if secs.is_finite() && secs > 0.0 && secs <= MAX_TIME_LIMIT_SECS {
        Ok(Duration::from_secs_f64(secs))
    } else {
        Err(format!("expected a positive number of seconds up to {MAX_TIME_LIMIT_SECS:.0}"))
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
