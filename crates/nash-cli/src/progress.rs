//! How far a long solve has come, shown on stderr while it runs: nodes, nodes per second,
//! positions (or moves) decided "k of n" and an estimate of the time left where one exists.
//!
//! A [`Watch`] owns a `nash_search::Progress` that the solver fills (through
//! `SolverConfig::progress`) and a thread that reads it: an indicatif bar when stderr is a
//! terminal, nothing when it is not, or with `--progress` plain lines at a fixed interval, for
//! logs. Both `nash` and `cargo xtask` show their progress through this module.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use nash_search::{Progress, Snapshot};

/// How often the bar is redrawn.
const BAR_TICK: Duration = Duration::from_millis(150);
/// A solve shorter than this shows no bar at all (no flicker for quick answers).
const BAR_DELAY: Duration = Duration::from_millis(400);
/// How often a plain progress line is written.
const LINE_EVERY: Duration = Duration::from_secs(5);

/// Where progress goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Display {
    /// A bar when stderr is a terminal, nothing otherwise.
    Auto,
    /// A plain line on stderr every few seconds and one at the end, terminal or not.
    Lines,
    /// Nothing.
    Off,
}

impl Display {
    /// `Lines` when `--progress` was given, `Auto` otherwise.
    pub fn from_flag(progress: bool) -> Display {
        if progress {
            Display::Lines
        } else {
            Display::Auto
        }
    }
}

/// A progress display running beside a solve; it stops (and clears its bar) when dropped.
#[derive(Debug)]
pub struct Watch {
    progress: Arc<Progress>,
    shared: Arc<Shared>,
    stop: Option<mpsc::Sender<()>>,
    handle: Option<JoinHandle<()>>,
}

/// What the display thread reads besides the solver's counters.
#[derive(Debug)]
struct Shared {
    /// Drawn once the work has taken [`BAR_DELAY`]; hidden until then, and with no terminal.
    bar: ProgressBar,
    /// "k of n" counted by the caller, for work made of separate solves (each of which
    /// announces only itself to the solver's counters); `total` 0 when not used.
    done: AtomicU64,
    total: AtomicU64,
}

impl Shared {
    /// The solver's counters, with the caller's "k of n" where it counts.
    fn snapshot(&self, progress: &Progress) -> Snapshot {
        let mut s = progress.snapshot();
        let total = self.total.load(Ordering::Relaxed);
        if total > 0 {
            s.decided = self.done.load(Ordering::Relaxed);
            s.total = Some(total);
        }
        s
    }
}

impl Watch {
    /// Starts showing the progress of the work named `what` ("solving", "deciding moves").
    pub fn start(what: &str, display: Display) -> Watch {
        let progress = Arc::new(Progress::new());
        let shared = Arc::new(Shared {
            bar: ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden()),
            done: AtomicU64::new(0),
            total: AtomicU64::new(0),
        });
        let bar = display == Display::Auto && std::io::stderr().is_terminal();
        if !bar && display != Display::Lines {
            return Watch { progress, shared, stop: None, handle: None };
        }
        let (stop, stopped) = mpsc::channel();
        let (counters, seen) = (progress.clone(), shared.clone());
        let what = what.to_owned();
        let handle = std::thread::spawn(move || {
            if bar {
                show_bar(&what, &counters, &seen, &stopped);
            } else {
                show_lines(&what, &counters, &seen, &stopped);
            }
        });
        Watch { progress, shared, stop: Some(stop), handle: Some(handle) }
    }

    /// The counters to put in `SolverConfig::progress`.
    pub fn progress(&self) -> Arc<Progress> {
        self.progress.clone()
    }

    /// Counts the work as `total` separate pieces (for a caller that solves positions one
    /// after another); [`Watch::done_one`] counts them off.
    pub fn count(&self, total: usize) {
        self.shared.total.store(total as u64, Ordering::Relaxed);
    }

    /// One more of the pieces given to [`Watch::count`] is done.
    pub fn done_one(&self) {
        self.shared.done.fetch_add(1, Ordering::Relaxed);
    }

    /// Runs `f` (which prints to the terminal) with the bar out of the way.
    pub fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        self.shared.bar.suspend(f)
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        // Dropping the sender wakes the display thread at once.
        self.stop.take();
        if let Some(h) = self.handle.take() {
            let _ = h.join();
        }
    }
}

/// Waits `tick` for the stop signal; true when the display should end.
fn stopped(rx: &mpsc::Receiver<()>, tick: Duration) -> bool {
    !matches!(rx.recv_timeout(tick), Err(RecvTimeoutError::Timeout))
}

fn show_bar(what: &str, progress: &Progress, shared: &Shared, rx: &mpsc::Receiver<()>) {
    let start = Instant::now();
    let bar = &shared.bar;
    bar.set_style(spinner_style());
    bar.set_prefix(what.to_owned());
    let (mut shown, mut counted) = (false, false);
    while !stopped(rx, BAR_TICK) {
        let elapsed = start.elapsed();
        if elapsed < BAR_DELAY {
            continue;
        }
        if !shown {
            bar.set_draw_target(ProgressDrawTarget::stderr());
            shown = true;
        }
        let s = shared.snapshot(progress);
        // A bar for "k of n" only when there is more than one thing to decide.
        if let Some(total) = s.total.filter(|&n| n > 1) {
            if !counted {
                bar.set_style(bar_style());
                counted = true;
            }
            bar.set_length(total);
            bar.set_position(s.decided);
        } else {
            bar.tick();
        }
        bar.set_message(nodes(s.nodes, elapsed));
    }
    bar.finish_and_clear();
}

fn spinner_style() -> ProgressStyle {
    ProgressStyle::with_template("{spinner} {prefix} {elapsed}{msg}")
        .expect("the template is valid")
}

fn bar_style() -> ProgressStyle {
    ProgressStyle::with_template(
        "{prefix} {elapsed} [{bar:30}] {pos} of {len} decided{msg}, about {eta} left",
    )
    .expect("the template is valid")
    .progress_chars("=> ")
}

fn show_lines(what: &str, progress: &Progress, shared: &Shared, rx: &mpsc::Receiver<()>) {
    let start = Instant::now();
    while !stopped(rx, LINE_EVERY) {
        eprintln!("{what}: {}", line(shared.snapshot(progress), start.elapsed()));
    }
    eprintln!("{what}: done, {}", line(shared.snapshot(progress), start.elapsed()));
}

/// `, N nodes, R nodes/s`, or nothing for work that counts no nodes (the games of a
/// tournament are counted only as decided).
fn nodes(nodes: u64, elapsed: Duration) -> String {
    if nodes == 0 {
        return String::new();
    }
    format!(", {} nodes, {} nodes/s", count(nodes), rate(nodes, elapsed))
}

/// One plain progress line: time, nodes, rate, and "k of n decided" with an estimate.
pub fn line(s: Snapshot, elapsed: Duration) -> String {
    let mut text = format!("{:.1}s{}", elapsed.as_secs_f64(), nodes(s.nodes, elapsed));
    if let Some(total) = s.total.filter(|&n| n > 1) {
        text += &format!(", {} of {total} decided", s.decided);
        if let Some(left) = estimate(s.decided, total, elapsed) {
            text += &format!(", about {:.0}s left", left.as_secs_f64());
        }
    }
    text
}

/// The time left if the rest goes as fast as what is done: none before the first is decided.
pub fn estimate(decided: u64, total: u64, elapsed: Duration) -> Option<Duration> {
    (decided > 0 && decided < total)
        .then(|| elapsed.mul_f64((total - decided) as f64 / decided as f64))
}

fn rate(nodes: u64, elapsed: Duration) -> String {
    let secs = elapsed.as_secs_f64();
    if secs <= 0.0 {
        return "0".to_owned();
    }
    count((nodes as f64 / secs) as u64)
}

/// A count in three significant digits: `812`, `45.3k`, `1.21M`, `3.40G`.
pub fn count(n: u64) -> String {
    let x = n as f64;
    let (value, unit) = match n {
        0..=999 => return n.to_string(),
        1_000..=999_999 => (x / 1e3, "k"),
        1_000_000..=999_999_999 => (x / 1e6, "M"),
        _ => (x / 1e9, "G"),
    };
    let digits = if value < 10.0 {
        2
    } else if value < 100.0 {
        1
    } else {
        0
    };
    format!("{value:.digits$}{unit}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_have_three_digits() {
        for (n, s) in
            [(0, "0"), (812, "812"), (45_300, "45.3k"), (1_210_000, "1.21M"), (340_000, "340k")]
        {
            assert_eq!(count(n), s);
        }
    }

    #[test]
    fn estimates_scale_what_is_done() {
        assert_eq!(estimate(0, 10, Duration::from_secs(5)), None);
        assert_eq!(estimate(10, 10, Duration::from_secs(5)), None);
        assert_eq!(estimate(2, 10, Duration::from_secs(5)), Some(Duration::from_secs(20)));
    }

    #[test]
    fn lines_name_nodes_rate_and_decided() {
        let s = Snapshot { nodes: 20_000, decided: 1, total: Some(4) };
        assert_eq!(
            line(s, Duration::from_secs(2)),
            "2.0s, 20.0k nodes, 10.0k nodes/s, 1 of 4 decided, about 6s left"
        );
        let one = Snapshot { nodes: 5, decided: 0, total: Some(1) };
        assert_eq!(line(one, Duration::from_secs(1)), "1.0s, 5 nodes, 5 nodes/s");
        let games = Snapshot { nodes: 0, decided: 3, total: Some(12) };
        assert_eq!(line(games, Duration::from_secs(6)), "6.0s, 3 of 12 decided, about 18s left");
    }

    #[test]
    fn a_caller_counts_its_own_pieces() {
        let w = Watch::start("solving", Display::Off);
        w.count(3);
        w.done_one();
        let s = w.shared.snapshot(&w.progress());
        assert_eq!((s.decided, s.total), (1, Some(3)));
        assert_eq!(w.suspend(|| 7), 7);
    }
}
