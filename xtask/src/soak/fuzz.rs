//! The HTP fuzzer: `nash htp` fed the lines of `fuzz/lines.rs`, searches among them stopped by
//! `# interrupt` after a random delay. After each line a numbered `name` shows that the engine
//! still answers: the answers before its own are the line's. Counted: lines, answers,
//! interrupts and the time from each to its answer, hangs (no answer within `--hang`; the
//! engine is killed and started again), panics and other exits, peak memory.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Context;
use rand::seq::SliceRandom;
use rand::SeedableRng;

use super::child::{mib, Memory};
use super::{median_max, verdict, Ctx};

mod lines;

/// The engine's options: a second a move, so that `genmove` ends by itself.
const ENGINE: [&str; 3] = ["htp", "--move-time", "1"];

/// How long a search is let run before `# interrupt`, in milliseconds.
const DELAYS: [u64; 6] = [0, 10, 50, 200, 500, 1000];

/// How many failures are shown with the line that caused them.
const SHOWN: usize = 10;

/// A running `nash htp`.
struct Htp {
    child: Child,
    stdin: ChildStdin,
    /// Answers (blocks that start with `=` or `?`) with the moment each was read.
    answers: Receiver<(Instant, String)>,
    /// Lines on stderr that report a panic.
    panics: Arc<AtomicUsize>,
}

/// What waiting for an answer gave.
enum Next {
    Answer(Instant, String),
    /// No answer in time.
    Silent,
    /// The engine's output ended.
    Exited,
    /// Its resident memory passed the bound.
    Memory,
}

impl Htp {
    fn start(ctx: &Ctx) -> anyhow::Result<Htp> {
        let mut child = Command::new(&ctx.nash)
            .args(ENGINE)
            .current_dir(&ctx.root)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .with_context(|| format!("cannot start {} htp", ctx.nash.display()))?;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let stderr = child.stderr.take().expect("piped stderr");
        let (tx, answers) = mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            while let Some(raw) = crate::htp::read_answer(&mut reader) {
                // `use_guifx` progress blocks come between answers; they answer nothing.
                if raw.starts_with(['=', '?']) && tx.send((Instant::now(), raw)).is_err() {
                    return;
                }
            }
        });
        let panics = Arc::new(AtomicUsize::new(0));
        let counter = Arc::clone(&panics);
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stderr);
            let mut line = Vec::new();
            while reader.read_until(b'\n', &mut line).is_ok_and(|n| n > 0) {
                if String::from_utf8_lossy(&line).contains("panicked") {
                    counter.fetch_add(1, Ordering::SeqCst);
                }
                line.clear();
            }
        });
        Ok(Htp { child, stdin, answers, panics })
    }

    /// Sends `bytes` and a newline; false when the engine no longer reads.
    fn send(&mut self, bytes: &[u8]) -> bool {
        self.stdin.write_all(bytes).and_then(|()| self.stdin.write_all(b"\n")).is_ok()
            && self.stdin.flush().is_ok()
    }

    fn memory(&self) -> Option<Memory> {
        Memory::of(self.child.id())
    }

    /// The next answer within `timeout`, watching the engine's memory meanwhile.
    fn next(&mut self, timeout: Duration) -> Next {
        let until = Instant::now() + timeout;
        loop {
            let wait =
                until.saturating_duration_since(Instant::now()).min(Duration::from_millis(20));
            match self.answers.recv_timeout(wait) {
                Ok((at, raw)) => return Next::Answer(at, raw),
                Err(RecvTimeoutError::Disconnected) => return Next::Exited,
                Err(RecvTimeoutError::Timeout) => {}
            }
            if self.memory().is_some_and(|m| m.resident > super::RSS_BOUND) {
                return Next::Memory;
            }
            if Instant::now() >= until {
                return Next::Silent;
            }
        }
    }

    /// Kills the engine; whether it had panicked (exit code 101 or a panic on stderr).
    fn end(mut self) -> bool {
        let _ = self.child.kill();
        let status = self.child.wait().ok();
        // Give the stderr reader a moment to count the last lines.
        std::thread::sleep(Duration::from_millis(20));
        status.and_then(|s| s.code()) == Some(101) || self.panics.load(Ordering::SeqCst) > 0
    }
}

/// The counts of a fuzzing run.
#[derive(Default)]
struct Tally {
    lines: usize,
    answers: usize,
    interrupts: usize,
    latencies: Vec<Duration>,
    overruns: usize,
    hangs: usize,
    panics: usize,
    exits: usize,
    memory: usize,
    peak: u64,
    /// The first failures, each with the line that caused it.
    shown: Vec<String>,
    /// The lines the running engine was sent, to replay a failure with.
    session: Vec<u8>,
    /// Where a failure's session is written: `failure-N.htp`.
    dir: std::path::PathBuf,
}

impl Tally {
    /// Notes a line sent to the running engine.
    fn sent(&mut self, bytes: &[u8]) {
        self.session.extend_from_slice(bytes);
        self.session.push(b'\n');
    }

    /// Shows one of the first failures, writing the engine's session up to it to a file
    /// that `nash htp` can be fed to replay it.
    fn show(&mut self, what: &str, line: &[u8]) {
        if self.shown.len() < SHOWN {
            let text: String = String::from_utf8_lossy(line).chars().take(70).collect();
            let file = self.dir.join(format!("failure-{}.htp", self.shown.len() + 1));
            let saved = match std::fs::write(&file, &self.session) {
                Ok(()) => format!(" (session: {})", file.display()),
                Err(e) => format!(" (cannot write {}: {e})", file.display()),
            };
            self.shown.push(format!("{what} after {text:?}{saved}"));
        }
    }
}

/// How a line ended, for the engine to be kept or started again.
enum Ended {
    Fine,
    /// Hung, died (`exited`) or grew too large: a fresh engine is needed.
    Lost {
        exited: bool,
    },
}

pub fn run(ctx: &Ctx) -> anyhow::Result<usize> {
    let mut rng = rand::rngs::StdRng::seed_from_u64(ctx.seed);
    let mut gen = lines::Lines::new();
    let mut t = Tally { dir: ctx.scratch.clone(), ..Tally::default() };
    let mut engine = Htp::start(ctx)?;
    let mut sentinel = 0u64;
    let start = Instant::now();
    // Stop while a hang could still be waited out.
    while ctx.left() > ctx.hang + Duration::from_secs(1) {
        let line = gen.next(&mut rng);
        t.lines += 1;
        sentinel += 1;
        let ended = one_line(ctx, &mut engine, &line, sentinel, &mut rng, &mut t);
        if let Some(m) = engine.memory() {
            t.peak = t.peak.max(m.peak);
        }
        if let Ended::Lost { exited } = ended {
            if engine.end() {
                // A panic, not another kind of exit.
                t.panics += 1;
                t.exits -= usize::from(exited);
                t.show("panic", &line.bytes);
            }
            engine = Htp::start(ctx)?;
            t.session.clear();
            gen.reset();
        }
    }
    let seconds = start.elapsed().as_secs_f64();
    if engine.end() {
        t.panics += 1;
    }
    report(ctx, &mut t, seconds);
    Ok([t.overruns, t.hangs, t.panics, t.exits, t.memory].iter().filter(|&&n| n > 0).count())
}

/// Sends one line (interrupting a search after a random delay), then the numbered `name`
/// that shows the engine answers again.
fn one_line(
    ctx: &Ctx,
    engine: &mut Htp,
    line: &lines::Line,
    sentinel: u64,
    rng: &mut impl rand::Rng,
    t: &mut Tally,
) -> Ended {
    let lost = |t: &mut Tally, next: Next, what: &str| -> Ended {
        let exited = matches!(next, Next::Exited | Next::Answer(..));
        match next {
            Next::Silent => {
                t.hangs += 1;
                t.show(&format!("no answer in {:.0} s{what}", ctx.hang.as_secs_f64()), &line.bytes);
            }
            Next::Memory => {
                t.memory += 1;
                t.show("over 1 GiB", &line.bytes);
            }
            Next::Exited | Next::Answer(..) => {
                t.exits += 1;
                t.show("exit", &line.bytes);
            }
        }
        Ended::Lost { exited }
    };
    t.sent(&line.bytes);
    if !engine.send(&line.bytes) {
        return lost(t, Next::Exited, "");
    }
    if line.search {
        let delay = Duration::from_millis(*DELAYS.choose(rng).expect("delays"));
        match engine.next(delay) {
            Next::Answer(..) => t.answers += 1,
            Next::Silent => {
                t.sent(b"# interrupt");
                if !engine.send(b"# interrupt") {
                    return lost(t, Next::Exited, "");
                }
                let sent = Instant::now();
                t.interrupts += 1;
                match engine.next(ctx.hang) {
                    Next::Answer(at, _) => {
                        let latency = at.saturating_duration_since(sent);
                        t.answers += 1;
                        t.latencies.push(latency);
                        if latency > ctx.late {
                            t.overruns += 1;
                            t.show(
                                &format!("interrupt answered in {:.2} s", latency.as_secs_f64()),
                                &line.bytes,
                            );
                        }
                    }
                    next => return lost(t, next, " to # interrupt"),
                }
            }
            next => return lost(t, next, ""),
        }
    }
    let id = format!("={sentinel}");
    t.sent(format!("{sentinel} name").as_bytes());
    if !engine.send(format!("{sentinel} name").as_bytes()) {
        return lost(t, Next::Exited, "");
    }
    loop {
        match engine.next(ctx.hang) {
            Next::Answer(_, raw) if raw.split_whitespace().next() == Some(id.as_str()) => {
                return Ended::Fine;
            }
            Next::Answer(..) => t.answers += 1,
            next => return lost(t, next, ""),
        }
    }
}

fn report(ctx: &Ctx, t: &mut Tally, seconds: f64) {
    let (median, max) = median_max(&mut t.latencies);
    let late = ctx.late.as_secs_f64();
    println!(
        "HTP fuzzer: `nash {}`, {} lines in {seconds:.0} s, seed {}",
        ENGINE.join(" "),
        t.lines,
        ctx.seed
    );
    println!("  {:<44} {:>12}  verdict", "count", "value");
    let row = |name: &str, value: String, ok: Option<bool>| match ok {
        Some(ok) => println!("  {name:<44} {value:>12}  {}", verdict(ok)),
        None => println!("  {name:<44} {value:>12}"),
    };
    row("lines sent", t.lines.to_string(), None);
    row("answers", t.answers.to_string(), None);
    row("interrupts", t.interrupts.to_string(), None);
    row("interrupt to answer, median (s)", format!("{:.3}", median.as_secs_f64()), None);
    row("interrupt to answer, max (s)", format!("{:.3}", max.as_secs_f64()), None);
    row(
        &format!("interrupts answered after {late:.2} s"),
        t.overruns.to_string(),
        Some(t.overruns == 0),
    );
    row(
        &format!("hangs (no answer in {:.0} s)", ctx.hang.as_secs_f64()),
        t.hangs.to_string(),
        Some(t.hangs == 0),
    );
    row("panics", t.panics.to_string(), Some(t.panics == 0));
    row("other exits", t.exits.to_string(), Some(t.exits == 0));
    row("engines killed over 1 GiB", t.memory.to_string(), Some(t.memory == 0));
    row("peak memory of an engine (MiB)", format!("{:.0}", mib(t.peak)), None);
    for s in &t.shown {
        println!("  - {s}");
    }
}
