//! Serving a session: input is read on its own thread, so that a `# interrupt` line (HexGui's
//! Stop) reaches the command running, and with `param_dfpn use_guifx 1` the solver's progress
//! is written while it runs.
//!
//! GTP has no way to stop a command; GoGui and HexGui send the comment line `# interrupt`
//! while one runs, and Benzene's engines stop their search on it. Here every command line
//! read gets a sequence number; an interrupt stops every command read before it that has not
//! finished (a controller such as HexGui has only one in flight). A comment-only line is still
//! a comment: it gets no answer, and when nothing runs it changes nothing.

use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

use nash_board::{Color, Move};
use nash_search::Progress;

use crate::engine::UNTIL_NEXT_LINE;
use crate::protocol::{format_answer, parse_line, read_line, Line, MAX_LINE};
use crate::Engine;

/// How often the solver's progress is written when `use_guifx` is on.
const GFX_PERIOD: Duration = Duration::from_secs(1);

/// What the reader thread passes on: a command line with its sequence number, the start of
/// a line over [`MAX_LINE`], or the end.
enum Incoming {
    Line(u64, Vec<u8>),
    TooLong(Vec<u8>),
    End(io::Result<()>),
}

/// The running command's stop flags, and the newest command an interrupt was meant for.
#[derive(Default)]
struct Running {
    /// The sequence number of the command running, if any.
    seq: Option<u64>,
    /// Whether the next input line stops it (`crate::engine::UNTIL_NEXT_LINE`).
    until_next: bool,
    /// The sequence number of the last line read.
    read: u64,
    /// Raised to stop it: the solvers' and players' cancel flag.
    cancel: Arc<AtomicBool>,
    /// Raised with `cancel` when the stop came from an interrupt (not a time limit).
    by_user: Arc<AtomicBool>,
}

/// Shared between the reader thread and the command loop.
#[derive(Default)]
struct Interrupts {
    /// The sequence number of the last command line read before the last interrupt.
    upto: AtomicU64,
    running: Mutex<Running>,
}

impl Interrupts {
    /// An interrupt line after the command line `seq`: stops the running command if it was
    /// read before.
    fn interrupt(&self, seq: u64) {
        let running = self.running.lock().unwrap_or_else(|e| e.into_inner());
        self.upto.fetch_max(seq, Ordering::SeqCst);
        if running.seq.is_some_and(|s| s <= seq) {
            running.by_user.store(true, Ordering::SeqCst);
            running.cancel.store(true, Ordering::SeqCst);
        }
    }

    /// The line `seq` has been read: it stops a running command that runs until the next
    /// line.
    fn line_read(&self, seq: u64) {
        let mut running = self.running.lock().unwrap_or_else(|e| e.into_inner());
        running.read = running.read.max(seq);
        if running.until_next && running.seq.is_some_and(|s| s < seq) {
            running.cancel.store(true, Ordering::SeqCst);
        }
    }

    /// Command `seq` starts: fresh flags, already raised when an interrupt came after it (or,
    /// for a command that runs `until_next` line, when a later line has been read).
    fn start(&self, seq: u64, until_next: bool) -> (Arc<AtomicBool>, Arc<AtomicBool>) {
        let mut running = self.running.lock().unwrap_or_else(|e| e.into_inner());
        let interrupted = self.upto.load(Ordering::SeqCst) >= seq;
        let next = until_next && running.read > seq;
        *running = Running {
            seq: Some(seq),
            until_next,
            read: running.read,
            cancel: Arc::new(AtomicBool::new(interrupted || next)),
            by_user: Arc::new(AtomicBool::new(interrupted)),
        };
        (Arc::clone(&running.cancel), Arc::clone(&running.by_user))
    }

    fn finish(&self) {
        self.running.lock().unwrap_or_else(|e| e.into_inner()).seq = None;
    }
}

/// Whether a raw input line is the interrupt comment.
fn is_interrupt(line: &[u8]) -> bool {
    String::from_utf8_lossy(line).trim() == "# interrupt"
}

/// Reads lines until the end of `input` (or `stop`), passing command lines on and turning
/// interrupt lines into stops.
fn read_lines<R: BufRead>(
    mut input: R,
    tx: &mpsc::Sender<Incoming>,
    interrupts: &Interrupts,
    stop: &AtomicBool,
) {
    let mut seq = 0;
    let mut buf = Vec::new();
    loop {
        match read_line(&mut input, &mut buf, MAX_LINE) {
            Ok(Line::End) => {
                // No next line will come: a command waiting for one stops.
                interrupts.line_read(seq + 1);
                let _ = tx.send(Incoming::End(Ok(())));
                return;
            }
            Ok(Line::Whole) if is_interrupt(&buf) => interrupts.interrupt(seq),
            Ok(line) => {
                seq += 1;
                interrupts.line_read(seq);
                let buf = std::mem::take(&mut buf);
                let incoming = match line {
                    Line::TooLong => Incoming::TooLong(buf),
                    _ => Incoming::Line(seq, buf),
                };
                if tx.send(incoming).is_err() {
                    return;
                }
            }
            Err(e) => {
                interrupts.line_read(seq + 1);
                let _ = tx.send(Incoming::End(Err(e)));
                return;
            }
        }
        if stop.load(Ordering::Relaxed) {
            return;
        }
    }
}

impl Engine {
    /// Serves a session: reads command lines from `input` until `quit` or the end of the
    /// input, writing one answer per command to `output` (flushed after each). Only I/O errors
    /// end it early.
    ///
    /// The input is read on a second thread while commands run, so `# interrupt` stops the
    /// running search (a solve then answers `empty`, `genmove` its best move so far). After
    /// `quit` the rest of `input` is read and ignored before this returns; a session on a
    /// pipe that stays open after `quit` wants [`Engine::run_detached`].
    pub fn run<R: BufRead + Send, W: Write + Send>(
        &mut self,
        input: R,
        output: W,
    ) -> io::Result<()> {
        let interrupts = Interrupts::default();
        let stop = AtomicBool::new(false);
        let (tx, rx) = mpsc::channel();
        std::thread::scope(|s| {
            s.spawn(|| read_lines(input, &tx, &interrupts, &stop));
            let r = self.serve(&rx, &interrupts, output);
            stop.store(true, Ordering::Relaxed);
            r
        })
    }

    /// [`Engine::run`] with the reader on a detached thread, which this does not wait for:
    /// for standard input, where a controller sends `quit` and keeps the pipe open.
    pub fn run_detached<R, W>(&mut self, input: R, output: W) -> io::Result<()>
    where
        R: BufRead + Send + 'static,
        W: Write + Send,
    {
        let interrupts = Arc::new(Interrupts::default());
        let (tx, rx) = mpsc::channel();
        let theirs = Arc::clone(&interrupts);
        std::thread::spawn(move || read_lines(input, &tx, &theirs, &AtomicBool::new(false)));
        self.serve(&rx, &interrupts, output)
    }

    fn serve<W: Write + Send>(
        &mut self,
        rx: &mpsc::Receiver<Incoming>,
        interrupts: &Interrupts,
        output: W,
    ) -> io::Result<()> {
        let output = Mutex::new(output);
        loop {
            let (seq, buf) = match rx.recv() {
                Ok(Incoming::Line(seq, buf)) => (seq, buf),
                Ok(Incoming::TooLong(start)) => {
                    // Answered with the id the line started with, if it had one.
                    let id = parse_line(&String::from_utf8_lossy(&start)).and_then(|c| c.id);
                    let answer = format_answer(id, &Err("line too long".to_owned()));
                    let mut out = output.lock().unwrap_or_else(|e| e.into_inner());
                    out.write_all(answer.as_bytes())?;
                    out.flush()?;
                    continue;
                }
                Ok(Incoming::End(r)) => return r,
                Err(_) => return Ok(()),
            };
            let line = String::from_utf8_lossy(&buf);
            let Some(cmd) = parse_line(&line) else { continue };
            let until_next = UNTIL_NEXT_LINE.contains(&cmd.name.as_str());
            let (cancel, by_user) = interrupts.start(seq, until_next);
            self.stop = Some((cancel, Arc::clone(&by_user)));
            let progress = self.guifx.then(|| Arc::new(Progress::with_line()));
            self.progress = progress.clone();
            // The searched line is published from the position's setup on: the board's own
            // moves are left out of the drawing.
            let base =
                self.pos.history().iter().filter(|(_, m)| matches!(m, Move::Cell(_))).count();
            self.streamed = false;
            let result = std::thread::scope(|s| {
                let (done, wait) = mpsc::channel::<()>();
                if let Some(p) = progress {
                    let output = &output;
                    s.spawn(move || write_gfx(&p, base, &wait, output));
                }
                let (tx, lines) = mpsc::channel::<String>();
                self.stream = Some(tx);
                let output = &output;
                s.spawn(move || write_stream(&lines, output));
                let r = self.execute(&cmd);
                // The writer ends once the last sender is gone.
                self.stream = None;
                drop(done);
                r
            });
            self.stop = None;
            self.progress = None;
            interrupts.finish();
            let result = result.map_err(|e| e.to_string());
            let mut answer = format_answer(cmd.id, &result);
            if self.streamed {
                // The `=` line is out: the rest of the answer, without its mark.
                let head = answer.find(' ').map_or(0, |i| i + 1);
                answer = match answer[head..].trim_start_matches('\n') {
                    "\n\n" | "\n" | "" => "\n".to_owned(),
                    rest => rest.to_owned(),
                };
            }
            let mut out = output.lock().unwrap_or_else(|e| e.into_inner());
            out.write_all(answer.as_bytes())?;
            out.flush()?;
            if cmd.name == "quit" {
                return Ok(());
            }
        }
    }
}

/// Writes what the running command streams (`Engine::stream`), each text as it comes,
/// until the command drops its sender.
fn write_stream<W: Write>(lines: &mpsc::Receiver<String>, output: &Mutex<W>) {
    for text in lines {
        let mut out = output.lock().unwrap_or_else(|e| e.into_inner());
        let _ = out.write_all(text.as_bytes());
        let _ = out.flush();
    }
}

/// Writes the solver's progress every [`GFX_PERIOD`] while a command runs (until `wait`
/// closes) and it has counted nodes: on `output` as Benzene's df-pn does (a `gogui-gfx:` block
/// ended by an empty line, which HexGui reads between answers: the line being searched, past
/// the board's `base` moves, as `VAR` on the board, the counts as `TEXT` on its status bar),
/// and on standard error as one `gogui-gfx:` line for GoGui.
fn write_gfx<W: Write>(
    progress: &Progress,
    base: usize,
    wait: &mpsc::Receiver<()>,
    output: &Mutex<W>,
) {
    let start = Instant::now();
    while let Err(mpsc::RecvTimeoutError::Timeout) = wait.recv_timeout(GFX_PERIOD) {
        let s = progress.snapshot();
        if s.nodes == 0 {
            continue;
        }
        let secs = start.elapsed().as_secs_f64();
        let mut text =
            format!("{} nodes, {:.0} nodes/s, {:.0} s", s.nodes, s.nodes as f64 / secs, secs);
        if let Some(total) = s.total.filter(|&t| t > 1) {
            text.push_str(&format!(", {} of {total} decided", s.decided));
        }
        let mut var = String::from("VAR");
        for (color, cell) in progress.line().into_iter().skip(base) {
            let c = if color == Color::Black { 'b' } else { 'w' };
            var.push_str(&format!(" {c} {cell}"));
        }
        let mut out = output.lock().unwrap_or_else(|e| e.into_inner());
        let _ = write!(out, "gogui-gfx:\ndfpn\n{var}\nLABEL\nTEXT {text}\n\n");
        let _ = out.flush();
        eprintln!("gogui-gfx: TEXT {text}");
    }
}
