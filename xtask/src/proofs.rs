//! `cargo xtask proofs`: proof certificates written and checked for many positions.
//!
//! `sweep` writes and checks the certificate of every position of testdata/solved.tsv up to a
//! size (`cargo test` checks a sample); `measure` does the same for the one-move openings of a
//! size and its empty board, and prints each certificate's size and check time with their
//! medians (the figures of docs/proofs.md). Exits non-zero if any certificate fails its check
//! or proves the wrong winner, and `sweep` also if one is not written.
//!
//! `measure` takes the openings first of each pair that the 180-degree rotation maps onto each
//! other, then the others, and appends each position's figures to a JSON-lines file as it
//! ends: a rerun skips the positions with a certificate and those that ran out of time within
//! a limit at least as long, and the medians are over every certificate in the file. Each
//! certificate is built resumably (docs/proofs.md): its nodes and journal are kept beside the
//! results file (`measure-NxN-POSITION.nodes` and `.journal`, the empty board's POSITION being
//! `empty`) until it is written, and a rerun resumes a build killed or out of CPU time where it
//! stopped, even one the results file says ran out of time (`--restart` starts afresh).

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use nash_board::{BitSet, Bitboard, Cell, Color, Position, Symmetry};
use nash_certify::{
    certificate_resumable, certificate_to, CertifyConfig, CertifyError, Partial, DEFAULT_SEARCH,
};
use nash_search::SolverConfig;
use serde::{Deserialize, Serialize};

use crate::regress::{openings, solved, Case};

/// Arguments of `cargo xtask proofs`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// `sweep`: every position of solved.tsv up to --max-size; `measure`: the openings of
    /// --size and its empty board.
    #[arg(value_enum)]
    what: What,
    /// The largest board of `sweep`.
    #[arg(long, default_value_t = 6)]
    max_size: usize,
    /// The board of `measure`.
    #[arg(long, default_value_t = 7)]
    size: usize,
    /// `measure` only these positions, in this order: openings by their cell, `-` for the
    /// empty board (comma-separated).
    #[arg(long, value_delimiter = ',', allow_hyphen_values = true)]
    only: Vec<String>,
    /// `measure`'s results file (JSON lines); default target/proofs/measure-NxN.jsonl.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Positions with at most this many empty cells are left to the checker's search.
    #[arg(long, default_value_t = DEFAULT_SEARCH)]
    search: usize,
    /// Write every line out instead of closing it with a virtual connection.
    #[arg(long)]
    no_vc: bool,
    /// Re-solve with fill-in (dead and captured cells), whose carriers hold the captured
    /// cells and the empty cells their patterns need.
    #[arg(long)]
    fill_in: bool,
    /// Re-solve with decompositions, whose proofs' carriers are larger.
    #[arg(long)]
    decompositions: bool,
    /// Without --fill-in: re-solve with fill-in a position not solved within this many nodes
    /// without it.
    #[arg(long)]
    fill_in_beyond: Option<u64>,
    /// Re-solve with the fill-in that adds nothing to the winner's carriers: dead cells and
    /// the loser's captures filled, the winner's inferior moves pruned (instead of --fill-in
    /// and --fill-in-beyond).
    #[arg(long, conflicts_with_all = ["fill_in", "fill_in_beyond"])]
    winner_fill_in: bool,
    /// The solver's memory limit in MiB.
    #[arg(long, default_value_t = 1024)]
    tt_mib: usize,
    /// Give up on a position's certificate after this many seconds.
    #[arg(long, value_parser = crate::parse_seconds)]
    time_limit: Option<Duration>,
    /// `measure`: give up on a position's certificate after this many seconds of CPU time
    /// (Linux: the building thread's and its re-solving threads'), a limit that a loaded
    /// machine does not shorten.
    #[arg(long, value_parser = crate::parse_seconds)]
    cpu_limit: Option<Duration>,
    /// Threads for each certificate's re-solves: at each of the loser's turns the positions
    /// that need a solve are solved side by side. With more than one, a certificate can differ
    /// from one run to the next (each is checked all the same).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    threads: u16,
    /// `measure`: start each certificate afresh, discarding what an earlier run of it left.
    #[arg(long)]
    restart: bool,
    /// `measure`: the winner's first move in each certificate instead of the solver's (with
    /// `--only -`, the empty board's opening), which must win.
    #[arg(long, value_name = "CELL")]
    first: Option<nash_board::Cell>,
    /// `measure`: keep each certificate, once checked, beside the results file
    /// (`measure-NxN-POSITION.cert`, for `nash check`) instead of only counting it.
    #[arg(long)]
    keep: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum What {
    Sweep,
    Measure,
}

/// One certificate's figures.
struct Row {
    nodes: usize,
    bytes: usize,
    json_bytes: usize,
    build: Duration,
    /// The CPU time of the building thread, where the system tells it.
    build_cpu: Option<Duration>,
    check: Duration,
    /// The CPU time of the check, where the system tells it.
    check_cpu: Option<Duration>,
    /// The positions solved again, how many of them with fill-in, and the time spent on
    /// those without it first.
    solves: u64,
    filled: u64,
    given_up: Duration,
    /// Of a resumed build: the nodes kept from earlier runs, the re-solves answered from the
    /// journal, and the earlier runs' CPU time (counted in `build_cpu`).
    kept: usize,
    journaled: u64,
    cpu_before: Duration,
}

impl Row {
    /// The row's line of the table: position, winner, nodes, bytes, JSON bytes and build
    /// seconds, then the check's seconds, with the CPU seconds of both when `cpu` is set.
    fn line(&self, label: &str, winner: Color, cpu: bool) -> String {
        let head = format!(
            "{:<10} {:<6} {:>9} {:>11} {:>11} {:>9.3}",
            label,
            winner.to_string(),
            self.nodes,
            self.bytes,
            self.json_bytes,
            self.build.as_secs_f64()
        );
        let check = self.check.as_secs_f64();
        if !cpu {
            return format!("{head} {check:>9.3}");
        }
        let secs =
            |t: Option<Duration>| t.map_or("?".into(), |t| format!("{:.3}", t.as_secs_f64()));
        format!("{head} {:>9} {check:>9.3} {:>9}", secs(self.build_cpu), secs(self.check_cpu))
    }
}

/// Where a certificate's nodes are spooled while it is built: a resumable build's files, or
/// memory.
#[derive(Clone, Copy)]
enum SpoolTo<'a> {
    Files(&'a Partial),
    Memory,
}

/// One position's certificate as `measure`'s results file keeps it.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Record {
    size: usize,
    position: String,
    /// Absent when no certificate was written.
    nodes: Option<usize>,
    bytes: Option<usize>,
    json_bytes: Option<usize>,
    build_s: Option<f64>,
    build_cpu_s: Option<f64>,
    check_s: Option<f64>,
    #[serde(default)]
    check_cpu_s: Option<f64>,
    /// Why no certificate was written.
    error: Option<String>,
    /// The seconds allowed.
    time_limit: Option<f64>,
    /// The seconds of CPU time allowed.
    #[serde(default)]
    cpu_limit: Option<f64>,
    /// The process's peak resident memory in MiB when the position ended (Linux; the peak of
    /// the whole run so far, so a position's own only in a run of one).
    #[serde(default)]
    peak_rss_mib: Option<f64>,
    /// The positions solved again, and how many of them with fill-in (`--fill-in-beyond`).
    #[serde(default)]
    solves: Option<u64>,
    #[serde(default)]
    filled: Option<u64>,
    /// The seconds of CPU time (this run's) spent without fill-in on the positions then solved
    /// with it.
    #[serde(default)]
    given_up_s: Option<f64>,
    /// Of a resumed build, the CPU seconds of the earlier runs (counted in `build_cpu_s`).
    #[serde(default)]
    earlier_cpu_s: Option<f64>,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    if args.what == What::Measure {
        return measure(&args);
    }
    let mut cases = Vec::new();
    for n in 1..=args.max_size {
        cases.extend(solved(n)?);
    }
    let cfg = config(&args);
    println!(
        "{:<10} {:<6} {:>9} {:>11} {:>11} {:>9} {:>9}",
        "position", "winner", "nodes", "bytes", "json bytes", "build s", "check s"
    );
    let mut rows = Vec::new();
    let mut failures = 0;
    for case in &cases {
        let label = format!("{}x{} {}", case.pos.cols(), case.pos.rows(), case.label);
        match one(case, &cfg, SpoolTo::Memory, None) {
            Ok(r) => {
                println!("{}", r.line(&label, case.winner, false));
                rows.push(r);
            }
            Err(e) => {
                println!("{label:<10} FAILED: {e}");
                failures += 1;
            }
        }
    }
    if !rows.is_empty() {
        let median = |f: &dyn Fn(&Row) -> f64| {
            let mut v: Vec<f64> = rows.iter().map(f).collect();
            v.sort_by(f64::total_cmp);
            v[v.len() / 2]
        };
        println!(
            "{:<10} {:<6} {:>9} {:>11} {:>11} {:>9.3} {:>9.3}",
            "median",
            "",
            median(&|r| r.nodes as f64),
            median(&|r| r.bytes as f64),
            median(&|r| r.json_bytes as f64),
            median(&|r| r.build.as_secs_f64()),
            median(&|r| r.check.as_secs_f64())
        );
    }
    println!("{} of {} certificates checked", rows.len(), cases.len());
    if failures > 0 {
        bail!("{failures} certificates failed");
    }
    Ok(())
}

/// The certificates' settings.
fn config(args: &Args) -> CertifyConfig {
    let mut cfg = CertifyConfig {
        solver: SolverConfig { tt_mib: args.tt_mib, ..SolverConfig::default() },
        search: args.search,
        vc: !args.no_vc,
        fill_in: args.fill_in,
        decompositions: args.decompositions,
        fill_in_beyond: args.fill_in_beyond,
        winner_fill_in: args.winner_fill_in,
        progress: args.what == What::Measure,
        max_nodes: None,
        threads: args.threads.into(),
        first_move: args.first,
    };
    cfg.solver.budget.time = args.time_limit;
    cfg
}

/// `measure`: the openings of a size and its empty board, resumably.
fn measure(args: &Args) -> anyhow::Result<()> {
    let n = args.size;
    let out =
        args.out.clone().unwrap_or_else(|| format!("target/proofs/measure-{n}x{n}.jsonl").into());
    let mut all = openings(n)?;
    let geom = Position::<Bitboard>::square(n)?.geometry();
    // Each opening whose rotation comes first in board order goes after the others.
    let rotated = |c: &Case| {
        c.label.parse::<Cell>().is_ok_and(|x| {
            Bitboard::bit_of(geom.map_cell(Symmetry::Rotate180, x)) < Bitboard::bit_of(x)
        })
    };
    all.sort_by_key(|c| rotated(c));
    let mut empty = Position::<Bitboard>::square(n)?;
    empty.set_to_move(Color::Black);
    let winner = solved(n)?.into_iter().find(|c| c.label == "-").map(|c| c.winner);
    // The first player wins every empty board (strategy stealing).
    all.push(Case {
        label: "-".into(),
        pos: empty,
        winner: winner.unwrap_or(Color::Black),
        winning: None,
    });
    let cases: Vec<&Case> = if args.only.is_empty() {
        all.iter().collect()
    } else {
        let mut picked = Vec::new();
        for label in &args.only {
            let Some(c) = all.iter().find(|c| &c.label == label) else {
                bail!("no position {label:?} among the {n}x{n} openings and empty board");
            };
            picked.push(c);
        }
        picked
    };
    if let Some(dir) = out.parent() {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let mut done = load(&out)?;
    let limit = args.time_limit.map(|t| t.as_secs_f64());
    let cpu_limit = args.cpu_limit.map(|t| t.as_secs_f64());
    let cfg = config(args);
    // Each position's resumable build's files, beside the results file.
    let stem = out.file_stem().map_or("measure".into(), |s| s.to_string_lossy().into_owned());
    let partial = |label: &str| {
        let name = if label == "-" { "empty" } else { label };
        Partial::beside(&out.with_file_name(format!("{stem}-{name}")))
    };
    println!("results in {}", out.display());
    println!(
        "{:<10} {:<6} {:>9} {:>11} {:>11} {:>9} {:>9} {:>9} {:>9}",
        "position",
        "winner",
        "nodes",
        "bytes",
        "json bytes",
        "build s",
        "cpu s",
        "check s",
        "cpu s"
    );
    let mut failures = 0;
    for (i, case) in cases.iter().enumerate() {
        let label = format!("{n}x{n} {}", case.label);
        if let Some(r) = done.get(&case.label) {
            // A failure within limits at least as long as these is not tried again.
            let at_least = |was: Option<f64>, now: Option<f64>| match (was, now) {
                (None, _) => true,
                (Some(_), None) => false,
                (Some(a), Some(b)) => a >= b,
            };
            let longer = at_least(r.time_limit, limit) && at_least(r.cpu_limit, cpu_limit);
            // A build that left files to resume from goes on, whatever its limits were.
            let resumable = !args.restart && partial(&case.label).exists();
            if r.nodes.is_some() || (longer && !resumable) {
                continue;
            }
        }
        let files = partial(&case.label);
        if args.restart {
            files.remove().with_context(|| format!("cannot remove {}", files.nodes.display()))?;
        }
        print!("[{}/{}] ", i + 1, cases.len());
        std::io::stdout().flush()?;
        let kept = args.keep.then(|| files.nodes.with_extension("cert"));
        let to = kept.as_deref();
        let rec = match within_cpu(args.cpu_limit, &cfg, |cfg| {
            one(case, cfg, SpoolTo::Files(&files), to)
        }) {
            Ok(r) => {
                println!("{}", r.line(&label, case.winner, true));
                if r.filled > 0 {
                    println!(
                        "           {} re-solves, {} with fill-in after {:.1} s of CPU \
                             without it",
                        r.solves,
                        r.filled,
                        r.given_up.as_secs_f64()
                    );
                }
                if r.kept > 0 || r.journaled > 0 {
                    println!(
                        "           resumed: {} nodes, {} re-solves and {:.1} s of CPU from \
                             earlier runs",
                        r.kept,
                        r.journaled,
                        r.cpu_before.as_secs_f64()
                    );
                }
                Record {
                    size: n,
                    position: case.label.clone(),
                    nodes: Some(r.nodes),
                    bytes: Some(r.bytes),
                    json_bytes: Some(r.json_bytes),
                    build_s: Some(r.build.as_secs_f64()),
                    build_cpu_s: r.build_cpu.map(|t| t.as_secs_f64()),
                    check_s: Some(r.check.as_secs_f64()),
                    check_cpu_s: r.check_cpu.map(|t| t.as_secs_f64()),
                    error: None,
                    time_limit: limit,
                    cpu_limit,
                    peak_rss_mib: peak_rss_mib(),
                    solves: Some(r.solves),
                    filled: Some(r.filled),
                    given_up_s: Some(r.given_up.as_secs_f64()),
                    earlier_cpu_s: (r.kept > 0 || r.journaled > 0)
                        .then_some(r.cpu_before.as_secs_f64()),
                }
            }
            Err(e) => {
                println!("{label:<10} not written: {e}");
                // Running out of budget is a measurement; anything else is a fault.
                let out_of_budget = matches!(e.downcast_ref(), Some(CertifyError::Unknown(_)))
                    || e.downcast_ref::<OutOfCpu>().is_some();
                if !out_of_budget {
                    failures += 1;
                }
                Record {
                    size: n,
                    position: case.label.clone(),
                    nodes: None,
                    bytes: None,
                    json_bytes: None,
                    build_s: None,
                    build_cpu_s: None,
                    check_s: None,
                    check_cpu_s: None,
                    error: Some(e.to_string()),
                    time_limit: limit,
                    cpu_limit,
                    peak_rss_mib: peak_rss_mib(),
                    solves: None,
                    filled: None,
                    given_up_s: None,
                    earlier_cpu_s: None,
                }
            }
        };
        crate::append_json_line(&out, &rec)?;
        done.insert(case.label.clone(), rec);
    }
    let rows: Vec<&Record> =
        cases.iter().filter_map(|c| done.get(&c.label)).filter(|r| r.nodes.is_some()).collect();
    if !rows.is_empty() {
        let median = |f: &dyn Fn(&Record) -> Option<f64>, digits: usize| {
            let mut v: Vec<f64> = rows.iter().filter_map(|r| f(r)).collect();
            v.sort_by(f64::total_cmp);
            v.get(v.len() / 2).map_or("?".to_string(), |m| format!("{m:.digits$}"))
        };
        println!(
            "{:<10} {:<6} {:>9} {:>11} {:>11} {:>9} {:>9} {:>9} {:>9}",
            "median",
            "",
            median(&|r| r.nodes.map(|x| x as f64), 0),
            median(&|r| r.bytes.map(|x| x as f64), 0),
            median(&|r| r.json_bytes.map(|x| x as f64), 0),
            median(&|r| r.build_s, 3),
            median(&|r| r.build_cpu_s, 3),
            median(&|r| r.check_s, 3),
            median(&|r| r.check_cpu_s, 3)
        );
    }
    println!("{} of {} certificates written and checked", rows.len(), cases.len());
    if failures > 0 {
        bail!("{failures} certificates failed their check or proved the wrong winner");
    }
    Ok(())
}

/// The records of a results file, the last one of each position (none if there is no file).
fn load(path: &std::path::Path) -> anyhow::Result<HashMap<String, Record>> {
    let mut done = HashMap::new();
    let Ok(f) = std::fs::File::open(path) else {
        return Ok(done);
    };
    for (i, line) in BufReader::new(f).lines().enumerate() {
        let line = line.with_context(|| format!("cannot read {}", path.display()))?;
        if line.trim().is_empty() {
            continue;
        }
        // A line cut short by a kill is skipped: that position is measured again.
        let Ok(r) = serde_json::from_str::<Record>(&line) else {
            eprintln!("{}:{}: not a record, skipped", path.display(), i + 1);
            continue;
        };
        done.insert(r.position.clone(), r);
    }
    Ok(done)
}

/// A certificate not written within its CPU time.
#[derive(Debug)]
struct OutOfCpu(Duration);

impl std::fmt::Display for OutOfCpu {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "no certificate within {} s of CPU time", self.0.as_secs_f64())
    }
}

impl std::error::Error for OutOfCpu {}

/// `f` run on a thread of its own, cancelled through the solver's budget once the process has
/// used `limit` of CPU time since (that thread's and the re-solving threads' it starts; this
/// one, asleep, adds next to nothing).
fn within_cpu<T: Send>(
    limit: Option<Duration>,
    cfg: &CertifyConfig,
    f: impl FnOnce(&CertifyConfig) -> anyhow::Result<T> + Send,
) -> anyhow::Result<T> {
    let Some(limit) = limit else {
        return f(cfg);
    };
    let cancel = Arc::new(AtomicBool::new(false));
    let mut cfg = cfg.clone();
    cfg.solver.budget.cancel = Some(cancel.clone());
    let process = std::path::Path::new("/proc/self/stat");
    let before = thread_cpu(process).unwrap_or_default();
    std::thread::scope(|scope| {
        let worker = scope.spawn(move || f(&cfg));
        while !worker.is_finished() {
            std::thread::sleep(Duration::from_millis(100));
            if thread_cpu(process).is_some_and(|t| t.saturating_sub(before) >= limit) {
                cancel.store(true, Ordering::Relaxed);
            }
        }
        let out =
            worker.join().map_err(|_| anyhow::anyhow!("the certificate's thread panicked"))?;
        if cancel.load(Ordering::Relaxed) && out.is_err() {
            return Err(OutOfCpu(limit).into());
        }
        out
    })
}

/// The CPU time of the calling thread so far (Linux; `None` elsewhere).
fn thread_cpu_now() -> Option<Duration> {
    thread_cpu(std::path::Path::new("/proc/thread-self/stat"))
}

/// The CPU time of a thread or a process from its `stat` file in /proc.
fn thread_cpu(path: &std::path::Path) -> Option<Duration> {
    let stat = std::fs::read_to_string(path).ok()?;
    // The fields after the command name (which ends at the last ')'): utime and stime are the
    // 12th and 13th, in clock ticks of 1/100 s.
    let rest = &stat[stat.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: u64 = f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?;
    Some(Duration::from_millis(ticks * 10))
}

/// The process's peak resident memory in MiB (`VmHWM`; Linux, `None` elsewhere).
fn peak_rss_mib() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024.0)
}

/// A writer that counts what it is given and keeps none of it.
struct Counter(usize);

impl Write for Counter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0 += buf.len();
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Writes, encodes, decodes and checks one position's certificate. The nodes are written as
/// they are made (to `spool`'s files, resuming what they hold, and removed once the build
/// ends well), the binary form is read back with its nodes decoded as the checker reaches
/// them, and the JSON form is counted, not kept: nothing holds the certificate's nodes in
/// memory. The build's CPU time counts the earlier runs' of a resumed build. With `keep`, the
/// checked certificate is written there (whole or not at all).
fn one(
    case: &Case,
    cfg: &CertifyConfig,
    spool: SpoolTo<'_>,
    keep: Option<&std::path::Path>,
) -> anyhow::Result<Row> {
    let start = Instant::now();
    let cpu = thread_cpu_now();
    let (made, mut bytes) = match spool {
        SpoolTo::Memory => {
            let mut nodes = Vec::new();
            let made = certificate_to(&case.pos, cfg, &mut nodes)?;
            (made, nodes)
        }
        SpoolTo::Files(files) => {
            let made = certificate_resumable(&case.pos, cfg, files)?;
            let path = &files.nodes;
            let nodes =
                std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
            files.remove().with_context(|| format!("cannot remove {}", path.display()))?;
            (made, nodes)
        }
    };
    let build = start.elapsed();
    let build_cpu = thread_cpu_now()
        .zip(cpu)
        .map(|(b, a)| b.saturating_sub(a) + made.threads_cpu + made.cpu_before);
    let mut head = made.head.binary_head(made.nodes);
    head.append(&mut bytes);
    let bytes = head;
    let start = Instant::now();
    let cpu = thread_cpu_now();
    let read = nash_proof::Lazy::new(&bytes)?;
    let checked = nash_proof::check_lazy(&read)?;
    let check = start.elapsed();
    let check_cpu = thread_cpu_now().zip(cpu).map(|(b, a)| b.saturating_sub(a));
    if checked.winner != case.winner {
        bail!("proves {} wins, the ground truth says {}", checked.winner, case.winner);
    }
    if let Some(path) = keep {
        let part = path.with_extension("cert.part");
        std::fs::write(&part, &bytes)
            .and_then(|()| std::fs::rename(&part, path))
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    let mut json = Counter(0);
    read.write_json(&mut json)?;
    Ok(Row {
        nodes: made.nodes,
        bytes: bytes.len(),
        json_bytes: json.0,
        build,
        build_cpu,
        check,
        check_cpu,
        solves: made.solves,
        filled: made.filled,
        given_up: made.given_up,
        kept: made.kept,
        journaled: made.journaled,
        cpu_before: made.cpu_before,
    })
}
