//! One run of the `nash` binary under bounds: its wall time, its peak resident memory (read
//! from /proc while it runs) and what it wrote, killed when it passes a time or memory bound.

use std::io::{Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use anyhow::Context;

/// How often a running child's memory and clock are looked at.
const POLL: Duration = Duration::from_millis(2);

/// The most of standard output kept (a database export fits many times over).
const STDOUT_CAP: usize = 64 << 20;

/// The most of standard error kept.
const STDERR_CAP: usize = 64 << 10;

/// What the child reads on standard input.
pub enum Input {
    /// Nothing (end of input at once).
    Null,
    /// Bytes written by a thread of ours, which stops when the child closes its end.
    Stream(Box<dyn FnOnce(ChildStdin) + Send>),
}

/// The bounds a run is held to.
#[derive(Debug, Clone, Copy)]
pub struct Bounds {
    /// Killed when it has run this long.
    pub time: Duration,
    /// Killed when its resident memory passes this many bytes.
    pub rss: u64,
}

/// Why a run was killed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Killed {
    Time,
    Memory,
}

/// How a run ended.
#[derive(Debug)]
pub struct Run {
    /// The exit status (after a kill, the kill's).
    pub status: ExitStatus,
    /// From the start to the end seen.
    pub wall: Duration,
    /// The highest resident memory seen, in bytes (VmHWM, read every few milliseconds: a peak
    /// in the last moments before the exit can be missed).
    pub peak_rss: u64,
    /// Set when the run passed a bound.
    pub killed: Option<Killed>,
    pub stdout: Vec<u8>,
    pub stderr: String,
}

impl Run {
    /// A panic: the exit code Rust gives a panic (101), or a panic message on stderr.
    pub fn panicked(&self) -> bool {
        self.status.code() == Some(101) || self.stderr.contains("panicked")
    }

    /// Exited with a non-zero code of its own (neither killed nor a panic) and said why in
    /// exactly one line on stderr.
    pub fn one_line_error(&self) -> bool {
        let lines = self.stderr.lines().filter(|l| !l.trim().is_empty()).count();
        self.killed.is_none()
            && !self.panicked()
            && self.status.code().is_some_and(|c| c != 0)
            && lines == 1
    }

    /// The first line of stderr, cut to `width` characters, for a table.
    pub fn first_error_line(&self, width: usize) -> String {
        let line = self.stderr.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
        line.chars().take(width).collect()
    }

    /// How it ended, in a table's few characters: `0`, `1`, `101`, `killed@time`, `signal`.
    pub fn ending(&self) -> String {
        match (self.killed, self.status.code()) {
            (Some(Killed::Time), _) => "killed:time".to_owned(),
            (Some(Killed::Memory), _) => "killed:mem".to_owned(),
            (None, Some(c)) => c.to_string(),
            (None, None) => "signal".to_owned(),
        }
    }

    /// Standard output as text (lossy).
    pub fn stdout_text(&self) -> String {
        String::from_utf8_lossy(&self.stdout).into_owned()
    }
}

/// Runs `program args` in `dir` under `bounds`.
pub fn run(
    program: &Path,
    args: &[&str],
    dir: &Path,
    input: Input,
    bounds: Bounds,
) -> anyhow::Result<Run> {
    let mut cmd = Command::new(program);
    cmd.args(args).current_dir(dir).stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut stream = None;
    match input {
        Input::Null => cmd.stdin(Stdio::null()),
        Input::Stream(f) => {
            stream = Some(f);
            cmd.stdin(Stdio::piped())
        }
    };
    let start = Instant::now();
    let mut child = cmd
        .spawn()
        .with_context(|| format!("cannot start {} {}", program.display(), args.join(" ")))?;
    let writer = match (stream, child.stdin.take()) {
        (Some(f), Some(stdin)) => Some(std::thread::spawn(move || f(stdin))),
        _ => None,
    };
    let out = drain(child.stdout.take().expect("piped stdout"), STDOUT_CAP);
    let err = drain(child.stderr.take().expect("piped stderr"), STDERR_CAP);
    let (status, peak_rss, killed) = watch(&mut child, start, bounds)?;
    let wall = start.elapsed();
    let stdout = out.join().unwrap_or_default();
    let stderr = String::from_utf8_lossy(&err.join().unwrap_or_default()).into_owned();
    if let Some(w) = writer {
        let _ = w.join();
    }
    Ok(Run { status, wall, peak_rss, killed, stdout, stderr })
}

/// Waits for `child`, polling its memory and clock, and kills it past `bounds`.
fn watch(
    child: &mut Child,
    start: Instant,
    bounds: Bounds,
) -> anyhow::Result<(ExitStatus, u64, Option<Killed>)> {
    let mut peak = 0;
    let mut killed = None;
    loop {
        if let Some(status) = child.try_wait().context("cannot wait for the child")? {
            return Ok((status, peak, killed));
        }
        if killed.is_none() {
            if let Some(m) = Memory::of(child.id()) {
                peak = peak.max(m.peak);
                if m.resident > bounds.rss {
                    killed = Some(Killed::Memory);
                }
            }
            if start.elapsed() > bounds.time {
                killed = Some(Killed::Time);
            }
            if killed.is_some() {
                let _ = child.kill();
            }
        }
        std::thread::sleep(POLL);
    }
}

/// A process's resident memory now and at its highest, from /proc/PID/status.
#[derive(Debug, Clone, Copy, Default)]
pub struct Memory {
    pub resident: u64,
    pub peak: u64,
}

impl Memory {
    /// `None` once the process is gone (or on a system without /proc).
    pub fn of(pid: u32) -> Option<Memory> {
        let text = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
        Memory::parse(&text)
    }

    fn parse(status: &str) -> Option<Memory> {
        let kib = |key: &str| -> Option<u64> {
            let line = status.lines().find(|l| l.starts_with(key))?;
            line[key.len()..].split_whitespace().next()?.parse::<u64>().ok().map(|k| k * 1024)
        };
        Some(Memory { resident: kib("VmRSS:")?, peak: kib("VmHWM:")? })
    }
}

/// Reads `from` to its end on a thread, keeping its first `cap` bytes.
fn drain(mut from: impl Read + Send + 'static, cap: usize) -> std::thread::JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut kept = Vec::new();
        let mut buf = [0u8; 1 << 16];
        loop {
            match from.read(&mut buf) {
                Ok(0) | Err(_) => return kept,
                Ok(n) => {
                    let room = cap.saturating_sub(kept.len()).min(n);
                    kept.extend_from_slice(&buf[..room]);
                }
            }
        }
    })
}

/// A stream of `total` bytes of `byte` in 64 KiB writes, ending early when the reader closes.
pub fn repeated(byte: u8, total: u64) -> Input {
    Input::Stream(Box::new(move |mut stdin: ChildStdin| {
        let chunk = [byte; 1 << 16];
        let mut left = total;
        while left > 0 {
            let n = left.min(chunk.len() as u64) as usize;
            if stdin.write_all(&chunk[..n]).is_err() {
                return;
            }
            left -= n as u64;
        }
    }))
}

/// Mebibytes, for tables.
pub fn mib(bytes: u64) -> f64 {
    bytes as f64 / f64::from(1 << 20)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memory_is_read_from_proc_status() {
        let status = "Name:\tnash\nVmPeak:\t  9000 kB\nVmHWM:\t    2048 kB\nVmRSS:\t    1024 kB\n";
        let m = Memory::parse(status).unwrap();
        assert_eq!((m.resident, m.peak), (1 << 20, 2 << 20));
        assert!(Memory::parse("Name:\tzombie\n").is_none());
        assert!(Memory::of(std::process::id()).is_some_and(|m| m.peak >= m.resident));
    }

    #[test]
    fn a_one_line_error_is_told_from_a_panic_and_a_kill() {
        use std::os::unix::process::ExitStatusExt;
        let run = |code: i32, stderr: &str, killed| Run {
            status: ExitStatus::from_raw(code << 8),
            wall: Duration::ZERO,
            peak_rss: 0,
            killed,
            stdout: Vec::new(),
            stderr: stderr.to_owned(),
        };
        assert!(run(1, "error: cannot read /dev/zero: too large\n", None).one_line_error());
        assert!(!run(0, "error: x\n", None).one_line_error());
        assert!(!run(1, "error: x\nmore\n", None).one_line_error());
        assert!(!run(1, "error: x\n", Some(Killed::Time)).one_line_error());
        let panic = run(101, "thread 'main' panicked at src/x.rs:1:1:\nboom\n", None);
        assert!(panic.panicked() && !panic.one_line_error());
        assert_eq!(run(1, "", Some(Killed::Memory)).ending(), "killed:mem");
    }
}
