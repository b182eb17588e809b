//! CPU time of the building thread and of the process, as Linux's /proc tells it.

use std::time::Duration;

/// The CPU time of the calling thread so far (Linux; `None` elsewhere).
pub(crate) fn thread_cpu() -> Option<Duration> {
    cpu_of("/proc/thread-self/stat")
}

/// The CPU time of the whole process so far (Linux; `None` elsewhere).
pub(crate) fn process_cpu() -> Option<Duration> {
    cpu_of("/proc/self/stat")
}

/// The CPU time in a `stat` file of /proc.
fn cpu_of(path: &str) -> Option<Duration> {
    let stat = std::fs::read_to_string(path).ok()?;
    // The fields after the command name (which ends at the last ')'): utime and stime are the
    // 12th and 13th, in clock ticks of 1/100 s.
    let rest = &stat[stat.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: u64 = f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?;
    Some(Duration::from_millis(ticks * 10))
}
